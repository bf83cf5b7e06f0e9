"""The learner's progress in a real browser: kept in its localStorage by the lessons' progress
line (`penang_lib.widgets.progress`), shown on the landing page (no kernel) by its own script,
cleared only
by "Forget my progress", and stored text edited by hand said and left as it is on both kinds of
page. Each test starts from a fresh browser context, whose localStorage is empty."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import tornado.httpclient
import tornado.web
import tornado.websocket
from playwright.sync_api import Browser, BrowserContext, Page

from penang_lib.course import progress as pg
from penang_lib.course.progress import KEPT_HERE, STORAGE_KEY
from penang_lib.site.serve import catalogue
from penang_lib.site.settings import puzzles_total
from penang_lib.widgets.lessons import lesson_data
from penang_lib.widgets.quiz import Quiz
from tests.helpers.browser import (
    SHOTS,
    WAIT_MS,
    axe_violations,
    error_outputs,
    landing,
    mark,
    wait_stored,
)
from tests.helpers.progress import BAD_TEXTS, GOOD_TEXTS
from tests.site.conftest import lesson_url, open_page
from tools.site_runner import Server, free_port, start_site, wait_ready

TITLES = {lesson["file"]: lesson["title"] for lesson in catalogue()}


def stored(page: Page) -> Any:
    text = page.evaluate(f"() => window.localStorage.getItem({json.dumps(STORAGE_KEY)})")
    return None if text is None else json.loads(text)


def store(page: Page, text: str) -> None:
    """Put `text` in the site's localStorage, as a learner editing it by hand would."""
    page.evaluate("([k, t]) => window.localStorage.setItem(k, t)", [STORAGE_KEY, text])


def raw(page: Page) -> str | None:
    text: str | None = page.evaluate(
        f"() => window.localStorage.getItem({json.dumps(STORAGE_KEY)})"
    )
    return text


def answer_right(page: Page, stem: str, question: int) -> None:
    quiz = Quiz(lesson_data(stem)["quiz"])
    label = quiz.questions[question].labels[quiz.questions[question].right.index(True)]
    box = page.locator(".penang-quiz .penang-question").nth(question)
    box.get_by_role("button", name=label, exact=True).click()


