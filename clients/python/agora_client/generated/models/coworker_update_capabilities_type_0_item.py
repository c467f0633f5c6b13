from typing import Literal

CoworkerUpdateCapabilitiesType0Item = Literal["chat", "tasks"]

COWORKER_UPDATE_CAPABILITIES_TYPE_0_ITEM_VALUES: set[CoworkerUpdateCapabilitiesType0Item] = {
    "chat",
    "tasks",
}


def check_coworker_update_capabilities_type_0_item(
    value: str,
) -> CoworkerUpdateCapabilitiesType0Item:
    if value in COWORKER_UPDATE_CAPABILITIES_TYPE_0_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {COWORKER_UPDATE_CAPABILITIES_TYPE_0_ITEM_VALUES!r}"
    )
