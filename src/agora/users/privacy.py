"""A person's rights to their data (docs/accounts.md, "Your data" and "Deleting your account").

- **Export**: ``request_export`` records a pending export; the privacy worker (users/worker.py)
  builds the ZIP (users/export.py) into storage and mails a one-time link; ``take_export`` uses
  that link once, for the same person, before it expires.
- **Deletion**: ``request_deletion`` mails a confirmation link (refused while the person is the
  only owner of an organization); ``confirm_deletion`` schedules the erasure after
  ``AGORA_ACCOUNT_DELETION_GRACE_DAYS`` and signs the person out everywhere; signing in again
  cancels it (accounts.service.start_session), as does ``cancel_deletion``; ``erase_account`` (the
  worker) applies models/personal_data.py.

Every use case takes plain values and a ``Principal`` (REST and web doors alike); mail goes out
after the commit.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import service as accounts
from agora.audit import service as audit
from agora.auth.principal import Principal
from agora.kit.background import signal
from agora.kit.db import on_commit
from agora.kit.errors import BadRequest, Conflict, FieldError, Forbidden, NotFound
from agora.kit.mail import Mail, MailSender
from agora.kit.security import hash_key, hashes_match, new_token
from agora.kit.timeutil import as_utc, utcnow
from agora.models import AccountDeletion, DataExport
from agora.models.statuses import KeyKind
from agora.settings import Settings
from agora.users import repository as repo

DATA_EXPORTS = "data_exports"  # wakes the privacy worker
EXPORTS_SHOWN = 10
DELETION_LINK_HOURS = 24.0
WEB_EXPORT_DOWNLOAD = "/settings/data/download"
WEB_CONFIRM_DELETION = "/settings/data/delete/confirm"
POSTPONED = timedelta(days=1)  # an erasure that must wait is tried again this much later


def _person(principal: Principal) -> uuid.UUID:
    """Only the person themselves (a user key or their browser), never a coworker's key."""
    if principal.key_kind not in (KeyKind.USER, KeyKind.ADMIN) and principal.session_id is None:
        raise Forbidden("Only the person themselves can do this")
    return principal.user_id


def _link(settings: Settings, path: str, token: str) -> str:
    return f"{settings.public_url.rstrip('/')}{path}?token={token}"


def _send_after_commit(session: AsyncSession, mailer: MailSender, mail: Mail) -> None:
    on_commit(session, lambda: mailer.send(mail))


# ---- export -----------------------------------------------------------------------------------


async def request_export(session: AsyncSession, principal: Principal) -> DataExport:
    """A new export, built in the background and mailed; the pending one if there is one."""
    user_id = _person(principal)
    pending = await repo.open_export(session, user_id)
    if pending is not None:
        return pending
    row = DataExport(user_id=user_id, state="pending")
    await repo.add(session, row)
    await audit.record(
        session, "account.export_requested", actor=principal, target_kind="user", target_id=user_id
    )
    await signal(session, DATA_EXPORTS, across_processes=True)
    return row


async def list_exports(session: AsyncSession, principal: Principal) -> list[DataExport]:
    return await repo.exports_of(session, _person(principal), EXPORTS_SHOWN)


@dataclass(frozen=True)
class TakenExport:
    key: str
    size: int
    filename: str


async def take_export(session: AsyncSession, principal: Principal, token: str) -> TakenExport:
    """Use the mailed link: once, by the person it was made for, before it expires. Anyone
    else's link answers as an unknown one."""
    user_id = _person(principal)
    presented = hash_key(token.strip())
    row = await repo.export_by_token(session, presented)
    if (
        row is None
        or row.user_id != user_id
        or row.token_hash is None
        or not hashes_match(row.token_hash, presented)
    ):
        raise BadRequest.field("token", "unknown link; ask for a new export")
    if row.state != "ready" or row.storage_key is None:
        raise BadRequest.field("token", "this link has already been used; ask for a new export")
    if row.expires_at is None or as_utc(row.expires_at) <= utcnow():
        raise BadRequest.field("token", "this link has expired; ask for a new export")
    if not await repo.mark_downloaded(session, row.id, utcnow()):
        raise BadRequest.field("token", "this link has already been used; ask for a new export")
    await audit.record(
        session, "account.export_downloaded", actor=principal, target_kind="user", target_id=user_id
    )
    stamp = as_utc(row.created_at).strftime("%Y-%m-%d")
    return TakenExport(row.storage_key, row.size or 0, f"agora-data-{stamp}.zip")


def export_mail(settings: Settings, email: str, token: str, expires_at: datetime) -> Mail:
    link = _link(settings, WEB_EXPORT_DOWNLOAD, token)
    text = (
        "Your Agora data export is ready.\n\n"
        f"Download it (signed in as this account; the link works once): {link}\n\n"
        f"The link expires at {as_utc(expires_at):%Y-%m-%d %H:%M} UTC. If you did not ask for "
        "it, change your password: someone signed in as you asked.\n"
    )
    return Mail(email, "Your Agora data export is ready", text)


# ---- deletion -----------------------------------------------------------------------------------


async def _refuse_sole_owner(session: AsyncSession, user_id: uuid.UUID) -> None:
    names = await repo.sole_owned_organizations(session, user_id)
    if names:
        listed = ", ".join(names)
        raise Conflict(
            f"You are the only owner of {listed}: make another member an owner (or delete the "
            "organization) first, then delete your account",
            details=[FieldError("account", f"only owner of {listed}")],
        )


async def deletion_status(session: AsyncSession, principal: Principal) -> AccountDeletion | None:
    return await repo.deletion_of(session, _person(principal))


