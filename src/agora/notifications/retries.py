"""When a failed delivery is tried again, and when a webhook endpoint is given up on.

Sources: the Standard Webhooks spec 1.0.0 (https://www.standardwebhooks.com/, "Deliverability
and reliability" and "Delivery success and failure"): a retry schedule spanning days with
exponential back-off and random jitter (the waits are ``retry_schedule_seconds``, its example
table by default); a ``Retry-After`` (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) taken
into account when scheduling the next attempt; ``410 Gone`` disables the endpoint; an endpoint
failing for a long time is disabled and its owner told by another channel (mail), as hosted
webhook services do (5 days: ``disable_after_days``).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime

from agora.kit.timeutil import as_utc
from agora.settings import NotificationSettings

GONE = 410
# Statuses whose Retry-After is read (the spec names 503; 429 is the rate-limit one).
THROTTLED = frozenset({429, 503})


def parse_retry_after(value: str | None, now: datetime) -> float | None:
    """A ``Retry-After`` header as seconds from ``now`` (None: absent or malformed)."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, (as_utc(when) - now).total_seconds())


def retry_delay(
    settings: NotificationSettings,
    failed_attempts: int,
    retry_after: float | None = None,
    rng: random.Random | None = None,
) -> timedelta | None:
    """How long after the ``failed_attempts``-th failed attempt the next one is due: the
    schedule's wait ± the jitter, never sooner than the receiver's ``Retry-After`` (itself
    bounded by ``retry_after_max_seconds``). None: the schedule is spent, the delivery failed."""
    schedule = settings.retry_schedule_seconds
    if not 1 <= failed_attempts <= len(schedule):
        return None
    spread = settings.retry_jitter
    wait = schedule[failed_attempts - 1] * (1 + (rng or random).uniform(-spread, spread))
    if retry_after is not None:
        wait = max(wait, min(retry_after, settings.retry_after_max_seconds))
    return timedelta(seconds=wait)


def disabled_after(settings: NotificationSettings) -> timedelta:
    return timedelta(days=settings.disable_after_days)