def test_a_quiz_answered_in_a_lesson_shows_its_tick_and_score_on_the_landing_page(
    site: Server, context: BrowserContext
) -> None:
    stem, file = "01_deck_and_deal", "01_deck_and_deal.ipynb"
    lesson = open_page(context, lesson_url(site, file))
    page = lesson.page
    line = page.locator(".penang-progress")
    assert line.inner_text() == KEPT_HERE
    wait_stored(page, f"p.last === {json.dumps(file)}")
    answer_right(page, stem, 0)
    answer_right(page, stem, 1)
    wait_stored(page, f"p.quizzes[{json.dumps(file)}] && p.quizzes[{json.dumps(file)}].score === 2")
    assert stored(page)["quizzes"][file] == {"score": 2, "out_of": 4}
    assert error_outputs(page) == [] and lesson.errors == [] and lesson.outside == []
    assert axe_violations(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    line.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "progress_lesson_1280.png"))
    page.close()

    home = landing(site, context)
    page = home.page
    for _ in range(2):  # as first shown, and after a reload
        assert mark(page, file) == "✓ Opened, best quiz score 2 of 4"
        assert page.locator(f'.done[data-file="{file}"] .tick').get_attribute("aria-hidden")
        assert mark(page, "02_melds.ipynb") == ""
        resume = page.locator(".progress .continue a")
        assert resume.inner_text() == f"Continue where you left off: {TITLES[file]}"
        assert resume.get_attribute("href") == f"/voila/render/{file}"
        assert page.locator(".progress .nothing").is_hidden()
        page.reload(wait_until="load")
    assert home.outside == [] and home.errors == []
    assert axe_violations(page) == []
    page.screenshot(path=str(SHOTS / "progress_1280.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload(wait_until="load")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the landing page is {width} px wide on a 390 px screen"
    assert axe_violations(page) == []
    page.screenshot(path=str(SHOTS / "progress_390.png"), full_page=True)


def good_text() -> str:
    kept = pg.Kept(
        lessons=("02_melds.ipynb", "04_lay_offs.ipynb"),
        quizzes={"04_lay_offs.ipynb": pg.QuizScore(3, 3)},
        puzzles=("swap-0001", "lay-off-0002"),
        played=3,
        won=1,
        last="04_lay_offs.ipynb",
    )
    return pg.write(kept)


def test_the_puzzles_and_deals_kept_are_counted_and_forget_clears_everything(
    site: Server, context: BrowserContext
) -> None:
    home = landing(site, context)
    page = home.page
    assert page.locator(".progress .nothing").is_visible()
    assert page.locator(".progress .forget").is_hidden()  # nothing to forget yet
    store(page, good_text())
    page.reload(wait_until="load")
    total = puzzles_total()
    assert total > 0
    assert page.locator(".progress .puzzles").inner_text() == f"Puzzles solved: 2 of {total}"
    assert page.locator(".progress .deals").inner_text() == (
        "Deals played against the bots: 3, won: 1."
    )
    # What counts as a deal played, said beside the count (issue 29, item 7).
    said = " ".join(page.locator(".progress .deals-what").inner_text().split())
    assert "counts once, when you play it to its end" in said and "review link" in said
    assert mark(page, "04_lay_offs.ipynb") == "✓ Opened, best quiz score 3 of 3"
    assert mark(page, "02_melds.ipynb") == "✓ Opened"
    # Forget asks first; "No" keeps it all.
    page.get_by_role("button", name="Forget my progress").click()
    assert page.locator(".progress .confirm").is_visible()
    page.get_by_role("button", name="No, keep it").click()
    assert raw(page) == good_text() and page.locator(".progress .confirm").is_hidden()
    page.get_by_role("button", name="Forget my progress").click()
    page.get_by_role("button", name="Yes, forget it").click()
    assert raw(page) is None
    assert "forgotten" in page.locator(".progress .status").inner_text()
    assert page.locator(".progress .puzzles").inner_text() == f"Puzzles solved: 0 of {total}"
    assert mark(page, "04_lay_offs.ipynb") == "" and mark(page, "02_melds.ipynb") == ""
    assert page.locator(".progress .continue").is_hidden()
    assert page.locator(".progress .deals").is_hidden()
    assert page.locator(".progress .deals-what").is_hidden()
    assert page.locator(".progress .nothing").is_visible()
    assert axe_violations(page) == []
    page.reload(wait_until="load")
    assert raw(page) is None and mark(page, "04_lay_offs.ipynb") == ""
    assert home.outside == [] and home.errors == []


BAD = json.dumps({**json.loads(pg.write(pg.Kept())), "lessons": "all of them"})


def test_progress_edited_by_hand_is_said_on_the_landing_page_and_left_as_it_is(
    site: Server, context: BrowserContext
) -> None:
    home = landing(site, context)
    page = home.page
    for text, code in ((BAD, "lessons"), ("{not json", "json"), (good_text()[:-1], "json")):
        store(page, text)
        page.reload(wait_until="load")
        problem = page.locator(".progress .problem")
        assert problem.inner_text().startswith(pg.unreadable(code)), text
        assert problem.get_attribute("role") == "alert"
        assert page.locator(".done:visible").count() == 0
        assert page.locator(".progress .nothing").is_hidden()
        assert raw(page) == text  # left as it is
    assert page.locator(".progress .forget").is_visible()  # the way out
    assert axe_violations(page) == []
    page.set_viewport_size({"width": 390, "height": 844})
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "progress_unreadable_390.png"))
    assert home.outside == [] and home.errors == []


def test_progress_edited_by_hand_is_said_on_a_lesson_and_nothing_is_written(
    site: Server, context: BrowserContext
) -> None:
    stem, file = "03_turns_and_passport", "03_turns_and_passport.ipynb"
    home = landing(site, context)
    store(home.page, BAD)
    lesson = open_page(context, lesson_url(site, file))
    page = lesson.page
    line = page.locator(".penang-progress")
    line.filter(has_text="does not read").wait_for(timeout=WAIT_MS)
    assert line.inner_text() == pg.unreadable("lessons")
    SHOTS.mkdir(parents=True, exist_ok=True)
    line.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "progress_lesson_unreadable_1280.png"))
    answer_right(page, stem, 0)
    page.locator(".penang-quiz .penang-score", has_text="1 of 1").wait_for(timeout=WAIT_MS)
    page.wait_for_timeout(1000)  # a write would have come back by now
    assert raw(page) == BAD
    assert line.inner_text() == pg.unreadable("lessons")
    # Control: once cleared (as Forget does), the next answer writes everything kept meanwhile.
    page.evaluate(f"() => window.localStorage.removeItem({json.dumps(STORAGE_KEY)})")
    answer_right(page, stem, 1)
    wait_stored(page, f"p.quizzes[{json.dumps(file)}] && p.quizzes[{json.dumps(file)}].score === 2")
    assert stored(page)["lessons"] == [file]
    line.filter(has_text=KEPT_HERE).wait_for(timeout=WAIT_MS)
    assert lesson.outside == [] and lesson.errors == []
    assert axe_violations(page) == []


