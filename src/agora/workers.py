"""Every background service, in one registry: what ``agora serve`` (``app.py``) and
``agora worker`` (``cli/worker.py``) start. Each service is a ``LoopService`` in its domain's
``worker.py``.

- A dispatching process (``agora worker``; ``agora serve`` unless ``AGORA_RUN_DISPATCHER`` is
  false) runs the dispatcher, the notification sender, the output collector, the scheduler, the
  privacy worker (data exports and account erasures; unless ``AGORA_PRIVACY_SECONDS`` is 0),
  housekeeping (unless ``AGORA_HOUSEKEEPING_SECONDS`` is 0), and the monthly payout run when
  Stripe is configured (unless ``AGORA_PAYOUTS_RUN_DAY`` is 0).
- A serving process (``agora serve``) also checks the agents' availability (unless
  ``AGORA_AVAILABILITY_CHECK_SECONDS`` is 0), runs the conformance suite over listed agents
  (certified listings; unless ``AGORA_CERTIFICATION_SECONDS`` is 0) and syncs the registry
  feed when one is configured.
"""

from __future__ import annotations

from typing import Any

from agora.agents.worker import AvailabilityChecker
from agora.billing.worker import PayoutRun
from agora.developer.worker import CertificationRound
from agora.dispatch.payment import PaymentBackend
from agora.dispatch.worker import Dispatcher
from agora.files.worker import OutputCollector
from agora.jobs.signals import JOB_EVENTS, JOB_READY
from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.fanout import Fanout
from agora.mip003.client import Mip003Client
from agora.notifications.outbox import INBOX_TOPIC
from agora.notifications.worker import NotificationSender
from agora.oauth.worker import UnusedClients
from agora.ops.worker import Housekeeping
from agora.payments.backend import payment_backend
from agora.ratings.signals import TOOLBOX_CHANGED
from agora.registry.worker import RegistrySyncLoop
from agora.schedules.worker import Scheduler
from agora.settings import Settings, normalise_database_url
from agora.users.worker import PrivacyWorker


def process_fanout(db: Database, settings: Settings, *, dispatching: bool, serving: bool) -> Fanout:
    """This process's one receiver of other processes' wake-ups (kit/fanout.py): new jobs for a
    dispatching process; job events and bells for a serving one. Set on ``db`` too, so the
    writers publish through it when it goes through Redis."""
    channels: tuple[str, ...] = (JOB_READY,) if dispatching else ()
    if serving:  # live job streams, bells, a person's MCP toolbox (mcp/toolbox.py)
        channels += (JOB_EVENTS, INBOX_TOPIC, TOOLBOX_CHANGED)
    listen_url = settings.database.listen_url
    fanout = Fanout(
        channels,
        listen_url=normalise_database_url(listen_url) if listen_url else db.url,
        redis_url=settings.redis_url,
        redis_channel=settings.redis_fanout_channel,
    )
    db.fanout = fanout
    return fanout


def background_services(
    db: Database,
    client: Mip003Client,
    settings: Settings,
    *,
    dispatching: bool,
    serving: bool,
    payments: PaymentBackend | None = None,
    fanout: Fanout | None = None,
) -> list[LoopService]:
    """The services a process runs, in the order they start (see the module docstring).
    ``payments``: the dispatcher's payment backend (default: the configured one); ``fanout``:
    the process's (``process_fanout``), which wakes the dispatcher for other processes' jobs."""
    services: list[LoopService] = []
    if dispatching:
        services += [
            Dispatcher(
                db,
                client,
                settings,
                payments=payments or payment_backend(settings),
                fanout=fanout,
            ),
            NotificationSender(db, settings),
            OutputCollector(db, settings),
            Scheduler(db, settings),
        ]
        if settings.accounts.privacy_seconds > 0:
            services.append(PrivacyWorker(db, settings))
        if settings.accounts.housekeeping_seconds > 0:
            services.append(Housekeeping(db, settings))
            if settings.accounts.oauth_unused_client_days > 0:
                services.append(UnusedClients(db, settings))
        if settings.stripe.enabled and settings.payouts.run_day > 0:
            services.append(PayoutRun(db, settings))
    if serving and settings.catalogue.availability_check_seconds > 0:
        services.append(AvailabilityChecker(db, client, settings))
    if serving and settings.catalogue.certification_seconds > 0:
        services.append(CertificationRound(db, client, settings))
    if serving and settings.registry.url and settings.registry.sync_seconds > 0:
        services.append(RegistrySyncLoop(db, settings))
    return services


def readiness(services: list[LoopService]) -> dict[str, Any]:
    """The readiness checks ``/readyz`` reads: the dispatcher's, when this process runs one."""
    dispatchers = [s for s in services if isinstance(s, Dispatcher)]
    return {"dispatcher": dispatchers[0].readiness} if dispatchers else {}
