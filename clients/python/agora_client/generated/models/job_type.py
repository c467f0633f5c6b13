from typing import Literal

JobType = Literal["FREE", "PAID"]

JOB_TYPE_VALUES: set[JobType] = {
    "FREE",
    "PAID",
}


def check_job_type(value: str) -> JobType:
    if value in JOB_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {JOB_TYPE_VALUES!r}")
