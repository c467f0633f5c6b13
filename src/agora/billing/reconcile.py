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
  less their reversals (per job, and in all);
- payouts: Stripe's transfers (``GET /v1/transfers``) against the payouts (amount, currency,
  destination, what was reversed), a transfer naming a payout Agora has not recorded as paid,
  a payout Stripe has no transfer for, and the total paid out.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from agora.billing import payouts_repository
from agora.billing import repository as repo
from agora.billing.stripe_api import BalanceTransaction, TransferState
from agora.credits import service as credits
from agora.kit.money import to_display
from agora.models import CreditPurchase, Payout


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
    payouts: list[Payout] | None = None  # every payout with a transfer or pending


async def books(session: AsyncSession) -> Books:
    return Books(
        await repo.paid_purchases(session),
        await credits.purchased_total(session),
        await credits.earnings_against_captures(session),
        await payouts_repository.payouts_to_check(session),
    )


def payout_differences(books: Books, transfers: list[TransferState]) -> list[Difference]:
    """Stripe's transfers against the payouts."""
    out: list[Difference] = []
    by_id = {t.id: t for t in transfers}
    recorded = {str(p.id): p for p in books.payouts or []}
    for payout in books.payouts or []:
        subject = f"payout {payout.id} ({payout.account_key}, {payout.period})"
        found = by_id.get(payout.stripe_transfer_id or "")
        if payout.stripe_transfer_id is None:
            out.append(
                Difference(
                    "unsent_payout",
                    subject,
                    None,
                    payout.amount,
                    "claimed but Stripe has not confirmed a transfer: run "
                    "`agora payouts run` again (same idempotency key)",
                )
            )
            continue
        if found is None:
            out.append(
                Difference(
                    "missing_transfer",
                    subject,
                    None,
                    payout.amount,
                    f"Stripe lists no transfer {payout.stripe_transfer_id}",
                )
            )
            continue
        if (found.amount, found.currency) != (payout.amount, payout.currency):
            out.append(
                Difference(
                    "transfer_amount",
                    subject,
                    found.amount,
                    payout.amount,
                    f"Stripe transferred {found.amount} {found.currency}",
                )
            )
        if found.destination != payout.stripe_account_id:
            out.append(
                Difference(
                    "transfer_destination",
                    subject,
                    None,
                    None,
                    f"Stripe sent it to {found.destination}, Agora recorded "
                    f"{payout.stripe_account_id}",
                )
            )
        if found.amount_reversed != payout.amount_reversed:
            out.append(
                Difference(
                    "transfer_reversed",
                    subject,
                    found.amount_reversed,
                    payout.amount_reversed,
                    "Stripe reversed another amount (a transfer.reversed webhook missed?)",
                )
            )
    paid = {p.stripe_transfer_id for p in books.payouts or [] if p.stripe_transfer_id}
    for transfer in transfers:
        if transfer.payout_id is None or transfer.id in paid:
            continue
        known = recorded.get(transfer.payout_id)
        out.append(
            Difference(
                "unknown_transfer",
                f"transfer {transfer.id}",
                transfer.amount,
                known.amount if known else None,
                f"names payout {transfer.payout_id}, which Agora has not recorded as paid with it",
            )
        )
    stripe_net = sum(t.amount - t.amount_reversed for t in transfers if t.payout_id)
    agora_net = sum(
        p.amount - p.amount_reversed for p in books.payouts or [] if p.stripe_transfer_id
    )
    if stripe_net != agora_net:
        out.append(
            Difference(
                "payouts_total",
                "payouts",
                stripe_net,
                agora_net,
                "transfers less reversals at Stripe differ from Agora's payouts",
            )
        )
    return out


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


def compare(
    books: Books,
    transactions: list[BalanceTransaction],
    transfers: list[TransferState] | None = None,
) -> list[Difference]:
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
    return out + earnings_differences(books) + payout_differences(books, transfers or [])
