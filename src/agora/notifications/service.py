"""The current user's notifications: the inbox, preferences, webhook settings, per-job webhooks
and the delivery log."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.auth.principal import Permission, Principal
from agora.kit.cursors import CursorSigner, binding_of
from agora.kit.db import write_after_commit
from agora.kit.errors import BadRequest, NotFound
from agora.kit.ids import parse_uuid
from agora.kit.outbound import REFUSED, OutboundPolicy, OutboundRefused
from agora.kit.timeutil import utcnow
from agora.mip003.client import validate_base_url
from agora.models import (
    JobWebhook,
    NotificationDelivery,
    User,
    WebhookEndpoint,
    WebhookSigningSecret,
)
from agora.models.notification import endpoint_id
from agora.models.statuses import DeliveryState
from agora.notifications import kinds as registry
from agora.notifications import outbox
from agora.notifications import repository as repo
from agora.notifications import unsubscribe as unsubscribe_links
from agora.notifications.channels import JOB_WEBHOOK, new_secret
from agora.notifications.schemas import (
    MarkedOut,
    NotificationOut,
    NotificationPage,
    PreferenceIn,
    PreferenceOut,
    WebhookEndpointOut,
    WebhookOut,
)

MAX_DELIVERIES = 100


async def _user(session: AsyncSession, principal: Principal) -> User:
    user = await repo.user(session, principal.user_id)
    if user is None:
        raise NotFound("User not found")
    return user


def _destination(url: str, policy: OutboundPolicy, field: str) -> str:
    """A webhook's URL, checked (400 naming ``field``). Destinations the outbound policy refuses
    on sight (literal private addresses, metadata names, userinfo) are refused here; host names
    are checked again, resolved, on every delivery."""
    try:
        clean = validate_base_url(url)
    except ValueError as exc:
        raise BadRequest.field(field, str(exc)) from exc
    try:
        policy.check_url(clean)
    except OutboundRefused as exc:
        raise BadRequest.field(field, REFUSED) from exc
    return clean


def _webhook(user: User, secret: str | None = None) -> WebhookOut:
    return WebhookOut(
        url=user.notification_webhook_url,
        secret=secret,
        job_status_notifications_opt_in=user.job_status_notifications_opt_in,
    )


async def get_webhook(session: AsyncSession, principal: Principal) -> WebhookOut:
    return _webhook(await _user(session, principal))


async def _change_webhook(
    session: AsyncSession, principal: Principal, url: str | None
) -> WebhookOut:
    """The webhook set to ``url`` with a fresh signing secret (returned once, here), or removed
    (``None``: the deliveries still waiting are cancelled); audited as ``webhook.changed``."""
    user = await _user(session, principal)
    user.notification_webhook_url = url
    user.notification_webhook_secret = new_secret() if url is not None else None
    if url is None:
        await repo.cancel_pending(session, user.id)
    else:  # set again by its owner: a disabled endpoint of that URL is enabled
        await repo.set_endpoint_disabled(session, endpoint_id(user.id, url), None)
    await session.flush()
    await audit.record(
        session,
        "webhook.changed",
        actor=principal,
        target_kind="user",
        target_id=user.id,
        details={"url": url},
    )
    return _webhook(user, user.notification_webhook_secret)


async def set_webhook(
    session: AsyncSession, principal: Principal, url: str, policy: OutboundPolicy
) -> WebhookOut:
    """Set the webhook URL (checked: ``_destination``) and issue a fresh signing secret."""
    principal.require(Permission.PROFILE_WRITE)
    return await _change_webhook(session, principal, _destination(url, policy, "url"))


async def delete_webhook(session: AsyncSession, principal: Principal) -> WebhookOut:
    principal.require(Permission.PROFILE_WRITE)
    return await _change_webhook(session, principal, None)


LOGS = {"webhook": ("webhook", JOB_WEBHOOK), "mail": (registry.MAIL,)}


async def deliveries(
    session: AsyncSession,
    principal: Principal,
    *,
    limit: int = 20,
    channel: str = "webhook",
    job_id: str | None = None,
) -> list[NotificationDelivery]:
    """The delivery log of one family of channels: ``webhook`` (account-wide and per-job
    webhooks, the default) or ``mail``; ``job_id``: one job's only (its per-job webhook's log)."""
    if not 1 <= limit <= MAX_DELIVERIES:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_DELIVERIES}")
    if channel not in LOGS:
        raise BadRequest.field("channel", f"must be one of {sorted(LOGS)}")
    job = None
    if job_id is not None:
        job = parse_uuid(job_id)
        if job is None:
            raise BadRequest.field("jobId", "must be a job id (UUID)")
    return list(await repo.recent(session, principal.user_id, limit, LOGS[channel], job))


# --- the inbox -----------------------------------------------------------------------------

MAX_PAGE = 100
CURSOR_MAX_AGE_SECONDS = 24 * 3600


def _link(row: repo.NotificationColumns) -> str | None:
    kind = registry.KINDS.get(row.kind)
    return kind.link(row.data) if kind is not None else None


def shown(row: repo.NotificationColumns) -> NotificationOut:
    return NotificationOut(
        id=row.id,
        kind=row.kind,
        subject_ref=row.subject_ref,
        title=row.title,
        data=row.data,
        link=_link(row),
        read=row.read_at is not None,
        read_at=row.read_at,
        created_at=row.created_at,
    )


def shown_json(row: repo.NotificationColumns) -> dict[str, Any]:
    """``shown``'s JSON, written without the model (kit/wire.py)."""
    return {
        "id": row.id,
        "kind": row.kind,
        "subjectRef": row.subject_ref,
        "title": row.title,
        "data": row.data,
        "link": _link(row),
        "read": row.read_at is not None,
        "readAt": row.read_at,
        "createdAt": row.created_at,
    }


