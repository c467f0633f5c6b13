"""Every page reachable from the navigation, in a real headless Chromium against ``agora serve``
(embedded SQLite, demo agents): at 390 px no page is wider than the viewport (document
``scrollWidth`` ≤ the viewport's width), nor at 360, 768 and 1440 px; the signed-in header is
collapsed behind a "Menu" button on a phone and takes a small part of the screen; axe-core (the
copy bundled by axe-playwright-python, injected from disk: no network) finds no serious or
critical violation; no console error, uncaught exception or failed load on any page.

The pages are found by a bounded crawl from the header's links (same-site GET links; ids folded
so one page of each kind is visited), signed out and signed in, after the person has made one of
everything (a job, a project with a task, a key, an organization, an agent of their own).
Marked ``process``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.server import agora_env, running_agora_serve
from tests.web.test_browser import _shot, _sign_up_and_in
from tests.web.test_browser_round2 import Page

pytestmark = pytest.mark.process

PHONE = {"width": 390, "height": 844}
WIDTHS = (360, 768, 1440)
MAX_PAGES = 60
# Not pages: downloads (links marked `download` are not followed either), the API and its
# docs, JSON documents (an agent's A2A card), static files, sign-out (a form anyway).
SKIP = re.compile(
    r"^/(v1|api|docs|redoc|openapi\.json|static|mcp|demo-agents)\b|\.(md|json)$|^/sign-out"
)
_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("layout")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base:
        yield base, data


def _kind(path: str, query: str) -> str:
    """One visit per kind of page: ids folded, and the query's names (not values) kept."""
    names = sorted({part.split("=", 1)[0] for part in query.split("&") if part})
    return _ID.sub("{id}", path) + ("?" + "&".join(names) if names else "")


def _links(page: object, base: str) -> list[str]:
    hrefs: list[str] = page.evaluate(  # type: ignore[attr-defined]
        "Array.from(document.querySelectorAll('a[href]:not([download])'), a => a.href)"
    )
    out = []
    for href in hrefs:
        parts = urlsplit(href)
        if f"{parts.scheme}://{parts.netloc}" != base or SKIP.search(parts.path):
            continue
        out.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    return out


def _axe_serious(page: object) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"]][:3]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


def _crawl(p: Page, base: str, start: list[str]) -> dict[str, list[str]]:
    """Visit every page reachable from ``start`` (bounded); per page, what is wrong with it."""
    page = p.page
    queue, seen, report = list(start), set(), {}
    while queue and len(report) < MAX_PAGES:
        path = queue.pop(0)
        parts = urlsplit(path)
        kind = _kind(parts.path, parts.query)
        if kind in seen:
            continue
        seen.add(kind)
        before = len(p.problems)
        response = page.goto(base + path)
        page.wait_for_load_state("load")
        problems = list(p.problems[before:])
        if response is None or response.status >= 400:
            problems.append(f"status {response.status if response else None}")
        for width in (PHONE["width"], *WIDTHS):
            page.set_viewport_size({"width": width, "height": PHONE["height"]})
            wide = page.evaluate("document.documentElement.scrollWidth")
            if wide > width:
                problems.append(f"{wide} px wide at {width} px")
        page.set_viewport_size(PHONE)
        problems += _axe_serious(page)
        if re.fullmatch(r"/developer/[0-9a-f-]+/stats", parts.path):
            _shot(page, "developer-stats-phone")
        report[path] = problems
        queue += [link for link in _links(page, base) if link not in queue]
    return report


