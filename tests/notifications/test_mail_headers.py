"""Every mail Agora sends carries ``Date`` (RFC 5322 §3.6.1: required) and ``Message-ID``
(§3.6.4) under the sender's domain; and no name anyone chooses (job, agent, organization,
person) can add a header or a recipient through a line break, whichever break it is: each path
is driven over HTTP and read back from a real SMTP server on loopback (aiosmtpd)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import parsedate_to_datetime

import httpx2
import pytest
from fastapi import FastAPI

from agora.kit.money import to_base
from agora.notifications.worker import NotificationSender
from agora.sandbox.protocol import Step
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import submission
from tests.jobs.helpers import create, dispatcher, echo, fast_settings, register
from tests.support.agents import LoopbackAgents
from tests.support.smtp import Inbox, smtp_server, smtp_settings

SENDER_DOMAIN = "mail.agora.example"
# Every line break str.splitlines() knows (what email.policy refuses in a header value).
BREAKS = ["\r\n", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]
INJECTED = "Bcc: victim@evil.example"


@pytest.fixture
def smtp_inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as server:
        yield server


@pytest.fixture
def settings(settings: Settings, smtp_inbox: tuple[Inbox, int]) -> Settings:
    """The app's own mail (sign-up, invitations) and the sender's go to the SMTP capture."""
    return smtp_settings(fast_settings(settings), smtp_inbox[1]).with_changes(
        mail_from=f"Agora <no-reply@{SENDER_DOMAIN}>"
    )


async def arrived(inbox: Inbox, count: int, sender: NotificationSender | None = None) -> None:
    """Until ``count`` mails arrived (the sender run meanwhile), bounded in time."""
    deadline = time.monotonic() + 5.0
    while len(inbox.messages) < count:
        assert time.monotonic() < deadline, f"{len(inbox.messages)} of {count} mails arrived"
        if sender is not None:
            await sender.run_once()
        await asyncio.sleep(0.02)


def assert_one_clean_header_block(inbox: Inbox, index: int, to: str) -> EmailMessage:
    """The mail went to ``to`` only, and nothing a name carried became a header."""
    mail, raw = inbox.messages[index], inbox.raw[index]
    assert inbox.recipients[index] == [to]
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert not re.search(rb"^bcc:", head, re.I | re.M), head
    assert mail["Bcc"] is None
    subject = str(mail["Subject"])
    assert not any(b in subject for b in BREAKS), repr(subject)
    return mail


async def failing_job(
    app: FastAPI,
    client: httpx2.AsyncClient,
    agents_server: LoopbackAgents,
    user: TestUser,
    name: str,
) -> None:
    agent_id = await register(app, agents_server, echo(step=lambda _job: Step("failed")))
    created = await create(
        client, user.key_headers, agent_id, {"inputData": {"text": "hi"}, "name": name}
    )
    assert created.status_code == 201, created.text
    await dispatcher(app).run_until_idle(5)


async def test_every_mail_has_a_date_and_a_message_id_of_the_senders_domain(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    smtp_inbox: tuple[Inbox, int],
) -> None:
    inbox, _port = smtp_inbox
    signed_up = await client.post(
        "/v1/auth/sign-up",
        json={"email": "dana@example.com", "password": "violet-harbour-71-kettle", "name": "Dana"},
    )
    assert signed_up.status_code == 201, signed_up.text
    await arrived(inbox, 1)  # the account's verification mail (kit/mail through the app)
    user = await make_user(credits=to_base(10))
    await failing_job(app, client, agents_server, user, "Nightly")
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        await arrived(inbox, 2, sender)  # a notification mail (the sender)
    finally:
        await sender.stop()
    ids = set()
    for mail, raw in zip(inbox.messages, inbox.raw, strict=True):
        sent = parsedate_to_datetime(str(mail["Date"]))
        # RFC 5322 §3.3 date-time in UTC ("+0000": "GMT" is its obsolete zone)
        assert re.search(rb"^Date: \w{3}, \d{2} \w{3} \d{4} [\d:]{8} \+0000\r$", raw, re.M)
        assert abs(datetime.now(UTC) - sent) < timedelta(minutes=1)
        message_id = str(mail["Message-ID"])
        assert re.fullmatch(rf"<[^@<>\s]+@{re.escape(SENDER_DOMAIN)}>", message_id), message_id
        ids.add(message_id)
    assert len(ids) == 2


@pytest.mark.parametrize("line_break", BREAKS, ids=[f"U+{ord(b[0]):04X}" for b in BREAKS])
async def test_a_job_name_with_a_line_break_adds_no_header_to_its_mail(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    smtp_inbox: tuple[Inbox, int],
    line_break: str,
) -> None:
    inbox, _port = smtp_inbox
    user = await make_user(credits=to_base(10))
    await failing_job(app, client, agents_server, user, f"Report{line_break}{INJECTED}")
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        await arrived(inbox, 1, sender)
    finally:
        await sender.stop()
    mail = assert_one_clean_header_block(inbox, 0, user.email)
    assert str(mail["Subject"]) == f"“Report {INJECTED}” failed"


async def test_an_agent_name_with_a_line_break_adds_no_header_to_the_review_mail(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    admin: TestUser,
    agents_server: LoopbackAgents,
    smtp_inbox: tuple[Inbox, int],
) -> None:
    inbox, _port = smtp_inbox
    developer = await make_user(name="Dev")
    body = submission(agents_server.serve(echo()), name=f"Summariser\r\n{INJECTED}")
    created = await client.post("/v1/developer/agents", json=body, headers=developer.bearer_headers)
    assert created.status_code == 201, created.text
    approved = await client.post(
        f"/v1/admin/agents/{created.json()['data']['id']}/approve",
        json={"reason": "Looks good"},
        headers=admin.bearer_headers,
    )
    assert approved.status_code == 200, approved.text
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        await arrived(inbox, 1, sender)
    finally:
        await sender.stop()
    mail = assert_one_clean_header_block(inbox, 0, developer.email)
    assert str(mail["Subject"]) == f"Your agent “Summariser {INJECTED}” was approved"


async def invite(
    client: httpx2.AsyncClient, owner: TestUser, org_name: str, email: str
) -> httpx2.Response:
    org = await client.post("/v1/organizations", json={"name": org_name}, headers=owner.key_headers)
    assert org.status_code == 201, org.text
    return await client.post(
        f"/v1/organizations/{org.json()['data']['id']}/invitations",
        json={"email": email, "role": "member"},
        headers=owner.key_headers,
    )


async def test_an_organization_name_with_a_line_break_adds_no_header_to_the_invitation(
    client: httpx2.AsyncClient, make_user: MakeUser, smtp_inbox: tuple[Inbox, int]
) -> None:
    inbox, _port = smtp_inbox
    owner = await make_user()
    invited = await invite(client, owner, f"Acme\r\n{INJECTED}", "new.person@example.com")
    assert invited.status_code == 201, invited.text
    await arrived(inbox, 1)  # the invitation mail, sent by the app after commit
    mail = assert_one_clean_header_block(inbox, 0, "new.person@example.com")
    assert str(mail["Subject"]) == f"Join Acme {INJECTED} on Agora"


async def test_a_persons_name_with_a_line_break_adds_no_header_to_the_invitation_notice(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    smtp_inbox: tuple[Inbox, int],
) -> None:
    inbox, _port = smtp_inbox
    owner, invitee = await make_user(), await make_user()
    renamed = await client.patch(
        "/v1/users/me", json={"name": f"Eve\u2028{INJECTED}"}, headers=owner.key_headers
    )
    assert renamed.status_code == 200, renamed.text
    mail_on = await client.put(  # the invitation notice by mail too (its inbox default only)
        "/v1/notifications/preferences",
        json={"preferences": [{"kind": "org.invitation", "mail": True}]},
        headers=invitee.key_headers,
    )
    assert mail_on.status_code == 200, mail_on.text
    invited = await invite(client, owner, "Acme", invitee.email)
    assert invited.status_code == 201, invited.text
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        await arrived(inbox, 2, sender)  # the invitation mail and the notice's mail
    finally:
        await sender.stop()
    by_subject: dict[str, int] = {str(m["Subject"]): i for i, m in enumerate(inbox.messages)}
    notice = f"Eve {INJECTED} invites you to Acme"
    assert set(by_subject) == {"Join Acme on Agora", notice}
    assert_one_clean_header_block(inbox, by_subject[notice], invitee.email)
    assert_one_clean_header_block(inbox, by_subject["Join Acme on Agora"], invitee.email)
