from typing import Literal

MessageCreateRole = Literal["assistant", "system", "user"]

MESSAGE_CREATE_ROLE_VALUES: set[MessageCreateRole] = {
    "assistant",
    "system",
    "user",
}


def check_message_create_role(value: str) -> MessageCreateRole:
    if value in MESSAGE_CREATE_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {MESSAGE_CREATE_ROLE_VALUES!r}")
