"""Outgoing mail through one sender interface.

- ``FolderSender`` (offline, the default): writes each message to ``<data_dir>/mail/`` as an
  ``.eml`` file (mode 0600) and logs one line with the recipient, the subject and the file — never
  the body: its links are secrets (sign-in, reset) and logs travel further than the data folder.
  The demo and the tests follow the links from the folder.
- ``SmtpSender`` (production): aiosmtplib, STARTTLS or implicit TLS, with a timeout.

Send only after the transaction committed and never inside one (``kit.db.on_commit``): a mail
for work that rolled back must not go out, and a slow mail server must not hold a database lock.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

import aiosmtplib
import structlog

from agora.kit.ids import uuid7

log = structlog.get_logger(__name__)


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    text: str
    html: str | None = None  # an HTML alternative to ``text``
    headers: tuple[tuple[str, str], ...] = ()  # e.g. List-Unsubscribe (RFC 8058)

    def message(self, sender: str) -> EmailMessage:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = self.to
        message["Subject"] = self.subject
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
