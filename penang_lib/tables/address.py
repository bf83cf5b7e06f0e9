"""Where the table service is. A page's kernel finds it at the websocket address the site's
server (or a JupyterHub) sets in `TABLES_URL_ENV` for the kernels it starts; a page in the
browser (the teacher's page) at `TABLES_PAGE_PATH_ENV`'s path on its own host, when the service
is a JupyterHub's; a share link leads to the page through the hub's `user-redirect`
(`page_address`)."""

from __future__ import annotations

import os
from typing import Final

__all__ = [
    "HUB_SERVICE",
    "HUB_SITE_PAGES",
    "TABLES_PAGE_PATH_ENV",
    "TABLES_PATH",
    "TABLES_URL_ENV",
    "hub_redirect",
    "tables_page_path",
    "tables_url",
]

TABLES_PATH: Final = "penang/tables"
"""The service's websocket path, under the site's base URL (or a hub service's prefix)."""
TABLES_URL_ENV: Final = "PENANG_TABLES_URL"
"""The service's websocket address, as a kernel of the site reads it (`ws://.../penang/tables`).
Given before the site starts (a JupyterHub's `Spawner.environment`), it names a service of the
hub's, and the site runs none of its own."""
TABLES_PAGE_PATH_ENV: Final = "PENANG_TABLES_PAGE_PATH"
"""The service's path on the host of the pages (`/services/penang-tables/penang/tables` on a
JupyterHub), for a page in the browser; unset, the site's own `<base URL>penang/tables`."""
HUB_SERVICE: Final = "penang-tables"
"""The service's name on a JupyterHub (deploy/jupyterhub/jupyterhub_config.py): its URLs are
under `<hub base URL>services/penang-tables/`."""

HUB_SITE_PAGES: Final = "penang/voila/render/"
"""Where the site's pages are on a learner's server of a JupyterHub (the site is at `penang/`,
`penang_lib.site.proxy.NAME`)."""


def tables_url() -> str | None:
    """The table service's websocket address, or None where no service runs (JupyterLab without
    the site, say)."""
    url = os.environ.get(TABLES_URL_ENV, "").strip()
    return url if url.startswith(("ws://", "wss://")) else None


def tables_page_path() -> str | None:
    """The service's absolute path on the pages' own host, when a JupyterHub's service was
    given (`TABLES_PAGE_PATH_ENV`); None for the site's own service."""
    path = os.environ.get(TABLES_PAGE_PATH_ENV, "").strip()
    return path if path.startswith("/") and "//" not in path else None


def hub_redirect(page: str) -> str | None:
    """On a JupyterHub, the address that leads whoever opens it to the site's `page` (such as
    `12_play_together.ipynb?table=CODE`) on their *own* server
    (`<hub base URL>hub/user-redirect/penang/voila/render/<page>`): a link one learner shares
    with another must not lead into the first learner's server. None off a hub."""
    base = os.environ.get("JUPYTERHUB_BASE_URL", "").strip()
    if not base or not os.environ.get("JUPYTERHUB_USER"):
        return None
    root = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    return f"{root}hub/user-redirect/{HUB_SITE_PAGES}{page.lstrip('/')}"