@dataclass(frozen=True)
class Inbox:
    """A page of the inbox as read: its rows, the next page's cursor, the unread count."""

    rows: list[repo.NotificationColumns]
    next_cursor: str | None
    unread_count: int

    def page(self) -> NotificationPage:
        return NotificationPage(
            items=[shown(r) for r in self.rows],
            next_cursor=self.next_cursor,
            unread_count=self.unread_count,
        )

    def page_json(self) -> dict[str, Any]:
        """``page()``'s JSON, written without the models (kit/wire.py)."""
        return {
            "items": [shown_json(r) for r in self.rows],
            "nextCursor": self.next_cursor,
            "unreadCount": self.unread_count,
        }


def _kinds(kind: str | None) -> list[str]:
    if not kind:
        return []
    names = [k.strip() for k in kind.split(",") if k.strip()]
    unknown = [k for k in names if k not in registry.KINDS]
    if unknown:
        raise BadRequest.field(
            "kind", f"unknown kind {unknown[0]!r}; one of {sorted(registry.KINDS)}"
        )
    return names


async def list_notifications(
    session: AsyncSession,
    principal: Principal,
    *,
    secret: str,
    unread: bool = False,
    kind: str | None = None,
    cursor: str | None = None,
    limit: int = 20,
) -> Inbox:
    """The person's notifications, newest first, ``limit`` a page (a signed cursor pages on)."""
    principal.require(Permission.READ)
    if not 1 <= limit <= MAX_PAGE:
        raise BadRequest.field("limit", f"must be between 1 and {MAX_PAGE}")
    kinds = _kinds(kind)
    signer = CursorSigner(secret, purpose="notifications", max_age_seconds=CURSOR_MAX_AGE_SECONDS)
    binding = binding_of(principal.user_id, unread, sorted(kinds))
    before = None
    if cursor:
        raw = signer.decode(cursor, binding)
        before = parse_uuid(raw[0]) if len(raw) == 1 and isinstance(raw[0], str) else None
        if before is None:
            raise BadRequest.field("cursor", "is malformed; restart from the first page")
    rows, unread_total = await repo.page_with_unread(
        session, principal.user_id, unread=unread, kinds=kinds, before=before, limit=limit + 1
    )
    page = rows[:limit]
    next_cursor = signer.encode([str(page[-1].id)], binding) if len(rows) > limit else None
    return Inbox(page, next_cursor, unread_total)


async def unread_count(session: AsyncSession, principal: Principal) -> int:
    principal.require(Permission.READ)
    return await repo.unread_count(session, principal.user_id)


async def _marked(session: AsyncSession, user_id: uuid.UUID, changed: int) -> MarkedOut:
    if changed:
        await outbox.signal_inbox(session, user_id)
    return MarkedOut(changed=changed, unread_count=await repo.unread_count(session, user_id))


async def mark(
    session: AsyncSession, principal: Principal, notification_id: str, *, read: bool
) -> NotificationOut:
    """Mark one notification read (or unread again); another person's ids answer 404."""
    principal.require(Permission.PROFILE_WRITE)
    found_id = parse_uuid(notification_id)
    row = await repo.notification(session, principal.user_id, found_id) if found_id else None
    if row is None:
        raise NotFound("Notification not found")
    when: datetime | None = utcnow() if read else None
    if (row.read_at is None) == read:
        await repo.mark(session, principal.user_id, when, ids=[row.id])
        await outbox.signal_inbox(session, principal.user_id)
        row.read_at = when
    return shown(row)


