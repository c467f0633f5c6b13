"""The web app in a real headless Chromium (Debian's ``chromium``, driven by Playwright for Python),
against ``agora serve`` as the README runs it (embedded SQLite, demo agents, embedded dispatcher).

Each test saves a screenshot of its last page under ``test-artifacts/screenshots/`` (gitignored;
CI keeps it as an artifact). Marked ``process`` (``make prove``).
"""

from __future__ import annotations

import email as email_parser
import re
import sqlite3
import time
import uuid
from collections.abc import Iterator
from email import policy as email_policy
from pathlib import Path

import pytest

from tests.support.server import agora_env, running_agora_serve

pytestmark = pytest.mark.process

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
PASSWORD = "violet-harbour-lantern-93"
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("web")
    env = agora_env(data, AGORA_WELCOME_CREDITS="100000000", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt") as base:
        yield base, data


def _shot(page: object, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


def mailed_link(data: Path, email: str, path: str, seconds: float = 15.0) -> str:
    """The newest mailed link to ``path`` (path and query, ``next`` included) in a mail to
    ``email``. The mail is written after the page's answer (an after-commit hook), so this waits
    for it, bounded by ``seconds``; a mail file still being written is read again."""
    deadline = time.monotonic() + seconds
    while True:
        for mail in sorted((data / "mail").glob("*.eml"), reverse=True):
            message = email_parser.message_from_bytes(
                mail.read_bytes(), policy=email_policy.default
            )
            if email in str(message["To"]):
                body = message.get_body(preferencelist=("plain",))
                text = body.get_content() if body is not None else ""
                found = re.search(re.escape(path) + r"\?token=\S+", text)
                if found:
                    return found.group(0)
        if time.monotonic() > deadline:
            raise AssertionError(f"no mail to {email} linking to {path} within {seconds:g} s")
        time.sleep(0.1)


def _mailed_token(data: Path, email: str, path: str) -> str:
    """The token of the newest mail to ``email`` that links to ``path``."""
    found = re.search(r"\?token=([A-Za-z0-9_\-]+)", mailed_link(data, email, path))
    assert found is not None
    return found.group(1)


def _sign_up_and_in(page: object, base: str, data: Path, name: str) -> str:
    p = page
    email = f"{name.lower()}-{uuid.uuid4().hex[:6]}@example.com"
    p.goto(f"{base}/sign-up")  # type: ignore[attr-defined]
    p.fill("#name", name)  # type: ignore[attr-defined]
    p.fill("#email", email)  # type: ignore[attr-defined]
    p.fill("#password", PASSWORD)  # type: ignore[attr-defined]
    p.click("button:has-text('Sign up')")  # type: ignore[attr-defined]
    p.wait_for_selector("text=Check your mail")  # type: ignore[attr-defined]
    token = _mailed_token(data, email, "/verify-email")
    p.goto(f"{base}/verify-email?token={token}")  # type: ignore[attr-defined]
    p.click("button:has-text('Confirm my address')")  # type: ignore[attr-defined]
    p.wait_for_selector("text=Your address is confirmed")  # type: ignore[attr-defined]
    p.fill("#email", email)  # type: ignore[attr-defined]
    p.fill("#password", PASSWORD)  # type: ignore[attr-defined]
    p.click("main button:has-text('Sign in')")  # type: ignore[attr-defined]
    p.wait_for_url(re.compile(r".*/(agents|invitations/accept).*"))  # type: ignore[attr-defined]
    return email


def test_sign_up_hire_answer_and_see_the_result(server: tuple[str, Path], browser: object) -> None:
    base, data = server
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        _sign_up_and_in(page, base, data, "Ada")
        # Find the paid demo agent by search.
        page.fill("#q", "review")
        page.click("form[role=search] button")
        page.wait_for_url(re.compile(r".*q=review.*"))
        assert page.locator(".cards .agent").count() == 1
        page.click("text=Reviewer")
        page.wait_for_selector("#hire-form")
        # A field error first (the text is required), shown on its field.
        page.click("#hire-form button[type=submit]")
        error = page.locator("#e-f-text")
        error.wait_for()
        assert "required" in error.inner_text()
        # Then valid.
        page.fill("#f-text", "A short essay about **harbours** and lanterns.")
        page.click("#hire-form button[type=submit]")
        page.wait_for_url(re.compile(r".*/jobs/[0-9a-f-]+$"))
        # Live, without reload: a marker set in this document survives the status change.
        page.evaluate("window.__sameDocument = 'yes'")
        page.wait_for_selector("#job-status[data-status=INPUT_REQUIRED]")
        page.wait_for_selector("#input-form")
        assert page.evaluate("window.__sameDocument") == "yes"
        # Answer the input request in the page.
        page.check("#f-approve")
        page.fill("#f-note", "**Great** work")
        page.click("#input-form button[type=submit]")
        page.wait_for_selector("#job-status:has-text('COMPLETED')")
        page.wait_for_selector("#result strong")
        assert page.locator("#result strong").inner_text() == "Great"
        assert "Looks good" in page.locator("#result").inner_text()
        # The credits ledger and the history entry.
        page.goto(f"{base}/credits")
        assert page.locator("#ledger tbody tr").count() >= 1
        page.goto(f"{base}/history")
        assert page.locator("tbody tr", has_text="Reviewer").count() == 1
        assert page.locator("tbody tr", has_text="COMPLETED").count() == 1
        # A project from the nav, a task in it, moved along its workflow from the project page.
        page.click("nav >> text=Projects")
        page.fill("#project-name", "Harbour essays")
        page.click("button:has-text('Create the project')")
        page.wait_for_selector("h1:has-text('Harbour essays')")
        page.fill("#task-name", "Edit the lantern essay")
        page.click("button:has-text('Add the task')")
        row = page.locator("#tasks tbody tr", has_text="Edit the lantern essay")
        row.wait_for()
        assert "PENDING" in row.inner_text().upper()  # shown as people read it ("Pending")
        row.locator("select[name=status]").select_option("RUNNING")
        row.get_by_role("button", name="Move", exact=True).click()
        page.wait_for_selector("#tasks tbody tr:has-text('RUNNING')")
        _shot(page, "project-tasks")
        # The task on the history page, filtered by its project, and its own page from there.
        page.goto(f"{base}/history")
        page.select_option("#project", label="Harbour essays")
        page.click("#history-filters button[type=submit]")
        page.wait_for_url(re.compile(r".*project=.*"))
        task_row = page.locator("#feed tbody tr", has_text="Edit the lantern essay")
        assert "RUNNING" in task_row.inner_text().upper()
        assert page.locator("#feed tbody tr", has_text="Reviewer").count() == 0
        page.goto(f"{base}/history")
        assert page.locator("#feed tbody tr", has_text="Edit the lantern essay").count() == 1
        assert page.locator("#feed tbody tr", has_text="Reviewer").count() == 1
        page.click("#feed >> text=Edit the lantern essay")
        page.wait_for_selector("#task-status:has-text('RUNNING')")
        page.goto(f"{base}/history")
    finally:
        _shot(page, "hire-journey")
        context.close()


def test_keys_created_once_and_revoked_and_a_member_joins_by_link(
    server: tuple[str, Path], browser: object
) -> None:
    base, data = server
    owner_ctx = browser.new_context()  # type: ignore[attr-defined]
    page = owner_ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    guest_ctx = browser.new_context()  # type: ignore[attr-defined]
    guest = guest_ctx.new_page()
    guest.set_default_timeout(TIMEOUT_MS)
    try:
        _sign_up_and_in(page, base, data, "Grace")
        page.goto(f"{base}/keys")
        page.fill("#key-name", "laptop")
        page.click("button:has-text('Create a key')")
        key = page.locator("#new-key").inner_text()
        assert key.startswith("agora_usr_")
        page.goto(f"{base}/keys")  # shown once: gone on the next visit
        assert page.locator("#new-key").count() == 0
        assert page.locator("#keys tbody tr", has_text="laptop").count() == 1
        page.click("button[aria-label='Revoke laptop']")
        page.wait_for_selector("text=No keys yet")
        # An organization, an invitation link, and a second person joining through it.
        page.goto(f"{base}/organizations")
        page.fill("#org-name", "Lantern Works")
        page.click("button:has-text('Create an organization')")
        page.click("button:has-text('Create an invitation link')")
        link = page.locator("#invite-link").inner_text()
        assert "/invitations/accept?token=" in link
        link = base + link[link.index("/invitations/") :]  # AGORA_PUBLIC_URL is not this port
        _sign_up_and_in(guest, base, data, "Linus")
        guest.goto(link)
        guest.click("button:has-text('Accept the invitation')")
        guest.wait_for_selector("#members")
        assert guest.locator("#members tbody tr", has_text="Linus").count() == 1
        page.reload()
        assert page.locator("#members tbody tr").count() == 2
    finally:
        _shot(page, "keys-and-members-owner")
        _shot(guest, "keys-and-members-guest")
        guest_ctx.close()
        owner_ctx.close()


HOSTILE = (
    "<script>window.__xss = 1</script> [click](javascript:window.__xss=2) "
    '<img src=x onerror="window.__xss=3"> <a href="javascript:window.__xss=4" '
    'onclick="window.__xss=5">link</a>'
)


def test_hostile_description_and_result_render_inert(
    server: tuple[str, Path], browser: object
) -> None:
    base, data = server
    # The agent's own text is untrusted: plant the hostile description on the demo Echo agent.
    with sqlite3.connect(data / "agora.db") as conn:
        conn.execute("UPDATE agents SET description = ? WHERE name = 'Echo'", (HOSTILE,))
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        _sign_up_and_in(page, base, data, "Mallory")
        page.goto(f"{base}/agents?q=echo")
        page.click(".cards .agent a")
        page.wait_for_selector("#hire-form")
        description = page.locator(".description")
        assert description.locator("script, img, [onclick], [onerror]").count() == 0
        assert description.locator("a[href^='javascript']").count() == 0
        for link in description.locator("a").all():
            link.click(no_wait_after=True)
        # The result is untrusted too: Echo returns the text (lower-cased) as its result.
        page.fill("#f-text", HOSTILE)
        page.select_option("#f-mode", "lower")
        page.click("#hire-form button[type=submit]")
        page.wait_for_selector("#job-status:has-text('COMPLETED')")
        page.wait_for_selector("#result")
        result = page.locator("#result")
        assert "window.__xss" in result.inner_text()  # shown as text
        assert result.locator("script, img, [onclick], [onerror]").count() == 0
        assert result.locator("a[href^='javascript']").count() == 0
        for link in result.locator("a").all():
            link.click(no_wait_after=True)
        page.reload()
        assert page.evaluate("typeof window.__xss") == "undefined"
        assert dialogs == []
    finally:
        _shot(page, "hostile-text-inert")
        context.close()


def test_agent_page_facts_and_a_shared_job_for_an_anonymous_visitor(
    server: tuple[str, Path], browser: object
) -> None:
    base, data = server
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    visitor = browser.new_context()  # type: ignore[attr-defined]
    anonymous = visitor.new_page()
    anonymous.set_default_timeout(TIMEOUT_MS)
    try:
        _sign_up_and_in(page, base, data, "Sam")
        # Every gallery card has an availability badge in words.
        badges = page.locator(".cards .agent .availability")
        assert badges.count() == page.locator(".cards .agent").count() >= 2
        for badge in badges.all():
            assert badge.inner_text().split(" ", 1)[1] in (
                "Available",
                "Unavailable",
                "Not checked yet",
            )
        page.goto(f"{base}/agents?q=echo")
        page.click(".cards .agent a")
        page.wait_for_selector("#hire-form")
        for fact in ("#author", "#runs", "#avg-duration"):
            assert page.locator(fact).inner_text().strip()
        _shot(page, "agent-page")
        page.fill("#f-text", "Share **me**")
        page.click("#hire-form button[type=submit]")
        page.wait_for_selector("#job-status:has-text('COMPLETED')")
        # Create the share link; the copy button appears with JavaScript.
        page.reload()
        page.click("#share-form button[type=submit]")
        page.wait_for_selector("#share-url")
        link = page.locator("#share-url").inner_text()
        assert "/shares/" in link
        link = base + link[link.index("/shares/") :]  # AGORA_PUBLIC_URL is not this port
        assert page.locator("button[data-copy=share-url]").is_visible()
        _shot(page, "job-shared")
        # An anonymous visitor sees the shared job, read-only, with the sanitised result.
        anonymous.goto(link)
        anonymous.wait_for_selector("#shared-job #result")
        assert anonymous.locator("#result strong").inner_text() == "ME"
        assert anonymous.locator("#shared-job form, #shared-job button").count() == 0
        _shot(anonymous, "shared-job")
        # Revoked: the link is a 404 page.
        page.once("dialog", lambda dialog: dialog.accept())  # a destructive action asks first
        page.click("button:has-text('Revoke the link')")
        page.wait_for_selector("text=Not shared")
        response = anonymous.goto(link)
        assert response is not None and response.status == 404
    finally:
        _shot(page, "job-share")
        _shot(anonymous, "shared-job-revoked")
        visitor.close()
        context.close()
