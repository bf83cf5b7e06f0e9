"""Voila settings of the tutorial site; `penang-rummy serve` (and `make serve`) point Voila at
this file and at the template beside it (site/voila/templates/penang). Flags given to `serve`
(port, ip, pool size) beat what is written here."""

from penang_lib.serve import DEFAULT_PORT, catalogue

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by traitlets)

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

# Fast pages: every lesson keeps a kernel that has already run it (pool size per lesson).
# Lessons read their link's query string with voila.utils.get_query_string(), which waits
# for the request, so deep links work with preheated kernels too.
c.VoilaConfiguration.preheat_kernel = True
c.VoilaConfiguration.default_pool_size = 1

# Kernels of closed or abandoned pages: shut down when idle, even if a tab is still open.
c.MappingKernelManager.cull_idle_timeout = 15 * 60
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = True

# Only this machine, unless `serve --ip` says otherwise.
c.Voila.ip = "127.0.0.1"
c.Voila.port = DEFAULT_PORT
c.Voila.port_retries = 0

# The landing page lists the lessons from the notebooks' own metadata.
c.Voila.tornado_settings = {"jinja_template_vars": {"lessons": catalogue()}}


def _without_nagle() -> None:
    """Send every kernel message to the browser at once.

    Neither Voila nor jupyter_server turns off Nagle's algorithm on the kernel websocket, so
    when a click makes the kernel send a few messages in a row (busy, the widget updates,
    idle) the later ones wait for the browser's delayed acknowledgement: about 40 ms on every
    click, measured here. Tornado's `set_nodelay(True)` on each connection removes the wait.
    """
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    if getattr(VoilaKernelWebsocketHandler, "_penang_nodelay", False):
        return
    opened = VoilaKernelWebsocketHandler.open

    async def open_without_nagle(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.set_nodelay(True)
        return await opened(self, *args, **kwargs)

    VoilaKernelWebsocketHandler.open = open_without_nagle
    VoilaKernelWebsocketHandler._penang_nodelay = True


_without_nagle()
