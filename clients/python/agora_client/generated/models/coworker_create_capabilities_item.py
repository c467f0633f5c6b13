from typing import Literal

CoworkerCreateCapabilitiesItem = Literal["chat", "tasks"]

COWORKER_CREATE_CAPABILITIES_ITEM_VALUES: set[CoworkerCreateCapabilitiesItem] = {
    "chat",
    "tasks",
}


def check_coworker_create_capabilities_item(value: str) -> CoworkerCreateCapabilitiesItem:
    if value in COWORKER_CREATE_CAPABILITIES_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COWORKER_CREATE_CAPABILITIES_ITEM_VALUES!r}"
    )
