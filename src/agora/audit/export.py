"""The audit log as a CSV download (the admin API, the organization API, the organization's audit
page and the console's): ``service.to_csv`` rows as an attachment."""

from __future__ import annotations

from starlette.responses import Response

from agora.audit import service
from agora.models import AuditEvent


def csv_download(rows: list[AuditEvent], name: str = "audit.csv") -> Response:
    return Response(
        service.to_csv(rows),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
