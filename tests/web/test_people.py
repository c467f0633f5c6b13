"""Issue 31 through HTTP on both databases: an invitation kept through sign-up and the
confirmation link; organization pages that show each action only to whom the roles table allows
it (and the services refuse the rest); refusals with their next step."""

from __future__ import annotations

import re
from urllib.parse import unquote

import httpx2
from fastapi import FastAPI

from agora.auth.roles import ROLES, Allowed, OrgAction, may_invite_as, may_remove, role_allows
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, mails_to
from tests.jobs.helpers import register, reviewer
from tests.support.agents import LoopbackAgents
from tests.web.test_pages import _csrf, _sign_up_in


def test_allowed_reads_the_roles_table() -> None:
    for role in ROLES:
        can = Allowed(role)
        for action in OrgAction:
            assert can.to(action) == role_allows(role, action) == can.to(action.value)
        for target in ROLES:
            assert can.remove(target) == may_remove(role, target)
    assert Allowed("owner").invite_roles == ("member", "admin", "owner")
    assert Allowed("admin").invite_roles == ("member", "admin")
    assert Allowed("member").invite_roles == ()
    assert not may_invite_as("admin", "owner") and not may_remove("admin", "owner")


async def test_invitation_kept_through_sign_up_and_confirmation(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "host@example.com")
    org_path = (await client.post("/organizations", data={"csrf": csrf, "name": "Dock"})).headers[
        "location"
    ]
    await client.post(f"{org_path}/invitations", data={"csrf": csrf, "role": "admin"})
    shown = (await client.get(org_path)).text
    link = re.search(r'id="invite-link">[^<]*(/invitations/accept\?token=[^<]+)</code>', shown)
    assert link
    invite = link.group(1)
    client.cookies.clear()  # a new person, signed out

    to_sign_in = await client.get(invite)
    assert to_sign_in.status_code == 303
    sign_in = await client.get(to_sign_in.headers["location"])
    assert "accept your invitation" in sign_in.text
    create = re.search(r'href="(/sign-up\?next=[^"]+)" id="create-account"', sign_in.text)
    assert create, "the sign-in page's Create an account keeps the invitation"
    sign_up = await client.get(create.group(1).replace("&amp;", "&"))
    assert 'id="invitation-kept"' in sign_up.text
    kept = re.search(r'name="next" value="([^"]+)"', sign_up.text)
    assert kept and kept.group(1).replace("&amp;", "&") == invite
    done = await client.post(
        "/sign-up",
        data={
            "csrf": "", "name": "Newcomer", "email": "new@example.com",
            "password": STRONG_PASSWORD, "next": invite,
        },
    )  # fmt: skip
    assert done.status_code == 200 and "come back to your invitation" in done.text
    url, token = last_link(settings, "new@example.com", "Confirm")
    mailed = re.search(r"\?token=[^&\s]+&next=(\S+)", open_mail_link(url, settings))
    assert mailed and unquote(mailed.group(1)) == invite
    landing = await client.get(f"/verify-email?token={token}&next={mailed.group(1)}")
    assert 'name="next"' in landing.text
    verified = await client.post("/verify-email", data={"token": token, "next": invite})
    assert verified.status_code == 303
    back = verified.headers["location"]
    assert (
        back.startswith("/sign-in?verified=1&next=") and unquote(back.split("next=")[1]) == invite
    )
    signed = await client.post(
        "/sign-in",
        data={"csrf": "", "email": "new@example.com", "password": STRONG_PASSWORD, "next": invite},
    )
    assert signed.headers["location"] == invite
    offer = await client.get(invite)
    assert "Dock" in offer.text and "<strong>admin</strong>" in offer.text
    new_csrf = _csrf(offer.text)
    token_value = invite.split("token=", 1)[1]
    accepted = await client.post(
        "/invitations/accept", data={"csrf": new_csrf, "token": token_value}
    )
    assert accepted.status_code == 303 and accepted.headers["location"] == org_path
    again = await client.get(invite)  # used up: said so, with what to do
    assert again.status_code == 400 and "Ask the person who invited you" in again.text


def open_mail_link(url: str, settings: Settings) -> str:
    """The whole link as mailed (``last_link`` stops at the token)."""
    for mail in reversed(mails_to(settings, "new@example.com")):
        body = mail.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        if url in text:
            return text
    raise AssertionError("no such mail")


async def test_members_see_no_admin_action_and_the_api_agrees(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    owner_csrf = await _sign_up_in(client, settings, "boss@example.com")
    org_path = (
        await client.post("/organizations", data={"csrf": owner_csrf, "name": "Mill"})
    ).headers["location"]
    await client.post(f"{org_path}/invitations", data={"csrf": owner_csrf, "role": "member"})
    page = (await client.get(org_path)).text
    invite = re.search(r"(/invitations/accept\?token=[^<]+)</code>", page)
    assert invite
    for action in ("Create an invitation link", "Mail an invitation", 'id="leave-blocked"'):
        assert action in page
    client.cookies.clear()
    csrf = await _sign_up_in(client, settings, "hand@example.com")
    token = invite.group(1).split("token=", 1)[1]
    joined = await client.post("/invitations/accept", data={"csrf": csrf, "token": token})
    assert joined.status_code == 303
    mine = await client.get(org_path)
    assert '<strong id="my-role">member</strong>' in mine.text
    for hidden in (
        "Create an invitation link", "Mail an invitation", 'id="invitations-table"',
        "/role\"", "/remove\"", 'id="org-keys"',
    ):  # fmt: skip
        assert hidden not in mine.text, hidden
    assert 'id="leave-form"' in mine.text
    # What the page hides, the services refuse (the same table): 403 with its next step.
    forced = await client.post(f"{org_path}/invitations", data={"csrf": csrf, "role": "member"})
    assert forced.status_code == 403
    assert 'id="next-step"' in forced.text and f'href="{org_path}"' in forced.text
    members = (await client.get(f"/v1/organizations/{org_path.rsplit('/', 1)[1]}/members")).json()
    boss = next(m for m in members["data"] if m["role"] == "owner")
    removing = await client.post(f"{org_path}/members/{boss['userId']}/remove", data={"csrf": csrf})
    assert removing.status_code == 403
    left = await client.post(f"{org_path}/leave", data={"csrf": csrf})
    assert left.status_code == 303 and left.headers["location"] == "/organizations"
    assert (await client.get(org_path)).status_code == 404


async def test_a_refused_hire_links_to_buying_credits(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, reviewer(), price=2)
    csrf = await _sign_up_in(client, settings, "broke@example.com")
    await client.post("/organizations", data={"csrf": csrf, "name": "Empty Purse"})
    orgs = (await client.get("/v1/organizations", headers={"X-CSRF-Token": csrf})).json()["data"]
    switched = await client.post(  # an organization's workspace starts without credits
        "/workspace", data={"csrf": csrf, "workspaceId": orgs[0]["workspaceId"]}
    )
    assert switched.status_code == 303
    refused = await client.post(
        f"/agents/{agent_id}/hire", data={"csrf": csrf, "in.text": "words", "maxCredits": "5"}
    )
    assert refused.status_code == 402
    assert 'id="buy-prompt"' in refused.text and "Buy credits, then try again" in refused.text
    assert f'href="/credits/buy?next=/agents/{agent_id}"' in refused.text
    missing = await client.get("/tasks/00000000-0000-0000-0000-000000000000")
    assert missing.status_code == 404 and 'href="/history"' in missing.text
