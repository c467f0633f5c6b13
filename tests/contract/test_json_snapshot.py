"""The public JSON, pinned: one scenario walks every domain's endpoints (jobs, agents in all three
listing shapes and the admin routes, users/me, projects, tasks, conversations, history, credits,
notifications, shares, error bodies) and compares what it reads with ``snapshots/public_json.json``.

The snapshot records field names, JSON value types (``0`` and ``0.0`` differ: the comparison is of
the JSON text) and values. What differs from run to run is normalised: ids become ``<id:N>`` by
first appearance (so "the same id" still shows), timestamps become ``<ts:...>`` naming their
format (``Z`` suffix, fraction digits), cursors, tokens, secrets, request ids and loopback ports
become markers. Anything in another shape stays as it is and fails the comparison.

Regenerate (only when a change to the public JSON is intended):
``AGORA_UPDATE_SNAPSHOT=1 pytest tests/contract/test_json_snapshot.py --backend=sqlite``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI

from agora.kit.money import to_base
from agora.notifications.worker import NotificationSender
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import dispatcher, echo, fast_settings, reviewer
from tests.support.agents import LoopbackAgents

SNAPSHOT = Path(__file__).parent / "snapshots" / "public_json.json"

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$")
_LOOPBACK = re.compile(r"http://127\.0\.0\.1:\d+")
# inputHash/resultHash: MIP-004 hashes over the random identifierFromPurchaser
_VOLATILE_KEYS = {
    "requestId",
    "cursor",
    "nextCursor",
    "secret",
    "signature",
    "statusId",
    "inputHash",
    "resultHash",
}


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast_settings(settings)


class Recorder:
    def __init__(self, client: httpx2.AsyncClient) -> None:
        self.client = client
        self.entries: list[dict[str, Any]] = []
        self.ids: dict[str, str] = {}

    def _id(self, match: re.Match[str]) -> str:
        return self.ids.setdefault(match.group(0), f"<id:{len(self.ids) + 1}>")

    def _text(self, value: str) -> str:
        stamp = _TIMESTAMP.match(value)
        if stamp:
            fraction = len(stamp.group(1) or ".") - 1
            return f"<ts:frac{fraction}:{stamp.group(2) or 'naive'}>"
        value = _LOOPBACK.sub("http://<loopback>", value)
        value = re.sub(r"/v1/shares/[A-Za-z0-9_\-]+", "/v1/shares/<token>", value)
        return _UUID.sub(self._id, value)

    def normalise(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: self.normalise(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self.normalise(v) for v in value]
        if isinstance(value, str):
            if key in _VOLATILE_KEYS:
                return f"<{key}>"
            return self._text(value)
        return value

    async def call(
        self,
        label: str,
        method: str,
        url: str,
        user: TestUser | None = None,
        *,
        bearer: bool = False,
        sort_data: Any = None,
        **kwargs: Any,
    ) -> Any:
        headers = {}
        if user is not None:
            headers = user.bearer_headers if bearer else user.key_headers
        response = await self.client.request(method, url, headers=headers, **kwargs)
        body = response.json()
        if sort_data is not None:  # rows that tie on their order (same timestamp, random ids)
            body = {**body, "data": sorted(body["data"], key=sort_data)}
        self.entries.append(
            {
                "request": f"{method} {self.normalise(url)}",
                "label": label,
                "status": response.status_code,
                "body": self.normalise(body),
            }
        )
        return body


async def _scenario(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> list[dict[str, Any]]:
    rec = Recorder(client)
    from agora.accounts import provisioning as identity
    from agora.accounts import repository as identity_repo

    db = app.state.db
    operator = await make_user(name="Operator", email="operator@example.com")
    async with db.transaction() as session:
        owner = await identity_repo.user_by_id(session, operator.user_id)
        assert owner is not None
        admin_key = await identity.create_key(session, user=owner, kind="admin")
    admin = TestUser(operator.user_id, operator.workspace_id, operator.email, admin_key.plaintext)
    user = await make_user(name="Ada", email="ada@example.com", credits=to_base(10))
    other = await make_user(name="Bob", email="bob@example.com")

    # ---- catalogue (admin, then the three listing shapes) -----------------------------------
    echo_url = agents_server.serve(echo())
    reviewer_url = agents_server.serve(reviewer())
    await rec.call(
        "category",
        "POST",
        "/v1/admin/categories",
        admin,
        bearer=True,
        json={"slug": "writing", "name": "Writing", "description": "Words"},
    )
    await rec.call("categories", "GET", "/v1/categories")
    echo_agent = (
        await rec.call(
            "register echo",
            "POST",
            "/v1/admin/agents",
            admin,
            bearer=True,
            json={
                "baseUrl": echo_url,
                "name": "Echo",
                "description": "Echoes",
                "price": 0,
                "categories": ["writing"],
                "tags": ["demo", "text"],
                "verify": True,
            },
        )
    )["data"]
    reviewer_agent = (
        await rec.call(
            "register reviewer",
            "POST",
            "/v1/admin/agents",
            admin,
            bearer=True,
            json={"baseUrl": reviewer_url, "name": "Reviewer", "price": 2, "verify": False},
        )
    )["data"]
    await rec.call(
        "verify", "POST", f"/v1/admin/agents/{reviewer_agent['id']}/verify", admin, bearer=True
    )
    await rec.call("admin get", "GET", f"/v1/admin/agents/{echo_agent['id']}", admin, bearer=True)
    await rec.call("public listing", "GET", "/v1/agents?limit=5")
    await rec.call("public listing by category", "GET", "/v1/agents?category=writing")
    await rec.call("bearer listing", "GET", "/v1/agents?limit=1", user, bearer=True)
    await rec.call("key listing", "GET", "/v1/agents", user)
    await rec.call("agent", "GET", f"/v1/agents/{echo_agent['id']}")
    await rec.call("input schema", "GET", f"/v1/agents/{echo_agent['id']}/input-schema")
    await rec.call("missing agent", "GET", "/v1/agents/00000000-0000-0000-0000-000000000000")
    await rec.call("malformed agent id", "GET", "/v1/agents/not-an-id")

    # ---- user ------------------------------------------------------------------------------
    await rec.call("me", "GET", "/v1/users/me", user)
    await rec.call(
        "me patch", "PATCH", "/v1/users/me", user, json={"jobStatusNotificationsOptIn": True}
    )
    await rec.call(
        "me put",
        "PUT",
        "/v1/users/me",
        user,
        json={"name": "Ada L", "jobStatusNotificationsOptIn": True},
    )
    await rec.call("me bad", "PATCH", "/v1/users/me", user, json={"name": 5})
    await rec.call("me unauthenticated", "GET", "/v1/users/me")

    # ---- notifications ---------------------------------------------------------------------
    hook_path = agents_server.host.mount("hook-snapshot", _hook_app())
    await rec.call(
        "webhook put",
        "PUT",
        "/v1/notifications/webhook",
        user,
        json={"url": f"{agents_server.base_url}{hook_path}/in"},
    )
    await rec.call("webhook get", "GET", "/v1/notifications/webhook", user)

    # ---- projects and tasks ----------------------------------------------------------------
    project = (
        await rec.call(
            "project create",
            "POST",
            "/v1/projects",
            user,
            bearer=True,
            json={"name": "Launch", "description": "Q3"},
        )
    )["data"]
    await rec.call("project get", "GET", f"/v1/projects/{project['id']}", user, bearer=True)
    await rec.call(
        "project patch",
        "PATCH",
        f"/v1/projects/{project['id']}",
        user,
        bearer=True,
        json={"description": "Q4"},
    )
    await rec.call("projects", "GET", "/v1/projects", user, bearer=True)
    await rec.call("other's project", "GET", f"/v1/projects/{project['id']}", other, bearer=True)
    task = (
        await rec.call(
            "task create",
            "POST",
            "/v1/tasks",
            user,
            bearer=True,
            json={"name": "Write post", "description": "d"},
        )
    )["data"]
    await rec.call(
        "task patch",
        "PATCH",
        f"/v1/tasks/{task['id']}",
        user,
        bearer=True,
        json={"status": "RUNNING"},
    )
    await rec.call(
        "task assign",
        "POST",
        f"/v1/projects/{project['id']}/tasks",
        user,
        bearer=True,
        json={"taskId": task["id"]},
    )

    # ---- jobs ------------------------------------------------------------------------------
    free = (
        await rec.call(
            "job create",
            "POST",
            f"/v1/agents/{echo_agent['id']}/jobs",
            user,
            json={
                "inputData": {"text": "hello"},
                "name": "Greeting",
                "taskId": task["id"],
                "jobShareRequest": {},
            },
        )
    )["data"]
    paid = (
        await rec.call(
            "paid job create",
            "POST",
            f"/v1/agents/{reviewer_agent['id']}/jobs",
            user,
            json={"inputData": {"text": "a b c"}, "name": "Review"},
        )
    )["data"]
    await dispatcher(app).run_until_idle(5)
    await rec.call("job done", "GET", f"/v1/jobs/{free['id']}", user)
    await rec.call("job events", "GET", f"/v1/jobs/{free['id']}/events", user)
    await rec.call("shared job", "GET", f"/v1/shares/{free['share']['url'].rsplit('/', 1)[1]}")
    await rec.call("input request", "GET", f"/v1/jobs/{paid['id']}/input-request", user)
    await rec.call(
        "bad inputs",
        "POST",
        f"/v1/jobs/{paid['id']}/inputs",
        user,
        json={"inputData": {"approve": "yes"}},
    )
    await rec.call(
        "inputs",
        "POST",
        f"/v1/jobs/{paid['id']}/inputs",
        user,
        json={"inputData": {"approve": True, "note": "ship it"}},
    )
    await dispatcher(app).run_until_idle(5)
    await rec.call("jobs", "GET", "/v1/jobs?limit=1", user)
    await rec.call("jobs by status", "GET", "/v1/jobs?status=COMPLETED", user)
    await rec.call("agent jobs", "GET", f"/v1/agents/{echo_agent['id']}/jobs", user)
    third = (
        await rec.call(
            "job to cancel",
            "POST",
            f"/v1/agents/{reviewer_agent['id']}/jobs",
            user,
            json={"inputData": {"text": "x"}, "name": "Cancelled"},
        )
    )["data"]
    await rec.call("cancel", "POST", f"/v1/jobs/{third['id']}/cancel", user)
    await rec.call("other's job", "GET", f"/v1/jobs/{free['id']}", other)
    await rec.call("malformed job id", "GET", "/v1/jobs/not-an-id", user)
    await rec.call(
        "job assign", "POST", f"/v1/projects/{project['id']}/jobs", user, json={"jobId": paid["id"]}
    )
    await rec.call("tasks", "GET", "/v1/tasks", user, bearer=True)
    await rec.call("task get", "GET", f"/v1/tasks/{task['id']}", user, bearer=True)
    await rec.call("task archive", "POST", f"/v1/tasks/{task['id']}/archive", user, bearer=True)
    await rec.call("task unarchive", "POST", f"/v1/tasks/{task['id']}/unarchive", user, bearer=True)

    # ---- conversations ---------------------------------------------------------------------
    chat = (
        await rec.call(
            "conversation create",
            "POST",
            "/v1/conversations",
            user,
            bearer=True,
            json={"title": "Plan", "description": "launch"},
        )
    )["data"]
    await rec.call(
        "message",
        "POST",
        f"/v1/conversations/{chat['id']}/messages",
        user,
        bearer=True,
        json={"role": "user", "content": "hi"},
    )
    await rec.call("messages", "GET", f"/v1/conversations/{chat['id']}/messages", user, bearer=True)
    await rec.call(
        "conversation patch",
        "PATCH",
        f"/v1/conversations/{chat['id']}",
        user,
        bearer=True,
        json={"title": "Plan B"},
    )
    await rec.call(
        "conversation archive", "POST", f"/v1/conversations/{chat['id']}/archive", user, bearer=True
    )
    await rec.call("conversation get", "GET", f"/v1/conversations/{chat['id']}", user, bearer=True)
    await rec.call("conversations", "GET", "/v1/conversations?archived=true", user, bearer=True)

    # ---- history, credits, deliveries, deletes ---------------------------------------------
    await rec.call("history", "GET", "/v1/history", user, bearer=True)
    await rec.call("history page", "GET", "/v1/history?limit=2&types=job", user, bearer=True)
    await rec.call("credits", "GET", "/v1/credits", user)
    sender = NotificationSender(app.state.db, app.state.settings)
    try:
        await sender.run_once()
    finally:
        await sender.stop()
    deliveries = await rec.call(
        "deliveries",
        "GET",
        "/v1/notifications/deliveries",
        user,
        sort_data=lambda d: [
            d["payload"]["data"][k] or "" for k in ("name", "fromStatus", "status")
        ],
    )
    assert deliveries["data"], "the scenario should have queued notifications"
    await rec.call(
        "project unassign job", "DELETE", f"/v1/projects/{project['id']}/jobs/{paid['id']}", user
    )
    await rec.call(
        "project unassign task",
        "DELETE",
        f"/v1/projects/{project['id']}/tasks/{task['id']}",
        user,
        bearer=True,
    )
    await rec.call("project delete", "DELETE", f"/v1/projects/{project['id']}", user, bearer=True)
    await rec.call("webhook delete", "DELETE", "/v1/notifications/webhook", user)
    await rec.call(
        "revoke", "POST", f"/v1/admin/agents/{reviewer_agent['id']}/revoke", admin, bearer=True
    )
    await rec.call("revoked listing", "GET", "/v1/agents?status=REVOKED")
    return rec.entries


def _hook_app() -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    async def hook(request: Request) -> Response:
        await request.body()
        return Response(status_code=200)

    return Starlette(routes=[Route("/in", hook, methods=["POST"])])


def _text(entries: list[dict[str, Any]]) -> str:
    return json.dumps(entries, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


async def test_public_json_matches_the_snapshot(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    entries = await _scenario(app, client, make_user, agents_server)
    assert len(entries) > 60
    actual = _text(entries)
    if os.environ.get("AGORA_UPDATE_SNAPSHOT") == "1":
        SNAPSHOT.parent.mkdir(exist_ok=True)
        SNAPSHOT.write_text(actual, encoding="utf-8")
    expected = SNAPSHOT.read_text(encoding="utf-8")
    if actual != expected:  # name the first request that differs, then show the whole diff
        recorded = json.loads(expected)
        for before, now in zip(recorded, json.loads(actual), strict=False):
            assert now == before and _text([now]) == _text([before]), before["label"]
    assert actual == expected
