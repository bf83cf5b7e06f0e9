"""Where the table service is found (`penang_lib.tables.address`): by the kernels, by the pages
in the browser, and by a share link on a JupyterHub."""

from __future__ import annotations

import pytest

from penang_lib.site import proxy
from penang_lib.site.serve import TOGETHER_PAGE
from penang_lib.tables.address import (
    HUB_SITE_PAGES,
    TABLES_PAGE_PATH_ENV,
    TABLES_URL_ENV,
    hub_redirect,
    tables_page_path,
    tables_url,
)


def test_a_kernel_reads_only_a_websocket_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TABLES_URL_ENV, " ws://127.0.0.1:8870/services/penang-tables/penang/tables ")
    assert tables_url() == "ws://127.0.0.1:8870/services/penang-tables/penang/tables"
    for wrong in ("", "http://127.0.0.1:8870/penang/tables", "javascript:alert(1)"):
        monkeypatch.setenv(TABLES_URL_ENV, wrong)
        assert tables_url() is None
    monkeypatch.delenv(TABLES_URL_ENV)
    assert tables_url() is None


def test_a_page_reads_only_a_path_on_its_own_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TABLES_PAGE_PATH_ENV, raising=False)
    assert tables_page_path() is None
    monkeypatch.setenv(TABLES_PAGE_PATH_ENV, "/services/penang-tables/penang/tables")
    assert tables_page_path() == "/services/penang-tables/penang/tables"
    # Another host (a scheme, or a path that starts with two slashes) is not a path of this one.
    for wrong in ("ws://elsewhere/penang/tables", "//elsewhere/penang/tables", "penang/tables"):
        monkeypatch.setenv(TABLES_PAGE_PATH_ENV, wrong)
        assert tables_page_path() is None


def test_a_shared_link_on_a_hub_leads_to_the_page_on_the_openers_own_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = f"{TOGETHER_PAGE}?table=ACDEF"
    monkeypatch.delenv("JUPYTERHUB_BASE_URL", raising=False)
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    assert hub_redirect(page) is None
    monkeypatch.setenv("JUPYTERHUB_BASE_URL", "/")
    assert hub_redirect(page) is None  # a server of a hub has its user too
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    assert hub_redirect(page) == f"/hub/user-redirect/{proxy.NAME}/voila/render/{page}"
    monkeypatch.setenv("JUPYTERHUB_BASE_URL", "/school/")
    assert hub_redirect(page) == f"/school/hub/user-redirect/penang/voila/render/{page}"
    assert f"{proxy.NAME}/voila/render/" == HUB_SITE_PAGES
