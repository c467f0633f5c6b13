"""Every state a person sees is a word (issue 45): each job, task, purchase, schedule,
schedule-run, listing, review, payout, export, invitation, delivery, file and dispatch state
rendered through the badge macro (``macros.status_badge``) reads as words — capitalised, no
underscore, never the stored upper-case word — with the stored word kept in ``data-status``; a
job event reads as words on the timeline (``render.event_label``)."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from agora.billing.payouts import FAILED, PAID, PENDING, REVERSED
from agora.models.statuses import (
    AgentStatus,
    DeliveryState,
    DispatchState,
    FileState,
    JobStatus,
    PurchaseStatus,
    ReviewState,
    ScheduleRunStatus,
    ScheduleState,
    TaskStatus,
)
from agora.web.render import event_label, templates

WORDS = re.compile(r"^[A-Z][a-z]+([ -][a-z]+)*$")
CASES = (
    [("", s.value) for s in JobStatus]
    + [("", s.value) for s in TaskStatus]
    + [("purchase", s.value) for s in PurchaseStatus]
    + [("schedule", s.value) for s in ScheduleState]
    + [("run", s.value) for s in ScheduleRunStatus]
    + [("agent", s.value) for s in AgentStatus]
    + [("review", s.value) for s in ReviewState]
    + [("delivery", s.value) for s in DeliveryState]
    + [("file", s.value) for s in FileState]
    + [("dispatch", s.value) for s in DispatchState]
    + [("payout", s) for s in (PENDING, PAID, FAILED, REVERSED)]
    + [("export", s) for s in ("pending", "ready", "downloaded", "expired", "failed")]
    + [("invitation", s) for s in ("open", "used", "expired", "revoked")]
)


def _badge(status: str, kind: str) -> tuple[str, str]:
    macro = templates.env.get_template("macros.html").module.status_badge  # type: ignore[attr-defined]
    html = str(macro(status, kind))
    found = re.fullmatch(
        r'<span class="status status-([a-z_]+)" data-status="([^"]+)">([^<]+)</span>', html
    )
    assert found, html
    assert found.group(1) == status.lower() and found.group(2) == status
    return html, found.group(3)


@pytest.mark.parametrize(("kind", "status"), CASES)
def test_each_state_is_shown_in_words(kind: str, status: str) -> None:
    _html, shown = _badge(status, kind)
    assert WORDS.match(shown), (kind, status, shown)
    assert shown != status


def test_a_job_timeline_reads_in_words() -> None:
    def event(kind: str, to: str | None = None, **detail: object) -> SimpleNamespace:
        return SimpleNamespace(type=kind, to_status=to, detail=detail)

    assert event_label(event("created", "PENDING", price=0)) == "Created"
    assert (
        event_label(event("created", "PENDING", price=2.1)) == "Created and paid: 2.1 credits held"
    )
    assert event_label(event("status_changed", "INPUT_REQUIRED")) == "Needs your input"
    assert event_label(event("status_changed", "COMPLETED")) == "Completed"
    assert event_label(event("refund_requested")) == "Refund requested"
