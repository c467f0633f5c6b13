"""Task statuses and the moves between them (docs/tasks.md has the table).

The statuses are Sokosumi's (reference/clients.md) plus Agora's earlier PENDING (the default of a
task created without a status; it behaves as READY) and CANCELLED (the interface's spelling; it
behaves as CANCELED). Staying in the same status is always allowed (a no-op move, so a retried
request is harmless); anything not in the table answers 409 "invalid status transition".
"""

from __future__ import annotations

from agora.kit.errors import BadRequest, Conflict
from agora.models.statuses import TaskStatus

DRAFT, READY, PENDING = TaskStatus.DRAFT, TaskStatus.READY, TaskStatus.PENDING
QUEUED, RUNNING = TaskStatus.QUEUED, TaskStatus.RUNNING
AWAITING_EXTERNAL, INPUT_REQUIRED = TaskStatus.AWAITING_EXTERNAL, TaskStatus.INPUT_REQUIRED
APPROVAL_REQUIRED = TaskStatus.APPROVAL_REQUIRED
AUTHENTICATION_REQUIRED = TaskStatus.AUTHENTICATION_REQUIRED
OUT_OF_CREDITS, CREDITS_TOPPED_UP = TaskStatus.OUT_OF_CREDITS, TaskStatus.CREDITS_TOPPED_UP
CANCEL_REQUESTED, COMPLETED, FAILED = (
    TaskStatus.CANCEL_REQUESTED,
    TaskStatus.COMPLETED,
    TaskStatus.FAILED,
)
CANCELED, CANCELLED = TaskStatus.CANCELED, TaskStatus.CANCELLED

_WAITING = (AWAITING_EXTERNAL, INPUT_REQUIRED, APPROVAL_REQUIRED, AUTHENTICATION_REQUIRED)
_STOP = (CANCEL_REQUESTED, CANCELED, CANCELLED)

TRANSITIONS: dict[str, tuple[str, ...]] = {
    DRAFT: (READY, PENDING, CANCELED, CANCELLED),
    READY: (DRAFT, QUEUED, RUNNING, COMPLETED, FAILED, *_STOP),
    PENDING: (DRAFT, READY, QUEUED, RUNNING, COMPLETED, FAILED, *_STOP),
    QUEUED: (READY, RUNNING, FAILED, *_STOP),
    RUNNING: (*_WAITING, OUT_OF_CREDITS, COMPLETED, FAILED, *_STOP),
    AWAITING_EXTERNAL: (RUNNING, QUEUED, *_WAITING, COMPLETED, FAILED, *_STOP),
    INPUT_REQUIRED: (RUNNING, QUEUED, *_WAITING, COMPLETED, FAILED, *_STOP),
    APPROVAL_REQUIRED: (RUNNING, QUEUED, *_WAITING, COMPLETED, FAILED, *_STOP),
    AUTHENTICATION_REQUIRED: (RUNNING, QUEUED, *_WAITING, COMPLETED, FAILED, *_STOP),
    OUT_OF_CREDITS: (CREDITS_TOPPED_UP, FAILED, *_STOP),
    CREDITS_TOPPED_UP: (QUEUED, RUNNING, *_STOP),
    CANCEL_REQUESTED: (CANCELED, CANCELLED, FAILED, COMPLETED),
    COMPLETED: (READY,),  # reopened
    FAILED: (READY, QUEUED),  # retried
    CANCELED: (READY,),
    CANCELLED: (READY,),
}
STATUSES: tuple[str, ...] = tuple(TRANSITIONS)


def clean(value: str, field: str = "status") -> str:
    """An uppercase known status; either case is accepted. Unknown → 400 naming the field."""
    status = value.strip().upper()
    if status not in TRANSITIONS:
        raise BadRequest.field(field, f"{value.strip()!r} is not one of {', '.join(STATUSES)}")
    return TaskStatus(status)


def check_move(current: str, target: str) -> None:
    """409 "invalid status transition" unless ``current → target`` is in the table."""
    if current == target:
        return
    allowed = TRANSITIONS.get(current)
    if allowed is None:  # a legacy free-form status: any known status may follow
        return
    if target not in allowed:
        raise Conflict(
            f"invalid status transition: {current} → {target} "
            f"(from {current}: {', '.join(allowed)})"
        )
