from typing import Literal

ConflictErrorError = Literal["Conflict"]

CONFLICT_ERROR_ERROR_VALUES: set[ConflictErrorError] = {
    "Conflict",
}


def check_conflict_error_error(value: str) -> ConflictErrorError:
    if value in CONFLICT_ERROR_ERROR_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CONFLICT_ERROR_ERROR_VALUES!r}")
