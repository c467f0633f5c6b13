"""The mail sender the settings choose (kit.mail knows no settings): the notification sender's,
and the one account mails (sign-up, sign-in links, invitations) go through."""

from __future__ import annotations

from pathlib import Path

from agora.kit.mail import FolderSender, MailSender, SmtpConfig, SmtpSender
from agora.settings import Settings


def mail_folder(settings: Settings) -> Path:
    return settings.data_dir / "mail"


def build_sender(settings: Settings) -> MailSender:
    if settings.mail.backend == "smtp":
        return SmtpSender(
            SmtpConfig(
                sender=settings.mail.sender,
                hostname=settings.mail.smtp_host,
                port=settings.mail.smtp_port,
                username=settings.mail.smtp_username,
                password=settings.mail.smtp_password,
                start_tls=settings.mail.smtp_starttls and not settings.mail.smtp_tls,
                use_tls=settings.mail.smtp_tls,
                timeout_seconds=settings.mail.smtp_timeout_seconds,
            )
        )
    if settings.mail.backend != "folder":
        raise ValueError("AGORA_MAIL_BACKEND must be 'folder' or 'smtp'")
    return FolderSender(mail_folder(settings), settings.mail.sender)
