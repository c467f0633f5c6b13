"""agora users|keys|orgs …"""

from __future__ import annotations

import uuid
from typing import Annotated

import typer

from agora.accounts import provisioning as service
from agora.accounts import service as accounts
from agora.auth import service as auth
from agora.cli.common import emit, run_with_db
from agora.kit.db import Database
from agora.kit.errors import NotFound
from agora.kit.ids import parse_uuid
from agora.kit.money import to_base
from agora.models.statuses import KeyKind
from agora.settings import Settings

users_app = typer.Typer(help="Manage users.", no_args_is_help=True)
keys_app = typer.Typer(help="Manage API keys.", no_args_is_help=True)
orgs_app = typer.Typer(help="Manage organizations.", no_args_is_help=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


@users_app.command("create")
def users_create(
    email: Annotated[str, typer.Option(help="Email address (unique).")],
    name: Annotated[str, typer.Option(help="Full name.")],
    credits: Annotated[str, typer.Option(help="Credits to grant, in display units.")] = "0",
    as_json: JsonOpt = False,
) -> None:
    """Create a user with a personal workspace and a first API key (shown once)."""
    try:
        amount = to_base(credits)
    except ValueError as exc:
        raise typer.BadParameter(f"--credits: {exc}") from exc
    if amount < 0:
        raise typer.BadParameter("--credits must not be negative")

    async def work(db: Database, _settings: Settings) -> service.CreatedUser:
        async with db.transaction() as session:
            return await service.create_user(session, email=email, name=name, credits=amount)

    created = run_with_db(work)
    emit(
        {
            "userId": str(created.user.id),
            "workspaceId": str(created.workspace.id),
            "apiKey": created.api_key,
        },
        as_json,
        f"user {created.user.id} in workspace {created.workspace.id}\napi key: {created.api_key}",
    )


@keys_app.command("create")
def keys_create(
    user: Annotated[str, typer.Option("--user", help="The owner's email.")],
    kind: Annotated[str, typer.Option(help=" | ".join(KeyKind))] = KeyKind.USER.value,
    workspace: Annotated[
        str | None, typer.Option(help="Default workspace id (default: personal).")
    ] = None,
    name: Annotated[str, typer.Option(help="A label for the key.")] = "",
    scope: Annotated[
        list[str] | None, typer.Option(help="Extra grant for coworker keys (repeatable).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create an API key. The secret is printed once and stored only as a hash."""

    async def work(db: Database, _settings: Settings) -> service.CreatedKey:
        async with db.transaction() as session:
            owner = await accounts.user_by_email(session, user)
            if owner is None:
                raise NotFound(f"No user with email {user}")
            ws = None
            if workspace:
                ws_id = parse_uuid(workspace)
                ws = await auth.workspace_by_id(session, ws_id) if ws_id else None
                if ws is None:
                    raise NotFound(f"No workspace {workspace}")
            return await service.create_key(
                session, user=owner, kind=kind, workspace=ws, name=name, scopes=scope
            )

    created = run_with_db(work)
    emit(
        {
            "keyId": str(created.key.id),
            "apiKey": created.plaintext,
            "workspaceId": str(created.key.default_workspace_id),
        },
        as_json,
        f"key {created.key.id} ({kind})\napi key: {created.plaintext}",
    )


@keys_app.command("revoke")
def keys_revoke(key_id: Annotated[str, typer.Argument(help="The key id.")]) -> None:
    """Revoke a key: it stops working at once."""
    parsed = parse_uuid(key_id)
    if parsed is None:
        raise typer.BadParameter("KEY_ID must be a key id (UUID)")
    key_uuid: uuid.UUID = parsed

    async def work(db: Database, _settings: Settings) -> None:
        async with db.transaction() as session:
            await service.revoke_key(session, key_uuid)

    run_with_db(work)
    typer.echo(f"revoked {key_id}")


@orgs_app.command("create")
def orgs_create(
    slug: Annotated[str, typer.Option(help="URL-safe identifier.")],
    name: Annotated[str, typer.Option(help="Display name.")],
    owner: Annotated[str, typer.Option(help="The owner's email.")],
    as_json: JsonOpt = False,
) -> None:
    """Create an organization (with its workspace), owned by an existing user."""

    async def work(db: Database, _settings: Settings) -> tuple[str, str]:
        async with db.transaction() as session:
            user = await accounts.user_by_email(session, owner)
            if user is None:
                raise NotFound(f"No user with email {owner}")
            org, ws = await service.create_organization(session, slug=slug, name=name, owner=user)
            return str(org.id), str(ws.id)

    org_id, ws_id = run_with_db(work)
    emit(
        {"organizationId": org_id, "workspaceId": ws_id},
        as_json,
        f"organization {org_id}, workspace {ws_id}",
    )


@orgs_app.command("add-member")
def orgs_add_member(
    slug: Annotated[str, typer.Option(help="The organization's slug.")],
    user: Annotated[str, typer.Option("--user", help="The member's email.")],
    role: Annotated[str, typer.Option(help="member | owner")] = "member",
) -> None:
    """Add an existing user to an organization (idempotent)."""
    if role not in ("member", "owner"):
        raise typer.BadParameter("--role must be member or owner")

    async def work(db: Database, _settings: Settings) -> None:
        async with db.transaction() as session:
            org = await auth.organization_by_slug(session, slug)
            if org is None:
                raise NotFound(f"No organization {slug}")
            member = await accounts.user_by_email(session, user)
            if member is None:
                raise NotFound(f"No user with email {user}")
            await service.add_member(session, org=org, user=member, role=role)

    run_with_db(work)
    typer.echo(f"{user} is a {role} of {slug}")
