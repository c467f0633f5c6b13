from __future__ import annotations

from pydantic import BaseModel, Field

from agora.kit.money import to_display
from agora.kit.timeutil import isoformat
from agora.models import LedgerEntry


class LedgerEntryOut(BaseModel):
    id: str
    kind: str = Field(description="grant | hold | capture | refund")
    amount: float = Field(description="Change of the available balance, in credits.")
    heldChange: float = Field(description="Change of the held amount, in credits.")
    balanceAfter: float
    jobId: str | None
    memo: str
    createdAt: str

    @classmethod
    def of(cls, entry: LedgerEntry) -> LedgerEntryOut:
        return cls(
            id=str(entry.id),
            kind=entry.kind,
            amount=to_display(entry.amount),
            heldChange=to_display(entry.held_change),
            balanceAfter=to_display(entry.balance_after),
            jobId=str(entry.job_id) if entry.job_id else None,
            memo=entry.memo,
            createdAt=isoformat(entry.created_at) or "",
        )


class CreditsOut(BaseModel):
    workspaceId: str = Field(description="The credit account: the current workspace.")
    balance: float = Field(description="Available credits.")
    held: float = Field(description="Credits held by unfinished jobs.")
    entries: list[LedgerEntryOut] = Field(description="Most recent ledger entries, newest first.")
