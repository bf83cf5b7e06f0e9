"""Kernels of the real site: closed pages give theirs back, and a kernel that dies is replaced
before a learner meets it (penang_lib/site/patches.py)."""

from __future__ import annotations

import contextlib
import time

import psutil  # type: ignore[import-untyped]
from playwright.sync_api import BrowserContext

from tests.site.conftest import lesson_url, open_page, type_into_checker
from tools.learners import KERNEL_ID, Learner, run_sync
from tools.load import kernel_processes
from tools.site_runner import Server, wait_idle


def gone(site: Server, kernel_id: str, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if kernel_id not in kernel_processes(site):
            return True
        time.sleep(0.5)
    return False


def test_a_lesson_opened_directly_gives_its_kernel_back_when_its_tab_closes(
    site: Server, context: BrowserContext
) -> None:
    """No landing page first: the lesson page sets the XSRF cookie itself, so the page-close
    shutdown is accepted (the stock page's was refused and the kernel lived until culled)."""
    visit = open_page(context, lesson_url(site, "02_melds.ipynb"))
    found = KERNEL_ID.search(visit.page.content())
    assert found is not None
    kernel_id = found.group(1)
    assert "_xsrf" in {c["name"] for c in context.cookies()}
    assert kernel_id in kernel_processes(site)
    visit.page.close(run_before_unload=True)
    assert gone(site, kernel_id)


def test_a_pool_kernel_that_died_is_replaced_and_the_page_still_loads(site: Server) -> None:
    wait_idle(site)
    pool = kernel_processes(site)  # nobody is on the site: these are all preheated kernels
    assert pool
    for process in pool.values():
        with contextlib.suppress(psutil.Error):
            process.kill()
    psutil.wait_procs(list(pool.values()), timeout=10)  # dead before the learner arrives

    async def learner_arrives() -> tuple[str, str, str]:
        learner = Learner(site.url, timeout=120)
        await learner.open("voila/render/02_melds.ipynb")  # before the pools are refilled
        try:
            before, after = await type_into_checker(learner, "KH AH 2H")
            return learner.kernel_id, before, after
        finally:
            await learner.shutdown()

    kernel_id, before, after = run_sync(learner_arrives())
    assert kernel_id not in pool  # a new kernel, not one of the dead
    assert after != before and "corner" in after  # and it answers
    wait_idle(site, timeout=240)  # every other pool is refilled too
    alive = kernel_processes(site)
    assert alive and not set(alive) & set(pool)
    assert any("stopped: starting another" in line or "failed" in line for line in site.log)


def test_a_page_whose_kernel_died_says_so_and_a_reload_brings_it_back(
    site: Server, context: BrowserContext
) -> None:
    visit = open_page(context, lesson_url(site, "02_melds.ipynb"))
    page = visit.page
    found = KERNEL_ID.search(page.content())
    assert found is not None
    assert page.locator(".penang-stopped").count() == 0
    kernel_processes(site)[found.group(1)].kill()
    notice = page.locator(".penang-stopped")
    notice.wait_for(state="visible", timeout=60_000)
    assert "Reload" in notice.inner_text() and notice.get_attribute("role") == "alert"
    notice.locator("button").click()
    page.wait_for_selector(".penang-kit", timeout=120_000)
    assert page.locator(".penang-stopped").count() == 0
    again = KERNEL_ID.search(page.content())
    assert again is not None and again.group(1) != found.group(1)
