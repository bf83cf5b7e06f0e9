"""The tutorial site on a Jupyter server: `<server>/penang/` runs `penang-rummy serve` behind
jupyter-server-proxy.

jupyter-server-proxy finds `setup_proxy` through the `jupyter_serverproxy_servers` entry point
in pyproject.toml. The first request for `<server base URL>penang/` starts our own `serve`
process on a free port, with the project's settings and template, and passes that request
and every later one (websockets included) to it. So the same site runs on JupyterHub (make
`/penang/` each user's default URL) and on Binder (`?urlpath=penang/`), and always with our
settings. The Jupyter server decides who may come in; the site behind it listens on
127.0.0.1 only.

Nothing here imports Jupyter: the spec is plain data that jupyter-server-proxy reads.
"""

from __future__ import annotations

import sys
from typing import Any

NAME = "penang"
"""Where the site is on a Jupyter server: `<server base URL>penang/`."""
TITLE = "Penang Rummy lessons"
"""The site's entry in the JupyterLab launcher."""
START_TIMEOUT = 120.0
"""Seconds jupyter-server-proxy waits for the site to answer after starting it: the site
answers once Voila listens, which a small Binder or Hub server may take a while to reach."""
POOL = 0
"""Kernels kept ready per lesson behind a Jupyter server. A Jupyter server serves one learner,
who opens one lesson at a time, so a kernel is started when a lesson page is asked for; a pool
of one per lesson would keep a kernel per lesson per learner and, while it fills, make the first
lesson page slower."""


def command(python: str | None = None) -> list[str]:
    """The command jupyter-server-proxy runs. `{port}` (the free port it chose) and
    `{base_url}` (the Jupyter server's base URL, ending with a slash) are its placeholders,
    filled in when the site starts.

    It runs `python -m penang_lib.cli` with the Jupyter server's own interpreter, so it works
    where the `penang-rummy` script is not on the PATH."""
    return [
        sys.executable if python is None else python,
        "-m",
        "penang_lib.cli",
        "serve",
        "--port",
        "{port}",
        "--no-browser",
        "--base-url",
        "{base_url}" + NAME + "/",
        "--pool",
        str(POOL),
    ]


def setup_proxy() -> dict[str, Any]:
    """The jupyter-server-proxy server spec of the tutorial site.

    `absolute_url` is on: the site is given the full path (`/user/ana/penang/voila/render/...`),
    which is what Voila started with that base URL expects, and what its links are made of."""
    return {
        "command": command(),
        "absolute_url": True,
        "timeout": START_TIMEOUT,
        "new_browser_tab": True,
        "launcher_entry": {
            "enabled": True,
            "title": TITLE,
            "path_info": NAME + "/",
        },
    }
