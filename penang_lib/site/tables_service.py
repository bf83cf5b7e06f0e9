"""The table service on its own: one process for a whole JupyterHub (`c.JupyterHub.services`).

On a JupyterHub each learner has a server of their own, so the tables cannot live in one of
them: the hub runs this process once, and every learner's kernel finds it through
`PENANG_TABLES_URL` (deploy/jupyterhub/jupyterhub_config.py sets it for their servers). It
serves the same websocket as the site's own service (`penang_lib.site.tables`), under the
prefix the hub gives its services (`JUPYTERHUB_SERVICE_PREFIX`, e.g. /services/penang-tables/),
with its journal in the file given.

    python -m penang_lib.site.tables_service --port 8870 --journal /var/lib/penang-hub/tables.sqlite

It prints `Tables: <its websocket address>` once it answers, as `penang-rummy serve` does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from typing import Final

from tornado.web import Application
from tornado.websocket import websocket_connect

from penang_lib.site.tables import TABLES_PATH, TableService, TablesSocket, bot_pause
from penang_lib.tables.journal import Journal

__all__ = ["PREFIX_ENV", "main", "make_app", "prefix"]

PREFIX_ENV: Final = "JUPYTERHUB_SERVICE_PREFIX"
"""Where JupyterHub says a service's URLs start."""


def prefix() -> str:
    """The service's URL prefix: the hub's, else "/" (a service run by hand)."""
    given = os.environ.get(PREFIX_ENV, "/") or "/"
    return "/" + given.strip("/") + "/" if given.strip("/") else "/"


def make_app(service: TableService, root: str = "/") -> Application:
    """The tornado application of the service: its websocket at `root` + `TABLES_PATH`."""
    return Application([(f"{root}{TABLES_PATH}", TablesSocket, {"service": service})])


async def _serve(port: int, ip: str, journal: str, pause: float) -> None:
    service = TableService(Journal(journal), pause)
    root = prefix()
    make_app(service, root).listen(port, ip)
    service.start()
    url = f"ws://{ip}:{port}{root}{TABLES_PATH}"
    socket = await websocket_connect(url)
    await socket.write_message(json.dumps({"type": "list"}))
    if await socket.read_message() is not None:
        print(f"Tables: {url}", flush=True)  # not for learners: the hub's log
    socket.close()
    await asyncio.Event().wait()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m penang_lib.site.tables_service",
        description="The table service of a JupyterHub (docs/TABLES.md).",  # not for learners: help
    )
    parser.add_argument("--port", type=int, default=8870)
    parser.add_argument("--ip", default="127.0.0.1")
    parser.add_argument(
        "--journal",
        required=True,
        help="the tables' SQLite file",  # not for learners: help
    )
    parser.add_argument("--bot-pause", type=float, default=None)
    args = parser.parse_args(argv)
    pause = bot_pause() if args.bot_pause is None else min(max(args.bot_pause, 0.0), 60.0)
    try:
        asyncio.run(_serve(args.port, args.ip, args.journal, pause))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
