from typing import Literal

AssigneeRefType = Literal["coworker", "user"]

ASSIGNEE_REF_TYPE_VALUES: set[AssigneeRefType] = {
    "coworker",
    "user",
}


def check_assignee_ref_type(value: str) -> AssigneeRefType:
    if value in ASSIGNEE_REF_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ASSIGNEE_REF_TYPE_VALUES!r}")
