from typing import Literal

JobStatus = Literal["CANCELLED", "COMPLETED", "FAILED", "INPUT_REQUIRED", "PENDING", "RUNNING"]

JOB_STATUS_VALUES: set[JobStatus] = {
    "CANCELLED",
    "COMPLETED",
    "FAILED",
    "INPUT_REQUIRED",
    "PENDING",
    "RUNNING",
}


def check_job_status(value: str) -> JobStatus:
    if value in JOB_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {JOB_STATUS_VALUES!r}")
