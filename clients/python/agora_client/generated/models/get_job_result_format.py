from typing import Literal

GetJobResultFormat = Literal["csv", "json", "markdown"]

GET_JOB_RESULT_FORMAT_VALUES: set[GetJobResultFormat] = {
    "csv",
    "json",
    "markdown",
}


def check_get_job_result_format(value: str) -> GetJobResultFormat:
    if value in GET_JOB_RESULT_FORMAT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_JOB_RESULT_FORMAT_VALUES!r}")
