"""The kinds of notification people get: one registered ``Kind`` each (a job's through
``_about_a_job``).

A kind names the event (``job.input_required``), says which channels are on by default (a
person's preferences override them), how its title reads and where its link points. Channels:
``inbox`` (the in-app inbox), ``mail``; per-job and account webhooks are for programs
(docs/notifications.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

INBOX, MAIL = "inbox", "mail"
CHANNELS = (INBOX, MAIL)
BOTH = frozenset({INBOX, MAIL})

Data = Mapping[str, Any]


def _named(data: Data, fallback: str = "Your job") -> str:
    name = data.get("name")
    return f"“{name}”" if name else fallback


def _job_link(data: Data) -> str:
    return f"/jobs/{data.get('jobId', '')}"


@dataclass(frozen=True)
class Kind:
    name: str
    title: Callable[[Data], str]
    defaults: frozenset[str] = frozenset({INBOX})
    link: Callable[[Data], str | None] = lambda _data: None
    description: str = ""
    # Low priority: its mails are held and sent together, at most hourly, in one digest mail
    # per person (worker.py); the inbox row is written at once as for every kind.
    digest: bool = False


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Add a kind (at import time). Nothing else is needed: preferences, the inbox filter, mail
    templates and the docs list read this table."""
    if kind.name in KINDS:
        raise ValueError(f"notification kind {kind.name} is registered twice")
    KINDS[kind.name] = kind
    return kind


def get(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown notification kind {name!r}") from None


def _about_a_job(
    name: str,
    verb: str,
    description: str,
    *,
    anchor: str = "",
    defaults: frozenset[str] = BOTH,
    digest: bool = False,
) -> Kind:
    """A kind about one of the person's jobs: "“<its name>” <verb>", linked to its page."""
    return register(
        Kind(
            name,
            lambda d: f"{_named(d)} {verb}",
            defaults,
            lambda d: f"{_job_link(d)}{anchor}",
            description,
            digest,
        )
    )


JOB_INPUT_REQUIRED = _about_a_job(
    "job.input_required",
    "needs your input",
    "An agent asks you a question; the job waits for your answer.",
    anchor="#input-form",
)
JOB_COMPLETED = _about_a_job(
    "job.completed",
    "is done",
    "A job finished with a result.",
    defaults=frozenset({INBOX}),
    digest=True,  # when mail is turned on for it: in the hourly digest
)
JOB_FAILED = _about_a_job("job.failed", "failed", "A job failed; held credits were refunded.")
JOB_REFUNDED = _about_a_job(
    "job.refunded",
    "was refunded",
    "A paid job's payment was settled by a refund (dispute or failure).",
)
SCHEDULE_PAUSED = register(
    Kind(
        "schedule.paused",
        lambda d: f"Schedule paused: {d.get('name') or 'a schedule'}",
        BOTH,
        lambda d: f"/schedules/{d.get('scheduleId', '')}",
        "A schedule paused itself after runs failed in a row; it says why.",
    )
)
ORG_INVITATION = register(
    Kind(
        "org.invitation",
        lambda d: f"{d.get('inviter') or 'Someone'} invites you to {d.get('organization')}",
        frozenset({INBOX}),  # the invitation mail itself (with its link) is always sent
        lambda _d: "/organizations",
        "Someone invited you to an organization (the invitation mail has the link to accept).",
    )
)
ORG_ROLE_CHANGED = register(
    Kind(
        "org.role_changed",
        lambda d: f"You are now {d.get('role')} in {d.get('organization') or 'an organization'}",
        BOTH,
        lambda d: f"/organizations/{d.get('organizationId', '')}",
        "Your role in an organization changed.",
    )
)
AGENT_REVIEW_DECIDED = register(
    Kind(
        "agent.review_decided",
        lambda d: f"Your agent “{d.get('name')}” was {d.get('decision')}",
        BOTH,
        lambda d: f"/developer/{d.get('agentId', '')}",
        "An agent you submitted was approved or rejected (with the reviewer's note).",
    )
)
AGENT_CONFORMANCE_LOST = register(
    Kind(
        "agent.conformance_lost",
        lambda d: f"“{d.get('name')}” lost its Conformant badge",
        BOTH,
        lambda d: d.get("link") or f"/developer/{d.get('agentId', '')}",
        "A listed agent failed Agora's conformance suite for days and lost its badge (the "
        "failed checks are named on its page).",
    )
)
AGENT_VERSION_BREAKING = register(
    Kind(
        "agent.version_breaking",
        lambda d: f"A coming version of “{d.get('name')}” breaks your saved input or schedule",
        BOTH,
        lambda d: f"/agents/{d.get('agentId', '')}",
        "A change of an agent waiting for review drops or retypes a field your schedule or "
        "saved input uses (told before the change takes effect).",
    )
)
CREDITS_LOW_BALANCE = register(
    Kind(
        "credits.low_balance",
        lambda _d: "Your Agora credits are running low",
        BOTH,
        lambda _d: "/credits/buy",
        "The workspace's balance fell below its threshold (once per fall).",
    )
)
CREDITS_CAP_REACHED = register(
    Kind(
        "credits.cap_reached",
        lambda d: f"Spending cap reached: {d.get('cap') or 'a monthly cap'}",
        BOTH,
        lambda _d: "/credits",
        "A monthly spending cap has no room left for another job like the last one.",
    )
)
PAYOUTS_FAILED = register(
    Kind(
        "payouts.failed",
        lambda d: f"A payout of your earnings did not reach you: {d.get('reason')}",
        BOTH,
        lambda _d: "/developer/earnings",
        "A payout to your Stripe account was refused or reversed; its amount is back in your "
        "earnings balance and goes out with the next run (operators are told too).",
    )
)
PAYOUTS_ACCOUNT_RESTRICTED = register(
    Kind(
        "payouts.account_restricted",
        lambda d: f"Payouts to your Stripe account are paused: {d.get('reason')}",
        BOTH,
        lambda _d: "/developer/earnings",
        "Stripe stopped payouts to your connected account; nothing is paid to it until Stripe "
        "enables them again (operators are told too).",
    )
)
# A webhook endpoint's owner is told by mail when deliveries to it fail for good (the Standard
# Webhooks spec: "notify the consumers using other channels (e.g. email)"). `endpoint` is the
# URL's scheme://host[:port] only (the path may carry a secret).
WEBHOOKS_LINK = "/settings/notifications#webhooks"
WEBHOOK_FAILED = register(
    Kind(
        "webhook.failed",
        lambda d: f"Webhook delivery failed: {d.get('event')} to {d.get('endpoint')}",
        BOTH,
        lambda _d: WEBHOOKS_LINK,
        "A webhook delivery failed after its last retry (the delivery log says why; redeliver "
        "it from there).",
        digest=True,  # a receiver down for long fails many deliveries: one mail an hour
    )
)
WEBHOOK_DISABLED = register(
    Kind(
        "webhook.disabled",
        lambda d: f"Webhook endpoint disabled: {d.get('endpoint')}",
        BOTH,
        lambda _d: WEBHOOKS_LINK,
        "A webhook endpoint was disabled (it answered 410 Gone, or every delivery failed for "
        "days); re-enable it once it is fixed.",
    )
)
