"""Promotion codes for buyers (docs/billing.md, "Promotion codes"): the operator creates codes
(bonus credits on a pack, or a percentage off its price; limits in total and per person; an
expiry); a buyer gives one when starting a purchase. The checks before Stripe is called are
``check_code`` (read phase); the use is taken in the purchase's write with a conditional UPDATE
on the code's counter (``take_use``), never a read-then-write. The bonus is granted with the
purchase, by Stripe's webhook, as its own ledger kind (``bonus``)."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.audit import service as audit
from agora.billing import repository as repo
from agora.billing.currencies import price_problem
from agora.kit.errors import BadRequest, NotFound
from agora.kit.ids import parse_uuid, uuid7
from agora.kit.money import to_base
from agora.kit.timeutil import as_utc, utcnow
from agora.models import PromotionCode

CODE = re.compile(r"^[A-Z0-9][A-Z0-9_-]{2,39}$")
FIELD = "promotionCode"
MAX_CODES = 200


def normalised(code: str) -> str:
    return code.strip().upper()


async def create_code(
    session: AsyncSession,
    actor: audit.Actor,
    *,
    code: str,
    bonus_credits: Any = None,
    percent_off: int | None = None,
    max_uses: int | None = None,
    per_person: int | None = 1,
    expires_at: datetime | None = None,
) -> PromotionCode:
    """A new code: exactly one of bonus credits (display units) or a percentage off (1 to 100)."""
    text = normalised(code)
    if not CODE.match(text):
        raise BadRequest.field("code", "must be 3 to 40 letters, digits, - or _")
    bonus = 0
    if bonus_credits is not None:
        try:
            bonus = to_base(str(bonus_credits))
        except ValueError as exc:
            raise BadRequest.field("bonusCredits", str(exc)) from exc
        if bonus <= 0:
            raise BadRequest.field("bonusCredits", "must be positive")
    percent = percent_off or 0
    if (bonus > 0) == (percent > 0):
        raise BadRequest.field("bonusCredits", "give either bonusCredits or percentOff")
    if expires_at is not None and as_utc(expires_at) <= utcnow():
        raise BadRequest.field("expiresAt", "must be in the future")
    if await repo.code_by_text(session, text) is not None:
        raise BadRequest.field("code", f"{text} exists already")
    row = repo.add_code(
        session,
        id=uuid7(),
        code=text,
        bonus_credits=bonus,
        percent_off=percent,
        max_uses=max_uses,
        per_person=per_person,
        uses=0,
        expires_at=as_utc(expires_at) if expires_at else None,
        active=True,
    )
    await session.flush()
    details = {"code": text, "bonusCredits": bonus, "percentOff": percent, "maxUses": max_uses}
    await audit.record(
        session, "promotion.created", actor=actor, target_kind="promotion_code",
        target_id=row.id, details=details,
    )  # fmt: skip
    return row


def end_of_day(day: str) -> datetime:
    """``YYYY-MM-DD`` → the end of that UTC day (the console's expiry field)."""
    try:
        start = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError as exc:
        raise BadRequest.field("expiresOn", "must be a date, YYYY-MM-DD") from exc
    return start + timedelta(days=1)


async def list_codes(session: AsyncSession) -> list[PromotionCode]:
    return await repo.codes(session, MAX_CODES)


async def set_active(
    session: AsyncSession, actor: audit.Actor, raw_id: str, active: bool
) -> PromotionCode:
    code_id = parse_uuid(raw_id)
    row = await repo.code_by_id(session, code_id) if code_id else None
    if row is None:
        raise NotFound(f"Promotion code {raw_id} not found")
    row.active = active
    await session.flush()
    await audit.record(
        session, "promotion.changed", actor=actor, target_kind="promotion_code",
        target_id=row.id, details={"code": row.code, "active": active},
    )  # fmt: skip
    return row


@dataclass(frozen=True)
class Applied:
    """What a code does to a purchase: the code, the bonus credits and the price taken off."""

    code_id: uuid.UUID
    code: str
    bonus_credits: int
    discount: int


def _refused(code: str, why: str) -> BadRequest:
    return BadRequest.field(FIELD, f"{code}: {why}")


async def check_code(
    session: AsyncSession, user_id: uuid.UUID, code: str, price: int, currency: str
) -> Applied:
    """The code a buyer gave at checkout, checked before Stripe is called (the read phase):
    400 naming ``promotionCode`` when it is unknown, off, expired, used up (in total or by
    this person) or takes the price below what Stripe charges."""
    text = normalised(code)
    row = await repo.code_by_text(session, text) if CODE.match(text) else None
    if row is None or not row.active:
        raise _refused(text, "no such promotion code")
    if row.expires_at is not None and as_utc(row.expires_at) <= utcnow():
        raise _refused(text, "this promotion code has expired")
    if row.max_uses is not None and row.uses >= row.max_uses:
        raise _refused(text, f"this promotion code has been used up (all {row.max_uses} uses)")
    if (
        row.per_person is not None
        and await repo.uses_by(session, row.id, user_id) >= row.per_person
    ):
        raise _refused(
            text, f"you have used this promotion code already ({row.per_person} per person)"
        )
    discount = price * row.percent_off // 100
    if discount:
        problem = price_problem(price - discount, currency)
        if price - discount <= 0 or problem is not None:
            raise _refused(text, "takes the pack's price below what can be charged")
    return Applied(row.id, row.code, row.bonus_credits, discount)


async def take_use(
    session: AsyncSession, applied: Applied, user_id: uuid.UUID, purchase_id: uuid.UUID
) -> None:
    """Take one use of the code for this purchase, in the purchase's transaction: the code's
    counter by a conditional UPDATE below its limit, then the person's nth use (unique per
    person and n, below ``per_person``). Refused (400 naming ``promotionCode``) when a
    concurrent checkout took the last use; the purchase is then not recorded."""
    row = await repo.code_by_id(session, applied.code_id)
    if row is None or not await repo.take_code_use(session, applied.code_id, utcnow()):
        raise _refused(applied.code, "this promotion code has been used up or has expired")
    seq = await repo.uses_by(session, applied.code_id, user_id) + 1
    limit = row.per_person
    if (limit is not None and seq > limit) or not await repo.add_redemption(
        session, id=uuid7(), code_id=applied.code_id, user_id=user_id, seq=seq,
        purchase_id=purchase_id,
    ):  # fmt: skip
        raise _refused(applied.code, "you have used this promotion code already")
