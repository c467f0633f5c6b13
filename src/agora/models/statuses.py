"""Every closed set of status words, declared once (the columns store the plain strings).

``StrEnum`` members are strings, so they compare equal to the stored values and serialise as
them; use the members instead of string literals everywhere. ``TaskStatus`` is the closed set
of the task workflow (``tasks.lifecycle`` has the moves).
"""

from __future__ import annotations

from enum import StrEnum


class AgentStatus(StrEnum):
    PENDING = "PENDING"
    VERIFIED = "VERIFIED"
    REVOKED = "REVOKED"
    EXPIRED = "EXPIRED"


class ReviewState(StrEnum):
    """Review of a developer's or registry-imported agent (``agents.review_state``; NULL for
    agents registered by an admin)."""

    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    WITHDRAWN = "withdrawn"


class AgentSource(StrEnum):
    """Where an agent's listing came from (``agents.source``)."""

    OPERATOR = "operator"
    DEVELOPER = "developer"
    REGISTRY = "registry"


class AgentProtocol(StrEnum):
    """How Agora talks to an agent (``agents.protocol``; docs/a2a.md)."""

    MIP003 = "mip003"
    A2A = "a2a"


class PricingType(StrEnum):
    FREE = "FREE"
    FIXED = "FIXED"
    # The agent names its price per job (Masumi ``Dynamic``): signed amounts come with
    # ``/start_job``; a registry import keeps price 0 and the registry's pricing in ``listing``.
    DYNAMIC = "DYNAMIC"


class JobStatus(StrEnum):
    PENDING = "PENDING"
    RUNNING = "RUNNING"
    INPUT_REQUIRED = "INPUT_REQUIRED"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


class JobType(StrEnum):
    FREE = "FREE"
    PAID = "PAID"


class TaskStatus(StrEnum):
    """Every task status (the moves between them: ``tasks.lifecycle``). Sokosumi's statuses plus
    Agora's earlier PENDING and CANCELLED; rows written before the workflow may hold another
    word (a legacy free-form status)."""

    DRAFT = "DRAFT"
    READY = "READY"
    PENDING = "PENDING"
    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    AWAITING_EXTERNAL = "AWAITING_EXTERNAL"
    INPUT_REQUIRED = "INPUT_REQUIRED"
    APPROVAL_REQUIRED = "APPROVAL_REQUIRED"
    AUTHENTICATION_REQUIRED = "AUTHENTICATION_REQUIRED"
    OUT_OF_CREDITS = "OUT_OF_CREDITS"
    CREDITS_TOPPED_UP = "CREDITS_TOPPED_UP"
    CANCEL_REQUESTED = "CANCEL_REQUESTED"
    COMPLETED = "COMPLETED"
    FAILED = "FAILED"
    CANCELED = "CANCELED"
    CANCELLED = "CANCELLED"


class CoworkerStatus(StrEnum):
    """Derived from a coworker's timestamps (the column-less status ``CoworkerOut`` shows)."""

    PENDING = "PENDING"
    WHITELISTED = "WHITELISTED"
    ARCHIVED = "ARCHIVED"


class TaskActorType(StrEnum):
    """Who wrote a task event."""

    USER = "user"
    COWORKER = "coworker"
    ORCHESTRATOR = "orchestrator"


class AgentCheckKind(StrEnum):
    """Why an agent was checked live (``agent_checks.kind``)."""

    SUBMIT = "submit"  # its developer submitted it or changed its base URL
    REVIEW = "review"  # an operator approved it
    PERIODIC = "periodic"  # the availability checker's round


class KeyKind(StrEnum):
    """What an API key stands for (``api_keys.kind``; a browser session and an OAuth grant act
    as a ``user`` key)."""

    USER = "user"
    COWORKER = "coworker"
    ADMIN = "admin"


class ScheduleState(StrEnum):
    """A schedule's state (``schedules.state``): active until paused (by its owner, or by
    itself after too many failed runs in a row) or ended (by its owner, or when no occurrence is
    left before its end)."""

    ACTIVE = "active"
    PAUSED = "paused"
    ENDED = "ended"


class ScheduleRunStatus(StrEnum):
    """A recorded occurrence (``schedule_runs.status``): ``pending`` while its run is being
    made, then ``created`` (its job holds the credits), ``skipped`` (over the budget, short of
    credits), ``error`` (the job could not be created) or ``missed`` (no worker ran); a created
    run takes its job's outcome once the job ends: ``completed``, ``failed`` or ``cancelled``."""

    PENDING = "pending"
    CREATED = "created"
    SKIPPED = "skipped"
    ERROR = "error"
    MISSED = "missed"
    COMPLETED = "completed"
    FAILED = "failed"
    CANCELLED = "cancelled"


class MissedPolicy(StrEnum):
    """What a schedule does with the occurrences missed while no worker ran: run the latest of
    them once, or skip them all (each recorded as one ``missed`` run)."""

    RUN_ONCE = "run_once"
    SKIP = "skip"


class ConversationState(StrEnum):
    """A conversation's state, derived from ``archived_at`` (no column): the words the history
    feed's ``status`` filter takes for conversations."""

    ACTIVE = "active"
    ARCHIVED = "archived"


class DeliveryState(StrEnum):
    """A notification delivery's state (``notification_deliveries.state``: webhooks and mails):
    queued, claimed by a sender (its lease in ``next_attempt_at``), then delivered or failed for
    good (after its last attempt, or cancelled with the webhook)."""

    PENDING = "pending"
    SENDING = "sending"
    DELIVERED = "delivered"
    FAILED = "failed"


class PurchaseStatus(StrEnum):
    """A credit purchase with Stripe (``credit_purchases.status``; docs/billing.md): pending →
    paid (the verified webhook granted the credits) | failed; a paid purchase becomes
    partially_refunded | refunded | disputed."""

    PENDING = "pending"
    FAILED = "failed"
    PAID = "paid"
    PARTIALLY_REFUNDED = "partially_refunded"
    REFUNDED = "refunded"
    DISPUTED = "disputed"


class DispatchState(StrEnum):
    """A job's place in the dispatch queue (``jobs.dispatch_state``; docs/dispatch.md): queued
    (due at ``next_attempt_at``) → leased (a dispatcher holds it until ``lease_expires_at``) →
    queued again, waiting_input (parked until the buyer answers) or done."""

    QUEUED = "queued"
    LEASED = "leased"
    WAITING_INPUT = "waiting_input"
    DONE = "done"


class OnChainState(StrEnum):
    """A purchase's state on a Masumi payment node (``jobs.on_chain_status`` of a job bought
    there; reference/mip003.md "Payment states")."""

    FUNDS_LOCKED = "FundsLocked"
    RESULT_SUBMITTED = "ResultSubmitted"
    REFUND_REQUESTED = "RefundRequested"
    DISPUTED = "Disputed"
    REFUND_AUTHORIZED = "RefundAuthorized"
    WITHDRAWN = "Withdrawn"
    REFUND_WITHDRAWN = "RefundWithdrawn"
    DISPUTED_WITHDRAWN = "DisputedWithdrawn"
    FUNDS_OR_DATUM_INVALID = "FundsOrDatumInvalid"


class FileState(StrEnum):
    """A stored file's state (``stored_files.state``): kept, or why the output collector did not
    keep a result's file URL (a job's files list it upper-cased)."""

    STORED = "stored"
    TOO_LARGE = "too_large"
    REFUSED = "refused"
    UNREACHABLE = "unreachable"