async def mark_all_read(
    session: AsyncSession, principal: Principal, kind: str | None = None
) -> MarkedOut:
    principal.require(Permission.PROFILE_WRITE)
    changed = await repo.mark(session, principal.user_id, utcnow(), kinds=_kinds(kind) or None)
    return await _marked(session, principal.user_id, changed)


async def read_by_reference(
    session: AsyncSession, principal: Principal, subject_ref: str
) -> MarkedOut:
    """Everything unread about ``subject_ref`` (e.g. "job:<id>", when the job is opened)."""
    principal.require(Permission.PROFILE_WRITE)
    changed = await repo.mark(session, principal.user_id, utcnow(), subject_ref=subject_ref)
    return await _marked(session, principal.user_id, changed)


# Opening a job reads its notifications, except an open question: answering it reads that one.
READ_ON_OPEN_EXCEPT = [registry.JOB_INPUT_REQUIRED.name]


async def read_when_opened(session: AsyncSession, principal: Principal, subject_ref: str) -> None:
    """The person opened ``subject_ref`` (a GET: reads never write): its unread notifications
    are marked read once the answer is sent, in their own short transaction."""
    user_id = principal.user_id
    if await repo.has_unread(session, user_id, subject_ref, READ_ON_OPEN_EXCEPT):

        async def mark_read(own: AsyncSession) -> None:
            changed = await repo.mark(
                own, user_id, utcnow(), subject_ref=subject_ref, except_kinds=READ_ON_OPEN_EXCEPT
            )
            if changed:
                await outbox.signal_inbox(own, user_id)

        write_after_commit(session, mark_read)


# --- preferences ---------------------------------------------------------------------------


async def preferences(session: AsyncSession, principal: Principal) -> list[PreferenceOut]:
    principal.require(Permission.READ)
    chosen = {
        (p.kind, p.channel): p.enabled for p in await repo.preferences(session, principal.user_id)
    }
    return [
        PreferenceOut(
            kind=kind.name,
            description=kind.description,
            inbox=chosen.get((kind.name, registry.INBOX), registry.INBOX in kind.defaults),
            mail=chosen.get((kind.name, registry.MAIL), registry.MAIL in kind.defaults),
        )
        for kind in registry.KINDS.values()
    ]


async def set_preferences(
    session: AsyncSession, principal: Principal, changes: list[PreferenceIn]
) -> list[PreferenceOut]:
    """Turn channels on or off per kind (fields left out keep their value)."""
    principal.require(Permission.PROFILE_WRITE)
    for n, change in enumerate(changes):
        if change.kind not in registry.KINDS:
            raise BadRequest.field(f"preferences[{n}].kind", f"unknown kind {change.kind!r}")
    for change in changes:
        for channel, enabled in ((registry.INBOX, change.inbox), (registry.MAIL, change.mail)):
            if enabled is not None:
                await repo.set_preference(session, principal.user_id, change.kind, channel, enabled)
    await session.flush()
    return await preferences(session, principal)


async def unsubscribe(session: AsyncSession, user_id: uuid.UUID, kind: str) -> str | None:
    """One-click unsubscribe (a signed link, no sign-in): that kind's mail is off (the digest's
    link: every digest kind's). Returns what was turned off, or None when the link names a kind
    or person that no longer exists."""
    if kind == unsubscribe_links.DIGEST:
        kinds = [k for k in registry.KINDS.values() if k.digest]
        what = "The digest mail: " + ", ".join(k.description for k in kinds)
    else:
        found = registry.KINDS.get(kind)
        kinds = [found] if found is not None else []
        what = found.description if found is not None else ""
    if not kinds or await repo.user(session, user_id) is None:
        return None
    for each in kinds:
        await repo.set_preference(session, user_id, each.name, registry.MAIL, False)
    await session.flush()
    return what


# --- per-job webhooks ----------------------------------------------------------------------


async def signing_secret(session: AsyncSession, principal: Principal) -> str:
    """The secret that signs the person's per-job webhooks (made with their first); 404 before.
    Reading it needs what rotating it needs (``profile:write``): it forges signatures."""
    principal.require(Permission.PROFILE_WRITE)
    row = await repo.signing_secret(session, principal.user_id)
    if row is None:
        raise NotFound("No signing secret yet: create a job with a webhook, or rotate")
    return row.secret


