"""The mail sender the settings choose (kit.mail knows no settings): the notification sender's,
and the one account mails (sign-up, sign-in links, invitations) go through."""

from __future__ import annotations

from pathlib import Path

from agora.kit.mail import FolderSender, MailSender, SmtpConfig, SmtpSender
from agora.settings import Settings


def mail_folder(settings: Settings) -> Path:
    return settings.data_dir / "mail"


def build_sender(settings: Settings) -> MailSender:
    if settings.mail_backend == "smtp":
        return SmtpSender(
            SmtpConfig(
                sender=settings.mail_from,
                hostname=settings.smtp_host,
                port=settings.smtp_port,
                username=settings.smtp_username,
                password=settings.smtp_password,
                start_tls=settings.smtp_starttls and not settings.smtp_tls,
                use_tls=settings.smtp_tls,
                timeout_seconds=settings.smtp_timeout_seconds,
            )
        )
    if settings.mail_backend != "folder":
        raise ValueError("AGORA_MAIL_BACKEND must be 'folder' or 'smtp'")
    return FolderSender(mail_folder(settings), settings.mail_from)
