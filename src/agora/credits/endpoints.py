"""GET /v1/credits and the ledger and spend exports (key family; docs/billing.md, "Exports")."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request
from fastapi.responses import StreamingResponse

from agora.auth.dependencies import Reader, SessionDep
from agora.credits import service
from agora.credits.schemas import CreditsOut
from agora.kit import csvexport
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router

router = key_router(tags=["credits"])


@router.get("/credits", operation_id="getCredits")
async def get_credits(
    session: SessionDep,
    principal: Reader,
    limit: Annotated[int, Query(ge=1, le=100, description="Ledger entries to return.")] = 20,
) -> EnvelopeA[CreditsOut]:
    """The current workspace's credit balance and its most recent ledger entries."""
    return EnvelopeA[CreditsOut](data=await service.account(session, principal, limit=limit))


From = Annotated[
    str | None,
    Query(
        alias="from",
        max_length=40,
        description="Start of the period (inclusive): a date (UTC midnight) or ISO 8601 time.",
    ),
]
To = Annotated[
    str | None,
    Query(
        alias="to",
        max_length=40,
        description="End of the period (exclusive): a date (UTC midnight) or ISO 8601 time.",
    ),
]


@router.get(
    "/credits/ledger/export",
    operation_id="exportLedger",
    response_class=StreamingResponse,
    responses=csvexport.CSV_ANSWER,
)
async def export_ledger(
    request: Request, principal: Reader, since: From = None, until: To = None
) -> StreamingResponse:
    """The current workspace's credit ledger as CSV, oldest first, streamed (optionally one
    period: `from`, `to`). Cells a spreadsheet would run as a formula are prefixed with `'`."""
    export = service.ledger_export(principal, since=since, until=until)
    return csvexport.download(request.app.state.db, export)


@router.get(
    "/credits/spend/export",
    operation_id="exportSpend",
    response_class=StreamingResponse,
    responses=csvexport.CSV_ANSWER,
)
async def export_spend(
    request: Request, principal: Reader, since: From = None, until: To = None
) -> StreamingResponse:
    """A period's spend as CSV, streamed: every credit captured for a job and every usage
    charge between `from` and `to` (this calendar month, UTC, when neither is given)."""
    export = service.spend_export(principal, since=since, until=until)
    return csvexport.download(request.app.state.db, export)