async def rotate_signing_secret(session: AsyncSession, principal: Principal) -> str:
    """A new signing secret for per-job webhooks (deliveries not yet sent use the new one)."""
    principal.require(Permission.PROFILE_WRITE)
    row = await repo.signing_secret(session, principal.user_id)
    if row is None:
        row = WebhookSigningSecret(user_id=principal.user_id, secret=new_secret())
        repo.add_signing_secret(session, row)
    else:
        row.secret = new_secret()
    await session.flush()
    return row.secret


def check_job_webhook(
    url: str | None, events: list[str] | None, policy: OutboundPolicy
) -> tuple[str, list[str] | None] | None:
    """The job's ``webhook`` and ``webhookEventsFilter`` checked (400 naming the field)."""
    if url is None:
        if events is not None:
            raise BadRequest.field("webhookEventsFilter", "needs a webhook")
        return None
    clean = _destination(url, policy, "webhook")
    if events is not None:
        unknown = [e for e in events if e not in outbox.JOB_EVENTS]
        if unknown or not events:
            raise BadRequest.field(
                "webhookEventsFilter",
                f"each one of {list(outbox.JOB_EVENTS)}"
                + (f"; not {unknown[0]!r}" if unknown else ""),
            )
        events = sorted(set(events))
    return clean, events


async def add_job_webhook(
    session: AsyncSession,
    user_id: uuid.UUID,
    job_id: uuid.UUID,
    hook: tuple[str, list[str] | None],
) -> None:
    """In the job's creation transaction: its webhook, and the owner's signing secret if none."""
    repo.add_job_webhook(
        session, JobWebhook(job_id=job_id, user_id=user_id, url=hook[0], events=hook[1])
    )
    if await repo.signing_secret(session, user_id) is None:
        repo.add_signing_secret(session, WebhookSigningSecret(user_id=user_id, secret=new_secret()))


async def redeliver(
    session: AsyncSession, principal: Principal, delivery_id: str
) -> NotificationDelivery:
    """Send a delivery again (a new delivery row with the same payload and a new id)."""
    principal.require(Permission.PROFILE_WRITE)
    found_id = parse_uuid(delivery_id)
    old = await repo.delivery(session, principal.user_id, found_id) if found_id else None
    if old is None or old.channel == registry.MAIL:
        raise NotFound("Delivery not found")
    row = NotificationDelivery(
        user_id=old.user_id,
        job_id=old.job_id,
        channel=old.channel,
        event=old.event,
        target=old.target,
        payload=old.payload,
        state=DeliveryState.PENDING,
        attempts=0,
        next_attempt_at=utcnow(),
    )
    repo.add(session, row)
    await outbox.signal_sender(session)
    await session.flush()
    return row


# --- webhook endpoints (health, re-enabling) -------------------------------------------------


def shown_endpoint(row: WebhookEndpoint) -> WebhookEndpointOut:
    return WebhookEndpointOut(
        id=row.id,
        url=row.url,
        enabled=row.disabled_at is None,
        failing_since=row.failing_since,
        disabled_at=row.disabled_at,
        disabled_reason=row.disabled_reason,
    )


async def list_endpoints(session: AsyncSession, principal: Principal) -> list[WebhookEndpointOut]:
    """The person's webhook URLs that a delivery failed to reach: failing, disabled or healthy
    again (a URL never failed has no row)."""
    principal.require(Permission.READ)
    return [shown_endpoint(row) for row in await repo.endpoints(session, principal.user_id)]


async def enable_endpoint(
    session: AsyncSession, principal: Principal, raw_endpoint_id: str
) -> WebhookEndpointOut:
    """Re-enable a disabled endpoint (deliveries from now on are attempted; those failed while
    it was disabled can be redelivered). Enabling an enabled one changes nothing; another
    person's ids answer 404. Audited as ``webhook.changed`` (``enabled``: true)."""
    principal.require(Permission.PROFILE_WRITE)
    found_id = parse_uuid(raw_endpoint_id)
    row = await repo.endpoint(session, found_id) if found_id else None
    if row is None or row.user_id != principal.user_id:
        raise NotFound("Webhook endpoint not found")
    if await repo.set_endpoint_disabled(session, row.id, None):
        await audit.record(
            session,
            "webhook.changed",
            actor=principal,
            target_kind="webhook_endpoint",
            target_id=row.id,
            details={"url": row.url, "enabled": True},
        )
        await session.refresh(row)
    return shown_endpoint(row)
