"""Reconciliation (``agora credits reconcile``): Stripe's balance transactions, read from the
API, against the purchases and the ledger (docs/billing.md). Differences, not fixes: each line
names the Stripe or Agora object to look at.

- a charge at Stripe that no purchase knows (another product on the account, or a purchase
  whose webhook never came: its credits were not granted);
- a paid purchase whose charge Stripe does not list, or lists for another amount;
- refunds and disputes: what Stripe took back (refund and adjustment transactions of the
  charge) against what the purchase recorded;
- the ledger: the credits of ``purchase`` entries against the credits of paid purchases;
- sellers' earnings: the earnings accounts against the seller shares of captured credit jobs
  less their reversals (per job, and in all).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.billing import repository as repo
from agora.billing.stripe_api import BalanceTransaction
from agora.credits import service as credits
from agora.kit.money import to_display
from agora.models import CreditPurchase


@dataclass(frozen=True)
class Difference:
    kind: str
    subject: str
    stripe: int | None
    agora: int | None
    detail: str

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "subject": self.subject,
            "stripe": self.stripe,
            "agora": self.agora,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Books:
    purchases: list[CreditPurchase]
    ledger_purchased: int
    # sellers' earnings: (expected from captures, held by the accounts, differing jobs)
    earnings: tuple[int, int, list[tuple[uuid.UUID | None, int, int]]] = (0, 0, [])


async def books(session: AsyncSession) -> Books:
    return Books(
        await repo.paid_purchases(session),
        await credits.purchased_total(session),
        await credits.earnings_against_captures(session),
    )


def earnings_differences(books: Books) -> list[Difference]:
    expected, held, jobs = books.earnings
    out = [
        Difference(
            "earnings",
            f"job {job_id}",
            None,
            recorded,
            f"the capture gives the seller {to_display(share)} credits, the earnings "
            f"account holds {to_display(recorded)} for it",
        )
        for job_id, share, recorded in jobs
    ]
    if expected != held:
        out.append(
            Difference(
                "earnings_total",
                "earnings accounts",
                None,
                held,
                f"the captured credit jobs give sellers {to_display(expected)} credits less "
                f"reversals, the earnings accounts hold {to_display(held)}",
            )
        )
    return out


def compare(books: Books, transactions: list[BalanceTransaction]) -> list[Difference]:
    charged: dict[str, int] = defaultdict(int)
    returned: dict[str, int] = defaultdict(int)
    for txn in transactions:
        if txn.charge_id is None:
            continue
        if txn.type in ("charge", "payment"):
            charged[txn.charge_id] += txn.amount
        elif txn.type in ("refund", "adjustment", "payment_refund"):
            returned[txn.charge_id] += -txn.amount
    out: list[Difference] = []
    known: set[str] = set()
    for purchase in books.purchases:
        charge = purchase.stripe_charge_id
        subject = f"purchase {purchase.id} ({charge or purchase.stripe_payment_intent_id})"
        if charge is None or charge not in charged:
            out.append(
                Difference(
                    "missing_charge",
                    subject,
                    None,
                    purchase.price,
                    "granted, but Stripe lists no charge for it",
                )
            )
            continue
        known.add(charge)
        if charged[charge] != purchase.price:
            out.append(
                Difference(
                    "amount",
                    subject,
                    charged[charge],
                    purchase.price,
                    "Stripe charged another amount",
                )
            )
        if returned.get(charge, 0) != purchase.refunded:
            out.append(
                Difference(
                    "refunded",
                    subject,
                    returned.get(charge, 0),
                    purchase.refunded,
                    "refunds and disputes at Stripe differ from the purchase's",
                )
            )
    for charge, amount in sorted(charged.items()):
        if charge not in known:
            out.append(
                Difference(
                    "unknown_charge",
                    f"charge {charge}",
                    amount,
                    None,
                    "no purchase in Agora (not granted, or not Agora's)",
                )
            )
    expected = sum(p.credits for p in books.purchases)
    if books.ledger_purchased != expected:
        out.append(
            Difference(
                "ledger",
                "purchase entries",
                expected,
                books.ledger_purchased,
                f"the ledger holds {to_display(books.ledger_purchased)} purchased "
                f"credits, the paid purchases {to_display(expected)}",
            )
        )
    return out + earnings_differences(books)
