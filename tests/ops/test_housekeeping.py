"""Housekeeping (ops/worker.py, docs/operations.md "Housekeeping"): what expired more than
AGORA_EXPIRED_ROWS_KEEP_DAYS ago is deleted — sessions, one-time links, OAuth tokens and device
codes — with popularity counters past their window and audit rows past their retention; what a
reader may still need stays. Rows are aged in the database; the sweep is the loop's own round."""

from __future__ import annotations

import asyncio
import hashlib
import json
import uuid
from datetime import datetime, timedelta
from typing import Any

from fastapi import FastAPI
from sqlalchemy import func, select
from typer.testing import CliRunner

from agora.cli import audit as cli_audit
from agora.cli.main import app as cli
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import (
    AccountToken,
    AgentDailyCompletions,
    AuditEvent,
    BrowserSession,
    OAuthClient,
    OAuthDeviceCode,
    OAuthGrant,
    OAuthToken,
)
from agora.ops import worker as housekeeping_module
from agora.ops.worker import Housekeeping
from agora.settings import Settings, get_settings
from agora.workers import background_services
from tests.conftest import MakeUser
from tests.jobs.helpers import echo, register
from tests.support.agents import LoopbackAgents


def _hash() -> str:
    return hashlib.sha256(uuid.uuid4().bytes).hexdigest()


async def _ids(db: Database, model: Any) -> set[uuid.UUID]:
    async with db.transaction(write=False) as session:
        return set((await session.scalars(select(model.id))).all())


