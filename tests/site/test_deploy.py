"""The recipes that run the site beyond one machine: penang_lib/site/proxy.py (the site behind
jupyter-server-proxy, for JupyterHub and Binder), deploy/ (Zero to JupyterHub, a single-host
Hub, the image, nginx) and the Binder links of the READMEs.

Each file parses and names only what exists; every documented `penang-rummy serve` line parses
with the real command line; every documented Binder link opens a page the site serves. And the
site really comes up behind a real Jupyter server with jupyter-server-proxy, under a Hub-like
base URL, websockets included, and goes away with it.
"""

from __future__ import annotations

import asyncio
import functools
import html
import json
import os
import re
import secrets
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlparse

import psutil  # type: ignore[import-untyped]
import pytest
import yaml
from tornado.httpclient import HTTPRequest
from tornado.websocket import websocket_connect
from traitlets.config.loader import PyFileConfigLoader

import penang_lib
from penang_lib.cli import build_parser
from penang_lib.site import proxy
from penang_lib.site.serve import (
    APP,
    KERNEL_MB,
    LESSONS,
    SITE,
    catalogue,
    class_lessons,
    normal_base_url,
)
from penang_lib.tables.address import (
    HUB_SERVICE,
    TABLES_PAGE_PATH_ENV,
    TABLES_PATH,
    TABLES_URL_ENV,
)
from tests.checkout import REPO
from tests.helpers.project import environment, pyproject
from tools.learners import run_sync

ROOT = REPO
DEPLOY = ROOT / "deploy"
HUB = DEPLOY / "jupyterhub"
NGINX = DEPLOY / "nginx" / "penang.conf"
DOCS = [ROOT / "README.md", DEPLOY / "README.md"]
DEPLOY_FILES = [
    HUB / "z2jh-config.yaml",
    HUB / "Dockerfile",
    HUB / "jupyterhub_config.py",
    HUB / "jupyterhub_trial_config.py",
    NGINX,
    DEPLOY / "README.md",
]
# Where the deploy recipes put the repository on a server: a path under it is a repo path.
INSTALLED_REPO = "/opt/penang-rummy/"
# The GitHub repository of the Binder links. There is no public address in pyproject.toml yet,
# so the READMEs use this placeholder (and say so); with a [project.urls] Repository, the links
# must name that repository instead.
PLACEHOLDER_REPOSITORY = "OWNER/penang-rummy"
# Memory of a learner's Jupyter server and of the site's own process behind it, in MB (about
# 100 MB each, measured through jupyter-server-proxy); each open lesson adds a kernel.
SERVER_MB = 200
# Programs the recipes run that come from the platform, not from this repository: each must be
# named in deploy/README.md together with the package that installs it.
PLATFORM_PROGRAMS = {
    "jupyterhub-singleuser": "jupyterhub",
    "jupyterhub_idle_culler": "jupyterhub-idle-culler",
}


@functools.cache
def site_config() -> Any:
    return PyFileConfigLoader("voila.py", path=str(SITE)).load_config()


def hub_config(name: str = "jupyterhub_config.py") -> Any:
    """The Hub's config file as JupyterHub loads it (the PATH it changes is put back after)."""
    path = os.environ.get("PATH")
    try:
        return PyFileConfigLoader(name, path=str(HUB)).load_config()
    finally:
        if path is None:
            os.environ.pop("PATH", None)
        else:
            os.environ["PATH"] = path


def z2jh() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((HUB / "z2jh-config.yaml").read_text(encoding="utf-8"))
    return data


