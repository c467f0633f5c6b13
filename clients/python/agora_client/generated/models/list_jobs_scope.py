from typing import Literal

ListJobsScope = Literal["owned", "workspace"]

LIST_JOBS_SCOPE_VALUES: set[ListJobsScope] = {
    "owned",
    "workspace",
}


def check_list_jobs_scope(value: str) -> ListJobsScope:
    if value in LIST_JOBS_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_JOBS_SCOPE_VALUES!r}")
