"""Issue 31's defects in a real headless Chromium against ``agora serve`` (embedded SQLite, demo
agents): reset and magic link from the sign-in page; a keyboard-only hire whose errors take the
focus; the Reviewer's draft shown and approved; the job's own input; a reload of /keys creates
nothing; no console error on any page visited (the favicon included). Marked ``process``."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import agora_env, running_agora_serve
from tests.web.test_browser import (
    PASSWORD,
    TIMEOUT_MS,
    _mailed_token,
    _shot,
    _sign_up_and_in,
)

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("web2")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt") as base:
        yield base, data


_REFUSED_PAGE = "Failed to load resource: the server responded with a status of 4"


class Page:
    """A page that records console errors, uncaught exceptions and every 4xx/5xx answer.

    A form the server refuses answers its page with 400 (so the request's unit of work rolls
    back, kit/units.py), and Chromium logs every 4xx document as a console error; those are
    counted in ``refused`` (each test says how many it expects), any other console error is a
    problem."""

    def __init__(self, browser: object, **context_options: object) -> None:
        self.context = browser.new_context(**context_options)  # type: ignore[attr-defined]
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.problems: list[str] = []
        self.refused: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.problems.append(f"pageerror: {e}"))
        self.page.on("response", self._response)

    def _console(self, message: object) -> None:
        text = message.text  # type: ignore[attr-defined]
        if message.type == "error" and not text.startswith(_REFUSED_PAGE):  # type: ignore[attr-defined]
            self.problems.append(f"console: {text}")

    def _response(self, response: object) -> None:
        status, url = response.status, response.url  # type: ignore[attr-defined]
        method = response.request.method  # type: ignore[attr-defined]
        if status >= 500 or (status >= 400 and method != "POST"):
            self.problems.append(f"{status} {method} {url}")
        elif status >= 400:
            self.refused.append(f"{status} {url.split('/', 3)[-1]}")

    def close(self) -> None:
        self.context.close()


def test_reset_and_magic_link_from_the_sign_in_page(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    p = Page(browser)
    page = p.page
    try:
        email = _sign_up_and_in(page, base, data, "Rena")
        page.click("#account-menu summary")  # the account menu holds sign-out
        page.click("header button:has-text('Sign out')")
        page.wait_for_url(re.compile(r".*/sign-in$"))
        # Forgot the password: from the sign-in page, ask for a reset mail.
        page.click("#forgot-password")
        page.wait_for_url(re.compile(r".*/reset-password$"))
        page.fill("#email", email)
        page.click("#request-mail button[type=submit]")
        page.wait_for_selector("#mail-sent")
        token = _mailed_token(data, email, "/reset-password")
        page.goto(f"{base}/reset-password?token={token}")
        page.fill("#password", PASSWORD + "-new")
        page.click("main button:has-text('Save the password')")
        page.wait_for_url(re.compile(r".*/sign-in$"))
        page.fill("#email", email)
        page.fill("#password", PASSWORD + "-new")
        page.click("main button:has-text('Sign in')")
        page.wait_for_url(re.compile(r".*/agents$"))
        page.click("#account-menu summary")  # the account menu holds sign-out
        page.click("header button:has-text('Sign out')")
        page.wait_for_url(re.compile(r".*/sign-in$"))
        # A magic link instead of the password.
        page.click("#magic-link")
        page.wait_for_url(re.compile(r".*/magic-link$"))
        page.fill("#email", email)
        page.click("#request-mail button[type=submit]")
        page.wait_for_selector("#mail-sent")
        token = _mailed_token(data, email, "/magic-link")
        page.goto(f"{base}/magic-link?token={token}")
        page.click("main button:has-text('Sign me in')")
        page.wait_for_url(re.compile(r".*/agents$"))
        assert page.locator("header button:has-text('Sign out')").count() == 1
        icon = page.request.get(f"{base}/favicon.ico")
        assert icon.ok and icon.headers["content-type"].startswith("image/svg+xml")
        assert p.problems == [] and p.refused == []
        _shot(page, "magic-link-signed-in")
    finally:
        p.close()


def test_keyboard_hire_with_errors_then_the_reviewers_draft_approved(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    p = Page(browser)
    page = p.page
    try:
        _sign_up_and_in(page, base, data, "Kim")
        page.goto(f"{base}/agents?q=review")
        page.click("text=Reviewer")
        page.wait_for_selector("#hire-form")
        # Keyboard only: to the Hire button, Enter, with the text left empty.
        page.focus("#f-text")
        page.keyboard.press("Tab")  # the maximum credits
        page.keyboard.press("Tab")  # the Hire button
        page.keyboard.press("Enter")
        page.wait_for_selector(".error-summary")
        assert page.evaluate("document.activeElement.id") == "error-summary"
        assert page.get_attribute("#f-text", "aria-invalid") == "true"
        assert page.get_attribute("#f-text", "aria-describedby") == "e-f-text"
        page.keyboard.press("Tab")  # the summary's link to the field
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "f-text"
        page.keyboard.type("Lanterns over the <b>harbour</b>")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r".*/jobs/[0-9a-f-]+$"))
        # The job's own input, as text.
        assert "Lanterns over the <b>harbour</b>" in page.locator("#job-input").inner_text()
        # The draft is shown with the request; nothing is chosen for the yes/no.
        page.wait_for_selector("#agent-message")
        assert "Looks good" in page.locator("#agent-message").inner_text()
        assert not page.is_checked("#f-approve") and not page.is_checked("#f-approve-no")
        page.click("#input-form button[type=submit]")  # Send without deciding
        page.wait_for_selector(".error-summary")
        assert page.evaluate("document.activeElement.id") == "error-summary"
        assert page.locator("#job-status").inner_text() == "Needs your input"
        _shot(page, "reviewer-draft-error-summary")
        page.check("#f-approve")
        page.click("#input-form button[type=submit]")
        page.wait_for_selector("#job-status:has-text('COMPLETED')")
        assert "Looks good" in page.locator("#result").inner_text()
        assert p.problems == []
        assert [r.split("/")[0] for r in p.refused] == ["400 agents", "400 jobs"], p.refused
        _shot(page, "reviewer-approved")
    finally:
        p.close()


def test_a_reload_of_the_keys_page_creates_nothing(site: tuple[str, Path], browser: object) -> None:
    base, data = site
    p = Page(browser)
    page = p.page
    try:
        p.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
        _sign_up_and_in(page, base, data, "Lou")
        page.goto(f"{base}/keys")
        before = page.locator("#keys tbody tr").count()
        page.fill("#key-name", f"ci-{uuid.uuid4().hex[:4]}")
        page.click("main button:has-text('Create a key')")
        page.wait_for_selector("#new-key")
        assert page.url == f"{base}/keys"  # redirected: the key is in no URL
        key = page.locator("#new-key").inner_text()
        page.click("button[data-copy='new-key']")
        page.wait_for_selector("button[data-copy='new-key']:has-text('Copied')")
        assert page.evaluate("navigator.clipboard.readText()") == key
        page.reload()
        page.wait_for_selector("#keys")
        assert page.locator("#new-key").count() == 0
        assert page.locator("#keys tbody tr").count() == before + 1
        assert p.problems == [] and p.refused == []
        _shot(page, "keys-after-reload")
    finally:
        p.close()
