"""agora worker: a dispatching process (dispatcher + notification sender), no HTTP server."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Annotated

import typer

from agora.app import trace_process
from agora.dispatch.worker import Dispatcher
from agora.kit.background import stop_all
from agora.kit.db import Database
from agora.kit.logging import configure_logging
from agora.kit.migrate import upgrade
from agora.kit.telemetry import Telemetry
from agora.mip003.client import client_for
from agora.settings import get_settings
from agora.workers import background_services, process_fanout


def worker(
    concurrency: Annotated[
        int | None,
        typer.Option(help="Jobs advanced at once (default AGORA_DISPATCHER_CONCURRENCY)."),
    ] = None,
) -> None:
    """Run a dispatcher worker until SIGTERM/SIGINT. Run as many as you like against one
    PostgreSQL database: they share the queue through leases."""
    settings = get_settings()
    if concurrency is not None:
        settings = settings.with_changes(dispatcher_concurrency=concurrency)
    configure_logging(settings.log_level, json=settings.json_logs)

    async def main() -> None:
        db = Database(settings.resolved_database_url, pool=settings.database.pool())
        if db.is_sqlite:  # the embedded database migrates itself, as `agora serve` does
            await upgrade(db.engine)
        # Traced like an API process (the dispatcher's spans join the hire's trace through the
        # traceparent admission stored with the job), named apart in the collector.
        telemetry = Telemetry.from_environment(settings.otel_endpoint, service="agora-worker")
        untrace = trace_process(db, telemetry) if telemetry.enabled else None
        client = client_for(settings)
        fanout = process_fanout(db, settings, dispatching=True, serving=False)
        services = background_services(
            db, client, settings, dispatching=True, serving=False, fanout=fanout
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        try:
            for service in services:
                await service.start()
            owner = next(s.owner for s in services if isinstance(s, Dispatcher))
            typer.echo(
                f"agora worker {owner} running (concurrency {settings.dispatch.concurrency})"
            )
            await stop.wait()
        finally:
            await stop_all(services)
            await fanout.stop()
            await client.aclose()
            if untrace is not None:
                untrace()
            await db.dispose()

    asyncio.run(main())
