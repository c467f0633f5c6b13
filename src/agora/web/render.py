"""Templates, their filters and the Content-Security-Policy.

Every template autoescapes. Agent-provided text (descriptions, results) goes through the
``markdown`` filter, the one sanitiser (``kit/markdown.py``: raw HTML disabled, then nh3's
allow-list), so no script, handler or ``javascript:`` link survives. The CSP forbids inline
scripts anyway.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.templating import Jinja2Templates

from agora.auth.dependencies import csrf_token_for
from agora.kit.errors import AgoraError
from agora.kit.markdown import markdown
from agora.kit.money import shown_price, to_display
from agora.kit.timeutil import UTC_ZONE, as_utc, known_zone, parse_isoformat, zoned_text
from agora.settings import Settings
from agora.web.nextsteps import next_step

HERE = Path(__file__).parent
STATIC_DIR = HERE / "static"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def stripe_csp(settings: Settings) -> str:
    """The "Buy credits" page's CSP: the app's, plus exactly the configured Stripe origins —
    Stripe.js's (scripts, its frames) and the API's (Stripe.js calls it). Real Stripe also frames
    3-D Secure pages from hooks.stripe.com (Stripe's CSP guide)."""
    script = _origin(settings.stripe.js_url)
    api = (
        _origin(settings.stripe.api_base) if settings.stripe.api_base else "https://api.stripe.com"
    )
    frames = script if settings.stripe.api_base else f"{script} https://hooks.stripe.com"
    return (
        CSP.replace("script-src 'self'", f"script-src 'self' {script}").replace(
            "connect-src 'self'", f"connect-src 'self' {api}"
        )
        + f"; frame-src {frames}"
    )


def connect_csp(settings: Settings) -> str:
    """The earnings page's CSP: the app's, with the form that connects a Stripe account allowed
    to land on Stripe's hosted onboarding (the answer redirects there, and ``form-action``
    governs redirects too): connect.stripe.com, or the configured emulation's origin."""
    onboarding = (
        _origin(settings.stripe.api_base)
        if settings.stripe.api_base
        else "https://connect.stripe.com"
    )
    return CSP.replace("form-action 'self'", f"form-action 'self' {onboarding}")


def credits(units: int | None) -> str:
    return f"{to_display(units or 0)} credits"


# The reader's time zone. Chosen on /settings/appearance (``agora_tz``, set by the server) or,
# else, the browser's own (``agora_tz_auto``, set by app.js on the first page); UTC until one is
# known. Every time a page shows is in it, its zone named; app.js then shows the same instant in
# the browser's locale (in the chosen zone, when there is one: <html data-tz>).
ZONE_COOKIE = "agora_tz"
DETECTED_ZONE_COOKIE = "agora_tz_auto"
# Set by ``page`` around the rendering, so filters (also inside imported macros) read it.
_reader_zone: ContextVar[ZoneInfo] = ContextVar("reader_zone", default=UTC_ZONE)


def chosen_zone(request: Request) -> ZoneInfo | None:
    return known_zone(request.cookies.get(ZONE_COOKIE))


def reader_zone(request: Request) -> ZoneInfo:
    """The zone this reader's times are shown in (the chosen one, the browser's, or UTC)."""
    return chosen_zone(request) or known_zone(request.cookies.get(DETECTED_ZONE_COOKIE)) or UTC_ZONE


def reader_zone_name() -> str:
    """The name of the zone being rendered in (a new schedule's default)."""
    return str(_reader_zone.get().key)


def local_text(value: datetime, zone: ZoneInfo | None = None) -> str:
    """``2026-11-28 10:15 CET``: the time in the reader's zone (or ``zone``), the zone named."""
    return zoned_text(value, zone or _reader_zone.get())


def _moment(value: datetime | str) -> datetime | None:
    return parse_isoformat(value) if isinstance(value, str) else as_utc(value)


def when(value: datetime | str | None) -> Markup:
    """A <time> element: the time in the reader's zone, named; app.js shows the same instant in
    the reader's locale."""
    moment = _moment(value) if value is not None else None
    if moment is None:
        return Markup("—")
    return Markup('<time datetime="{0}">{1}</time>').format(
        moment.strftime("%Y-%m-%dT%H:%M:%SZ"), local_text(moment)
    )


def ago(value: datetime | None) -> Markup:
    """A <time data-relative>: app.js shows "5 minutes ago" (the full local time, its zone
    named, in the title); without JavaScript the time in the reader's zone."""
    if value is None:
        return Markup("—")
    moment = as_utc(value)
    return Markup('<time datetime="{0}" data-relative>{1}</time>').format(
        moment.strftime("%Y-%m-%dT%H:%M:%SZ"), local_text(moment)
    )


def day_label(value: datetime, today: datetime | None = None) -> str:
    """A day heading of the inbox: Today, Yesterday, or the date, as days fall in the reader's
    zone."""
    zone = _reader_zone.get()
    day = as_utc(value).astimezone(zone)
    days = ((today or datetime.now(UTC)).astimezone(zone).date() - day.date()).days
    if days == 0:
        return "Today"
    if days == 1:
        return "Yesterday"
    return f"{day:%A} {day.day} {day:%B %Y}"


def groupby_day(items: Any) -> list[tuple[str, list[Any]]]:
    """Notifications (newest first) grouped under their day's heading (``day_label``)."""
    out: list[tuple[str, list[Any]]] = []
    for item in items:
        label = day_label(item.created_at)
        if out and out[-1][0] == label:
            out[-1][1].append(item)
        else:
            out.append((label, [item]))
    return out


# What a notification is about, in words, with its icon (notifications.html): kind → (icon, words).
NOTICE_KINDS: dict[str, tuple[str, str]] = {
    "job.input_required": ("question", "A job needs your answer"),
    "job.completed": ("check", "Job done"),
    "job.failed": ("alert", "Job failed"),
    "job.refunded": ("coin", "Job refunded"),
    "job.status_changed": ("job", "Job update"),
    "schedule.paused": ("pause", "Schedule paused"),
    "org.invitation": ("people", "Invitation"),
    "org.role_changed": ("people", "Your role changed"),
    "agent.review_decided": ("agent", "Your agent's review"),
    "agent.conformance_lost": ("alert", "Conformance badge lost"),
    "agent.version_breaking": ("alert", "A breaking agent version"),
    "credits.low_balance": ("coin", "Credits running low"),
    "credits.cap_reached": ("coin", "Spending cap reached"),
    "webhook.failed": ("plug", "Webhook failed"),
    "webhook.disabled": ("plug", "Webhook turned off"),
}


# A ledger entry's kind in words (credits/ledger.py); an unknown kind is shown as it is.
LEDGER_KINDS = {
    "grant": "Credits granted",
    "bonus": "Bonus",
    "purchase": "Purchase",
    "hold": "Held for a job",
    "capture": "Paid for a job",
    "refund": "Refund",
    "settle": "Settled",
    "usage": "Usage charge",
    "clawback": "Taken back",
    "earning": "Earning",
    "promotion_code": "Promotion code",
}


def ledger_kind(kind: str) -> str:
    return LEDGER_KINDS.get(kind, kind)


def notice_kind(kind: str) -> tuple[str, str]:
    """The icon and words of a notification's kind; an unknown kind reads "Notice"."""
    return NOTICE_KINDS.get(kind, ("bell", "Notice"))


def duration(seconds: float | None) -> str:
    """A duration in words with its unit: 0.4 s, 42 s, 3 min 5 s, 2 h 10 min."""
    if seconds is None:
        return "—"
    if seconds < 10:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


# Status words as people read them (task, job and conversation states; the stored words stay
# the API's). CANCELED and CANCELLED read the same: the filters offer one "Canceled".
STATUS_LABELS: dict[str, str] = {
    "DRAFT": "Draft",
    "READY": "Ready",
    "PENDING": "Pending",
    "QUEUED": "Queued",
    "RUNNING": "Running",
    "AWAITING_EXTERNAL": "Waiting on someone outside",
    "INPUT_REQUIRED": "Needs your input",
    "APPROVAL_REQUIRED": "Needs approval",
    "AUTHENTICATION_REQUIRED": "Needs a sign-in",
    "OUT_OF_CREDITS": "Out of credits",
    "CREDITS_TOPPED_UP": "Credits topped up",
    "CANCEL_REQUESTED": "Cancel requested",
    "COMPLETED": "Completed",
    "FAILED": "Failed",
    "CANCELED": "Canceled",
    "CANCELLED": "Canceled",
    "active": "Active conversations",
    "archived": "Archived",
}


# The states of other things, by kind (models/statuses.py: PurchaseStatus, ScheduleState,
# ScheduleRunStatus, AgentStatus, ReviewState, DeliveryState, FileState; and the payouts', the
# exports' and the invitations' states); a job's and a task's are STATUS_LABELS.
KIND_LABELS: dict[str, dict[str, str]] = {
    "purchase": {
        "pending": "Waiting for the payment",
        "failed": "Payment failed",
        "paid": "Paid",
        "partially_refunded": "Partly refunded",
        "refunded": "Refunded",
        "disputed": "Disputed",
    },
    "schedule": {"active": "Active", "paused": "Paused", "ended": "Ended"},
    # A job's place in the dispatch queue (DispatchState; the console's job page)
    "dispatch": {
        "queued": "Waiting to be sent",
        "leased": "Being sent",
        "waiting_input": "Parked until answered",
        "done": "Done",
    },
    # A listing's verification (AgentStatus) and its review (ReviewState)
    "agent": {
        "PENDING": "Not verified yet",
        "VERIFIED": "Verified",
        "REVOKED": "Revoked",
        "EXPIRED": "Verification expired",
    },
    "review": {
        "pending": "Waiting for review",
        "approved": "Approved",
        "rejected": "Rejected",
        "withdrawn": "Withdrawn",
    },
    # billing/payouts.py
    "payout": {"pending": "Being sent", "paid": "Paid", "failed": "Failed", "reversed": "Reversed"},
    # models/privacy.py DataExport.state; organizations/pages.py _invitation_state
    "export": {
        "pending": "Being prepared",
        "ready": "Ready to download",
        "downloaded": "Downloaded",
        "expired": "Expired",
        "failed": "Failed",
    },
    "invitation": {"open": "Open", "used": "Used", "expired": "Expired", "revoked": "Revoked"},
    # DeliveryState, FileState (the console's job page)
    "delivery": {
        "pending": "Waiting",
        "sending": "Being sent",
        "delivered": "Delivered",
        "failed": "Failed",
    },
    "file": {
        "stored": "Stored",
        "too_large": "Too large",
        "refused": "Refused",
        "unreachable": "Unreachable",
    },
    "run": {
        "pending": "Being started",
        "created": "Job created",
        "skipped": "Skipped",
        "error": "Could not start",
        "missed": "Missed",
        "completed": "Completed",
        "failed": "Failed",
        "cancelled": "Canceled",
    },
}


def status_label(status: str | None, kind: str = "") -> str:
    """The human label of a status word (of a job or task, or of ``kind``: purchase, schedule,
    run); an unknown (legacy) word is shown as it is."""
    if not status:
        return ""
    if kind in KIND_LABELS and status in KIND_LABELS[kind]:
        return KIND_LABELS[kind][status]
    return STATUS_LABELS.get(status) or STATUS_LABELS.get(status.upper()) or status


def distinct_statuses(statuses: Any) -> list[str]:
    """The statuses a select offers, one per label (CANCELED, not also CANCELLED)."""
    seen: dict[str, str] = {}
    for status in statuses:
        seen.setdefault(status_label(status), status)
    return list(seen.values())


def event_label(event: Any) -> str:
    """A job event in words (the job page's timeline): "Created", "Running", "Needs your
    input", "Completed"; an event without a status move by its type ("Refund requested")."""
    kind = str(getattr(event, "type", "") or "")
    status = getattr(event, "to_status", None)
    if kind == "created":
        detail = getattr(event, "detail", None) or {}
        price = detail.get("price") if isinstance(detail, dict) else None
        return f"Created and paid: {price} credits held" if price else "Created"
    if status:
        return status_label(status)
    return event_words(kind)


def event_words(kind: str) -> str:
    """An event's type in words: ``status_poll_failed`` → "Status poll failed"."""
    words = kind.replace("_", " ").replace(".", " ").strip()
    return words[:1].upper() + words[1:] if words else "Changed"


_FIELD_NAMES = {"q": "Search", "maxCredits": "Maximum credits", "baseUrl": "Base URL"}
_LEADS = ("must ", "is ", "are ", "has ", "should ", "cannot ", "can ", "was ", "needs ")


def field_label(key: str) -> str:
    """A form field's key as words: ``project-name`` → "Project name", ``coworkerId`` →
    "Coworker"."""
    if key in _FIELD_NAMES:
        return _FIELD_NAMES[key]
    words = re.sub(r"([a-z])([A-Z])", r"\1 \2", key.removesuffix("Id")).replace("-", " ")
    return words[:1].upper() + words[1:].lower()


def sentence(message: str, key: str = "form") -> str:
    """A field's problem as a full sentence: a fragment ("is required") gets the field's name
    in front and a full stop; a message that is already a sentence is kept."""
    text = str(message).strip()
    if not text:
        return text
    if text[:1].isupper():
        return text if text.endswith((".", "!", "?")) else f"{text}."
    text = text.rstrip(".")
    if key == "form":
        return f"{text[:1].upper()}{text[1:]}."
    if text.startswith(_LEADS):
        return f"{field_label(key)} {text}."
    return f"{field_label(key)}: {text}."


templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.filters["status_label"] = status_label
templates.env.filters["distinct_statuses"] = distinct_statuses
templates.env.filters["event_label"] = event_label
templates.env.filters["event_words"] = event_words
templates.env.filters["ago"] = ago
templates.env.filters["ledger_kind"] = ledger_kind
templates.env.filters["groupby_day"] = groupby_day
templates.env.filters["day_label"] = day_label
templates.env.filters["notice_kind"] = notice_kind
templates.env.globals["status_labels"] = STATUS_LABELS
templates.env.globals["kind_labels"] = KIND_LABELS
templates.env.filters["markdown"] = markdown
templates.env.filters["credits"] = credits
templates.env.filters["credit_amount"] = to_display  # a form field's value: the bare number
templates.env.filters["sentence"] = sentence
templates.env.filters["when"] = when
templates.env.filters["local_text"] = local_text
templates.env.globals["chosen_zone"] = chosen_zone
templates.env.globals["reader_zone_name"] = reader_zone_name
templates.env.filters["duration"] = duration
templates.env.filters["price"] = shown_price


def page(
    request: Request, name: str, context: dict[str, Any], status_code: int = 200
) -> HTMLResponse:
    token = _reader_zone.set(reader_zone(request))
    try:
        response = templates.TemplateResponse(request, name, context, status_code=status_code)
    finally:
        _reader_zone.reset(token)
    response.headers.update(SECURITY_HEADERS)
    return response


def error_page(request: Request, exc: AgoraError) -> HTMLResponse:
    """The app's 404/403/… page for every error a page does not show on its own fields (another
    workspace's id, a refused move, an unknown path, a form without its CSRF token);
    ``app.state.html_error_page``. A page's viewer (``web.shell.ViewerDep``) keeps its header."""
    principal = getattr(request.state, "web_principal", None)
    context: dict[str, Any] = {
        "principal": principal,
        "csrf": csrf_token_for(request) if principal is not None else None,
        "workspaces": getattr(request.state, "web_workspaces", []) if principal else [],
        "error": exc,
        "title": exc.error,
        "step": next_step(exc, principal, request.url.path),
    }
    return page(request, "error.html", context, exc.status_code)
