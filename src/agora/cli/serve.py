"""agora serve | migrate"""

from __future__ import annotations

import asyncio
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from agora.kit.db import Database
from agora.kit.httpserver import header_timeout_protocol
from agora.kit.logging import configure_logging
from agora.kit.metrics import MULTIPROC_DIR_ENV
from agora.kit.migrate import current_revision, upgrade
from agora.settings import get_settings

MAX_WORKERS = 64
# How long uvicorn's supervisor waits for a worker's answer to its ping before it kills and
# replaces it (uvicorn's default, 5 s, kills workers still importing the app on a busy host).
WORKER_HEALTHCHECK_SECONDS = 60
# What uvicorn's worker processes import as their ``--http`` class (``__getattr__`` below).
_WORKER_PROTOCOL = "SettingsHeaderTimeoutProtocol"

if TYPE_CHECKING:
    from fastapi import FastAPI


def serve(
    host: Annotated[str, typer.Option(help="Interface to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=MAX_WORKERS,
            help="API processes (uvicorn workers) on the one port; above 1, /metrics sums "
            "them all (PROMETHEUS_MULTIPROC_DIR) and no demo is seeded.",
        ),
    ] = 1,
) -> None:
    """Serve the API (and, by default, the dispatcher). The embedded SQLite database migrates
    itself and gets a demo user whose fresh key is printed."""
    # The app (its routers, the MCP server) is imported here, not at module level: every other
    # command of the CLI starts without it (a third of the CLI's start-up).
    import httpx2
    import uvicorn

    from agora.app import create_app, freeze_startup_objects
    from agora.cli.demo import seed_demo
    from agora.mip003.client import Mip003Client
    from agora.sandbox import MOUNT_PREFIX

    settings = get_settings()
    configure_logging(settings.log_level, json=settings.json_logs)

    if workers > 1:
        _serve_workers(host, port, workers)
        return

    reachable = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host  # noqa: S104
    base = f"http://{reachable}:{port}"

    async def print_demo(app: FastAPI) -> None:
        # The server is not listening yet: check the mounted demo agents in-process.
        async with Mip003Client(transport=httpx2.ASGITransport(app=app)) as local:
            seeded = await seed_demo(app.state.db, local, settings, base, f"{base}{MOUNT_PREFIX}")
        info, sign_in_link, agent_ids = seeded.user, seeded.sign_in_link, seeded.agent_ids
        typer.echo(
            "\n"
            f"  Agora is running at {base}  (docs: {base}/docs)\n"
            f"  Web app: {base}/agents\n"
            f"  Demo sign-in link (web app; one use, "
            f"{settings.accounts.magic_link_minutes:g} min): {sign_in_link}\n"
            f"  Demo user {info.email}, workspace {info.workspace_id}\n"
            f"  Demo API key (new on every start): {info.api_key}\n"
            f"  Demo agents: {', '.join(agent_ids)}\n"
            f'  Try: curl -H "x-api-key: {info.api_key}" {base}/v1/users/me\n'
            f"       curl {base}/v1/agents\n"
        )

    hooks = (print_demo,) if settings.is_sqlite and settings.demo else ()
    app = create_app(settings, startup_hooks=(*hooks, freeze_startup_objects))
    uvicorn.run(
        app,
        host=host,
        port=port,
        access_log=False,
        log_config=None,
        server_header=False,
        # The app believes forwarded headers from AGORA_TRUSTED_PROXIES itself (app.py), once.
        proxy_headers=False,
        http=header_timeout_protocol(settings.http.header_timeout_seconds),
        timeout_keep_alive=max(1, round(settings.http.keep_alive_timeout_seconds)),
    )


def _serve_workers(host: str, port: int, workers: int) -> None:
    """``workers`` uvicorn processes, each building the app from the environment
    (``app_from_env``), their metrics in one multiprocess directory: the operator's
    ``PROMETHEUS_MULTIPROC_DIR`` (its old files removed: prometheus_client asks for a directory
    wiped between runs), else a fresh temporary one. Set before the workers start: they inherit
    it, and prometheus_client reads it when imported."""
    import uvicorn

    settings = get_settings()
    given = os.environ.get(MULTIPROC_DIR_ENV)
    directory = Path(given) if given else Path(tempfile.mkdtemp(prefix="agora-metrics-"))
    directory.mkdir(parents=True, exist_ok=True)
    for stale in directory.glob("*.db"):
        stale.unlink(missing_ok=True)
    os.environ[MULTIPROC_DIR_ENV] = str(directory)
    typer.echo(f"Agora: {workers} workers on {host}:{port}, metrics in {directory}")
    try:
        uvicorn.run(
            "agora.app:app_from_env",
            factory=True,
            workers=workers,
            host=host,
            port=port,
            access_log=False,
            log_config=None,
            server_header=False,
            proxy_headers=False,
            http=f"{__name__}:{_WORKER_PROTOCOL}",
            timeout_keep_alive=max(1, round(settings.http.keep_alive_timeout_seconds)),
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
        )
    finally:
        if not given:
            for left in directory.glob("*.db"):
                left.unlink(missing_ok=True)
            directory.rmdir()


@cache
def _worker_protocol() -> type:
    return header_timeout_protocol(get_settings().http.header_timeout_seconds)


def __getattr__(name: str) -> Any:
    """``agora.cli.serve:SettingsHeaderTimeoutProtocol``: the header-timeout protocol with
    ``AGORA_HEADER_TIMEOUT_SECONDS``, for worker processes, which import their protocol by name
    (a class made at run time cannot be handed to a spawned process)."""
    if name == _WORKER_PROTOCOL:
        return _worker_protocol()
    raise AttributeError(name)


def migrate() -> None:
    """Apply all database migrations (safe to run from several processes at once)."""
    settings = get_settings()

    async def _run() -> str | None:
        db = Database(settings.resolved_database_url, pool=settings.database.pool())
        try:
            await upgrade(db.engine)
            return await current_revision(db.engine)
        finally:
            await db.dispose()

    typer.echo(f"database at revision {asyncio.run(_run())}")
