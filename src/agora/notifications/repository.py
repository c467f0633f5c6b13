"""All SQL of notifications: the inbox, preferences, the outbox (delivery log), the per-user
webhook settings and per-job webhooks."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Protocol, TypeVar, cast

from sqlalchemy import ColumnElement, and_, bindparam, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.leases import claim_due
from agora.kit.reads import Prepared, read_all, read_one
from agora.models import (
    JobWebhook,
    Notification,
    NotificationDelivery,
    NotificationPreference,
    User,
    WebhookEndpoint,
    WebhookSigningSecret,
)
from agora.models.statuses import DeliveryState


async def user(session: AsyncSession, user_id: uuid.UUID) -> User | None:
    return await session.get(User, user_id)


def add(session: AsyncSession, delivery: NotificationDelivery) -> None:
    session.add(delivery)


async def claim(
    session: AsyncSession, *, now: datetime, lease_until: datetime, limit: int
) -> list[uuid.UUID]:
    """Due pending deliveries, and ``sending`` ones whose sender died (lease passed)."""
    due = or_(
        and_(
            NotificationDelivery.state == DeliveryState.PENDING,
            NotificationDelivery.next_attempt_at <= now,
        ),
        and_(
            NotificationDelivery.state == DeliveryState.SENDING,
            NotificationDelivery.next_attempt_at < now,
        ),
    )
    return await claim_due(
        session,
        NotificationDelivery,
        due=due,
        order_by=NotificationDelivery.next_attempt_at,
        limit=limit,
        values={"state": DeliveryState.SENDING, "next_attempt_at": lease_until},
    )


async def with_user(
    session: AsyncSession, delivery_id: uuid.UUID
) -> tuple[NotificationDelivery, User] | None:
    row = (
        await session.execute(
            select(NotificationDelivery, User)
            .join(User, User.id == NotificationDelivery.user_id)
            .where(NotificationDelivery.id == delivery_id)
        )
    ).first()
    return (row[0], row[1]) if row else None


async def digest_rows(
    session: AsyncSession, ids: list[uuid.UUID], kinds: list[str]
) -> list[tuple[uuid.UUID, uuid.UUID]]:
    """(delivery id, user id) of the mails among ``ids`` that are of digest ``kinds``."""
    if not ids or not kinds:
        return []
    rows = await session.execute(
        select(NotificationDelivery.id, NotificationDelivery.user_id).where(
            NotificationDelivery.id.in_(ids),
            NotificationDelivery.channel == "mail",
            NotificationDelivery.event.in_(kinds),
        )
    )
    return [(r[0], r[1]) for r in rows]


async def deliveries_of(session: AsyncSession, ids: list[uuid.UUID]) -> list[NotificationDelivery]:
    found = await session.scalars(
        select(NotificationDelivery)
        .where(NotificationDelivery.id.in_(ids))
        .order_by(NotificationDelivery.created_at, NotificationDelivery.id)
    )
    return list(found)


async def record(session: AsyncSession, delivery_id: uuid.UUID, **values: Any) -> None:
    await session.execute(
        update(NotificationDelivery)
        .where(NotificationDelivery.id == delivery_id)
        .values(**values)
        .execution_options(synchronize_session=False)
    )


async def recent(
    session: AsyncSession,
    user_id: uuid.UUID,
    limit: int,
    channels: tuple[str, ...],
    job_id: uuid.UUID | None = None,
) -> list[NotificationDelivery]:
    query = select(NotificationDelivery).where(
        NotificationDelivery.user_id == user_id, NotificationDelivery.channel.in_(channels)
    )
    if job_id is not None:
        query = query.where(NotificationDelivery.job_id == job_id)
    result = await session.scalars(
        query.order_by(
            NotificationDelivery.created_at.desc(), NotificationDelivery.id.desc()
        ).limit(limit)
    )
    return list(result)


async def next_due(session: AsyncSession) -> datetime | None:
    return await session.scalar(
        select(NotificationDelivery.next_attempt_at)
        .where(NotificationDelivery.state.in_((DeliveryState.PENDING, DeliveryState.SENDING)))
        .order_by(NotificationDelivery.next_attempt_at)
        .limit(1)
    )


async def cancel_pending(session: AsyncSession, user_id: uuid.UUID) -> None:
    """The user's deliveries still waiting for a (re)try are dropped: state ``failed``."""
    await session.execute(
        update(NotificationDelivery)
        .where(
            NotificationDelivery.user_id == user_id,
            NotificationDelivery.state.in_((DeliveryState.PENDING, DeliveryState.SENDING)),
        )
        .values(
            state=DeliveryState.FAILED,
            next_attempt_at=None,
            last_error="cancelled: webhook deleted",
        )
        .execution_options(synchronize_session=False)
    )


# --- the inbox -----------------------------------------------------------------------------


def add_notification(session: AsyncSession, notification: Notification) -> None:
    session.add(notification)


