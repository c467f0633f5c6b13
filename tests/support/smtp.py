"""A real SMTP server on loopback (aiosmtpd 1.4, RFC 5321 DATA) that keeps what it accepts,
parsed as a mail client reads it (``email.policy.default``): tests/notifications' ``smtp``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

from agora.settings import Settings
from tests.support.server import free_port


class Inbox:
    """aiosmtpd handler: refuses the first ``failures`` messages (451), then keeps them (parsed,
    as sent, and the envelope's recipients)."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.refused = 0
        self.messages: list[EmailMessage] = []
        self.raw: list[bytes] = []
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        if self.refused < self.failures:
            self.refused += 1
            return "451 Try again later"
        content = envelope.content
        assert isinstance(content, bytes)
        parsed = message_from_bytes(content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        self.raw.append(content)
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"


@contextmanager
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def smtp_settings(settings: Settings, port: int) -> Settings:
    return settings.with_changes(
        mail_backend="smtp",
        smtp_host="127.0.0.1",
        smtp_port=port,
        smtp_starttls=False,
        smtp_timeout_seconds=5.0,
    )
