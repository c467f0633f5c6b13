"""The dispatcher's steps for A2A agents (docs/a2a.md), beside MIP-003's in ``worker.py``: each
is ONE exchange with the agent, made with no transaction open, then one short write through
``jobs.lifecycle`` — the same leases, retries, deadline and credits as a MIP-003 job.

    PENDING, no task        → message/stream (message/send when the card does not stream)
    RUNNING, answer waiting → the answer as the next message of the same task and context
    RUNNING                 → tasks/resubscribe (streaming) or tasks/get
    CANCELLED by the person → tasks/cancel, once (``cancel_requested``)

The A2A task's state decides the job's (``apply``; the table in docs/a2a.md).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Protocol

from agora.a2a.client import A2aClient, A2aError, Card, Outcome, card_from_json
from agora.a2a.credentials import open_sealed
from agora.files.worker import FILES_COLLECT
from agora.jobs import lifecycle
from agora.kit import background
from agora.kit.textinput import find_unstorable
from agora.kit.timeutil import isoformat, utcnow
from agora.mip003.errors import AgentError, AgentUnreachable
from agora.models import Job
from agora.models.statuses import DispatchState
from agora.settings import Settings


class Dispatcher(Protocol):
    """What these steps use of the dispatcher (``dispatch.worker.Dispatcher``)."""

    settings: Settings

    @property
    def a2a(self) -> A2aClient: ...

    def secret_key(self) -> str: ...
    async def a2a_agent(self, job: Job) -> tuple[dict[str, Any] | None, str | None] | None: ...
    async def record_event(self, job: Job, event_type: str, detail: dict[str, Any]) -> None: ...
    def queued_fields(self, delay: float) -> dict[str, Any]: ...
    def waiting_input_fields(self) -> dict[str, Any]: ...
    async def transition(
        self, job: Job, to_status: str, *, detail: dict[str, Any], **fields: Any
    ) -> bool: ...
    async def release(self, job: Job, **values: Any) -> bool: ...
    async def fail(self, job: Job, reason: str) -> None: ...
    async def retry_agent_call(self, job: Job, endpoint: str, exc: AgentError) -> None: ...


# What an A2A task's end means for the job (FAILED refunds the held credits; docs/a2a.md).
ENDINGS = {
    "failed": "the agent reported that the task failed",
    "rejected": "the agent rejected the task",
    "canceled": "the agent cancelled the task",
    "auth-required": "the agent asks for authentication Agora cannot give it",
}
ANSWER_SCHEMA = {
    "input_data": [
        {
            "id": "text",
            "type": "textarea",
            "name": "Your answer",
            "validations": [
                {"validation": "min", "value": "1"},
                {"validation": "max", "value": "20000"},
            ],
        }
    ]
}


async def agent_of(d: Dispatcher, job: Job, card_url: str) -> tuple[Card, str | None] | None:
    """The agent's card as read at submission or review, and its credential opened."""
    found = await d.a2a_agent(job)
    card_json, sealed = found if found is not None else (None, None)
    if card_json is None:
        return None
    credential = open_sealed(d.secret_key(), str(job.agent_id), sealed)
    return card_from_json(card_url, card_json), credential


def _skill(card: Card, picked: Any) -> str | None:
    skills = [s.id for s in card.card.skills]
    if isinstance(picked, list):
        picked = picked[0] if picked else None
    if isinstance(picked, int) and 0 <= picked < len(skills):
        return str(skills[picked])
    return str(picked) if picked in skills else None


async def step(d: Dispatcher, job: Job, card_url: str) -> None:
    """Advance an A2A job by one exchange (``card_url``: the agent's base URL)."""
    found = await agent_of(d, job, card_url)
    if found is None:
        await d.fail(job, "the agent's Agent Card is missing; it cannot be hired")
        return
    card, credential = found
    request = job.input_request or {}
    try:
        if job.status in lifecycle.FINAL_STATUSES:
            await _cancel(d, job, card, credential)
            return
        if job.agent_job_id is None:
            data = job.input_data or {}
            outcome = await d.a2a.send(
                card,
                credential,
                text=str(data.get("text", "")),
                skill=_skill(card, data.get("skill")),
                message_id=job.identifier_from_purchaser,
            )
        elif "answer" in request:
            answer = request["answer"]
            text = answer.get("text", "") if isinstance(answer, dict) else answer
            outcome = await d.a2a.send(
                card,
                credential,
                text=str(text),
                message_id=f"{job.id}-{request.get('requestedAt', '')}",
                task_id=job.agent_job_id,
                context_id=request.get("contextId"),
            )
        else:
            outcome = await d.a2a.follow(card, credential, job.agent_job_id)
    except A2aError as exc:
        await d.retry_agent_call(job, "a2a", AgentUnreachable(exc.message))
        return
    await apply(d, job, outcome)


