"""The built-in demo agents.

- ``echo`` (free): transforms text (upper, lower, reverse, words) and completes on the first poll.
- ``reviewer`` (paid): drafts a review of the text, then asks the user to approve it
  (``awaiting_input``) and completes with the approved review and the user's note.
"""

from __future__ import annotations

from dataclasses import dataclass

from agora.sandbox.host import AgentHost
from agora.sandbox.protocol import AgentJob, Behaviour, Step
from agora.sandbox.seller import SellerConfig, build_seller_app

ECHO_SCHEMA = {
    "input_data": [
        {
            "id": "text",
            "type": "textarea",
            "name": "Text",
            "data": {"description": "The text to transform"},
            "validations": [
                {"validation": "min", "value": "1"},
                {"validation": "max", "value": "5000"},
            ],
        },
        {
            "id": "mode",
            "type": "option",
            "name": "Mode",
            "data": {"values": ["upper", "lower", "reverse", "words"]},
            "validations": [{"validation": "optional", "value": "true"}],
        },
    ]
}

REVIEW_SCHEMA = {
    "input_data": [
        {
            "id": "text",
            "type": "textarea",
            "name": "Text to review",
            "validations": [
                {"validation": "min", "value": "1"},
                {"validation": "max", "value": "5000"},
            ],
        }
    ]
}

APPROVAL_SCHEMA = {
    "input_data": [
        {
            "id": "approve",
            "type": "boolean",
            "name": "Approve the draft review?",
            "data": {
                "description": "Yes finishes the job with the draft above (and your note); "
                "No rejects it and the job fails."
            },
        },
        {
            "id": "note",
            "type": "string",
            "name": "Note for the final review",
            "validations": [
                {"validation": "optional", "value": "true"},
                {"validation": "max", "value": "500"},
            ],
        },
    ]
}


def _echo(job: AgentJob) -> Step:
    text = str(job.input_data.get("text", ""))
    mode = job.input_data.get("mode") or "upper"
    if isinstance(mode, list):
        mode = mode[0] if mode else "upper"
    result = {
        "upper": text.upper(),
        "lower": text.lower(),
        "reverse": text[::-1],
        "words": str(len(text.split())),
    }.get(str(mode), text.upper())
    return Step("completed", result=result)


def _draft(text: str) -> str:
    words = len(text.split())
    return f"Review: {words} words, {len(text)} characters. Looks good."


def _review(job: AgentJob) -> Step:
    text = str(job.input_data.get("text", ""))
    review = _draft(text)
    if not job.provided:
        # The draft travels as the status's ``message`` (MIP-003), so the person approves what
        # they can read.
        return Step(
            "awaiting_input",
            input_schema=APPROVAL_SCHEMA,
            message=f"**Draft review** — approve it to finish the job:\n\n> {review}",
        )
    answer = job.provided[-1]
    if not answer.get("approve"):
        return Step("failed", result="The draft review was rejected by the requester.")
    note = str(answer.get("note") or "").strip()
    return Step("completed", result=f"{review} Note: {note}" if note else review)


@dataclass(frozen=True)
class DemoAgent:
    slug: str
    name: str
    description: str
    price: int  # display credits
    category: str
    tags: tuple[str, ...]

    def behaviour(self) -> Behaviour:
        if self.slug == "echo":
            return Behaviour("echo", ECHO_SCHEMA, _echo)
        return Behaviour("reviewer", REVIEW_SCHEMA, _review)


DEMO_AGENTS = (
    DemoAgent(
        "echo",
        "Echo",
        "Transforms text: upper, lower, reverse, or counts words.",
        0,
        "text-tools",
        ("text", "free"),
    ),
    DemoAgent(
        "reviewer",
        "Reviewer",
        "Drafts a review and asks you to approve it before finishing.",
        2,
        "writing",
        ("review", "human-in-the-loop"),
    ),
)
DEMO_CATEGORIES = {"text-tools": "Text tools", "writing": "Writing"}
MOUNT_PREFIX = "/demo-agents"


def demo_host(seller: SellerConfig | None = None) -> AgentHost:
    """Every demo agent under ``/<slug>`` (mounted at ``MOUNT_PREFIX`` in the API process).
    With ``seller``, the paid ones are Masumi sellers on that payment node."""
    host = AgentHost()
    for agent in DEMO_AGENTS:
        if seller is not None and agent.price > 0:
            host.mount(agent.slug, build_seller_app(agent.behaviour(), seller))
        else:
            host.add(agent.slug, agent.behaviour())
    return host