class NotificationColumns(Protocol):
    """What the inbox shows of a notification: a ``Notification``, or a row read lean."""

    @property
    def id(self) -> uuid.UUID: ...
    @property
    def kind(self) -> str: ...
    @property
    def subject_ref(self) -> str | None: ...
    @property
    def title(self) -> str: ...
    @property
    def data(self) -> dict[str, Any]: ...
    @property
    def read_at(self) -> datetime | None: ...
    @property
    def created_at(self) -> datetime: ...


class _InboxRow(NotificationColumns, Protocol):
    @property
    def unread_total(self) -> int: ...


class _Count(Protocol):
    @property
    def total(self) -> int: ...


_USER = "user_id"


def _unread(table: Any) -> ColumnElement[bool]:
    return and_(table.user_id == bindparam(_USER), table.read_at.is_(None))


_UNREAD_COUNT: Prepared[_Count] = Prepared(
    select(func.count().label("total")).select_from(Notification).where(_unread(Notification)),
    shape=_Count,
)
# The inbox's pages, prepared per shape of the filters (unread only, kinds, after a cursor): the
# page with the person's unread count beside each row (kit/reads.py).
_PAGES: dict[tuple[bool, bool, bool], Prepared[_InboxRow]] = {}


def _page_statement(shape: tuple[bool, bool, bool]) -> Prepared[_InboxRow]:
    found = _PAGES.get(shape)
    if found is None:
        unread, kinds, before = shape
        other = Notification.__table__.alias("unread")
        unread_total = (
            select(func.count()).select_from(other).where(_unread(other.c)).scalar_subquery()
        )
        conditions = [Notification.user_id == bindparam(_USER)]
        if unread:
            conditions.append(Notification.read_at.is_(None))
        if kinds:
            conditions.append(Notification.kind.in_(bindparam("kinds", expanding=True)))
        if before:
            conditions.append(Notification.id < bindparam("before", type_=Notification.id.type))
        found = _PAGES[shape] = Prepared(
            select(
                Notification.id,
                Notification.kind,
                Notification.subject_ref,
                Notification.title,
                Notification.data,
                Notification.read_at,
                Notification.created_at,
                unread_total.label("unread_total"),
            )
            .where(*conditions)
            .order_by(Notification.id.desc())
            .limit(bindparam("limit")),
            shape=_InboxRow,
        )
    return found


async def page_with_unread(
    session: AsyncSession,
    user_id: uuid.UUID,
    *,
    unread: bool,
    kinds: list[str],
    before: uuid.UUID | None,
    limit: int,
) -> tuple[list[NotificationColumns], int]:
    """Newest first (ids are time-ordered uuid7), ``limit`` rows after ``before``, and how many
    of the person's notifications are unread: one statement (two when the page is empty)."""
    params: dict[str, Any] = {_USER: user_id, "limit": limit}
    if kinds:
        params["kinds"] = kinds
    if before is not None:
        params["before"] = before
    rows = await read_all(
        session, _page_statement((unread, bool(kinds), before is not None)), **params
    )
    if rows:
        return list(rows), int(rows[0].unread_total)
    return [], await unread_count(session, user_id)


async def unread_count(session: AsyncSession, user_id: uuid.UUID) -> int:
    found = await read_one(session, _UNREAD_COUNT, **{_USER: user_id})
    return int(found.total) if found is not None else 0


async def has_unread(
    session: AsyncSession, user_id: uuid.UUID, subject_ref: str, except_kinds: list[str]
) -> bool:
    found = await session.scalar(
        select(Notification.id)
        .where(
            Notification.user_id == user_id,
            Notification.subject_ref == subject_ref,
            Notification.read_at.is_(None),
            Notification.kind.not_in(except_kinds),
        )
        .limit(1)
    )
    return found is not None


_Owned = TypeVar("_Owned", Notification, NotificationDelivery)


async def _owned(
    session: AsyncSession, model: type[_Owned], user_id: uuid.UUID, row_id: uuid.UUID
) -> _Owned | None:
    """The person's row of ``model`` by id (another person's: None)."""
    return await session.scalar(select(model).where(model.id == row_id, model.user_id == user_id))


async def notification(
    session: AsyncSession, user_id: uuid.UUID, notification_id: uuid.UUID
) -> Notification | None:
    return await _owned(session, Notification, user_id, notification_id)


async def mark(
    session: AsyncSession,
    user_id: uuid.UUID,
    read_at: datetime | None,
    *,
    ids: list[uuid.UUID] | None = None,
    subject_ref: str | None = None,
    kinds: list[str] | None = None,
    except_kinds: list[str] | None = None,
) -> int:
    """Set ``read_at`` on the user's notifications (those given, about ``subject_ref``, of
    ``kinds``, or all); only rows that change are touched. Returns how many changed."""
    query = update(Notification).where(Notification.user_id == user_id)
    if read_at is None:
        query = query.where(Notification.read_at.is_not(None))
    else:
        query = query.where(Notification.read_at.is_(None))
    if ids is not None:
        query = query.where(Notification.id.in_(ids))
    if subject_ref is not None:
        query = query.where(Notification.subject_ref == subject_ref)
    if kinds:
        query = query.where(Notification.kind.in_(kinds))
    if except_kinds:
        query = query.where(Notification.kind.not_in(except_kinds))
    result = await session.execute(
        query.values(read_at=read_at).execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0)