async def test_expired_rows_go_after_the_keep_window_and_live_ones_stay(
    app: FastAPI, db: Database, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    settings = app.state.settings.with_changes(expired_rows_keep_days=30, audit_retention_days=400)
    user = await make_user()
    agent_id = uuid.UUID(await register(app, agents_server, echo()))
    now = utcnow()
    long_ago, lately, ahead = (
        now - timedelta(days=31),
        now - timedelta(days=29),
        now + timedelta(days=1),
    )
    async with db.transaction() as session:
        sessions = {
            name: BrowserSession(
                user_id=user.user_id, token_hash=_hash(), method="password", expires_at=expires,
                revoked_at=revoked,
            )
            for name, expires, revoked in (
                ("expired long ago", long_ago, None),
                ("revoked long ago", ahead, long_ago),
                ("expired lately", lately, None),
                ("live", ahead, None),
            )
        }  # fmt: skip
        tokens = {
            name: AccountToken(
                purpose="magic_link", token_hash=_hash(), user_id=user.user_id, expires_at=expires
            )
            for name, expires in (("old", long_ago), ("lately", lately), ("live", ahead))
        }
        client = OAuthClient(
            client_id=f"c-{uuid.uuid4().hex[:8]}", name="CLI",
            redirect_uris=["http://127.0.0.1/cb"], auth_method="none",
        )  # fmt: skip
        session.add_all([*sessions.values(), *tokens.values(), client])
        await session.flush()
        grant = OAuthGrant(
            client_pk=client.id, user_id=user.user_id, workspace_id=user.workspace_id, scopes=[]
        )
        session.add(grant)
        await session.flush()
        oauth = {
            name: OAuthToken(grant_id=grant.id, kind="refresh", token_hash=_hash(), expires_at=at)
            for name, at in (("old", long_ago), ("live", ahead))
        }
        devices = {
            name: OAuthDeviceCode(
                client_pk=client.id, device_hash=_hash(), user_code=uuid.uuid4().hex[:8],
                interval=5, expires_at=at,
            )
            for name, at in (("old", long_ago), ("live", ahead))
        }  # fmt: skip
        audit_rows = {
            name: AuditEvent(action="key.created", actor_kind="system", created_at=at)
            for name, at in (
                ("old", now - timedelta(days=401)),
                ("kept", now - timedelta(days=399)),
            )
        }
        today = now.date()
        session.add_all(
            [
                *oauth.values(),
                *devices.values(),
                *audit_rows.values(),
                *(
                    AgentDailyCompletions(agent_id=agent_id, day=today - timedelta(days=d), count=1)
                    for d in (0, 29, 30, 45)
                ),
            ]
        )

    swept = await Housekeeping(db, settings).run_once()

    assert await _ids(db, BrowserSession) >= {sessions["expired lately"].id, sessions["live"].id}
    gone = {sessions["expired long ago"].id, sessions["revoked long ago"].id}
    assert not gone & await _ids(db, BrowserSession)
    assert {tokens["lately"].id, tokens["live"].id} <= await _ids(db, AccountToken)
    assert tokens["old"].id not in await _ids(db, AccountToken)
    assert await _ids(db, OAuthToken) & {t.id for t in oauth.values()} == {oauth["live"].id}
    assert await _ids(db, OAuthDeviceCode) & {d.id for d in devices.values()} == {
        devices["live"].id
    }
    assert await _ids(db, AuditEvent) & {a.id for a in audit_rows.values()} == {
        audit_rows["kept"].id
    }
    async with db.transaction(write=False) as session:
        days = set((await session.scalars(select(AgentDailyCompletions.day))).all())
    assert days == {today, today - timedelta(days=29)}  # the popularity window: 30 days
    assert swept.counts["browser_sessions"] == 2
    assert swept.counts["agent_daily_completions"] == 2
    assert (await Housekeeping(db, settings).run_once()).total == 0  # nothing left to do


async def test_sweeps_go_in_bounded_batches(
    app: FastAPI, db: Database, make_user: MakeUser, monkeypatch: Any
) -> None:
    monkeypatch.setattr(housekeeping_module, "BATCH", 3)
    user = await make_user()
    old: datetime = utcnow() - timedelta(days=60)
    async with db.transaction() as session:
        session.add_all(
            AccountToken(
                purpose="magic_link", token_hash=_hash(), user_id=user.user_id, expires_at=old
            )
            for _ in range(7)
        )
    swept = await Housekeeping(db, app.state.settings).run_once()
    assert swept.counts["account_tokens"] == 7  # 3 + 3 + 1, each batch its own transaction
    async with db.transaction(write=False) as session:
        assert await session.scalar(select(func.count()).select_from(AccountToken)) == 0


def test_dispatching_processes_run_housekeeping_unless_turned_off(app: FastAPI) -> None:
    settings = app.state.settings
    on = background_services(
        app.state.db, app.state.agent_client, settings, dispatching=True, serving=False
    )
    assert any(isinstance(s, Housekeeping) for s in on)
    off = background_services(
        app.state.db,
        app.state.agent_client,
        settings.with_changes(housekeeping_seconds=0),
        dispatching=True,
        serving=False,
    )
    assert not any(isinstance(s, Housekeeping) for s in off)


async def test_audit_rows_past_retention_go_in_bounded_batches(
    app: FastAPI, db: Database, monkeypatch: Any
) -> None:
    """A backlog (a retention just lowered) is not one long delete: at most MAX_BATCHES
    batches per round, the rest in the next round."""
    monkeypatch.setattr(housekeeping_module, "BATCH", 3)
    monkeypatch.setattr(housekeeping_module, "MAX_BATCHES", 2)
    settings = app.state.settings.with_changes(audit_retention_days=10)
    old = utcnow() - timedelta(days=11)
    async with db.transaction() as session:
        session.add_all(
            AuditEvent(action="key.created", actor_kind="system", created_at=old) for _ in range(7)
        )
        session.add(AuditEvent(action="key.created", actor_kind="system", created_at=utcnow()))
    first = await Housekeeping(db, settings).run_once()
    assert first.counts["audit_events"] == 6  # two batches of three, then the round moves on
    second = await Housekeeping(db, settings).run_once()
    assert second.counts["audit_events"] == 1
    async with db.transaction(write=False) as session:
        assert await session.scalar(select(func.count()).select_from(AuditEvent)) == 1


async def test_agora_audit_prune_deletes_the_whole_backlog_batch_by_batch(
    db: Database, settings: Settings, monkeypatch: Any
) -> None:
    monkeypatch.setattr(cli_audit, "PRUNE_BATCH", 3)
    old = utcnow() - timedelta(days=11)
    async with db.transaction() as session:
        session.add_all(
            AuditEvent(action="key.created", actor_kind="system", created_at=old) for _ in range(7)
        )
        session.add(AuditEvent(action="key.created", actor_kind="system", created_at=utcnow()))
    env = {
        "AGORA_DATABASE_URL": db.url,
        "AGORA_DATA_DIR": str(settings.data_dir),
        "AGORA_SECRET_KEY": "test-secret-key",
        "AGORA_LOG_LEVEL": "WARNING",
    }
    get_settings.cache_clear()  # the command reads these settings, not an earlier test's
    try:  # the command runs its own event loop: in a thread, beside this test's
        result = await asyncio.to_thread(
            CliRunner().invoke, cli, ["audit", "prune", "--days", "10", "--json"], env=env
        )
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"deleted": 7}  # 3 + 3 + 1, each its own transaction
    async with db.transaction(write=False) as session:
        assert await session.scalar(select(func.count()).select_from(AuditEvent)) == 1
