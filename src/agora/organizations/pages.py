"""The organization pages (docs/web.md, "Organizations"): members, roles, removing members,
leaving, invitations (list, revoke, by email, by link), the organization's keys; accepting an
invitation. Every action is shown only to people allowed to take it: the page asks
``organizations.service.allowed`` (``auth.roles.Allowed``, read from the one roles table), and
the services refuse with the same functions. Every POST answers with a redirect; a refusal the
page can explain (the last owner, a bad address) is shown in the page's error summary."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agora.accounts import providers
from agora.accounts.dependencies import ContextDep
from agora.audit import service as audit
from agora.audit.export import csv_download
from agora.auth.dependencies import SessionDep
from agora.auth.principal import Principal
from agora.auth.roles import OrgAction
from agora.kit.errors import AgoraError, BadRequest, Conflict, Forbidden, NotFound
from agora.kit.timeutil import as_utc, utcnow
from agora.kit.units import UnitOfWorkRoute
from agora.organizations import service as organizations
from agora.web import flash
from agora.web.shell import SignedInDep, Text, field_errors, posted, render, text

router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


@router.get("/organizations")
async def organizations_page(
    request: Request, session: SessionDep, principal: SignedInDep
) -> Response:
    mine = await organizations.list_mine(session, principal)
    return await render(request, session, principal, "organizations.html", orgs=mine, error="")


@router.post("/organizations")
async def create_organization(
    request: Request, session: SessionDep, principal: SignedInDep
) -> Response:
    form = await posted(request)
    try:
        org = await organizations.create(
            session, principal, name=text(form, "name", 300), slug=None
        )
    except AgoraError as exc:
        mine = await organizations.list_mine(session, principal)
        return await render(
            request, session, principal, "organizations.html", exc.status_code, orgs=mine,
            error=exc.message,
        )  # fmt: skip
    return RedirectResponse(f"/organizations/{org['id']}", status_code=303)


def _invitation_state(token: Any) -> str:
    if token.revoked_at is not None:
        return "revoked"
    if token.uses >= token.max_uses:
        return "used"
    if as_utc(token.expires_at) <= utcnow():
        return "expired"
    return "open"


async def _org_page(
    request: Request,
    session: Any,
    principal: Principal,
    org_id: str,
    *,
    errors: dict[str, str] | None = None,
    values: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    mine = {str(o["id"]): o for o in await organizations.list_mine(session, principal)}
    org = mine.get(org_id)
    if org is None:
        raise NotFound(f"Organization {org_id} not found")
    can = await organizations.allowed(session, principal, org_id)
    members = await organizations.members(session, principal, org_id)
    owners = sum(1 for m in members if m["role"] == "owner")
    keys = await organizations.keys(session, principal, org_id) if can.to("manage_keys") else None
    invitations = None
    if can.to(OrgAction.INVITE):
        invitations = [
            {"row": t, "state": _invitation_state(t)}
            for t in await organizations.invitations(session, principal, org_id)
        ]
    link = flash.take(request, f"/organizations/{org_id}")
    errors = errors or {}
    targets = {"email": ("invite-email", "Email"), "role": ("invite-role", "Role")}
    summary = [
        (targets[k][0], f"{targets[k][1]}: {v}") if k in targets else ("", v)
        for k, v in errors.items()
    ]
    response = await render(
        request, session, principal, "organization.html", status_code, org=org, members=members,
        link=link, keys=keys, can=can, invitations=invitations, errors=errors, summary=summary,
        values=values or {}, last_owner=org["role"] == "owner" and owners <= 1,
        sign_in_rule=await organizations.sign_in_rule(session, principal, org_id),
        sign_in_providers=providers.configured(request.app.state.settings),
    )  # fmt: skip
    flash.clear(request, response, f"/organizations/{org_id}")
    return response


AuditAction = Annotated[str | None, Query(max_length=60)]


@router.get("/organizations/{org_id}/audit")
async def organization_audit_page(
    request: Request,
    org_id: str,
    session: SessionDep,
    principal: SignedInDep,
    action: AuditAction = None,
) -> Response:
    """The organization's part of the audit log (owners and admins; anyone else 404)."""
    filters = audit.Filters(action=action or None)
    rows, total = await audit.search_organization(session, principal, org_id, filters, limit=200)
    return await render(
        request, session, principal, "organization_audit.html", org_id=org_id, events=rows,
        total=total, action=action or "", actions=audit.ACTIONS,
    )  # fmt: skip


@router.get("/organizations/{org_id}/audit/export")
async def organization_audit_export(
    org_id: str, session: SessionDep, principal: SignedInDep, action: AuditAction = None
) -> Response:
    """The same rows as CSV (at most 10,000)."""
    filters = audit.Filters(action=action or None)
    rows, _ = await audit.search_organization(
        session, principal, org_id, filters, limit=audit.EXPORT_LIMIT
    )
    return csv_download(rows)


