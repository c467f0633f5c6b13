from typing import Literal

WorkItemKind = Literal["job", "task"]

WORK_ITEM_KIND_VALUES: set[WorkItemKind] = {
    "job",
    "task",
}


def check_work_item_kind(value: str) -> WorkItemKind:
    if value in WORK_ITEM_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WORK_ITEM_KIND_VALUES!r}")
