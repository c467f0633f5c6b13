from typing import Literal

RoleInRole = Literal["admin", "member", "owner"]

ROLE_IN_ROLE_VALUES: set[RoleInRole] = {
    "admin",
    "member",
    "owner",
}


def check_role_in_role(value: str) -> RoleInRole:
    if value in ROLE_IN_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROLE_IN_ROLE_VALUES!r}")