@router.get("/organizations/{org_id}")
async def organization_page(
    request: Request, org_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    return await _org_page(request, session, principal, org_id)


async def _refused(
    request: Request, session: Any, principal: Principal, org_id: str, exc: AgoraError
) -> HTMLResponse:
    """A refusal shown in the page's error summary (with the service's status)."""
    errors = field_errors(exc) or {"form": exc.message}
    return await _org_page(
        request, session, principal, org_id, errors=errors, status_code=exc.status_code
    )


@router.post("/organizations/{org_id}/members/{user_id}/role")
async def change_role(
    request: Request, org_id: str, user_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    form = await posted(request)
    try:
        await organizations.change_role(session, principal, org_id, user_id, text(form, "role", 20))
    except (BadRequest, Conflict) as exc:
        return await _refused(request, session, principal, org_id, exc)
    return RedirectResponse(f"/organizations/{org_id}", status_code=303)


@router.post("/organizations/{org_id}/members/{user_id}/remove")
async def remove_member(
    request: Request, org_id: str, user_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    """Remove a member, or (your own id) leave: then back to your organizations."""
    await posted(request)
    try:
        await organizations.remove(session, principal, org_id, user_id)
    except (BadRequest, Conflict) as exc:
        return await _refused(request, session, principal, org_id, exc)
    if user_id == str(principal.user_id):
        return RedirectResponse("/organizations", status_code=303)
    return RedirectResponse(f"/organizations/{org_id}", status_code=303)


@router.post("/organizations/{org_id}/leave")
async def leave(
    request: Request, org_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await posted(request)
    try:
        await organizations.remove(session, principal, org_id, str(principal.user_id))
    except (BadRequest, Conflict) as exc:
        return await _refused(request, session, principal, org_id, exc)
    return RedirectResponse("/organizations", status_code=303)


@router.post("/organizations/{org_id}/sign-in-rule")
async def set_sign_in_rule(
    request: Request, org_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    """Owners: the organization's domain members sign in through one provider (docs/accounts.md,
    "Identity providers"); an empty domain lifts the rule."""
    form = await posted(request)
    try:
        await organizations.set_sign_in_rule(
            session, request.app.state.settings, principal, org_id,
            domain=text(form, "domain", 300), provider=text(form, "provider", 40),
        )  # fmt: skip
    except (BadRequest, Conflict) as exc:
        return await _refused(request, session, principal, org_id, exc)
    return RedirectResponse(f"/organizations/{org_id}#sign-in-rule", status_code=303)


@router.post("/organizations/{org_id}/keys/{key_id}/revoke")
async def revoke_organization_key(
    request: Request, org_id: str, key_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await posted(request)
    await organizations.revoke_key(session, principal, org_id, key_id)
    return RedirectResponse(f"/organizations/{org_id}", status_code=303)


@router.post("/organizations/{org_id}/invitations")
async def invite(
    request: Request, org_id: str, session: SessionDep, principal: SignedInDep, ctx: ContextDep
) -> Response:
    """By email (``email`` given: the invitation is mailed) or by link (shown once, after the
    redirect, sealed for this session like a new API key: web/flash.py)."""
    form = await posted(request)
    email = text(form, "email", 320).strip()
    role = text(form, "role", 20) or "member"
    try:
        _token, _plain, url = await organizations.invite(
            session, ctx, principal, org_id, email=email or None, role=role, max_uses=1,
            expires_in_days=None,
        )  # fmt: skip
    except BadRequest as exc:
        errors = field_errors(exc) or {"form": exc.message}
        if email and "email" not in errors and exc.message.startswith("email"):
            errors = {"email": exc.message.removeprefix("email:").strip()}
        return await _org_page(
            request, session, principal, org_id, errors=errors, values={"email": email},
            status_code=exc.status_code,
        )  # fmt: skip
    target = f"/organizations/{org_id}"
    response = RedirectResponse(f"{target}#invitations", status_code=303)
    if not email:
        flash.put(request, response, ctx.settings, target, url)
    return response


@router.post("/organizations/{org_id}/invitations/{invitation_id}/revoke")
async def revoke_invitation(
    request: Request, org_id: str, invitation_id: str, session: SessionDep, principal: SignedInDep
) -> Response:
    await posted(request)
    await organizations.revoke_invitation(session, principal, org_id, invitation_id)
    return RedirectResponse(f"/organizations/{org_id}#invitations", status_code=303)


@router.get("/invitations/accept")
async def invitation_page(
    request: Request, session: SessionDep, principal: SignedInDep, token: Text = None
) -> Response:
    """What the invitation offers, and a button that accepts it (a person without an account
    got here through sign-in → "Create an account" → the confirmation mail, docs/web.md)."""
    try:
        offer = await organizations.preview(session, token or "")
    except BadRequest as exc:
        offer, problem = None, exc.details[0].reason if exc.details else exc.message
    else:
        problem = ""
    return await render(
        request, session, principal, "invitation.html", 200 if offer else 400, token=token or "",
        offer=offer, problem=problem,
    )  # fmt: skip


@router.post("/invitations/accept")
async def accept_invitation(
    request: Request, session: SessionDep, principal: SignedInDep
) -> Response:
    form = await posted(request)
    token = text(form, "token", 200)
    try:
        org = await organizations.accept(session, principal, token)
    except (BadRequest, Forbidden) as exc:
        return await render(
            request, session, principal, "invitation.html", exc.status_code, token=token,
            offer=None, problem=exc.details[0].reason if exc.details else exc.message,
        )  # fmt: skip
    return RedirectResponse(f"/organizations/{org['id']}", status_code=303)
