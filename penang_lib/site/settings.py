"""Voila's settings for the tutorial site: `configure(c)` fills a traitlets config.

`penang-rummy serve` (and `make serve`) point Voila at the site's Jupyter data folder,
`penang_lib/site/jupyter/`: Voila reads its config file `voila.py` there, which calls
`configure`, and finds the template `penang` in `voila/templates/`. Flags given to `serve`
(port, ip, pool size) beat what is written here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from penang_lib.course import progress
from penang_lib.course.puzzles import shipped_puzzles
from penang_lib.engine.cards import symbols_html
from penang_lib.site import patches
from penang_lib.site.serve import DEFAULT_PORT, RULES_PAGE, catalogue, rule_sheet
from penang_lib.site.words import page_words

EXTENSIONS = [
    "@jupyter-widgets/jupyterlab-manager",
    "@voila-dashboards/widgets-manager8",
    "anywidget",
]
"""The only JupyterLab extensions a lesson uses: the widgets, Voila's widget manager, and
anywidget (the progress line, `penang_lib.widgets.progress`, keeps the learner's progress). Others
installed beside them (code highlighting, the server proxy's launcher) would only be fetched
and run by every page for nothing."""


def _extension_scripts(names: list[str]) -> list[str]:
    """The scripts of these JupyterLab extensions, as paths under `voila/labextensions/` with the
    query the page asks for them with: a page names them in its head (`rel=preload`), so the
    browser fetches them while it runs Voila's own scripts, instead of one after the other once
    those have run and asked for them."""
    from jupyterlab_server.config import get_federated_extensions
    from voila.utils import get_voila_labextensions_path

    found = get_federated_extensions(get_voila_labextensions_path())
    paths = []
    for name in names:
        if name not in found:
            continue
        static = Path(found[name]["ext_path"]) / "static"
        # A chunk is asked for with its hash as `?v=` by extensions built with JupyterLab's
        # builder, whose entry script says so; without it by others (anywidget).
        entries = static.glob("remoteEntry.*.js")
        versioned = any(".js?v=" in e.read_text(encoding="utf-8") for e in entries)
        for script in sorted(static.glob("*.js")):
            chunk = re.fullmatch(r"[0-9]+\.([0-9a-f]+)\.js", script.name)
            if chunk:
                query = f"?v={chunk.group(1)}" if versioned else ""
                paths.append(f"{name}/static/{script.name}{query}")
            elif script.name.startswith("remoteEntry."):
                paths.append(f"{name}/static/{script.name}")
    return paths


def extension_files(names: list[str]) -> list[str]:
    """The scripts of these extensions, as paths under `voila/labextensions/` (no query)."""
    return [path.split("?", 1)[0] for path in _extension_scripts(names)]


def puzzles_total() -> int:
    """How many puzzles the site ships (the landing page's "puzzles solved: N of TOTAL")."""
    return len(shipped_puzzles())


def configure(c: Any) -> None:
    """Fill the traitlets config `c` (Voila's `get_config()`) with the site's settings: its
    hooks into Voila (`penang_lib.site.patches`) included, and the patches installed."""
    # Our template: the landing page, and lesson pages that fetch nothing from outside.
    c.VoilaConfiguration.template = "penang"
    c.VoilaConfiguration.allow_template_override = "NO"  # ?template=... is ignored
    c.VoilaConfiguration.allow_theme_override = "NO"  # ?theme=... is ignored
    c.VoilaConfiguration.theme = "light"

    # What a learner's browser gets: outputs only, never code or a traceback.
    c.VoilaConfiguration.strip_sources = True
    c.VoilaConfiguration.show_tracebacks = False

    # Files next to the lessons: only pictures, never notebooks, code or data.
    c.VoilaConfiguration.file_allowlist = [r".*\.(png|jpg|jpeg|gif|svg)"]
    c.VoilaConfiguration.file_denylist = [r".*\.(ipynb|py|json)", r"(^|.*/)\..*"]

    c.VoilaConfiguration.extension_allowlist = EXTENSIONS

    # Fast pages: every lesson keeps a kernel that has already run it (pool size per lesson).
    # Lessons read their link's query string with voila.utils.get_query_string(), which waits
    # for the request, so deep links work with preheated kernels too.
    c.VoilaConfiguration.preheat_kernel = True
    c.VoilaConfiguration.default_pool_size = 1
    # A refill starts this long after a kernel is handed out, so it does not slow that page down;
    # a learner who needs the refill sooner wakes it at once (penang_lib/site/patches.py).
    c.VoilaKernelManager.fill_delay = 12

    # Kernels of closed or abandoned pages: shut down when idle, even if a tab is still open.
    c.MappingKernelManager.cull_idle_timeout = 15 * 60
    c.MappingKernelManager.cull_interval = 60
    c.MappingKernelManager.cull_connected = True
    # A kernel that dies stays dead: restarted, it would come back without its lesson (an empty
    # kernel the page cannot use). A dead preheated kernel is replaced (`patches`); a page
    # whose kernel is gone says so and offers a reload (the template).
    c.KernelManager.autorestart = False

    # Our own login-cookie name: on a Jupyter server (JupyterHub, Binder) the server's cookie of
    # the same name would be refused and cleared by Voila on every request.
    c.IdentityProvider.cookie_name = "penang-site"

    # Only this machine, unless `serve --ip` says otherwise.
    c.Voila.ip = "127.0.0.1"
    c.Voila.port = DEFAULT_PORT
    c.Voila.port_retries = 0

    # The landing page lists the lessons from the notebooks' own metadata; the rule sheet (a page
    # with no kernel, served by tornado's default handler, `patches`) shows the rule book, the
    # house rules and a glossary.
    lessons = catalogue()
    c.Voila.tornado_settings = {
        "jinja_template_vars": {
            "lessons": lessons,
            "rule_sheet": rule_sheet(lessons),
            "rules_page": RULES_PAGE,
            # The learner's progress, read from their browser by the landing page's script.
            "progress": progress.landing_settings(),
            "puzzles_total": puzzles_total(),
        },
        **patches.tornado_settings(),
    }
    # Lesson pages preload their extensions' scripts (`resources.preload_scripts` in the template)
    # and link to the rule sheet in their chrome (`resources.rules_page`).
    # Their text draws the joker as the cards do (`resources.joker_mark` in the template).
    c.VoilaConfiguration.resources = {
        "preload_scripts": _extension_scripts(EXTENSIONS),
        "rules_page": RULES_PAGE,
        "joker_mark": symbols_html("🃏"),
        # The words of the lesson's chrome (nbconvert's templates have no gettext of their own).
        "words": page_words(),
    }

    # Our changes to Voila's behaviour: the kernel websocket's connection class, the authorizer
    # and the identity provider (configuration points of Voila; the rule sheet's handler is in
    # the tornado settings above), then the patch that no configuration point allows (checked,
    # like the classes' needs, against the installed Voila).
    c.Voila.kernel_websocket_connection_class = patches.SiteConnection
    c.Voila.authorizer_class = patches.SiteAuthorizer
    c.Voila.identity_provider_class = patches.SiteIdentityProvider
    patches.install()
