from typing import Literal

TaskEventOutKind = Literal["assignment", "participants"]

TASK_EVENT_OUT_KIND_VALUES: set[TaskEventOutKind] = {
    "assignment",
    "participants",
}


def check_task_event_out_kind(value: str) -> TaskEventOutKind:
    if value in TASK_EVENT_OUT_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TASK_EVENT_OUT_KIND_VALUES!r}")
