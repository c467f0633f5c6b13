"""What GET /metrics answers (ops/endpoints.py): who may scrape it, and the process registry plus
gauges read from the database at scrape time (in the route's read unit)."""

from __future__ import annotations

import hmac

from prometheus_client import generate_latest
from prometheus_client.core import GaugeMetricFamily
from sqlalchemy.ext.asyncio import AsyncSession

from agora.kit.metrics import scrape_registry
from agora.kit.money import to_display
from agora.ops import repository
from agora.settings import Settings


def refusal(settings: Settings, authorization: str) -> str | None:
    """Why this scrape is refused (401), or None: with ``AGORA_METRICS_TOKEN`` set, a scrape
    shows it as a bearer token; without one, /metrics is closed unless ``AGORA_METRICS_PUBLIC``
    (the gauges are platform-wide ledger totals; docs/security.md)."""
    token = settings.metrics.token
    if token:
        if hmac.compare_digest(authorization.encode(), f"Bearer {token}".encode()):
            return None
        return "metrics token required\n"
    if settings.metrics.public:
        return None
    return "metrics token required (AGORA_METRICS_TOKEN), or AGORA_METRICS_PUBLIC=true\n"


def _gauge_lines(family: GaugeMetricFamily) -> str:
    lines = [f"# HELP {family.name} {family.documentation}", f"# TYPE {family.name} gauge"]
    for sample in family.samples:
        labels = ",".join(f'{k}="{v}"' for k, v in sample.labels.items())
        lines.append(
            f"{sample.name}{{{labels}}} {sample.value}"
            if labels
            else f"{sample.name} {sample.value}"
        )
    return "\n".join(lines) + "\n"


async def exposition(session: AsyncSession) -> str:
    """The Prometheus text: the process registry, then jobs by status and the ledger's totals."""
    body = generate_latest(scrape_registry()).decode()
    jobs = await repository.jobs_by_status(session)
    ledger = await repository.ledger_totals(session)
    jobs_family = GaugeMetricFamily("agora_jobs", "Jobs by status.", labels=["status"])
    for status, count in sorted(jobs.items()):
        jobs_family.add_metric([status], count)
    ledger_family = GaugeMetricFamily(
        "agora_ledger_credits", "Ledger totals by kind, and balances, in credits.", labels=["kind"]
    )
    for kind, total in sorted(ledger.items()):
        ledger_family.add_metric([kind], float(to_display(total)))
    return body + _gauge_lines(jobs_family) + _gauge_lines(ledger_family)
