"""GET /metrics: the process registry plus gauges read from the database at scrape time."""

from __future__ import annotations

import hmac

from fastapi import Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily

from agora.auth.dependencies import public
from agora.kit.metrics import REGISTRY
from agora.kit.money import to_display
from agora.ops import repository


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


@public  # guarded by its own token, AGORA_METRICS_TOKEN (docs/security.md)
async def metrics(request: Request) -> Response:
    settings = request.app.state.settings
    token = settings.metrics_token
    if token:
        presented = request.headers.get("authorization", "")
        if not hmac.compare_digest(presented.encode(), f"Bearer {token}".encode()):
            return Response("metrics token required\n", status_code=401, media_type="text/plain")
    elif not settings.metrics_public:  # platform-wide ledger totals: closed unless opened
        return Response(
            "metrics token required (AGORA_METRICS_TOKEN), or AGORA_METRICS_PUBLIC=true\n",
            status_code=401,
            media_type="text/plain",
        )
    body = generate_latest(REGISTRY).decode()
    async with request.app.state.db.transaction(write=False) as session:
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
    body += _gauge_lines(jobs_family) + _gauge_lines(ledger_family)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
