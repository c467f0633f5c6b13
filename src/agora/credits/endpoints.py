"""GET /v1/credits (key family)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from agora.auth.dependencies import Reader, SessionDep
from agora.credits import service
from agora.credits.schemas import CreditsOut
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
