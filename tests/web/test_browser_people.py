"""Issue 31, people: an invitation kept through sign-up and confirmation; a member sees no
admin action (and an owner sees them all); a task assigned with the member picker and found in
"My tasks"; refusals that say what to do and link to it. A real headless Chromium against
``agora serve`` (embedded SQLite, demo agents). Marked ``process``."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.server import agora_env, running_agora_serve
from tests.web.test_browser import PASSWORD, _shot, _sign_up_and_in, mailed_link
from tests.web.test_browser_round2 import Page

pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("web-people")
    # New accounts get no credits: an organization's workspace starts empty too.
    env = agora_env(data, AGORA_WELCOME_CREDITS="0", AGORA_DEMO="true")
    with running_agora_serve(env, data / "banner.txt", startup_seconds=120) as base:
        yield base, data


def _mailed_link(data: Path, address: str, path: str) -> str:
    """The path and query of the newest mailed link to ``path`` (the whole link, ``next``
    included), without the host (AGORA_PUBLIC_URL is not the test server's port)."""
    return mailed_link(data, address, path)


def _org_with_link(page: object, base: str, name: str) -> tuple[str, str]:
    """Create an organization from its page and an invitation link: (org path, link path)."""
    p = page
    p.goto(f"{base}/organizations")  # type: ignore[attr-defined]
    p.fill("#org-name", name)  # type: ignore[attr-defined]
    p.click("button:has-text('Create an organization')")  # type: ignore[attr-defined]
    p.wait_for_selector("#my-role")  # type: ignore[attr-defined]
    org_path = re.sub(r"^https?://[^/]+", "", p.url).split("#")[0]  # type: ignore[attr-defined]
    p.click("button:has-text('Create an invitation link')")  # type: ignore[attr-defined]
    link = p.locator("#invite-link").inner_text()  # type: ignore[attr-defined]
    assert "/invitations/accept?token=" in link
    # PRG: the page after the POST is a GET; a reload shows the link no more (shown once).
    p.reload()  # type: ignore[attr-defined]
    assert p.locator("#invite-link").count() == 0  # type: ignore[attr-defined]
    return org_path, link[link.index("/invitations/") :]


def _switch(page: object, label: str) -> None:
    """The account menu's workspace select submits when it changes (app.js)."""
    page.click("#account-menu summary")  # type: ignore[attr-defined]
    with page.expect_navigation():  # type: ignore[attr-defined]
        page.select_option("#workspaceId", label=label)  # type: ignore[attr-defined]
    page.wait_for_load_state()  # type: ignore[attr-defined]


def test_invitation_kept_through_sign_up_then_member_sees_no_admin_action(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    owner, guest = Page(browser), Page(browser)
    try:
        _sign_up_and_in(owner.page, base, data, "Olga")
        org_path, link = _org_with_link(owner.page, base, "Harbour Co")

        # A person without an account opens the link: sign-in first, which says the invitation
        # waits; "Create an account" keeps it through sign-up and the confirmation mail.
        g = guest.page
        g.goto(base + link)
        g.wait_for_url(re.compile(r".*/sign-in\?next=.*"))
        assert "accept your invitation" in g.locator("main .notice").inner_text()
        g.click("#create-account")
        g.wait_for_selector("#invitation-kept")
        address = f"gus-{uuid.uuid4().hex[:6]}@example.com"
        g.fill("#name", "Gus")
        g.fill("#email", address)
        g.fill("#password", PASSWORD)
        g.click("button:has-text('Sign up')")
        g.wait_for_selector("text=Check your mail")
        assert "come back to your invitation" in g.locator("main").inner_text()
        g.goto(base + _mailed_link(data, address, "/verify-email"))
        g.click("button:has-text('Confirm my address')")
        g.wait_for_selector("text=Your address is confirmed")
        g.fill("#email", address)
        g.fill("#password", PASSWORD)
        g.click("main button:has-text('Sign in')")
        g.wait_for_url(re.compile(r".*/invitations/accept\?token=.*"))
        assert "Harbour Co" in g.locator("#invitation-offer").inner_text()
        assert "member" in g.locator("#invitation-offer").inner_text()
        g.click("button:has-text('Accept the invitation')")
        g.wait_for_selector("#my-role")
        assert g.locator("#my-role").inner_text() == "member"

        # The member sees no action an owner or admin takes: no invitations, no role changes,
        # no remove buttons, no organization keys; leaving is theirs.
        main = g.locator("main")
        assert main.locator("text=Create an invitation link").count() == 0
        assert main.locator("#invitations, #invite-email-form, #org-keys").count() == 0
        assert main.locator("#members select, #members button").count() == 0
        assert g.locator("#leave-form").count() == 1
        _shot(g, "organization-member")

        # The owner sees every action: a role select and a remove button for Gus, the
        # invitations (the used link among them); an emailed invitation, then revoked.
        o = owner.page
        o.goto(base + org_path)
        gus = o.locator("#members tbody tr", has_text="Gus")
        assert gus.locator("select").count() == 1 and gus.locator("button.danger").count() == 1
        assert o.locator("#leave-blocked").count() == 1  # the last owner cannot leave
        o.fill("#invite-email", f"ivy-{uuid.uuid4().hex[:6]}@example.com")
        o.click("button:has-text('Mail an invitation')")
        o.wait_for_selector("#invitations-table")
        row = o.locator("#invitations-table tbody tr", has_text="ivy-")
        assert "Open" in row.inner_text()  # its state, in words
        row.locator("button:has-text('Revoke')").click()
        o.wait_for_selector("#invitations-table")
        assert "Revoked" in o.locator("#invitations-table tbody tr", has_text="ivy-").inner_text()
        # Gus promoted to admin: his page now offers invitations (and still no role change).
        gus.locator("select").select_option("admin")
        gus.locator("button:has-text('Change')").click()
        o.wait_for_selector("#members")
        g.reload()
        assert g.locator("#my-role").inner_text() == "admin"
        assert g.locator("#invite-link-form").count() == 1
        assert g.locator("#members select").count() == 0
        _shot(o, "organization-owner")
        # Gus leaves: back to his organizations, Harbour Co gone from them.
        g.click("#leave-form button")
        g.wait_for_url(re.compile(r".*/organizations$"))
        assert g.locator("main", has_text="Harbour Co").count() == 0
        assert owner.problems == [] and guest.problems == []
        assert owner.refused == [] and guest.refused == []
    finally:
        owner.close()
        guest.close()


def test_task_assigned_with_the_member_picker_and_my_tasks(
    site: tuple[str, Path], browser: object
) -> None:
    base, data = site
    owner, member = Page(browser), Page(browser)
    try:
        _sign_up_and_in(owner.page, base, data, "Pia")
        _org_path, link = _org_with_link(owner.page, base, "Pia's Team")
        _sign_up_and_in(member.page, base, data, "Milo")
        m = member.page
        m.goto(base + link)
        m.click("button:has-text('Accept the invitation')")
        m.wait_for_selector("#my-role")

        o = owner.page
        _switch(o, "Pia's Team")
        o.goto(f"{base}/projects")
        o.fill("#project-name", "Launch")
        o.click("#new-project button[type=submit]")
        o.wait_for_selector("#tasks-heading")
        o.fill("#task-name", "Write the notes")
        o.click("#new-task button[type=submit]")
        o.click("text=Write the notes")
        o.wait_for_selector("#task-facts")
        assert o.locator("#task-assignee").inner_text() == "nobody yet"
        # The move select chooses nothing by itself; its words are people's.
        assert o.locator("#move-status").input_value() == ""
        assert o.locator("#move-status option", has_text="Canceled").count() == 1
        # The member picker: the workspace's people (and coworkers, none here).
        options = o.locator("#assign-assignee option").all_inner_texts()
        assert options[0] == "Nobody" and "Milo" in options and "Pia (me)" in options
        o.select_option("#assign-assignee", label="Milo")
        o.click("#assign-task button[type=submit]")
        o.wait_for_selector("#task-facts")
        assert o.locator("#task-assignee").inner_text() == "Milo"
        assert "assigned to Milo" in o.locator("#task-events").inner_text()
        o.select_option("#participant", label="Pia")
        o.click("#add-participant button[type=submit]")
        o.wait_for_selector("#task-facts")
        assert o.locator("#task-participants").inner_text() == "Pia"
        _shot(o, "task-member-picker")

        # Milo's "My tasks" in the team's workspace lists it; Pia's does not.
        _switch(m, "Pia's Team")
        m.click("header a:has-text('My tasks')")
        m.wait_for_selector("#task-list")
        assert m.locator("#task-list tbody tr").all_inner_texts()[0].startswith("Write the notes")
        o.goto(f"{base}/tasks")
        assert o.locator("#task-list").count() == 0
        o.click("#all-tasks")
        o.wait_for_url(re.compile(r".*/tasks\?show=all$"))
        assert o.locator("#task-list tbody tr", has_text="Write the notes").count() == 1
        # History's status filter offers words, each once.
        o.goto(f"{base}/history")
        labels = o.locator("#status option").all_inner_texts()
        assert labels.count("Canceled") == 1 and "CANCELLED" not in labels
        assert "Needs your input" in labels
        assert owner.problems == [] and member.problems == []
    finally:
        owner.close()
        member.close()


def test_refusals_say_what_to_do_and_link_to_it(site: tuple[str, Path], browser: object) -> None:
    base, data = site
    owner, member = Page(browser), Page(browser)
    try:
        _sign_up_and_in(owner.page, base, data, "Rita")
        _org_path, link = _org_with_link(owner.page, base, "Rita's Shop")
        _sign_up_and_in(member.page, base, data, "Sam")
        m = member.page
        m.goto(base + link)
        m.click("button:has-text('Accept the invitation')")
        m.wait_for_selector("#my-role")

        def hire(page: object) -> None:
            page.goto(f"{base}/agents?q=review")  # type: ignore[attr-defined]
            page.click("text=Reviewer")  # type: ignore[attr-defined]
            page.fill("#f-text", "An essay about lighthouses.")  # type: ignore[attr-defined]
            page.click("#hire-form button[type=submit]")  # type: ignore[attr-defined]
            page.wait_for_selector("#err-form")  # type: ignore[attr-defined]

        # A new account has no credits: the refusal says to buy some and links there, back to
        # the agent afterwards.
        o = owner.page
        hire(o)
        step = o.locator("#buy-prompt")
        assert "Buy credits, then try again" in step.inner_text()
        href = step.locator("a").get_attribute("href") or ""
        assert href.startswith("/credits/buy?next=/agents/")
        _shot(o, "refusal-buy-credits")
        step.locator("a").click()
        o.wait_for_url(re.compile(r".*/credits/buy\?next=.*"))

        # A member of an organization cannot buy its credits: the step is to ask an owner or
        # admin, with a link to the members.
        _switch(m, "Rita's Shop")
        hire(m)
        step = m.locator("#buy-prompt")
        assert "owners and admins buy its credits" in step.inner_text()
        step.locator("a").click()
        m.wait_for_selector("#members")
        assert m.locator("#members tbody tr", has_text="owner").count() == 1

        # The error page too: another workspace's (or no) task → where to go instead.
        m.goto(f"{base}/tasks/{uuid.uuid4()}")
        m.locator("#next-step a").click()
        m.wait_for_url(re.compile(r".*/history$"))
        _shot(m, "refusal-member")
        assert owner.problems == []
        assert [p for p in member.problems if not p.startswith("404 GET")] == []
        assert len(owner.refused) == 1 and len(member.refused) == 1  # the two 402 hires
    finally:
        owner.close()
        member.close()
