"""/v1/users/me (key family: Envelope A, Simple errors)."""

from __future__ import annotations

from typing import Annotated

from agora.auth.dependencies import PrincipalDep, SessionDep, require
from agora.auth.principal import Permission, Principal
from agora.kit.envelopes import EnvelopeA, envelope_a
from agora.kit.families import key_router
from agora.users import service
from agora.users.schemas import ProfileUpdate, UserOut

router = key_router(prefix="/users", tags=["users"])
ProfileWriter = Annotated[Principal, require(Permission.PROFILE_WRITE)]


@router.get("/me", response_model=EnvelopeA[UserOut], operation_id="getCurrentUser")
async def get_me(session: SessionDep, principal: PrincipalDep) -> dict[str, object]:
    """The authenticated user's profile."""
    user = await service.get_user(session, principal.user_id)
    return envelope_a(UserOut.of(user))


@router.put("/me", response_model=EnvelopeA[UserOut], operation_id="replaceCurrentUser")
async def put_me(
    body: ProfileUpdate, session: SessionDep, principal: ProfileWriter
) -> dict[str, object]:
    """Replace the editable profile. Omitted opt-ins revert to false; an omitted name is kept."""
    user = await service.replace_profile(session, principal.user_id, body)
    return envelope_a(UserOut.of(user))


@router.patch("/me", response_model=EnvelopeA[UserOut], operation_id="updateCurrentUser")
async def patch_me(
    body: ProfileUpdate, session: SessionDep, principal: ProfileWriter
) -> dict[str, object]:
    """Change only the given fields."""
    user = await service.update_profile(session, principal.user_id, body)
    return envelope_a(UserOut.of(user))
