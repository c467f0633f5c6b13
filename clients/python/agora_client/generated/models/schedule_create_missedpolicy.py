from typing import Literal

ScheduleCreateMissedpolicy = Literal["run_once", "skip"]

SCHEDULE_CREATE_MISSEDPOLICY_VALUES: set[ScheduleCreateMissedpolicy] = {
    "run_once",
    "skip",
}


def check_schedule_create_missedpolicy(value: str) -> ScheduleCreateMissedpolicy:
    if value in SCHEDULE_CREATE_MISSEDPOLICY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCHEDULE_CREATE_MISSEDPOLICY_VALUES!r}"
    )
