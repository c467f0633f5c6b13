"""What doors take from a request about accounts: the mail sender, the attempt limiter, the
``Context`` the account use cases need, and the operator of a console page (``OperatorDep``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from agora.accounts import service
from agora.auth.dependencies import SessionDep, SettingsDep
from agora.auth.principal import Principal
from agora.kit.attempts import AttemptLimiter
from agora.kit.mail import MailSender
from agora.notifications.mailer import build_sender
from agora.web.shell import SignedInDep

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
        limiter = AttemptLimiter(settings.redis_url, f"{settings.rate_limit.key_prefix}-attempts")
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


async def _operator(
    session: SessionDep, settings: SettingsDep, principal: SignedInDep
) -> Principal:
    """An operator's session (404 for anyone else: the console does not exist for them)."""
    await service.require_operator(session, settings, principal, acting=False)
    return principal


OperatorDep = Annotated[Principal, Depends(_operator)]
