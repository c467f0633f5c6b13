"""What the accounts' doors (REST and pages) take from a request: the mail sender, the attempt
limiter and the ``Context`` the account use cases need."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from agora.accounts import service
from agora.accounts.mailer import build_sender
from agora.auth.dependencies import SettingsDep
from agora.kit.attempts import AttemptLimiter
from agora.kit.mail import MailSender

ACCEPTED = "If the address has an account, a mail is on its way."


def mail_sender(request: Request) -> MailSender:
    """The app's mail sender (tests and embedders may put their own in app.state.mail_sender)."""
    sender: MailSender | None = getattr(request.app.state, "mail_sender", None)
    if sender is None:
        sender = build_sender(request.app.state.settings)
        request.app.state.mail_sender = sender
    return sender


def attempt_limiter(request: Request) -> AttemptLimiter:
    limiter: AttemptLimiter | None = getattr(request.app.state, "attempt_limiter", None)
    if limiter is None:
        settings = request.app.state.settings
        limiter = AttemptLimiter(settings.redis_url, f"{settings.rate_limit_key_prefix}-attempts")
        request.app.state.attempt_limiter = limiter
    return limiter


async def context(request: Request, settings: SettingsDep) -> service.Context:
    return service.Context(
        settings=settings,
        mailer=mail_sender(request),
        attempts=attempt_limiter(request),
        client_address=request.client.host if request.client else "unknown",
        user_agent=request.headers.get("user-agent", ""),
    )


ContextDep = Annotated[service.Context, Depends(context)]
