from typing import Literal

AgentStatus = Literal["EXPIRED", "PENDING", "REVOKED", "VERIFIED"]

AGENT_STATUS_VALUES: set[AgentStatus] = {
    "EXPIRED",
    "PENDING",
    "REVOKED",
    "VERIFIED",
}


def check_agent_status(value: str) -> AgentStatus:
    if value in AGENT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AGENT_STATUS_VALUES!r}")