def _make_one_of_everything(page: object, base: str) -> None:
    p = page
    p.goto(f"{base}/agents?q=echo")  # type: ignore[attr-defined]
    p.click(".cards .agent a")  # type: ignore[attr-defined]
    p.fill("#f-text", "A long unbroken word: " + "lantern" * 30)  # type: ignore[attr-defined]
    p.click("#hire-form button[type=submit]")  # type: ignore[attr-defined]
    p.wait_for_selector("#job-status:has-text('COMPLETED')")  # type: ignore[attr-defined]
    p.goto(f"{base}/projects")  # type: ignore[attr-defined]
    p.fill("#project-name", "Harbour essays")  # type: ignore[attr-defined]
    p.click("button:has-text('Create the project')")  # type: ignore[attr-defined]
    p.fill("#task-name", "Edit the lantern essay")  # type: ignore[attr-defined]
    p.click("button:has-text('Add the task')")  # type: ignore[attr-defined]
    p.wait_for_selector("#tasks tbody tr")  # type: ignore[attr-defined]
    p.goto(f"{base}/keys")  # type: ignore[attr-defined]
    p.fill("#key-name", "laptop")  # type: ignore[attr-defined]
    p.click("main button:has-text('Create a key')")  # type: ignore[attr-defined]
    p.wait_for_selector("#new-key")  # type: ignore[attr-defined]
    p.goto(f"{base}/developer/new")  # type: ignore[attr-defined]
    p.fill("#baseUrl", f"{base}/demo-agents/echo")  # type: ignore[attr-defined]
    p.fill("#name", "My echo")  # type: ignore[attr-defined]
    p.click("#agent-form button[type=submit]")  # type: ignore[attr-defined]
    p.wait_for_selector("#submitted")  # type: ignore[attr-defined]
    p.goto(f"{base}/organizations")  # type: ignore[attr-defined]
    p.fill("#org-name", "Lantern Works")  # type: ignore[attr-defined]
    p.click("button:has-text('Create an organization')")  # type: ignore[attr-defined]
    p.wait_for_selector("#members")  # type: ignore[attr-defined]


def test_every_page_fits_a_phone_passes_axe_and_logs_no_error(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    p = Page(browser)
    page = p.page
    page.set_viewport_size(PHONE)
    try:
        signed_out = _crawl(p, base, ["/agents", "/sign-in", "/sign-up"])
        _sign_up_and_in(page, base, data, "Noor")
        _make_one_of_everything(page, base)
        signed_in = _crawl(p, base, ["/agents"])
        assert {"/history", "/projects", "/credits", "/keys", "/organizations"} <= set(signed_in)
        assert any(_ID.search(path) for path in signed_in if path.startswith("/jobs/"))
        assert any(_ID.search(path) for path in signed_in if path.startswith("/tasks/"))
        assert any(path.endswith("/stats") for path in signed_in if path.startswith("/developer/"))
        bad = {
            f"{who} {path}": found
            for who, report in (("anonymous", signed_out), ("signed in", signed_in))
            for path, found in report.items()
            if found
        }
        assert bad == {}, bad
        assert p.refused == []
    finally:
        _shot(page, "layout-last-page")
        p.close()


def test_the_signed_in_header_collapses_on_a_phone(site: tuple[str, Path], browser: object) -> None:
    base, data = site
    p = Page(browser)
    page = p.page
    page.set_viewport_size(PHONE)
    try:
        _sign_up_and_in(page, base, data, "Ilse")
        page.goto(f"{base}/projects")
        header = page.locator("header.top")
        assert header.bounding_box()["height"] <= 80  # type: ignore[index]
        toggle = page.locator("#menu-toggle")
        assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
        assert not page.locator("#main-nav-links a[href='/projects']").is_visible()
        # By keyboard: the toggle opens the menu; its links are then reachable.
        toggle.focus()
        page.keyboard.press("Enter")
        assert toggle.get_attribute("aria-expanded") == "true"
        page.locator("#main-nav-links a[href='/projects']").wait_for(state="visible")
        _shot(page, "phone-menu-open")
        page.click("#main-nav-links a[href='/tasks']")
        page.wait_for_url(re.compile(r".*/tasks$"))
        assert toggle.get_attribute("aria-expanded") == "false"
        # A wide screen shows the navigation without the toggle.
        page.set_viewport_size({"width": 1440, "height": 900})
        assert not toggle.is_visible()
        assert page.locator("#main-nav-links a[href='/projects']").is_visible()
        page.set_viewport_size(PHONE)
        assert p.problems == [] and p.refused == []
        _shot(page, "phone-keys")
    finally:
        p.close()
