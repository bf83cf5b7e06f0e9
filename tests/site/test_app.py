"""The site's Voila application (`penang_lib.site.app`): static files gzipped once and kept,
pages gzipped as sent, and the extensions' hashed scripts cached for a year."""

from __future__ import annotations

import gzip
import re
import urllib.request

from penang_lib.site import app
from penang_lib.site.patches import target_problem
from tools.site_runner import Server


def get(site: Server, path: str, gzipped: bool) -> tuple[bytes, dict[str, str]]:
    request = urllib.request.Request(site.url + path)
    request.add_header("Accept-Encoding", "gzip" if gzipped else "identity")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return reply.read(), dict(reply.headers)


def page_assets(site: Server) -> list[str]:
    _, html = site.get("voila/render/01_deck_and_deal.ipynb")
    return re.findall(r'(?:src|href)="/(voila/[^"]+\.(?:js|css)[^"]*)"', html)


def test_what_the_app_relies_on_is_in_the_installed_voila() -> None:
    assert [target_problem(t) for t in app.RELIES] == [None] * len(app.RELIES)


def test_every_kind_of_static_file_is_sent_gzipped_and_means_the_same(site: Server) -> None:
    assets = page_assets(site)
    kinds = {"/labextensions/": 0, "/static/voila.js": 0, "/templates/": 0}
    for path in assets:
        plain, plain_headers = get(site, path, gzipped=False)
        packed, headers = get(site, path, gzipped=True)
        assert "Content-Encoding" not in plain_headers, path
        assert headers["Content-Encoding"] == "gzip", path
        assert gzip.decompress(packed) == plain, path
        assert len(packed) < len(plain), path
        assert "Accept-Encoding" in headers["Vary"], path
        if "Etag" in plain_headers:  # another representation, another tag
            assert headers["Etag"] != plain_headers["Etag"], path
        for kind in kinds:
            kinds[kind] += kind in path
    assert all(kinds.values()), kinds


def test_a_page_is_gzipped_as_it_is_sent(site: Server) -> None:
    packed, headers = get(site, "voila/rules", gzipped=True)
    assert headers["Content-Encoding"] == "gzip"
    assert b"Rule sheet" in gzip.decompress(packed)


def test_only_the_extensions_hashed_scripts_are_cached_for_a_year(site: Server) -> None:
    scripts = [a for a in page_assets(site) if "/labextensions/" in a]
    assert scripts
    for path in scripts:
        _, headers = get(site, path, gzipped=True)
        hashed = app.HASHED.search("/" + path.split("?")[0]) is not None
        assert hashed, path  # every script a page names carries its hash
        assert headers["Cache-Control"] == "public, max-age=31536000, immutable", path
    _, headers = get(
        site, "voila/labextensions/@jupyter-widgets/jupyterlab-manager/package.json", False
    )
    assert "immutable" not in headers.get("Cache-Control", "")