def test_the_landing_page_reads_stored_text_as_the_lessons_do(
    site: Server, context: BrowserContext
) -> None:
    """Its script and `penang_lib.course.progress.read` agree: the same sentence for each text
    that does not read, and no sentence for each that does."""
    home = landing(site, context)
    page = home.page
    problem = page.locator(".progress .problem")
    said = []
    for text, code in BAD_TEXTS:
        store(page, text)
        page.reload(wait_until="load")
        shown = problem.inner_text() if problem.is_visible() else ""
        said.append((code, shown.startswith(pg.unreadable(code)), shown[:90]))
        assert raw(page) == text
    assert [s for s in said if not s[1]] == []
    for text in GOOD_TEXTS:
        pg.read(text)
        store(page, text)
        page.reload(wait_until="load")
        assert problem.is_hidden(), (text, problem.inner_text())
    assert home.errors == []


# -- two users of one JupyterHub on one browser (issue 29, item 16) ------------------------------
HUB_USERS = ("alice", "bob")


def hub_base(user: str) -> str:
    """The base URL of `user`'s site on a JupyterHub (`/user/NAME/` + the proxy's path)."""
    return f"/user/{user}/penang/"


class _Forward(tornado.web.RequestHandler):
    """Pass one request on to the site of its path's user, as the hub's proxy does."""

    SUPPORTED_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")

    def initialize(self, routes: dict[str, int]) -> None:
        self.routes = routes

    def check_xsrf_cookie(self) -> None:  # the site behind checks its own
        return None

    async def _forward(self) -> None:
        port = next(
            (p for prefix, p in self.routes.items() if self.request.path.startswith(prefix)), None
        )
        if port is None:
            self.set_status(404)
            return
        reply = await tornado.httpclient.AsyncHTTPClient().fetch(
            tornado.httpclient.HTTPRequest(
                f"http://127.0.0.1:{port}{self.request.uri}",
                method=self.request.method,
                headers=self.request.headers,
                body=self.request.body if self.request.method in ("POST", "PUT", "PATCH") else None,
                follow_redirects=False,
                decompress_response=False,
                allow_nonstandard_methods=True,
                request_timeout=180,
            ),
            raise_error=False,
        )
        self.set_status(reply.code, reply.reason)
        self.clear_header("Content-Type")
        for name, value in reply.headers.get_all():
            if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.add_header(name, value)
        if reply.body and self.request.method != "HEAD":
            self.write(reply.body)

    get = head = post = put = patch = delete = options = _forward


class _ForwardSocket(tornado.websocket.WebSocketHandler):
    """Pass a kernel's websocket on to the site of its path's user, both ways."""

    def initialize(self, routes: dict[str, int]) -> None:
        self.routes = routes
        self.upstream: tornado.websocket.WebSocketClientConnection | None = None
        self.protocols: list[str] = []

    def check_origin(self, origin: str) -> bool:
        return True  # the site behind checks the origin against the host it is passed

    def select_subprotocol(self, subprotocols: list[str]) -> str | None:
        self.protocols = list(subprotocols)
        return subprotocols[0] if subprotocols else None

    async def open(self, *args: str, **kwargs: str) -> None:
        port = next(p for prefix, p in self.routes.items() if self.request.path.startswith(prefix))
        headers = {
            k: v
            for k, v in self.request.headers.get_all()
            if k.lower() in ("cookie", "origin", "host")
        }
        self.upstream = await tornado.websocket.websocket_connect(
            tornado.httpclient.HTTPRequest(
                f"ws://127.0.0.1:{port}{self.request.uri}", headers=headers
            ),
            subprotocols=self.protocols or None,
            on_message_callback=self._back,
        )

    def on_message(self, message: str | bytes) -> None:
        if self.upstream is not None:
            self.upstream.write_message(message, binary=isinstance(message, bytes))

    def _back(self, message: str | bytes | None) -> None:
        if message is None:
            self.close()
        elif self.ws_connection is not None:
            self.write_message(message, binary=isinstance(message, bytes))

    def on_close(self) -> None:
        if self.upstream is not None:
            self.upstream.close()


