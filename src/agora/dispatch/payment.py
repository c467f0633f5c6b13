"""The payment seam the dispatcher drives (docs/payments.md): what a payment backend is, and what
it may use of the dispatcher. The backends themselves are the payments domain's
(``payments/backend.py``: credits only, or a Masumi payment node); the composition root
(``workers.py``, ``app.py``) builds the configured one and hands it to the ``Dispatcher``.

The dispatcher calls a backend at three points: ``on_started`` (after ``/start_job``: what its
answer means for payment, before anything is bought), ``step`` (instead of the plain ``/status``
poll, for a job the backend ``follows``) and ``fail_fields`` (how a failing job keeps following
its purchase). A backend calls out (its node, the agent) with nothing held and writes each
outcome through the dispatcher (``DispatchSteps.write_outcome``): the transactions of a round
are the dispatcher's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from agora.mip003.types import JobStatus, StartedJob
from agora.models import Job

# A job event a step records: (type, detail)
Event = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class StartPlan:
    """What ``/start_job``'s answer means for payment: extra job fields (and what the RUNNING
    event adds to its detail), or a failure."""

    fields: dict[str, Any] = field(default_factory=dict)
    failure: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


class DispatchSteps(Protocol):
    """What a payment backend may use of the dispatcher that drives it (dispatch/worker.py): the
    dispatch columns of a job queued again or parked, the agent's status, and the writing of an
    outcome."""

    def queued_fields(self, delay: float) -> dict[str, Any]: ...

    def waiting_input_fields(self) -> dict[str, Any]: ...

    async def agent_status(self, job: Job, base_url: str) -> JobStatus | None: ...

    async def write_outcome(
        self,
        job: Job,
        events: Sequence[Event],
        *,
        to_status: str | None = None,
        detail: dict[str, Any] | None = None,
        refund_credits: bool | None = None,
        settle_detail: dict[str, Any] | None = None,
        **fields: Any,
    ) -> bool: ...


class PaymentBackend(Protocol):
    name: str

    def on_started(self, job: Job, started: StartedJob) -> StartPlan: ...

    def follows(self, job: Job) -> bool: ...

    def fail_fields(self, job: Job, dispatcher: DispatchSteps) -> dict[str, Any]: ...

    async def step(self, dispatcher: DispatchSteps, job: Job, base_url: str) -> None: ...

    async def aclose(self) -> None: ...
