from typing import Literal

CoworkerStatus = Literal["ARCHIVED", "PENDING", "WHITELISTED"]

COWORKER_STATUS_VALUES: set[CoworkerStatus] = {
    "ARCHIVED",
    "PENDING",
    "WHITELISTED",
}


def check_coworker_status(value: str) -> CoworkerStatus:
    if value in COWORKER_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COWORKER_STATUS_VALUES!r}")