@dataclass
class Hub:
    """Each user's site behind one address, as on a JupyterHub: `url(user)` is their site."""

    address: str
    sites: dict[str, Server]

    def url(self, user: str, page: str = "") -> str:
        return f"{self.address}{hub_base(user).lstrip('/')}{page}"


def _serve_proxy(routes: dict[str, int], port: int, started: threading.Event) -> None:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    app = tornado.web.Application(
        [
            (r".*/api/kernels/[^/]+/channels", _ForwardSocket, {"routes": routes}),
            (r".*", _Forward, {"routes": routes}),
        ]
    )
    app.listen(port, "127.0.0.1")
    started.set()
    loop.run_forever()


@pytest.fixture(scope="module")
def hub() -> Iterator[Hub]:
    """Two users' sites (kernels started on request) behind one address, as a hub's proxy
    puts them: http://127.0.0.1:PORT/user/alice/penang/ and .../user/bob/penang/."""
    sites = {u: start_site(pool=0, extra=["--base-url", hub_base(u)]) for u in HUB_USERS}
    try:
        for server in sites.values():
            wait_ready(server, set())
        routes = {f"/user/{u}/": int(s.url.rsplit(":", 1)[1].strip("/")) for u, s in sites.items()}
        port, started = free_port(), threading.Event()
        threading.Thread(target=_serve_proxy, args=(routes, port, started), daemon=True).start()
        started.wait(30)
        yield Hub(f"http://127.0.0.1:{port}/", sites)
    finally:
        for server in sites.values():
            server.stop()


def kept_under(page: Page, key: str) -> Any:
    text = page.evaluate("(k) => window.localStorage.getItem(k)", key)
    return None if text is None else json.loads(text)


def test_two_users_of_one_hub_on_one_browser_each_see_only_their_own_progress(
    hub: Hub, browser: Browser
) -> None:
    """Alice and Bob share one browser (one after the other, as at a school) and the hub's one
    address, so one localStorage: each site keeps its progress under its own base URL."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        alice_key, bob_key = (pg.storage_key(hub_base(u)) for u in HUB_USERS)
        stem, file = "03_turns_and_passport", "03_turns_and_passport.ipynb"
        lesson = open_page(context, hub.url("alice", f"voila/render/{file}"))
        page = lesson.page
        page.wait_for_function(
            "([k, f]) => { const t = window.localStorage.getItem(k);"
            " return !!t && JSON.parse(t).last === f; }",
            arg=[alice_key, file],
            timeout=WAIT_MS,
        )
        answer_right(page, stem, 0)
        page.wait_for_function(
            "([k, f]) => { const p = JSON.parse(window.localStorage.getItem(k));"
            " return !!p.quizzes[f]; }",
            arg=[alice_key, file],
            timeout=WAIT_MS,
        )
        assert kept_under(page, STORAGE_KEY) is None and kept_under(page, bob_key) is None
        assert lesson.errors == [] and error_outputs(page) == []
        page.close()

        alice = open_page(context, hub.url("alice"), widgets=False).page
        assert mark(alice, file).startswith("✓ Opened, best quiz score 1 of ")
        bob = open_page(context, hub.url("bob"), widgets=False).page
        assert mark(bob, file) == "" and bob.locator(".progress .nothing").is_visible()

        # Bob's own lesson goes to Bob's progress, and Alice's landing page does not show it.
        first = "01_deck_and_deal.ipynb"
        bob_lesson = open_page(context, hub.url("bob", f"voila/render/{first}")).page
        bob_lesson.wait_for_function(
            "([k, f]) => { const t = window.localStorage.getItem(k);"
            " return !!t && JSON.parse(t).last === f; }",
            arg=[bob_key, first],
            timeout=WAIT_MS,
        )
        assert kept_under(bob_lesson, bob_key)["lessons"] == [first]
        assert kept_under(bob_lesson, alice_key)["lessons"] == [file]
        bob.reload(wait_until="load")
        alice.reload(wait_until="load")
        assert mark(bob, first) == "✓ Opened" and mark(bob, file) == ""
        assert mark(alice, file).startswith("✓ Opened") and mark(alice, first) == ""
        # Forget on Bob's page forgets Bob's progress only.
        bob.get_by_role("button", name="Forget my progress").click()
        bob.get_by_role("button", name="Yes, forget it").click()
        assert kept_under(bob, bob_key) is None and kept_under(bob, alice_key) is not None
    finally:
        context.close()
