from typing import Literal

ScheduleUpdateMissedpolicy = Literal["run_once", "skip"]

SCHEDULE_UPDATE_MISSEDPOLICY_VALUES: set[ScheduleUpdateMissedpolicy] = {
    "run_once",
    "skip",
}


def check_schedule_update_missedpolicy(value: str) -> ScheduleUpdateMissedpolicy:
    if value in SCHEDULE_UPDATE_MISSEDPOLICY_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {SCHEDULE_UPDATE_MISSEDPOLICY_VALUES!r}"
    )
