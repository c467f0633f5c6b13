"""The "Your data" settings page (docs/web.md, docs/accounts.md): ask for an export of
everything Agora holds about you (mailed as a one-time link, downloaded here signed in), and
delete your account (confirmed by mail; refused while you are an organization's only owner).
The mailed links land on interstitials whose button POSTs, so a mail scanner spends nothing."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse

from agora.accounts.dependencies import ContextDep
from agora.auth.dependencies import SessionDep, public
from agora.auth.principal import Principal
from agora.files import service as files
from agora.kit.errors import AgoraError, Conflict
from agora.kit.units import UnitOfWorkRoute
from agora.users import privacy
from agora.users.endpoints import zip_response
from agora.web.shell import SignedInDep, Text, posted, render, text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)

PAGE = "/settings/data"


async def _page(
    request: Request,
    session: SessionDep,
    principal: Principal,
    *,
    error: str = "",
    notice: str = "",
    status_code: int = 200,
) -> HTMLResponse:
    exports = await privacy.list_exports(session, principal)
    deletion = await privacy.deletion_status(session, principal)
    grace = request.app.state.settings.accounts.account_deletion_grace_days
    return await render(
        request, session, principal, "settings_data.html", status_code, exports=exports,
        deletion=deletion, grace_days=f"{grace:g}", error=error, notice=notice,
    )  # fmt: skip


@router.get(PAGE)
async def data_page(
    request: Request, session: SessionDep, principal: SignedInDep, done: Text = None
) -> HTMLResponse:
    notices = {
        "export": "Your export is being prepared: we will mail you a link.",
        "delete": "We mailed you a link: follow it to confirm deleting your account.",
        "cancel": "Your account will not be deleted.",
    }
    return await _page(request, session, principal, notice=notices.get(done or "", ""))


@router.post(f"{PAGE}/export")
async def request_export(request: Request, session: SessionDep, principal: SignedInDep) -> Response:
    await posted(request)
    await privacy.request_export(session, principal)
    return RedirectResponse(f"{PAGE}?done=export", status_code=303)


@router.get(privacy.WEB_EXPORT_DOWNLOAD)
async def download_page(
    request: Request, session: SessionDep, principal: SignedInDep, token: Text = None
) -> HTMLResponse:
    return await render(
        request, session, principal, "token.html", token=token or "",
        action=privacy.WEB_EXPORT_DOWNLOAD, title="Download your data",
        button="Download the ZIP", next="",
    )  # fmt: skip


@router.post(privacy.WEB_EXPORT_DOWNLOAD)
async def download(
    request: Request, session: SessionDep, principal: SignedInDep
) -> StreamingResponse:
    form = await posted(request)
    taken = await privacy.take_export(session, principal, text(form, "token", 200))
    storage = files.storage_for(request.app.state.settings)
    return zip_response(storage.read(taken.key), taken.size, taken.filename)


@router.post(f"{PAGE}/delete")
async def request_deletion(
    request: Request, session: SessionDep, principal: SignedInDep, ctx: ContextDep
) -> Response:
    await posted(request)
    try:
        await privacy.request_deletion(session, principal, ctx.settings, ctx.mailer)
    except Conflict as exc:
        return await _page(request, session, principal, error=exc.message, status_code=409)
    return RedirectResponse(f"{PAGE}?done=delete", status_code=303)


@router.post(f"{PAGE}/delete/cancel")
async def cancel_deletion(
    request: Request, session: SessionDep, principal: SignedInDep
) -> Response:
    await posted(request)
    await privacy.cancel_deletion(session, principal)
    return RedirectResponse(f"{PAGE}?done=cancel", status_code=303)


@router.get(privacy.WEB_CONFIRM_DELETION)
@public
async def confirm_page(request: Request, session: SessionDep, token: Text = None) -> HTMLResponse:
    return await render(
        request, session, None, "token.html", token=token or "",
        action=privacy.WEB_CONFIRM_DELETION, title="Delete your account",
        button="Delete my account", next="",
    )  # fmt: skip


@router.post(privacy.WEB_CONFIRM_DELETION)
@public
async def confirm(request: Request, session: SessionDep, ctx: ContextDep) -> HTMLResponse:
    form = await posted(request)
    try:
        row = await privacy.confirm_deletion(
            session, text(form, "token", 200), ctx.settings, ctx.mailer
        )
    except AgoraError as exc:
        return await render(
            request, session, None, "settings_data_deleted.html", exc.status_code,
            error=exc.message, erase_after=None,
        )  # fmt: skip
    return await render(
        request, session, None, "settings_data_deleted.html", error="",
        erase_after=row.erase_after,
    )  # fmt: skip
