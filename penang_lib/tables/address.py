"""Where a page's kernel finds the table service: the websocket address the site's server (or a
JupyterHub service) sets in `TABLES_URL_ENV` for the kernels it starts."""

from __future__ import annotations

import os
from typing import Final

__all__ = ["TABLES_PATH", "TABLES_URL_ENV", "tables_url"]

TABLES_PATH: Final = "penang/tables"
"""The service's websocket path, under the site's base URL (or a hub service's prefix)."""
TABLES_URL_ENV: Final = "PENANG_TABLES_URL"
"""The service's websocket address, as a kernel of the site reads it (`ws://.../penang/tables`)."""


def tables_url() -> str | None:
    """The table service's websocket address, or None where no service runs (JupyterLab without
    the site, say)."""
    url = os.environ.get(TABLES_URL_ENV, "").strip()
    return url if url.startswith(("ws://", "wss://")) else None
