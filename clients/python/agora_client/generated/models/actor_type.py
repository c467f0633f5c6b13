from typing import Literal

ActorType = Literal["coworker", "orchestrator", "user"]

ACTOR_TYPE_VALUES: set[ActorType] = {
    "coworker",
    "orchestrator",
    "user",
}


def check_actor_type(value: str) -> ActorType:
    if value in ACTOR_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ACTOR_TYPE_VALUES!r}")
