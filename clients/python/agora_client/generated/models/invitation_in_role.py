from typing import Literal

InvitationInRole = Literal["admin", "member", "owner"]

INVITATION_IN_ROLE_VALUES: set[InvitationInRole] = {
    "admin",
    "member",
    "owner",
}


def check_invitation_in_role(value: str) -> InvitationInRole:
    if value in INVITATION_IN_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {INVITATION_IN_ROLE_VALUES!r}")
