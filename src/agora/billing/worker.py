"""Billing's background service: the monthly payout run (docs/billing.md, "Paying sellers").

``run_payouts`` is one run, also ``agora payouts run``: payouts left pending are sent again
(same idempotency key), then each account due this period is claimed in its own short
transaction, sent to Stripe with nothing held, and its answer written in another.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import structlog

from agora.billing import payouts
from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.errors import ServiceUnavailable
from agora.kit.timeutil import utcnow
from agora.models import Payout
from agora.settings import Settings

log = structlog.get_logger(__name__)


@dataclass
class RunReport:
    period: str
    paid: list[dict[str, object]] = field(default_factory=list)
    failed: list[dict[str, object]] = field(default_factory=list)
    blocked: list[dict[str, object]] = field(default_factory=list)
    unanswered: int = 0  # Stripe did not answer: left pending, retried by the next run

    def as_dict(self) -> dict[str, object]:
        return {"period": self.period, "paid": self.paid, "failed": self.failed,
                "blocked": self.blocked, "unanswered": self.unanswered}  # fmt: skip


async def _send_and_record(
    db: Database, settings: Settings, row: Payout, report: RunReport
) -> None:
    shown = {"account": row.account_key, "amount": row.amount, "currency": row.currency,
             "payout": str(row.id)}  # fmt: skip
    try:
        result = await payouts.send(settings, row)  # no transaction open
    except ServiceUnavailable as exc:
        log.warning("payout_unanswered", payout=str(row.id), error=str(exc))
        report.unanswered += 1
        return
    async with db.transaction() as session:
        outcome = await payouts.record(session, row.id, result)
    if outcome == payouts.PAID:
        report.paid.append(shown | {"transfer": result.transfer_id})
    elif outcome == payouts.FAILED:
        report.failed.append(shown | {"reason": result.refusal})


async def run_payouts(
    db: Database, settings: Settings, *, now: datetime | None = None
) -> RunReport:
    """One payout run for the period of ``now`` (UTC month). Without Stripe configured it
    claims nothing (503: payouts need Stripe Connect)."""
    if not settings.stripe.enabled:
        raise ServiceUnavailable("Stripe is not configured (AGORA_STRIPE_SECRET_KEY): no payouts")
    now = now or utcnow()
    report = RunReport(payouts.period_of(now))
    async with db.transaction() as session:
        unsent = await payouts.unsent(session)
    for row in unsent:
        await _send_and_record(db, settings, row, report)
    async with db.transaction(write=False) as session:
        due = await payouts.due(session, settings, now, report.period)
    for item in due:
        if item.blocked is not None:
            report.blocked.append({"account": item.key, "amount": item.amount,
                                   "currency": item.currency, "reason": item.blocked})  # fmt: skip
            continue
        async with db.transaction() as session:
            claimed = await payouts.claim(session, settings, item, now, report.period)
        if claimed is not None:
            await _send_and_record(db, settings, claimed, report)
    return report


class PayoutRun(LoopService):
    """The monthly run: from ``AGORA_PAYOUTS_RUN_DAY`` of each month, a run a day (a run pays
    each account once a period, so the later ones pay only what the first could not)."""

    def __init__(
        self, db: Database, settings: Settings, *, clock: Callable[[], datetime] = utcnow
    ) -> None:
        self.db, self.settings, self.clock = db, settings, clock
        super().__init__("payouts", interval=86_400.0, initial_delay=60.0, max_delay=86_400.0)

    async def round(self) -> float | None:
        now = self.clock()
        if now.day >= self.settings.payouts.run_day:
            report = await run_payouts(self.db, self.settings, now=now)
            log.info("payout_run", **report.as_dict())
        return None
