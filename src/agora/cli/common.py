"""Shared CLI plumbing: run a coroutine against the configured database, print JSON or text."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import typer
from pydantic import ValidationError
from rich.console import Console

from agora.kit import passwords
from agora.kit.db import Database
from agora.kit.errors import AgoraError
from agora.settings import Settings, get_settings

T = TypeVar("T")
console = Console(stderr=True)


def run_with_db(work: Callable[[Database, Settings], Awaitable[T]]) -> T:
    """Run ``work`` with a Database on the configured URL; domain errors exit with status 1,
    a refused setting (e.g. AGORA_REGISTRY_PAGE_SIZE above 50) with status 2."""
    try:
        settings = get_settings()
    except ValidationError as exc:
        for error in exc.errors():
            console.print(f"[red]error:[/red] {error['msg'].removeprefix('Value error, ')}")
        raise typer.Exit(2) from exc
    passwords.use_profile(settings.password_hash_profile)

    async def _main() -> T:
        db = Database(settings.resolved_database_url, pool=settings.database.pool())
        try:
            if db.is_sqlite:  # the embedded default migrates itself, as `agora serve` does
                from agora.kit.migrate import upgrade

                await upgrade(db.engine)
            return await work(db, settings)
        finally:
            await db.dispose()

    try:
        return asyncio.run(_main())
    except AgoraError as exc:
        console.print(f"[red]error:[/red] {exc.message}")
        raise typer.Exit(1) from exc


def emit(payload: dict[str, Any], as_json: bool, text: str) -> None:
    if as_json:
        typer.echo(json.dumps(payload))
    else:
        typer.echo(text)
