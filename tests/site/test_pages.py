"""Every published page in a real browser: it loads, shows its widgets, reports no error,
fetches nothing from outside 127.0.0.1, and passes an accessibility audit (axe-core)."""

from __future__ import annotations

import json
import posixpath
import re

import pytest
from playwright.sync_api import BrowserContext

from penang_lib.site import app
from penang_lib.site.serve import catalogue
from tests.helpers.browser import axe_violations, error_outputs
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server

LESSONS = [lesson["file"] for lesson in catalogue()]
CHUNK = re.compile(r"/voila/static/(\d+)\.voila\.js")
"""A script chunk of Voila's, fetched on its own."""


def test_the_landing_page_lists_every_lesson_in_order(
    site: Server, context: BrowserContext
) -> None:
    visit = open_page(context, site.url, widgets=False)
    page = visit.page
    links = page.eval_on_selector_all(
        "ol.lessons a", "els => els.map(e => [e.getAttribute('href'), e.innerText])"
    )
    expected = catalogue()
    assert [href for href, _ in links] == [f"/voila/render/{lesson['file']}" for lesson in expected]
    for (_, text), lesson in zip(links, expected, strict=True):
        assert lesson["title"] in text and f"{lesson['minutes']} min" in text
    assert "Wikipedia: Penang rummy" in page.inner_text("main")
    # The landing page sets the XSRF cookie that lets closed lessons shut their kernels down.
    assert any(cookie["name"] == "_xsrf" for cookie in context.cookies())
    assert visit.outside == [] and visit.errors == []
    assert axe_violations(page) == []


def test_the_stock_file_tree_is_replaced_by_the_landing_page(site: Server) -> None:
    for path in ("", "voila/tree", "voila/tree/", "voila/tree?classic-tree=true"):
        status, body = site.get(path)
        assert status == 200 and 'class="lessons"' in body, path


@pytest.mark.parametrize("file", LESSONS)
def test_a_lesson_loads_clean_and_offline(site: Server, context: BrowserContext, file: str) -> None:
    fetched: list[str] = []
    context.on("request", lambda request: fetched.append(request.url))
    visit = open_page(context, lesson_url(site, file))
    page = visit.page
    # Voila's script chunks come in one request, the site's file of them (penang_lib.site.app).
    own = sorted(int(m.group(1)) for url in fetched if (m := CHUNK.search(url)))
    assert own == [], f"the page fetched chunks of its own; add them to PAGE_CHUNKS: {own}"
    assert [url for url in fetched if url.endswith(app.CHUNKS_PATH)] == [site.url + app.CHUNKS_PATH]
    assert error_outputs(page) == []
    assert visit.outside == [], f"{file} fetched from outside 127.0.0.1: {visit.outside}"
    assert visit.errors == []
    # Sources are stripped: no code cell's input reaches the browser.
    assert page.locator(".jp-CodeCell .jp-InputArea, .jp-InputArea-editor").count() == 0
    assert "import " not in page.content() and "lesson_data(" not in page.content()
    assert axe_violations(page) == [], json.dumps(axe_violations(page))


def test_a_lesson_loads_only_the_extensions_it_uses(site: Server) -> None:
    status, body = site.get(f"voila/render/{LESSONS[0]}")
    found = re.search(
        r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', body, re.S
    )
    assert status == 200 and found is not None
    names = {extension["name"] for extension in json.loads(found.group(1))["federated_extensions"]}
    assert names == {
        "@jupyter-widgets/jupyterlab-manager",
        "@voila-dashboards/widgets-manager8",
        "anywidget",
    }


def test_a_lesson_preloads_the_scripts_of_its_extensions(site: Server) -> None:
    status, body = site.get(f"voila/render/{LESSONS[1]}")
    assert status == 200
    found = re.search(
        r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', body, re.S
    )
    assert found is not None
    preloads = re.findall(r'<link rel="preload" href="/([^"]+)" as="script">', body)
    # The entry point of every extension the page loads is among them...
    for extension in json.loads(found.group(1))["federated_extensions"]:
        entry = posixpath.normpath(extension["load"])  # anywidget names it "./static/..."
        assert f"voila/labextensions/{extension['name']}/{entry}" in preloads
    # ...and every one is a script the site serves, under the name the page will ask for.
    assert len(preloads) > len(set(p.split("/static/")[0] for p in preloads))
    for path in preloads:
        code, text = site.get(path)
        assert code == 200 and len(text) > 100, path
        name, _, query = path.partition("?")
        assert name.endswith(".js") and (not query or query == f"v={name.split('.')[-2]}")


@pytest.mark.parametrize("query", ["?template=classic", "?theme=dark"])
def test_template_and_theme_overrides_are_refused(
    site: Server, context: BrowserContext, query: str
) -> None:
    visit = open_page(context, lesson_url(site, LESSONS[0], query))
    body = visit.page.locator("body")
    assert "theme-dark" not in (body.get_attribute("class") or "")
    assert "max-width: 1180px" in visit.page.content()  # still our template
    assert visit.outside == []
