from typing import Literal

ListConversationsArchived = Literal["all", "false", "true"]

LIST_CONVERSATIONS_ARCHIVED_VALUES: set[ListConversationsArchived] = {
    "all",
    "false",
    "true",
}


def check_list_conversations_archived(value: str) -> ListConversationsArchived:
    if value in LIST_CONVERSATIONS_ARCHIVED_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {LIST_CONVERSATIONS_ARCHIVED_VALUES!r}"
    )
