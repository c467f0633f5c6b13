from typing import Literal

ExportJobsScope = Literal["owned", "workspace"]

EXPORT_JOBS_SCOPE_VALUES: set[ExportJobsScope] = {
    "owned",
    "workspace",
}


def check_export_jobs_scope(value: str) -> ExportJobsScope:
    if value in EXPORT_JOBS_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPORT_JOBS_SCOPE_VALUES!r}")
