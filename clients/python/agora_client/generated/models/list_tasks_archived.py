from typing import Literal

ListTasksArchived = Literal["all", "false", "true"]

LIST_TASKS_ARCHIVED_VALUES: set[ListTasksArchived] = {
    "all",
    "false",
    "true",
}


def check_list_tasks_archived(value: str) -> ListTasksArchived:
    if value in LIST_TASKS_ARCHIVED_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_TASKS_ARCHIVED_VALUES!r}")