def size_mb(text: str) -> float:
    """A Kubernetes-style size ("600M", "1G", "512Mi") in MB."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([KMG]i?)", str(text))
    assert match, f"cannot read the size {text!r}"
    number, unit = float(match[1]), match[2]
    scale = {"K": 1e-3, "M": 1.0, "G": 1e3, "Ki": 1024 / 1e6, "Mi": 2**20 / 1e6, "Gi": 2**30 / 1e6}
    return number * scale[unit]


def site_paths(prefix: str = "") -> set[str]:
    """The pages of the site, as paths under a Jupyter server's base URL: the landing page and
    every published lesson."""
    root = f"{prefix}{proxy.NAME}/"
    return {root} | {f"{root}voila/render/{quote(lesson['file'])}" for lesson in catalogue()}


def documented_links() -> list[tuple[str, str]]:
    """Every `?urlpath=...` of the READMEs, decoded: (path, its own query string or "")."""
    found = []
    for doc in DOCS:
        for raw in re.findall(r"[?&]urlpath=([^\s)\"'<>`&]+)", doc.read_text(encoding="utf-8")):
            path, _, query = unquote(raw).partition("?")
            found.append((path, query))
    return found


def documented_serve_lines(paths: list[Path] | None = None) -> list[list[str]]:
    """Every `penang-rummy serve ...` command line of the READMEs and deploy files (code lines,
    comments and `inline code` that starts a line), as arguments. Synopsis lines with
    [optional] parts are left out."""
    lines = []
    for path in dict.fromkeys([*DOCS, *DEPLOY_FILES] if paths is None else paths):
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.strip().lstrip("#$ ").strip()
            if text.startswith("`"):
                text = text[1:].split("`", 1)[0]
            if text.startswith("penang-rummy serve") and "[" not in text:
                lines.append(shlex.split(text, comments=True)[1:])
    return lines


# -- files parse and name what exists -----------------------------------------------------------
def test_every_yaml_file_of_the_repository_parses() -> None:
    skip_dirs = {".venv", ".git", ".cache", "node_modules", "build", "dist"}
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip_dirs and not d.startswith(".")]
        for name in files:
            if name.endswith((".yml", ".yaml")):
                path = Path(folder) / name
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
                assert isinstance(data, dict) and data, f"{path} is not a YAML mapping"
                found.append(path.relative_to(ROOT).as_posix())
    assert {"environment.yml", "deploy/jupyterhub/z2jh-config.yaml"} <= set(found)


def test_every_path_the_recipes_name_exists_in_the_repository() -> None:
    pattern = re.compile(
        r"(?<![\w./-])((?:/opt/penang-rummy/)?"
        r"(?:(?:deploy|penang_lib|widgets|notebooks|site|tests|benchmarks|docs)/[\w./-]*[\w/]"
        r"|environment\.yml|pyproject\.toml|README\.md|Makefile))"
    )
    named = set()
    for path in [*DEPLOY_FILES, ROOT / "README.md"]:
        for match in pattern.findall(path.read_text(encoding="utf-8")):
            named.add(match.removeprefix(INSTALLED_REPO))
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert not missing, f"the recipes name paths that are not in the repository: {missing}"
    assert {"environment.yml", "deploy/jupyterhub/Dockerfile", "deploy/nginx/penang.conf"} <= named


def test_every_documented_serve_line_parses_with_the_real_command_line() -> None:
    lines = documented_serve_lines()
    assert len(lines) >= 3  # one machine, a class, the school server behind nginx
    for arguments in lines:
        args = build_parser().parse_args(arguments)
        assert args.command == "serve"
        normal_base_url(args.base_url)  # a prefix the site accepts
        if args.class_size:
            class_lessons(args.lesson)  # lessons of the catalogue


# -- the site behind jupyter-server-proxy (JupyterHub, Binder) ----------------------------------
def test_the_proxy_entry_point_is_registered_and_builds_a_server_process() -> None:
    from jupyter_server_proxy.config import get_entrypoint_server_processes

    processes = {process.name: process for process in get_entrypoint_server_processes()}
    assert proxy.NAME in processes, "pip install -e '.[test]' registers the entry point"
    process = processes[proxy.NAME]
    assert process.command == proxy.command()
    assert process.absolute_url is True
    assert process.timeout == proxy.START_TIMEOUT >= 60
    assert process.launcher_entry.title == proxy.TITLE
    assert process.launcher_entry.path_info == f"{proxy.NAME}/"


def filled_command(base_url: str, port: int = 41234) -> list[str]:
    """The proxy's command with its placeholders filled in, as jupyter-server-proxy does it
    (`str.format` with `port`, `unix_socket` and `base_url`)."""
    return [part.format(port=port, unix_socket="", base_url=base_url) for part in proxy.command()]


@pytest.mark.parametrize(
    "base_url",
    [
        "/",  # a plain `jupyter lab`
        "/user/ana/",  # JupyterHub
        "/user/ana/lessons/",  # a named server on JupyterHub
        "/binder/jupyter/user/owner-penang-rummy-4ksyz9dq/",  # Binder
    ],
)
def test_the_proxy_command_parses_with_the_real_command_line(base_url: str) -> None:
    filled = filled_command(base_url)
    assert filled[:3] == [sys.executable, "-m", "penang_lib.cli"]
    args = build_parser().parse_args(filled[3:])
    assert args.command == "serve" and args.port == 41234 and args.open_browser is False
    assert args.pool == proxy.POOL and args.ip == "127.0.0.1"
    assert normal_base_url(args.base_url) == f"{base_url}{proxy.NAME}/"


@pytest.mark.parametrize("user", ["ana@school.example", "jürgen", "o'neil"])
def test_hub_user_names_with_signs_and_accents_reach_the_site(user: str) -> None:
    """JupyterHub puts a user's name in their URL escaped as `quote(name, safe="@~")`, so
    e-mail logins keep their @ and other letters become %XX; the site must accept that."""
    base_url = f"/user/{quote(user, safe='@~')}/"
    args = build_parser().parse_args(filled_command(base_url)[3:])
    assert normal_base_url(args.base_url) == f"{base_url}{proxy.NAME}/"


# -- Binder ---------------------------------------------------------------------------------------
def test_binder_builds_the_site_from_the_root_environment() -> None:
    # repo2docker reads binder/ or .binder/ first and a root Dockerfile instead: none here.
    for other in ("binder", ".binder", "Dockerfile"):
        assert not (ROOT / other).exists(), f"{other} would replace environment.yml on Binder"
    dependencies = environment()["dependencies"]
    assert any(
        isinstance(entry, str) and entry.startswith("jupyter-server-proxy")
        for entry in dependencies
    )
    pip_lines = [line for entry in dependencies if isinstance(entry, dict) for line in entry["pip"]]
    # A local path in the pip section makes repo2docker install the environment after it has
    # copied the repository, so the kit itself is installed.
    assert any(line.split()[-1] == "." for line in pip_lines)


def binder_repository() -> str:
    urls = pyproject()["project"].get("urls", {})
    for key in ("Repository", "Source", "Homepage"):
        match = re.match(r"https://github\.com/([^/]+/[^/]+?)/?$", urls.get(key, ""))
        if match:
            return match[1]
    return PLACEHOLDER_REPOSITORY


def test_the_readme_has_a_binder_badge_and_link_to_the_site() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    repository = binder_repository()
    link = f"https://mybinder.org/v2/gh/{repository}/HEAD?urlpath={proxy.NAME}/"
    assert f"[![Binder](https://mybinder.org/badge_logo.svg)]({link})" in readme
    links = re.findall(r"https://mybinder\.org/v2/gh/([^/]+/[^/]+)/", readme)
    assert links and set(links) == {repository}
    if repository == PLACEHOLDER_REPOSITORY:
        assert "OWNER" in readme and "placeholder" in readme


def test_every_documented_binder_link_opens_a_page_of_the_site() -> None:
    paths = [path for path, _ in documented_links()]
    assert f"{proxy.NAME}/" in paths
    unknown = sorted(set(paths) - site_paths())
    assert not unknown, f"documented links to pages the site does not serve: {unknown}"


# -- JupyterHub -----------------------------------------------------------------------------------
def test_z2jh_config_makes_the_site_each_learners_default_page() -> None:
    values = z2jh()
    single = values["singleuser"]
    assert single["defaultUrl"] == f"/{proxy.NAME}/"
    assert single["image"]["tag"] == penang_lib.__version__
    image = f"{single['image']['name']}:{single['image']['tag']}"
    # The image the chart pulls is the one the documented build makes.
    build = f"-f deploy/jupyterhub/Dockerfile -t {image} ."
    for doc in (HUB / "Dockerfile", DEPLOY / "README.md"):
        assert build in doc.read_text(encoding="utf-8"), doc
    # Memory per learner: the server and the site, plus one kernel per open lesson page.
    guarantee, limit = size_mb(single["memory"]["guarantee"]), size_mb(single["memory"]["limit"])
    assert guarantee >= SERVER_MB + 3 * KERNEL_MB and limit > guarantee
    # A learner's server is stopped after their idle kernels are.
    kernel_cull = site_config().MappingKernelManager.cull_idle_timeout
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] > kernel_cull
    assert single["storage"]["type"] in {"none", "dynamic", "static"}


def test_single_host_hub_config_makes_the_site_each_learners_default_page() -> None:
    config = hub_config()
    assert config.Spawner.default_url == f"/{proxy.NAME}/"
    kernel_cull = site_config().MappingKernelManager.cull_idle_timeout
    services = {service["name"]: service for service in config.JupyterHub.services}
    assert set(services) == {"idle-culler", HUB_SERVICE}
    culler = services["idle-culler"]
    timeout = next(arg for arg in culler["command"] if arg.startswith("--timeout="))
    assert int(timeout.split("=")[1]) > kernel_cull
    (role,) = config.JupyterHub.load_roles
    assert role["services"] == [culler["name"]] and "delete:servers" in role["scopes"]
    programs = [os.path.basename(config.Spawner.cmd[0]), culler["command"][2]]
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    docstring = (HUB / "jupyterhub_config.py").read_text(encoding="utf-8")
    for program in programs:
        package = PLATFORM_PROGRAMS[program]
        assert package in readme and package in docstring, f"install {package} for {program}"
        assert program in readme or program == package.replace("-", "_"), program


def test_the_hub_runs_one_table_service_that_every_learners_kernel_and_page_find() -> None:
    """Play together on a hub (issue 32): the Hub runs the table service (its journal in the
    Hub's folder) and passes its prefix to it; every learner's server is told where it is, for
    the kernels (on this machine) and for the pages (on the hub's own host)."""
    config = hub_config()
    (tables,) = [s for s in config.JupyterHub.services if s["name"] == HUB_SERVICE]
    port = urlparse(tables["url"]).port
    assert urlparse(tables["url"]).hostname == "127.0.0.1"
    command = tables["command"]
    assert command[:3] == [sys.executable, "-m", "penang_lib.site.tables_service"]
    assert f"--port={port}" in command
    assert f"--journal={os.path.join(os.getcwd(), 'tables.sqlite')}" in command
    socket = f"/services/{HUB_SERVICE}/{TABLES_PATH}"
    assert config.Spawner.environment == {
        TABLES_URL_ENV: f"ws://127.0.0.1:{port}{socket}",
        TABLES_PAGE_PATH_ENV: socket,
    }


def test_the_hub_finds_its_programs_without_the_environment_on_its_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Started by its full path, as a systemd unit does (issue 29: `FileNotFoundError:
    jupyterhub-singleuser`), the Hub still runs the environment's programs: the config file
    names the learner's server by its full path and puts the environment's bin folder first on
    the PATH, which the Hub's proxy is found on and learners' servers keep."""
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    config = PyFileConfigLoader("jupyterhub_config.py", path=str(HUB)).load_config()
    env_bin = os.path.dirname(sys.executable)
    (program,) = config.Spawner.cmd
    assert program == os.path.join(env_bin, "jupyterhub-singleuser")
    assert os.access(program, os.X_OK), f"{program}: install jupyterhub (the test extra has it)"
    assert os.environ["PATH"].split(os.pathsep) == [env_bin, "/usr/bin", "/bin"]
    assert "PATH" in config.Spawner.get("env_keep", ["PATH"])  # JupyterHub's default keeps it


def test_the_trial_hub_is_the_real_one_with_a_trial_login_spawner_and_address() -> None:
    """jupyterhub_trial_config.py loads jupyterhub_config.py and changes only what a trial
    needs (deploy/README.md, "Four things to know"): any login, servers as the Hub's own
    account, this machine only, and --allow-root when that account is root."""
    real, trial = hub_config(), hub_config("jupyterhub_trial_config.py")
    changed: dict[tuple[str, str], Any] = {
        ("JupyterHub", "bind_url"): "http://127.0.0.1:8000",
        ("JupyterHub", "authenticator_class"): "dummy",
        ("JupyterHub", "spawner_class"): "simple",
    }
    if os.geteuid() == 0:
        changed[("Spawner", "args")] = ["--allow-root"]
    for (section, name), value in changed.items():
        assert trial[section][name] == value, (section, name)
    for section in real:
        for name, value in real[section].items():
            if (section, name) not in changed:
                assert trial[section][name] == value, f"the trial changes {section}.{name}"
    added = {(sec, name) for sec in trial for name in trial[sec]} - {
        (sec, name) for sec in real for name in real[sec]
    }
    assert added <= set(changed), sorted(added - set(changed))
    readme = (DEPLOY / "README.md").read_text(encoding="utf-8")
    for needed in (
        "c.JupyterHub.bind_url",
        "deploy/jupyterhub/jupyterhub_trial_config.py",
        "--allow-root",
        "FileNotFoundError: jupyterhub-singleuser",
        "ExecStart=",
    ):
        assert needed in readme, needed


def docker_instructions() -> list[tuple[str, list[str]]]:
    """The Dockerfile's instructions (continuation lines joined), as (name, arguments)."""
    text = (HUB / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    result = []
    for line in joined.splitlines():
        if line.strip():
            name, _, rest = line.strip().partition(" ")
            result.append((name.upper(), rest.split()))
    return result


def test_the_image_copies_what_the_site_needs_and_builds_environment_yml() -> None:
    copied: set[str] = set()
    for name, arguments in docker_instructions():
        if name == "COPY":
            sources = [arg for arg in arguments if not arg.startswith("--")][:-1]
            for source in sources:
                assert (ROOT / source).exists(), f"the Dockerfile copies {source}: not found"
                copied.add(source.rstrip("/"))
    project = pyproject()
    setuptools = project["tool"]["setuptools"]
    # Each package's folder: its own name's top, or the folder package-dir maps it to.
    folders = {
        setuptools["package-dir"].get(package, package.split(".")[0])
        for package in setuptools["packages"]
    }
    needed = {
        "environment.yml",
        "pyproject.toml",
        project["project"]["readme"],
        *(folder for folder in folders if not folder.startswith("notebooks")),
        "notebooks/__init__.py",
        LESSONS.relative_to(REPO).as_posix(),
    }
    assert needed <= copied, f"the image misses {sorted(needed - copied)}"
    runs = [" ".join(arguments) for name, arguments in docker_instructions() if name == "RUN"]
    assert any("env update" in run and "--file environment.yml" in run for run in runs)


# -- a school server behind nginx -----------------------------------------------------------------
def nginx_block(text: str, head: str) -> str:
    """The body of the first `head { ... }` block."""
    body_start = text.index("{", text.index(head))
    depth = 0
    for index in range(body_start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[body_start + 1 : index]
    raise AssertionError(f"{head} is not closed")


def nginx_directives(block: str) -> dict[str, str]:
    """The directives of a block: `proxy_set_header Name` -> value, other names -> value."""
    result = {}
    for statement in block.split(";"):
        words = statement.split()
        if not words:
            continue
        key_length = 2 if words[0] == "proxy_set_header" else 1
        result[" ".join(words[:key_length])] = " ".join(words[key_length:])
    return result


def seconds(value: str) -> int:
    """An nginx time ("90s", "10m", "1h", "300") in seconds."""
    match = re.fullmatch(r"(\d+)([smh]?)", value)
    assert match, f"cannot read the time {value!r}"
    return int(match[1]) * {"": 1, "s": 1, "m": 60, "h": 3600}[match[2]]


def test_nginx_passes_websockets_to_the_site_under_its_base_url() -> None:
    text = re.sub(r"#.*", "", NGINX.read_text(encoding="utf-8"))
    assert text.count("{") == text.count("}")
    upgrade_map = nginx_block(text, "map $http_upgrade $connection_upgrade")
    assert re.search(r"default\s+upgrade;", upgrade_map)
    # The site is started as the file's own comment says.
    (serve,) = documented_serve_lines([NGINX])
    args = build_parser().parse_args(serve)
    base = normal_base_url(args.base_url)
    assert args.ip == "127.0.0.1" and base != "/"
    location = nginx_directives(nginx_block(text, f"location {base} "))
    assert location["proxy_pass"] == f"http://127.0.0.1:{args.port}"  # no URI: path kept
    assert location["proxy_http_version"] == "1.1"
    assert location["proxy_set_header Upgrade"] == "$http_upgrade"
    assert location["proxy_set_header Connection"] == "$connection_upgrade"
    assert location["proxy_set_header Host"] == "$http_host"  # the port too, for the origin
    assert seconds(location["proxy_read_timeout"]) >= 600
    redirect = nginx_directives(nginx_block(text, f"location = {base.rstrip('/')} "))
    assert redirect["return"] == f"301 {base}"


# -- end to end: a real Jupyter server with jupyter-server-proxy -------------------------------
@dataclass
class Jupyter:
    """A Jupyter server on 127.0.0.1 with a token, under a Hub-like base URL."""

    process: subprocess.Popen[bytes]
    port: int
    base_url: str
    token: str
    log: Path

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{self.base_url}{path}"

    def get(self, path: str, token: bool = True) -> tuple[int, str, Message]:
        """Status, body and headers of a GET (redirects are not followed)."""
        request = urllib.request.Request(self.url(path))
        if token:
            request.add_header("Authorization", f"token {self.token}")
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=proxy.START_TIMEOUT) as response:
                return response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers

    def site_processes(self) -> list[psutil.Process]:
        return list(psutil.Process(self.process.pid).children(recursive=True))

    def stop(self) -> list[psutil.Process]:
        """Stop the server as a Hub would (SIGTERM); the processes still alive after 60 s."""
        if self.process.poll() is not None:
            return []
        children = self.site_processes()
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        _, alive = psutil.wait_procs(children, timeout=30)
        for process in alive:
            process.kill()
        return list(alive)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def jupyter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Jupyter]:
    folder = tmp_path_factory.mktemp("jupyter")
    port, token = free_port(), secrets.token_hex(16)
    log = folder / "server.log"
    env = {
        **os.environ,
        # The token the way Binder passes it; the site behind the proxy must not ask for it.
        "JUPYTER_TOKEN": token,
        "JUPYTER_CONFIG_DIR": str(folder / "config"),  # no user settings of this machine
        "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
    }
    command = [
        sys.executable,
        "-m",
        "jupyter_server",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.open_browser=False",
        "--ServerApp.base_url=/user/ana/",
        f"--ServerApp.root_dir={folder}",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = Jupyter(process, port, "/user/ana/", token, log)
    try:
        status = wait_up(server, "api/status")[0]
        if status != 200:
            pytest.fail(f"the Jupyter server answered {status}:\n{log.read_text()}")
        yield server
    finally:
        server.stop()


def wait_up(server: Jupyter, path: str) -> tuple[int, str, Message]:
    """GET a page of the Jupyter server, waiting (up to a minute) while it does not listen."""
    deadline = time.monotonic() + 60
    while True:
        try:
            return server.get(path)
        except (ConnectionError, urllib.error.URLError):
            if server.process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Jupyter server does not answer:\n{server.log.read_text()}")
            time.sleep(0.2)


def lesson_links(body: str) -> list[str]:
    lessons = body[body.index('class="lessons"') :]
    return re.findall(r'<a href="([^"]+)"', lessons)


def kernel_info(server: Jupyter, kernel_id: str, cookies: str) -> dict[str, Any]:
    """Ask a lesson's kernel for its info over the page's websocket, through the proxy, with
    the cookies the page set (as the page's browser would)."""
    url = server.url(f"{proxy.NAME}/api/kernels/{kernel_id}/channels").replace("http", "ws", 1)
    headers = {"Authorization": f"token {server.token}", "Cookie": cookies}
    request = HTTPRequest(url, headers=headers)
    msg_id = uuid.uuid4().hex
    message = {
        "header": {
            "msg_id": msg_id,
            "msg_type": "kernel_info_request",
            "session": uuid.uuid4().hex,
            "username": "",
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": {},
        "content": {},
        "channel": "shell",
        "buffers": [],
    }

    async def ask() -> dict[str, Any]:
        connection = await websocket_connect(request)
        try:
            await connection.write_message(json.dumps(message))
            while True:
                text = await connection.read_message()
                assert text is not None, "the websocket closed before the kernel answered"
                reply: dict[str, Any] = json.loads(text)
                if reply.get("parent_header", {}).get("msg_id") == msg_id and (
                    reply["header"]["msg_type"] == "kernel_info_reply"
                ):
                    return reply
        finally:
            connection.close()

    # In a thread of its own: the browser tests' Playwright keeps an event loop running here.
    return run_sync(asyncio.wait_for(ask(), timeout=60))


def test_behind_a_jupyter_server_penang_is_the_landing_page(jupyter: Jupyter) -> None:
    status, body, _ = wait_up(jupyter, f"{proxy.NAME}/")
    assert status == 200, f"{status}: {body[:300]}\n{jupyter.log.read_text()[-3000:]}"
    text = html.unescape(body)
    for lesson in catalogue():
        assert lesson["title"] in text, lesson["title"]
    # Its links are the pages the Binder and README links may name, under the server's base URL.
    assert set(lesson_links(body)) == site_paths(jupyter.base_url) - {
        f"{jupyter.base_url}{proxy.NAME}/"
    }
    # The site runs as our own `serve`: our settings, on 127.0.0.1, under the proxied path.
    (voila,) = [p for p in jupyter.site_processes() if APP in p.cmdline()[1:3]]
    arguments = voila.cmdline()
    assert f"--Voila.base_url={jupyter.base_url}{proxy.NAME}/" in arguments
    assert "--Voila.ip=127.0.0.1" in arguments and f"--Voila.config_file_paths={SITE}" in arguments


def test_behind_a_jupyter_server_a_lesson_page_and_its_websocket_work(jupyter: Jupyter) -> None:
    # The lesson links of the READMEs, deep links included (or the first lesson, if none).
    links = sorted(
        {(path, query) for path, query in documented_links() if "/voila/render/" in path}
    ) or [(f"{proxy.NAME}/voila/render/{quote(catalogue()[0]['file'])}", "")]
    for path, query in links:
        file = path + (f"?{query}" if query else "")
        status, body, headers = wait_up(jupyter, file)
        assert status == 200, f"{file}: {status}\n{jupyter.log.read_text()[-3000:]}"
        assert "application/vnd.jupyter.widget-view+json" in body, file
        assert f'"baseUrl": "{jupyter.base_url}{proxy.NAME}/"' in body
        (kernel_id,) = re.findall(r'"kernelId": "([0-9a-f-]{36})"', body)
        cookies = "; ".join(c.split(";", 1)[0] for c in headers.get_all("Set-Cookie") or [])
        reply = kernel_info(jupyter, kernel_id, cookies)
        assert reply["content"]["status"] == "ok"
        assert reply["content"]["language_info"]["name"] == "python"


def test_behind_a_jupyter_server_the_site_needs_the_servers_login(jupyter: Jupyter) -> None:
    status, _, headers = jupyter.get(f"{proxy.NAME}/", token=False)
    assert status in (302, 403), status
    if status == 302:
        assert "/login" in headers["Location"]


def test_stopping_the_jupyter_server_stops_the_site_and_its_kernels(jupyter: Jupyter) -> None:
    def kernels() -> list[psutil.Process]:
        return [
            p for p in jupyter.site_processes() if "ipykernel_launcher" in " ".join(p.cmdline())
        ]

    if not kernels():  # run alone: open a lesson, so that there is a kernel to stop
        status, _, _ = wait_up(
            jupyter, f"{proxy.NAME}/voila/render/{quote(catalogue()[0]['file'])}"
        )
        assert status == 200
    assert kernels()
    left = jupyter.stop()
    assert not left, f"still running after the Jupyter server stopped: {left}"