async def _cancel(d: Dispatcher, job: Job, card: Card, credential: str | None) -> None:
    """The person cancelled the job (Agora refunded it then): tell the agent once, whatever it
    answers, and the job leaves the queue."""
    if job.agent_job_id is not None:
        try:
            await d.a2a.cancel(card, credential, job.agent_job_id)
            sent: dict[str, Any] = {"taskId": job.agent_job_id}
        except A2aError as exc:
            sent = {"taskId": job.agent_job_id, "error": exc.message}
        await d.record_event(job, "a2a_cancel_sent", sent)
    await d.release(job, dispatch_state=DispatchState.DONE, next_attempt_at=None)


async def apply(d: Dispatcher, job: Job, outcome: Outcome) -> None:
    """The job's next state from the task's (docs/a2a.md, "States")."""
    if outcome.task_id is None and outcome.reply is None:
        await d.retry_agent_call(job, "a2a", AgentUnreachable("the agent answered no task"))
        return
    task_id = outcome.task_id or job.agent_job_id
    seen = {"agent_job_id": task_id, "agent_job_status": outcome.state}
    problem = unstorable_outcome(outcome)
    if problem:
        await d.fail(job, f"the agent's answer cannot be stored: {problem}")
        return
    detail = {"a2aState": outcome.state, "taskId": task_id}
    if outcome.state == "completed":
        done = await d.transition(
            job, lifecycle.COMPLETED, detail=detail, result=outcome.result, **seen
        )
        if done:  # file parts are links in the result: the output collector fetches them
            background.wake(FILES_COLLECT)
    elif outcome.state in ENDINGS:
        reason = ENDINGS[outcome.state] + (f": {outcome.message}" if outcome.message else "")
        await d.transition(
            job,
            lifecycle.FAILED,
            detail={**detail, "reason": reason},
            error=reason,
            result=outcome.result or None,
            **seen,
        )
    elif outcome.state == "input-required":
        asked: dict[str, Any] = {
            "statusId": task_id,
            "taskId": task_id,
            "contextId": outcome.context_id,
            "inputSchema": ANSWER_SCHEMA,
            "requestedAt": isoformat(utcnow()),
        }
        if outcome.message:
            asked["message"] = outcome.message[:2000]
        await d.transition(
            job,
            lifecycle.INPUT_REQUIRED,
            detail=detail,
            input_request=asked,
            attempts=0,
            **seen,
            **d.waiting_input_fields(),
        )
    else:  # submitted / working / unknown: follow it again with back-off
        initial = d.settings.dispatch.status_poll_initial_seconds
        interval = min(
            d.settings.dispatch.status_poll_max_seconds, max(initial, (job.poll_interval or 0) * 2)
        )
        due = {"next_attempt_at": utcnow() + timedelta(seconds=interval)}
        if job.status == lifecycle.PENDING:
            await d.transition(
                job,
                lifecycle.RUNNING,
                detail=detail,
                **seen,
                **d.queued_fields(initial),
            )
        else:
            await d.release(
                job,
                attempts=0,
                poll_interval=interval,
                input_request=None,
                **due,
                **(
                    {**seen, "updated_at": utcnow()}
                    if job.agent_job_status != outcome.state
                    else {}
                ),
            )


def unstorable_outcome(outcome: Outcome) -> str | None:
    """Why the task's answer cannot be stored (as ``worker.unstorable`` for MIP-003)."""
    if outcome.task_id is not None and len(outcome.task_id) > 500:
        return "the task id is longer than 500 characters"
    for name, value in (
        ("taskId", outcome.task_id),
        ("contextId", outcome.context_id),
        ("result", outcome.result),
        ("message", outcome.message),
    ):
        found = find_unstorable(value, name) if value is not None else None
        if found:
            return f"{found[0]} {found[1]}"
    return None