async def request_deletion(
    session: AsyncSession, principal: Principal, settings: Settings, mailer: MailSender
) -> AccountDeletion:
    """Mail a link that confirms the deletion (409 while the person is an organization's only
    owner)."""
    user_id = _person(principal)
    await _refuse_sole_owner(session, user_id)
    user = await accounts.account(session, principal)
    plaintext, token_hash = new_token()
    now = utcnow()
    row = await repo.deletion_of(session, user_id)
    if row is None:
        row = AccountDeletion(user_id=user_id, state="requested")
        await repo.add(session, row)
    row.state = "requested"
    row.token_hash = token_hash
    row.requested_at = now
    row.token_expires_at = now + timedelta(hours=DELETION_LINK_HOURS)
    row.confirmed_at = row.erase_after = row.cancelled_at = None
    await session.flush()
    await audit.record(
        session,
        "account.deletion_requested",
        actor=principal,
        target_kind="user",
        target_id=user_id,
    )
    days = settings.accounts.account_deletion_grace_days
    link = _link(settings, WEB_CONFIRM_DELETION, plaintext)
    text = (
        "You asked to delete your Agora account.\n\n"
        f"Confirm it here (within {DELETION_LINK_HOURS:g} hours): {link}\n\n"
        f"Once confirmed, your account is erased after {days:g} days; signing in before then "
        "cancels the deletion. If you did not ask for this, ignore this mail and change your "
        "password.\n"
    )
    _send_after_commit(
        session, mailer, Mail(user.email, "Confirm deleting your Agora account", text)
    )
    return row


async def confirm_deletion(
    session: AsyncSession, token: str, settings: Settings, mailer: MailSender
) -> AccountDeletion:
    """Follow the mailed link: the erasure is scheduled, every session is signed out."""
    presented = hash_key(token.strip())
    row = await repo.deletion_by_token(session, presented)
    if row is None or row.token_hash is None or not hashes_match(row.token_hash, presented):
        raise BadRequest.field("token", "unknown link; ask again in your settings")
    if row.state != "requested":
        raise BadRequest.field("token", "this link has already been used")
    if row.token_expires_at is None or as_utc(row.token_expires_at) <= utcnow():
        raise BadRequest.field("token", "this link has expired; ask again in your settings")
    await _refuse_sole_owner(session, row.user_id)
    now = utcnow()
    row.state = "scheduled"  # the hash stays: a second use answers "already used"
    row.confirmed_at = now
    row.erase_after = now + timedelta(days=settings.accounts.account_deletion_grace_days)
    await session.flush()
    await accounts.end_sessions(session, row.user_id)
    await audit.record(
        session,
        "account.deletion_confirmed",
        actor=audit.Actor("user", row.user_id, None),
        target_kind="user",
        target_id=row.user_id,
        details={"eraseAfter": row.erase_after.isoformat()},
    )
    user = await accounts.user_by_id(session, row.user_id)
    if user is not None:
        text = (
            f"Your Agora account will be erased on {row.erase_after:%Y-%m-%d %H:%M} UTC. You "
            "were signed out everywhere.\n\nChanged your mind? Sign in before then: that "
            "cancels the deletion.\n"
        )
        _send_after_commit(
            session, mailer, Mail(user.email, "Your Agora account will be deleted", text)
        )
    return row


async def cancel_deletion(session: AsyncSession, principal: Principal) -> AccountDeletion:
    user_id = _person(principal)
    row = await repo.deletion_of(session, user_id)
    if row is None or row.state not in ("requested", "scheduled"):
        raise NotFound("No account deletion is pending")
    row.state = "cancelled"
    row.cancelled_at = utcnow()
    row.token_hash = None
    await session.flush()
    await audit.record(
        session,
        "account.deletion_cancelled",
        actor=principal,
        target_kind="user",
        target_id=user_id,
        details={"by": "settings"},
    )
    return row


async def due_deletions(session: AsyncSession, now: datetime, limit: int) -> list[uuid.UUID]:
    return await repo.due_deletions(session, now, limit)


@dataclass(frozen=True)
class Erased:
    email: str  # the address the account had (the farewell mail goes there)
    blobs: list[str]  # storage keys to delete once committed
    counts: dict[str, int]


async def erase_account(session: AsyncSession, user_id: uuid.UUID, now: datetime) -> Erased | None:
    """Erase a due account (models/personal_data.py): None when another worker took it, it was
    cancelled, or it must wait: the person became an organization's only owner meanwhile, or a
    job of their personal workspace is still running (then it is tried again a day later)."""
    user = await accounts.user_by_id(session, user_id)
    if user is None:
        return None
    person = await repo.person(session, user_id, user.email)
    if await repo.sole_owned_organizations(session, user_id) or await repo.running_jobs(
        session, person.workspace_id
    ):
        row = await repo.deletion_of(session, user_id)
        if row is not None and row.state == "scheduled":
            row.erase_after = now + POSTPONED
            await session.flush()
        return None
    if not await repo.claim_deletion(session, user_id, now):
        return None
    email = user.email
    blobs = await repo.blob_keys(session, person)
    counts = await repo.erase(session, person)
    await repo.withdraw_listings(session, user_id, now)
    await repo.close_account(session, user_id, now)
    session.expunge(user)
    await audit.record(
        session,
        "account.erased",
        actor=audit.SYSTEM,
        target_kind="user",
        target_id=user_id,
        details={"blobs": len(blobs)},
    )
    return Erased(email, blobs, counts)


def farewell_mail(email: str) -> Mail:
    text = (
        "Your Agora account has been deleted: your personal data is erased. What the law "
        "makes us keep (ledger entries, purchases, the audit log) no longer names you.\n"
    )
    return Mail(email, "Your Agora account has been deleted", text)
