"""Reading the offline sender's folder, the way the demo and a person would follow a link."""

from __future__ import annotations

import re
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import httpx2

from agora.settings import Settings

STRONG_PASSWORD = "violet-harbour-71-kettle"
_LINK = re.compile(r"https?://\S+\?token=([A-Za-z0-9_\-]+)")


def mails_to(settings: Settings, address: str) -> list[EmailMessage]:
    folder = settings.data_dir / "mail"
    found = []
    for path in sorted(folder.glob("*.eml")) if folder.exists() else []:
        message = message_from_bytes(Path(path).read_bytes(), policy=default)
        assert isinstance(message, EmailMessage)
        if message["To"] == address:
            found.append(message)
    return found


def all_mail_text(settings: Settings) -> str:
    return "".join(p.read_text() for p in sorted((settings.data_dir / "mail").glob("*.eml")))


def last_link(settings: Settings, address: str, subject: str) -> tuple[str, str]:
    """(url, token) of the newest mail to ``address`` whose subject contains ``subject``."""
    mails = [m for m in mails_to(settings, address) if subject in str(m["Subject"])]
    assert mails, f"no mail '{subject}' to {address}"
    body = mails[-1].get_body(("plain",))
    assert body is not None
    match = _LINK.search(body.get_content())
    assert match, "no link in the mail"
    return match.group(0), match.group(1)


async def sign_up_verified(
    client: httpx2.AsyncClient, settings: Settings, email: str, name: str = "Person"
) -> dict[str, str]:
    """Sign up, verify from the mail folder, sign in; returns cookie-session headers."""
    signed_up = await client.post(
        "/v1/auth/sign-up", json={"email": email, "password": STRONG_PASSWORD, "name": name}
    )
    assert signed_up.status_code == 201, signed_up.text
    _, token = last_link(settings, email, "Confirm")
    verified = await client.post("/v1/auth/verify-email", json={"token": token})
    assert verified.status_code == 200, verified.text
    return await sign_in(client, email)


async def sign_in(client: httpx2.AsyncClient, email: str) -> dict[str, str]:
    client.cookies.clear()
    response = await client.post(
        "/v1/auth/sign-in", json={"email": email, "password": STRONG_PASSWORD}
    )
    assert response.status_code == 200, response.text
    return {"X-CSRF-Token": response.json()["data"]["csrfToken"]}
