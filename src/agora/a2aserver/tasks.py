"""Agora jobs as A2A tasks and A2A messages as job input (docs/a2a.md, "States" of being hired).

A task is one job: its id and its context id are the job's id. A message's data parts (JSON
objects) are the input's fields; its text goes to the input's one text field (``text``, else the
only text-like field), or is read as a JSON object."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from a2a.types.a2a_pb2 import (
    Artifact,
    Message,
    Part,
    Role,
    Task,
    TaskArtifactUpdateEvent,
    TaskState,
    TaskStatus,
    TaskStatusUpdateEvent,
)
from a2a.utils.errors import InvalidParamsError
from google.protobuf.json_format import MessageToDict, ParseDict
from google.protobuf.struct_pb2 import Value
from google.protobuf.timestamp_pb2 import Timestamp

from agora.files.attachments import JobFile
from agora.jobs.views import ShownJob
from agora.models.statuses import JobStatus

MAX_MESSAGE_PARTS = 20
MAX_TEXT_CHARS = 100_000
TEXT_TYPES = ("text", "textarea", "string")

STATES = {
    JobStatus.PENDING: TaskState.TASK_STATE_SUBMITTED,
    JobStatus.RUNNING: TaskState.TASK_STATE_WORKING,
    JobStatus.INPUT_REQUIRED: TaskState.TASK_STATE_INPUT_REQUIRED,
    JobStatus.COMPLETED: TaskState.TASK_STATE_COMPLETED,
    JobStatus.FAILED: TaskState.TASK_STATE_FAILED,
    JobStatus.CANCELLED: TaskState.TASK_STATE_CANCELED,
}
# A stream (message/stream, tasks/resubscribe) ends at one of these: the person's turn, or the end.
SETTLED = frozenset(
    {
        JobStatus.INPUT_REQUIRED,
        JobStatus.COMPLETED,
        JobStatus.FAILED,
        JobStatus.CANCELLED,
    }
)


def state_name(status: str) -> str:
    """The A2A name of a job status's task state (``input-required``)."""
    state: str = TaskState.Name(STATES[JobStatus(status)])
    return state.removeprefix("TASK_STATE_").lower().replace("_", "-")


def _text_field(schema: Any) -> str | None:
    """The field a text message fills: ``text`` when there is one, else the only text-like
    field, else the only required field of a text-like type."""
    fields = [
        f for f in ((schema or {}).get("input_data") or []) if isinstance(f, dict) and f.get("id")
    ]
    if any(f["id"] == "text" for f in fields):
        return "text"
    texts = [f for f in fields if str(f.get("type", "string")) in TEXT_TYPES]
    if len(texts) == 1:
        return str(texts[0]["id"])
    required = [
        f
        for f in texts
        if not any(
            isinstance(v, dict) and v.get("validation") == "optional"
            for v in f.get("validations") or []
        )
    ]
    return str(required[0]["id"]) if len(required) == 1 else None


def input_of(message: Message, schema: Any) -> dict[str, Any]:
    """The job input (or the answer to an input request) a message carries, for ``schema``
    (MIP-003's input schema). Validation against the schema is the use case's."""
    if len(message.parts) > MAX_MESSAGE_PARTS:
        raise InvalidParamsError(message=f"at most {MAX_MESSAGE_PARTS} parts in a message")
    data: dict[str, Any] = {}
    texts: list[str] = []
    for part in message.parts:
        if part.HasField("data"):
            value = MessageToDict(part.data)
            if not isinstance(value, dict):
                raise InvalidParamsError(message="a data part must be a JSON object of fields")
            data.update(value)
        elif part.HasField("text"):
            texts.append(part.text)
        else:
            raise InvalidParamsError(
                message="only text and data parts are taken (files: upload them to Agora and "
                "pass their ids as fields)"
            )
    text = "\n".join(texts)[:MAX_TEXT_CHARS]
    if text.strip():
        field = _text_field(schema)
        if field is not None and field not in data:
            data[field] = text
        elif not data:
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict):
                raise InvalidParamsError(
                    message="this agent's input has no single text field: send a data part "
                    "(a JSON object of its fields; the card's skill lists them)"
                )
            data = parsed
    if not data:
        raise InvalidParamsError(message="the message has no text and no data")
    return data


def _data_part(value: Any) -> Part:
    return Part(data=ParseDict(value, Value()), media_type="application/json")


def _agent_message(job: ShownJob, text: str, *, data: Any = None, suffix: str = "") -> Message:
    parts = [Part(text=text)]
    if data is not None:
        parts.append(_data_part(data))
    return Message(
        message_id=f"{job.id}-{job.status.lower()}{suffix}",
        role=Role.ROLE_AGENT,
        parts=parts,
        task_id=str(job.id),
        context_id=str(job.id),
    )


def status_of(job: ShownJob) -> TaskStatus:
    """The task's status: the state, and the agent's question (its input schema as a data
    part), the failure's reason or the cancellation as the status message."""
    stamp = Timestamp()
    stamp.FromDatetime(job.updated_at)
    status = TaskStatus(state=STATES.get(JobStatus(job.status)), timestamp=stamp)
    request = job.input_request or {}
    if job.status == JobStatus.INPUT_REQUIRED:
        asked = request.get("message") if isinstance(request.get("message"), str) else None
        status.message.CopyFrom(
            _agent_message(
                job,
                asked or "The agent asks for input",
                data={"inputSchema": request.get("inputSchema") or {"input_data": []}},
                suffix=f"-{request.get('statusId') or ''}",
            )
        )
    elif job.status == JobStatus.FAILED:
        status.message.CopyFrom(_agent_message(job, job.error or "The job failed"))
    elif job.status == JobStatus.CANCELLED:
        status.message.CopyFrom(_agent_message(job, "The job was cancelled"))
    return status


def artifact_of(job: ShownJob, files: Sequence[JobFile] = ()) -> Artifact:
    """A completed job's result: its text, then each file Agora stored from it."""
    parts = [Part(text=job.result or "")]
    for file in files:
        if file.status == "STORED" and file.file_url:
            parts.append(
                Part(url=file.file_url, filename=file.name, media_type=file.mime_type or "")
            )
    return Artifact(artifact_id=f"{job.id}-result", name="result", parts=parts)


def task_of(job: ShownJob, files: Sequence[JobFile] = ()) -> Task:
    task = Task(id=str(job.id), context_id=str(job.id), status=status_of(job))
    if job.status == JobStatus.COMPLETED:
        task.artifacts.append(artifact_of(job, files))
    task.metadata.update(
        {
            "agoraJobId": str(job.id),
            "agoraStatus": str(job.status),
            "agentId": str(job.agent_id),
        }
    )
    return task


def status_event(task: Task) -> TaskStatusUpdateEvent:
    return TaskStatusUpdateEvent(task_id=task.id, context_id=task.context_id, status=task.status)


def artifact_event(task: Task) -> TaskArtifactUpdateEvent:
    return TaskArtifactUpdateEvent(
        task_id=task.id, context_id=task.context_id, artifact=task.artifacts[0], last_chunk=True
    )
