"""Issue 45's design system in a real headless Chromium against ``agora serve`` (embedded SQLite,
demo agents): on every page reachable from the navigation — signed out, signed in after making
one of everything, and an operator's console — in the light and the dark theme (the
``agora_theme`` cookie) at 1280x800 and 390x844, axe-core (the copy bundled by
axe-playwright-python, injected from disk) finds no serious or critical violation, and the skip
link is the first Tab stop. On an agent page the hire field is at most 10 Tab stops in without
the skip link, and the Hire button lies within 1280x800 without scrolling. The account menu
opens without JavaScript (a ``<details>``) and the workspace select submits on change with it.
Marked ``process``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.server import agora_env, run_cli, running_agora_serve
from tests.web.test_browser import _shot, _sign_up_and_in
from tests.web.test_browser_layout import _ID, _axe_serious, _kind, _links, _make_one_of_everything
from tests.web.test_browser_round2 import Page

pytestmark = pytest.mark.process

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
THEMES = ("light", "dark")
MAX_PAGES = 70
MAX_TABS = 10
_FOCUSED = "document.activeElement.id || document.activeElement.textContent.trim().slice(0, 30)"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, dict[str, str]]]:
    data = tmp_path_factory.mktemp("design")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base:
        yield base, data, env


def _theme(page: object, base: str, theme: str) -> None:
    host = urlsplit(base).hostname
    page.context.add_cookies(  # type: ignore[attr-defined]
        [{"name": "agora_theme", "value": theme, "domain": host, "path": "/"}]
    )


def _first_tab_is_the_skip_link(page: object) -> bool:
    page.evaluate("document.activeElement && document.activeElement.blur()")  # type: ignore[attr-defined]
    page.keyboard.press("Tab")  # type: ignore[attr-defined]
    return bool(
        page.evaluate(  # type: ignore[attr-defined]
            "document.activeElement.classList.contains('skip')"
            " && document.activeElement.getAttribute('href') === '#main'"
        )
    )


def _crawl(p: Page, base: str, start: list[str]) -> dict[str, list[str]]:
    """Every page reachable from ``start`` (bounded, one per kind): in each theme, at each size,
    what axe finds serious or critical, and whether the skip link is the first Tab stop."""
    page = p.page
    queue, seen, report = list(start), set(), {}
    while queue and len(report) < MAX_PAGES:
        path = queue.pop(0)
        parts = urlsplit(path)
        kind = _kind(parts.path, parts.query)
        if kind in seen:
            continue
        seen.add(kind)
        problems: list[str] = []
        for theme in THEMES:
            _theme(page, base, theme)
            page.set_viewport_size(DESKTOP)
            response = page.goto(base + path)
            page.wait_for_load_state("load")
            if response is None or response.status >= 400:
                problems.append(f"status {response.status if response else None}")
            if page.evaluate("document.documentElement.dataset.theme") != theme:
                problems.append(f"{theme}: the theme cookie was not applied")
            if not _first_tab_is_the_skip_link(page):
                problems.append(f"{theme}: the first Tab stop is not the skip link")
            for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                page.set_viewport_size(viewport)
                problems += [f"{theme} {size}: {v}" for v in _axe_serious(page)]
        report[path] = problems
        queue += [link for link in _links(page, base) if link not in queue]
    return report


def test_every_page_passes_axe_in_both_themes_at_both_sizes_and_tabs_to_the_skip_link_first(
    site: tuple[str, Path, dict[str, str]], browser: object
) -> None:
    base, data, env = site
    p = Page(browser)
    page = p.page
    try:
        signed_out = _crawl(p, base, ["/agents", "/sign-in", "/sign-up", "/design"])
        email = _sign_up_and_in(page, base, data, "Dara")
        _make_one_of_everything(page, base)
        signed_in = _crawl(p, base, ["/agents"])
        assert {"/history", "/credits", "/notifications", "/schedules", "/design"} <= set(signed_in)
        assert any(_ID.search(path) for path in signed_in if path.startswith("/jobs/"))
        assert any(_ID.search(path) for path in signed_in if path.startswith("/agents/"))
        run_cli(env, "keys", "create", "--user", email, "--kind", "admin", "--json")
        console = _crawl(p, base, ["/admin"])
        assert {"/admin", "/admin/users"} <= set(console)
        bad = {
            f"{who} {path}": found
            for who, report in (
                ("anonymous", signed_out),
                ("signed in", signed_in),
                ("operator", console),
            )
            for path, found in report.items()
            if found
        }
        assert bad == {}, bad
        assert p.problems == [] and p.refused == []
    finally:
        _shot(page, "design-last-page")
        p.close()


def test_the_hire_field_is_near_and_the_hire_button_above_the_fold(
    site: tuple[str, Path, dict[str, str]], browser: object
) -> None:
    base, data, _env = site
    p = Page(browser)
    page = p.page
    page.set_viewport_size(DESKTOP)
    try:
        _sign_up_and_in(page, base, data, "Ines")
        for agent in ("Echo", "Reviewer"):
            page.goto(f"{base}/agents")
            page.locator(".cards .agent", has_text=agent).locator("h2 a").click()
            page.wait_for_selector("#hire-form")
            first_field = page.evaluate(
                "document.querySelector('#hire-form').querySelector("
                "'input:not([type=hidden]), textarea, select').id"
            )
            page.evaluate("document.activeElement && document.activeElement.blur()")
            stops = []
            for _ in range(MAX_TABS):
                page.keyboard.press("Tab")
                stops.append(page.evaluate(_FOCUSED))
                if stops[-1] == first_field:
                    break
            assert stops[-1] == first_field, (agent, stops)
            assert stops[0] == "Skip to content"
            box = page.locator("#hire-button").bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["y"] >= 0, (agent, box)
            assert box["x"] + box["width"] <= DESKTOP["width"], (agent, box)
            assert box["y"] + box["height"] <= DESKTOP["height"], (agent, box)
            assert page.evaluate("window.scrollY") == 0
        _shot(page, "agent-hire-card")
        # The hire card stays in view while the page scrolls (sticky).
        page.evaluate("window.scrollTo(0, 600)")
        box = page.locator("#hire-button").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]
        assert p.problems == [] and p.refused == []
    finally:
        p.close()


def test_account_menu_workspace_switch_and_theme_choice(
    site: tuple[str, Path, dict[str, str]], browser: object
) -> None:
    base, data, _env = site
    p = Page(browser)
    page = p.page
    page.set_viewport_size(DESKTOP)
    try:
        _sign_up_and_in(page, base, data, "Oren")
        # A phone: the gallery's filters wait behind "Filters", the first agent near the top.
        page.set_viewport_size(PHONE)
        page.goto(f"{base}/agents")
        assert not page.locator("#q").is_visible()
        first = page.locator(".cards .agent").first.bounding_box()
        assert first is not None and first["y"] < 260, first
        page.click("#filters summary")
        assert page.locator("#q").is_visible()
        page.set_viewport_size(DESKTOP)
        page.goto(f"{base}/organizations")
        page.fill("#org-name", "Moth Lamps")
        page.click("button:has-text('Create an organization')")
        page.wait_for_selector("#members")
        page.goto(f"{base}/history")
        # One header row at desktop; the current section is marked.
        header = page.locator("header.top").bounding_box()
        assert header is not None and header["height"] <= 64
        assert page.locator("#main-nav-links a[aria-current=page]").inner_text() == "History"
        # The account menu: closed, then opened by keyboard; its switch has no button (JS).
        assert not page.locator("#workspaceId").is_visible()
        page.focus("#account-menu summary")
        page.keyboard.press("Enter")
        assert page.locator("#workspaceId").is_visible()
        assert not page.locator("#workspace-switcher button").is_visible()
        with page.expect_navigation():
            page.select_option("#workspaceId", label="Moth Lamps")
        assert re.search(r"/history$", page.url)
        page.click("#account-menu summary")
        assert "Moth Lamps" in page.locator("#workspaceId option:checked").inner_text()
        page.keyboard.press("Escape")
        assert page.locator("#account-menu").get_attribute("open") is None
        # The theme: chosen at the foot of any page, kept in a cookie.
        with page.expect_navigation():
            page.select_option("#theme-choice", "dark")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(16, 18, 23)"
        with page.expect_navigation():
            page.select_option("#theme-choice", "system")
        assert page.evaluate("document.documentElement.dataset.theme") is None
        assert p.problems == [] and p.refused == []
    finally:
        p.close()


def test_without_javascript_the_menu_opens_and_the_switch_has_its_button(
    site: tuple[str, Path, dict[str, str]], browser: object
) -> None:
    base, data, _env = site
    context = browser.new_context(java_script_enabled=False)  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_viewport_size(PHONE)
    try:
        _sign_up_and_in(page, base, data, "Pia")
        page.goto(f"{base}/agents")
        # No Menu button without JavaScript: the header stays open, and so do the filters.
        assert not page.locator("#menu-toggle").is_visible()
        assert page.locator("#q").is_visible()
        page.click("#account-menu summary")
        assert page.locator("#workspace-switcher button").is_visible()
        page.click("#workspace-switcher button")
        page.wait_for_url(re.compile(r".*/agents$"))
    finally:
        context.close()


def test_times_follow_the_browsers_zone_or_the_chosen_one_and_actions_say_what_they_did(
    site: tuple[str, Path, dict[str, str]], browser: object
) -> None:
    base, data, _env = site
    p = Page(browser, timezone_id="Asia/Tokyo", locale="en-GB")
    page = p.page
    page.set_viewport_size(DESKTOP)
    try:
        _sign_up_and_in(page, base, data, "Kenji")
        # The first page tells the server the browser's zone; from then on its own text (what a
        # reader without JavaScript sees, the inbox's days) is in that zone, named.
        page.goto(f"{base}/settings/appearance")
        cookies = {c["name"]: c["value"] for c in p.context.cookies()}
        assert cookies.get("agora_tz_auto") == "Asia/Tokyo", cookies
        page.reload()
        assert "As the device (Asia/Tokyo)" in page.locator("#timezone").inner_text()
        now = page.locator("#timezone-help time")
        assert now.inner_text().endswith("GMT+9"), now.inner_text()  # app.js: en-GB names it so
        served = page.request.get(f"{base}/settings/appearance").text()
        assert re.search(r"<time datetime=\"[^\"]+Z\">\d{4}-\d\d-\d\d \d\d:\d\d JST</time>", served)
        # Choosing a zone (and a theme) on the settings page: every time follows it, and a toast
        # says it was saved, once; its close button dismisses it.
        page.check("input[name=theme][value=dark]")
        page.select_option("#timezone", "America/New_York")
        with page.expect_navigation():
            page.click("#appearance-form button[type=submit]")
        assert page.locator("#toast").inner_text().startswith("Saved.")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert page.evaluate("document.documentElement.dataset.tz") == "America/New_York"
        shown = page.locator("#timezone-help time").inner_text()
        assert re.search(r"GMT-[45]$", shown), shown
        page.click("#toast button")
        assert page.locator("#toast").count() == 0
        page.reload()
        assert page.locator("#toast").count() == 0
        # Another action's toast: marking the inbox read.
        page.goto(f"{base}/notifications")
        with page.expect_navigation():
            page.click("button:has-text('Mark all read')")
        assert "marked read" in page.locator("#toast").inner_text()
        assert p.problems == [] and p.refused == []
    finally:
        p.close()
