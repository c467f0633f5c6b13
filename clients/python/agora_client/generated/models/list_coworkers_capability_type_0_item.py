from typing import Literal

ListCoworkersCapabilityType0Item = Literal["chat", "tasks"]

LIST_COWORKERS_CAPABILITY_TYPE_0_ITEM_VALUES: set[ListCoworkersCapabilityType0Item] = {
    "chat",
    "tasks",
}


def check_list_coworkers_capability_type_0_item(value: str) -> ListCoworkersCapabilityType0Item:
    if value in LIST_COWORKERS_CAPABILITY_TYPE_0_ITEM_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_COWORKERS_CAPABILITY_TYPE_0_ITEM_VALUES!r}"
    )
