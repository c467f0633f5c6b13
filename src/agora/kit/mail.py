"""Outgoing mail through one sender interface.

- ``FolderSender`` (offline, the default): writes each message to ``<data_dir>/mail/`` as an
  ``.eml`` file (mode 0600) and logs one line with the recipient, the subject and the file — never
  the body: its links are secrets (sign-in, reset) and logs travel further than the data folder.
  The demo and the tests follow the links from the folder.
- ``SmtpSender`` (production): aiosmtplib, STARTTLS or implicit TLS, with a timeout.

Send only after the transaction committed and never inside one (``kit.db.on_commit``): a mail
for work that rolled back must not go out, and a slow mail server must not hold a database lock.

Every message carries ``Date`` (RFC 5322 §3.6.1: required) and ``Message-ID`` (§3.6.4) under the
sender's domain, made when it is sent. Header rule: text that people chose (job, agent, schedule
and organization names, people's names) reaches a header only through ``header_text``, which
turns every line break ``str.splitlines`` knows (CR, LF, VT, FF, FS, GS, RS, NEL, U+2028/U+2029)
and every other control character into a space, so it can never start a header of its own; and
``email.policy.SMTP`` refuses any header value that still holds one (ValueError, a failed
delivery, never a sent mail).
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from pathlib import Path
from typing import Protocol

import aiosmtplib
import structlog

from agora.kit.ids import uuid7

log = structlog.get_logger(__name__)

# C0 and C1 controls, DEL, and the Unicode line and paragraph separators (U+2028, U+2029):
# together a superset of what ``str.splitlines`` (and so ``email.policy``) treats as a line break.
_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def header_text(text: str) -> str:
    """``text`` for one header line: line breaks and control characters become one space."""
    return _BREAKS.sub(" ", text).strip()


def sender_domain(sender: str) -> str:
    """The domain of the From address (``Agora <no-reply@agora.example>``: agora.example), for
    Message-ID; "localhost" when it has none."""
    _name, address = parseaddr(sender)
    domain = address.rpartition("@")[2]
    return domain or "localhost"


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    text: str
    html: str | None = None  # an HTML alternative to ``text``
    headers: tuple[tuple[str, str], ...] = ()  # e.g. List-Unsubscribe (RFC 8058)

    def message(self, sender: str) -> EmailMessage:
        """The message as sent now (its ``Date`` and ``Message-ID``). Raises ValueError when an
        address or a header value holds a line break (``email.policy``)."""
        message = EmailMessage(policy=policy.SMTP)
        message["From"] = sender
        message["To"] = self.to
        message["Subject"] = header_text(self.subject)
        # UTC; the policy writes its zone "+0000" (RFC 5322 §3.3: "GMT" is the obsolete form)
        message["Date"] = formatdate(localtime=False, usegmt=True)
        message["Message-ID"] = make_msgid(domain=sender_domain(sender))
        for name, value in self.headers:
            message[name] = value
        message.set_content(self.text)
        if self.html is not None:
            message.add_alternative(self.html, subtype="html")
        return message


class MailSender(Protocol):
    async def send(self, mail: Mail) -> None: ...


class FolderSender:
    def __init__(self, folder: Path, sender: str) -> None:
        self.folder = folder
        self.sender = sender

    async def send(self, mail: Mail) -> None:
        path = await asyncio.to_thread(self._write, mail)
        log.info("mail_written", to=mail.to, subject=mail.subject, path=str(path))

    def _write(self, mail: Mail) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{uuid7()}.eml"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(bytes(mail.message(self.sender)))
        return path


@dataclass(frozen=True)
class SmtpConfig:
    sender: str
    hostname: str
    port: int
    username: str | None
    password: str | None
    start_tls: bool
    use_tls: bool
    timeout_seconds: float


class SmtpSender:
    def __init__(self, config: SmtpConfig) -> None:
        self.config = config

    async def send(self, mail: Mail) -> None:
        c = self.config
        await aiosmtplib.send(
            mail.message(c.sender),
            hostname=c.hostname,
            port=c.port,
            username=c.username,
            password=c.password,
            start_tls=c.start_tls,
            use_tls=c.use_tls,
            timeout=c.timeout_seconds,
        )
        log.info("mail_sent", to=mail.to, subject=mail.subject)
