from typing import Literal

ListTasksScope = Literal["owned", "workspace"]

LIST_TASKS_SCOPE_VALUES: set[ListTasksScope] = {
    "owned",
    "workspace",
}


def check_list_tasks_scope(value: str) -> ListTasksScope:
    if value in LIST_TASKS_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_TASKS_SCOPE_VALUES!r}")
