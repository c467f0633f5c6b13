"""The output collector (docs/files.md, "Outputs"): files a completed job's agent returned are
fetched, bounded, hashed and kept.

A round claims a few completed jobs whose outputs were never collected (a ``job_file_scans`` row
with a lease, committed), then, with no transaction open, fetches each file URL of the result
through the outbound guard (``kit.outbound``: no private addresses unless the operator allows
them, no redirects) into storage — bounded by ``files_output_max_bytes`` and what is left of the
workspace's quota, and by ``files_output_timeout_seconds`` — and finally writes one
``stored_files`` row per URL (``stored``, ``too_large``, ``refused`` or ``unreachable``) and
marks the scan done, in a new short transaction. A collector that dies leaves its lease behind;
another claims the job once it expires (three attempts at most).
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import unquote, urlsplit

import structlog

from agora.files import attachments, service
from agora.files import repository as repo
from agora.files.content import Meter, Received, parse_types, safe_name
from agora.kit.background import LoopService
from agora.kit.db import Database
from agora.kit.errors import PayloadTooLarge, UnsupportedMediaType
from agora.kit.ids import uuid7
from agora.kit.outbound import (
    OutboundPolicy,
    OutboundRefused,
    OutboundTooLarge,
    OutboundUnreachable,
    guarded_client,
    redact_url,
)
from agora.kit.timeutil import utcnow
from agora.models.statuses import FileState
from agora.settings import Settings

log = structlog.get_logger(__name__)

FILES_COLLECT = "files_collect"
POLL_SECONDS = 2.0
LEASE_SECONDS = 300.0
RECENT = timedelta(days=7)  # older completed jobs are not collected any more


@dataclass(frozen=True)
class _Claimed:
    job_id: uuid.UUID
    workspace_id: uuid.UUID
    user_id: uuid.UUID
    urls: list[str]
    room: int  # bytes left of the workspace's quota


@dataclass(frozen=True)
class _Outcome:
    url: str
    state: FileState
    file_id: uuid.UUID
    name: str
    key: str | None = None
    received: Received | None = None  # what was stored


class OutputCollector(LoopService):
    def __init__(self, db: Database, settings: Settings, *, local: Any = None) -> None:
        self.db, self.settings = db, settings
        self.storage = service.storage_for(settings)
        self.policy = OutboundPolicy.from_setting(settings.outbound_allow)
        self.local = local
        super().__init__(
            "file-collector",
            interval=POLL_SECONDS,
            topics=(FILES_COLLECT,),
            max_delay=POLL_SECONDS,
        )

    async def round(self) -> float:
        return 0.0 if await self.run_once() else POLL_SECONDS

    async def run_once(self, limit: int = 5) -> int:
        """Collect the outputs of up to ``limit`` jobs; how many were claimed."""
        now = utcnow()
        claimed: list[_Claimed] = []
        async with self.db.transaction() as session:
            ids = await repo.unscanned_jobs(
                session, completed_after=now - RECENT, now=now, limit=limit
            )
            for job_id in ids:
                until = now + timedelta(seconds=LEASE_SECONDS)
                if not await repo.lease_scan(session, job_id, until=until, now=now):
                    continue
                job = await repo.job_for_scan(session, job_id)
                if job is None:
                    continue
                urls = [f.file_url for f in attachments.files(job) if f.source == "result"]
                used = await repo.used_bytes(session, job.workspace_id)
                claimed.append(
                    _Claimed(
                        job.id,
                        job.workspace_id,
                        job.user_id,
                        urls[: self.settings.files.outputs_per_job],
                        self.settings.files.workspace_quota_bytes - used,
                    )
                )
        for scan in claimed:
            outcomes = await self._collect(scan)
            async with self.db.transaction() as session:
                for outcome in outcomes:
                    await service.keep(
                        session,
                        outcome.file_id,
                        workspace_id=scan.workspace_id,
                        user_id=scan.user_id,
                        origin="output",
                        state=outcome.state,
                        received=outcome.received,
                        name=outcome.name,
                        key=outcome.key,
                        job_id=scan.job_id,
                        source_url=outcome.url,
                    )
                await repo.finish_scan(session, scan.job_id, utcnow())
        return len(claimed)

    async def _collect(self, job: _Claimed) -> list[_Outcome]:
        if not job.urls:
            return []
        outcomes = []
        room = job.room
        async with guarded_client(
            self.policy,
            timeout=self.settings.files.output_timeout_seconds,
            connect_timeout=10.0,
            local=self.local,
        ) as client:
            for url in job.urls:
                outcome = await self._fetch(client, job, url, max(0, room))
                if outcome.received is not None:
                    room -= outcome.received.size
                outcomes.append(outcome)
        return outcomes

    async def _fetch(self, client: Any, job: _Claimed, url: str, room: int) -> _Outcome:
        file_id = uuid7()
        name = safe_name(unquote(urlsplit(url).path.rsplit("/", 1)[-1]))
        limit = min(self.settings.files.output_max_bytes, room)
        if limit <= 0:
            return _Outcome(url, FileState.TOO_LARGE, file_id, name)
        meter = Meter(
            limit=limit,
            allowed=parse_types(self.settings.files.allowed_types),
            name=lambda: name,
            too_large=lambda n: OutboundTooLarge(f"over {n} bytes"),
            refused=lambda kind: OutboundRefused(f"type {kind}"),
        )
        key = service.storage_key(job.workspace_id, file_id)
        try:
            async with asyncio.timeout(self.settings.files.output_timeout_seconds):
                async with client.stream("GET", url) as response:
                    if response.status_code != 200:
                        raise OutboundUnreachable(f"status {response.status_code}")
                    declared = response.headers.get("content-length")
                    if declared and declared.isdigit() and int(declared) > limit:
                        raise OutboundTooLarge(f"declared {declared} bytes")
                    await self.storage.write(
                        key, meter.run(response.aiter_bytes()), meter.content_type
                    )
        except (OutboundTooLarge, PayloadTooLarge):
            state = FileState.TOO_LARGE
        except (OutboundRefused, UnsupportedMediaType):
            state = FileState.REFUSED
        except Exception as exc:  # a transport error of any kind: the file is unreachable
            state = FileState.UNREACHABLE
            log.info("output_file_unreachable", url=redact_url(url), error=type(exc).__name__)
        else:
            return _Outcome(url, FileState.STORED, file_id, name, key, meter.received)
        return _Outcome(url, state, file_id, name)
