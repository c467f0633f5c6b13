"""Web pages of notifications: the inbox (/notifications), the settings page
(/settings/notifications: each kind and channel) and the one-click unsubscribe link of mails
(/notifications/unsubscribe, RFC 8058: it works without sign-in, through a signed token)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth.dependencies import SessionDep, SettingsDep, public
from agora.auth.principal import Principal
from agora.kit.units import UnitOfWorkRoute
from agora.notifications import kinds as registry
from agora.notifications import service as notifications
from agora.notifications import unsubscribe as tokens
from agora.notifications.bell import open_bell
from agora.notifications.schemas import PreferenceIn
from agora.web.shell import SignedInDep, posted, render, text, toasted

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


async def header(session: AsyncSession, principal: Principal) -> dict[str, Any]:
    """The bell's unread count (web/shell.py, ``Layout``)."""
    return {"unread": await notifications.unread_count(session, principal)}


Token = Annotated[str | None, Query(max_length=500)]


@router.get("/notifications")
async def inbox_page(
    request: Request,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
    cursor: Token = None,
    unread: bool = False,
) -> HTMLResponse:
    page = await notifications.list_notifications(
        session, principal, secret=settings.resolved_secret_key(), unread=unread, cursor=cursor
    )
    return await render(
        request, session, principal, "notifications.html", page=page.page(), unread=unread
    )


@router.get("/notifications/stream")
async def bell(request: Request, principal: SignedInDep) -> StreamingResponse:
    """The header bell's unread count, live (server-sent events: ``event: unread``)."""
    address = request.client.host if request.client else "unknown"
    return await open_bell(request.app.state.job_streams, principal, address)


@router.post("/notifications/read-all")
async def read_all(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    await posted(request)
    await notifications.mark_all_read(session, principal)
    return toasted(request, "/notifications", "read-all")


@router.get("/settings/notifications")
async def settings_page(
    request: Request, session: SessionDep, principal: SignedInDep
) -> HTMLResponse:
    prefs = await notifications.preferences(session, principal)
    endpoints = await notifications.list_endpoints(session, principal)
    return await render(
        request,
        session,
        principal,
        "notification_settings.html",
        prefs=prefs,
        endpoints=endpoints,
    )


@router.post("/settings/notifications")
async def save_settings(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    form = await posted(request)
    changes = [
        PreferenceIn(
            kind=kind,
            inbox=text(form, f"{kind}:{registry.INBOX}", 10) == "on",
            mail=text(form, f"{kind}:{registry.MAIL}", 10) == "on",
        )
        for kind in registry.KINDS
    ]
    await notifications.set_preferences(session, principal, changes)
    return toasted(request, "/settings/notifications", "saved")


@router.post("/settings/notifications/webhooks/{endpoint_id}/enable")
async def enable_webhook_endpoint(
    request: Request, endpoint_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await posted(request)
    await notifications.enable_endpoint(session, principal, endpoint_id)
    return RedirectResponse("/settings/notifications#webhooks", status_code=303)


@router.get(tokens.PATH)
@public
async def unsubscribe_page(
    request: Request, session: SessionDep, token: Token = None
) -> HTMLResponse:
    """An interstitial (a mail scanner following the link changes nothing): a button that
    POSTs. Mail clients use the one-click POST (List-Unsubscribe-Post) directly."""
    return await render(
        request, session, None, "token.html", token=token or "",
        action=f"{tokens.PATH}?token={token or ''}", title="Stop these mails",
        button="Unsubscribe",
    )  # fmt: skip


@router.post(tokens.PATH)
@public
async def unsubscribe(
    request: Request, session: SessionDep, settings: SettingsDep, token: Token = None
) -> HTMLResponse:
    """RFC 8058 one-click: ``POST <link>`` with ``List-Unsubscribe=One-Click`` (or the page's
    button). Turns off that kind's mail only."""
    form = await request.form(max_files=0, max_fields=10)
    given = token or text(form, "token", 500)
    user_id, kind = tokens.read_token(settings.resolved_secret_key(), given)
    description = await notifications.unsubscribe(session, user_id, kind)
    return await render(
        request, session, None, "unsubscribed.html", kind=kind, description=description
    )
