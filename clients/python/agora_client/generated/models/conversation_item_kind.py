from typing import Literal

ConversationItemKind = Literal["conversation"]

CONVERSATION_ITEM_KIND_VALUES: set[ConversationItemKind] = {
    "conversation",
}


def check_conversation_item_kind(value: str) -> ConversationItemKind:
    if value in CONVERSATION_ITEM_KIND_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {CONVERSATION_ITEM_KIND_VALUES!r}"
    )
