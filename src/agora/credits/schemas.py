from __future__ import annotations

from uuid import UUID

from pydantic import Field

from agora.kit.schemas import Credits, Schema, UtcDateTime


class LedgerEntryOut(Schema):
    """Read from a ``LedgerEntry`` row."""

    id: UUID
    kind: str = Field(
        description="grant | hold | capture | refund | usage | purchase | clawback | settle"
    )
    amount: Credits = Field(description="Change of the available balance, in credits.")
    held_change: Credits = Field(description="Change of the held amount, in credits.")
    balance_after: Credits
    job_id: UUID | None
    memo: str
    created_at: UtcDateTime


class CreditsOut(Schema):
    """Read from ``credits.service.Account``."""

    workspace_id: UUID = Field(description="The credit account: the current workspace.")
    balance: Credits = Field(description="Available credits.")
    held: Credits = Field(description="Credits held by unfinished jobs.")
    entries: list[LedgerEntryOut] = Field(description="Most recent ledger entries, newest first.")