# --- preferences ---------------------------------------------------------------------------


async def preferences(
    session: AsyncSession, user_id: uuid.UUID, kind: str | None = None
) -> list[NotificationPreference]:
    query = select(NotificationPreference).where(NotificationPreference.user_id == user_id)
    if kind is not None:
        query = query.where(NotificationPreference.kind == kind)
    return list(await session.scalars(query))


async def set_preference(
    session: AsyncSession, user_id: uuid.UUID, kind: str, channel: str, enabled: bool
) -> None:
    row = await session.get(NotificationPreference, (user_id, kind, channel))
    if row is None:
        session.add(
            NotificationPreference(user_id=user_id, kind=kind, channel=channel, enabled=enabled)
        )
    else:
        row.enabled = enabled


# --- per-job webhooks ----------------------------------------------------------------------


def add_job_webhook(session: AsyncSession, hook: JobWebhook) -> None:
    session.add(hook)


async def job_webhook(session: AsyncSession, job_id: uuid.UUID) -> JobWebhook | None:
    return await session.get(JobWebhook, job_id)


async def signing_secret(session: AsyncSession, user_id: uuid.UUID) -> WebhookSigningSecret | None:
    return await session.get(WebhookSigningSecret, user_id)


def add_signing_secret(session: AsyncSession, row: WebhookSigningSecret) -> None:
    session.add(row)


async def delivery(
    session: AsyncSession, user_id: uuid.UUID, delivery_id: uuid.UUID
) -> NotificationDelivery | None:
    return await _owned(session, NotificationDelivery, user_id, delivery_id)


# --- webhook endpoints (their health) ---------------------------------------------------------


async def endpoint(session: AsyncSession, endpoint_id: uuid.UUID) -> WebhookEndpoint | None:
    return await session.get(WebhookEndpoint, endpoint_id)


async def endpoints(session: AsyncSession, user_id: uuid.UUID) -> list[WebhookEndpoint]:
    found = await session.scalars(
        select(WebhookEndpoint)
        .where(WebhookEndpoint.user_id == user_id)
        .order_by(WebhookEndpoint.created_at, WebhookEndpoint.id)
    )
    return list(found)


async def endpoint_delivered(session: AsyncSession, endpoint_id: uuid.UUID) -> None:
    """A delivery got through: the endpoint is not failing (any more)."""
    await session.execute(
        update(WebhookEndpoint)
        .where(WebhookEndpoint.id == endpoint_id, WebhookEndpoint.failing_since.is_not(None))
        .values(failing_since=None)
        .execution_options(synchronize_session=False)
    )


class EndpointHealth(Protocol):
    @property
    def failing_since(self) -> datetime: ...
    @property
    def disabled_at(self) -> datetime | None: ...


async def endpoint_failed(
    session: AsyncSession, endpoint_id: uuid.UUID, user_id: uuid.UUID, url: str, now: datetime
) -> EndpointHealth:
    """An attempt failed: the endpoint's row (made on its first failure) is failing since its
    first failure after the last delivered one. One statement, so two senders failing at once
    both see the same row."""
    dialect = session.get_bind().dialect.name
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    table = WebhookEndpoint.__table__
    statement = insert(WebhookEndpoint).values(
        id=endpoint_id, user_id=user_id, url=url, failing_since=now, created_at=now
    )
    upsert = statement.on_conflict_do_update(
        index_elements=[table.c.id],
        set_={
            "failing_since": func.coalesce(table.c.failing_since, statement.excluded.failing_since)
        },
    ).returning(WebhookEndpoint.failing_since, WebhookEndpoint.disabled_at)
    row = (await session.execute(upsert)).one()
    return cast(EndpointHealth, row)


async def set_endpoint_disabled(
    session: AsyncSession,
    endpoint_id: uuid.UUID,
    disabled_at: datetime | None,
    reason: str | None = None,
) -> bool:
    """Disable the endpoint (``disabled_at``) or enable it again (None: also not failing any
    more, so the next failure starts the count afresh). False: no such row, or unchanged."""
    query = update(WebhookEndpoint).where(WebhookEndpoint.id == endpoint_id)
    if disabled_at is None:
        query = query.where(WebhookEndpoint.disabled_at.is_not(None))
        values: dict[str, Any] = {"disabled_at": None, "disabled_reason": None}
        values["failing_since"] = None
    else:
        query = query.where(WebhookEndpoint.disabled_at.is_(None))
        values = {"disabled_at": disabled_at, "disabled_reason": reason}
    result = await session.execute(
        query.values(**values).execution_options(synchronize_session=False)
    )
    return int(getattr(result, "rowcount", 0) or 0) == 1
