"""/v1/users/me (key family: Envelope A, Simple errors)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from agora.auth.dependencies import PrincipalDep, ProfileWriter, SessionDep
from agora.coworkers import service as coworkers
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router
from agora.users import service
from agora.users.schemas import ProfileUpdate, UserOut

router = key_router(prefix="/users", tags=["users"])
# Ids stay ``str`` in the path: a malformed id answers the same 404 as an unknown one.
UserId = Annotated[str, Path(alias="userId")]


@router.get("/me", operation_id="getCurrentUser")
async def get_me(session: SessionDep, principal: PrincipalDep) -> EnvelopeA[UserOut]:
    """The authenticated user's profile."""
    user = await service.get_profile(session, principal.user_id)
    return EnvelopeA[UserOut](data=user)


@router.put("/me", operation_id="replaceCurrentUser")
async def put_me(
    body: ProfileUpdate, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[UserOut]:
    """Replace the editable profile. Omitted opt-ins revert to false; an omitted name is kept."""
    user = await service.replace_profile(session, principal.user_id, body)
    return EnvelopeA[UserOut](data=user)


@router.patch("/me", operation_id="updateCurrentUser")
async def patch_me(
    body: ProfileUpdate, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[UserOut]:
    """Change only the given fields."""
    user = await service.update_profile(session, principal.user_id, body)
    return EnvelopeA[UserOut](data=user)


@router.get("/{userId}", operation_id="getUser")
async def get_user(
    user_id: UserId, session: SessionDep, principal: PrincipalDep
) -> EnvelopeA[UserOut]:
    """A user: yourself, or, with a coworker key, a user whose task the coworker works on.
    Anyone else: 404."""
    user = await coworkers.visible_user(session, principal, user_id)
    return EnvelopeA[UserOut](data=user)
