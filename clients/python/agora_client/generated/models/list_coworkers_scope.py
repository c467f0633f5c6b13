from typing import Literal

ListCoworkersScope = Literal["all", "archived", "whitelisted"]

LIST_COWORKERS_SCOPE_VALUES: set[ListCoworkersScope] = {
    "all",
    "archived",
    "whitelisted",
}


def check_list_coworkers_scope(value: str) -> ListCoworkersScope:
    if value in LIST_COWORKERS_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_COWORKERS_SCOPE_VALUES!r}")
