"""Hostile input on both databases: oversized and deep bodies, NUL and exotic unicode, SQL and
header injection, huge limits, forged cursors, another tenant's ids everywhere. Nothing leaks,
nothing answers 5xx, every refusal is a 4xx in the endpoint's own shape."""

from __future__ import annotations

import httpx2
import pytest
from sqlalchemy import func, select

from agora.kit.db import Database
from agora.models import Project
from tests.conftest import MakeUser
from tests.projects.factories import make_agent, make_job

pytestmark = pytest.mark.process  # hostile input: make prove

UNICODE = "Zoë 😀 — שלום مرحبا \U0001d518\U0001d52b\U0001d526 e\u0301 \u200b\u202eok"
INJECTION = "'; DROP TABLE projects; -- \" OR 1=1 /*"

BODY_ROUTES = [  # (method, path, body with one string field, the field's name, family)
    ("POST", "/v1/projects", {"name": "{}"}, "name", "bearer"),
    ("POST", "/v1/tasks", {"name": "{}"}, "name", "bearer"),
    ("POST", "/v1/conversations", {"title": "{}"}, "title", "bearer"),
    ("PATCH", "/v1/users/me", {"name": "{}"}, "name", "key"),
]
LIST_ROUTES = [
    ("/v1/projects", "bearer"),
    ("/v1/tasks", "bearer"),
    ("/v1/conversations", "bearer"),
    ("/v1/jobs", "key"),
    ("/v1/agents", "bearer"),
]


def _headers(user, family: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return user.key_headers if family == "key" else user.bearer_headers


def _assert_shape(response: httpx2.Response, family: str) -> None:
    body = response.json()
    if family == "key":
        assert body["code"] == str(response.status_code), body
    else:
        assert set(body["meta"]) == {"timestamp", "requestId", "path", "method"}, body


async def test_unicode_and_injection_round_trip_verbatim(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    user = await make_user()
    for text in (UNICODE, INJECTION, "x" * 200):
        for method, path, template, field, family in BODY_ROUTES:
            body = {k: text for k in template}
            response = await client.request(method, path, json=body, headers=_headers(user, family))
            assert response.status_code in (200, 201), (path, response.text)
            assert response.json()["data"][field] == text.strip()
    async with db.transaction(write=False) as session:  # the table is still there
        assert await session.scalar(select(func.count()).select_from(Project)) == 3
    listed = await client.get("/v1/projects", headers=user.bearer_headers)
    assert {p["name"] for p in listed.json()["data"]} == {UNICODE, INJECTION, "x" * 200}


async def test_nul_characters_are_a_400_naming_the_field(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    for method, path, template, field, family in BODY_ROUTES:
        body = {k: "a\x00b" for k in template}
        response = await client.request(method, path, json=body, headers=_headers(user, family))
        assert response.status_code == 400, (path, response.text)
        assert field in response.json()["message"]
        _assert_shape(response, family)
    for path, family in LIST_ROUTES:
        response = await client.get(
            path, params={"status": "RUN\x00NING"}, headers=_headers(user, family)
        )
        assert response.status_code == 400, path
        assert response.json()["details"] == [
            {"field": "query.status", "reason": "must not contain the NUL character (U+0000)"}
        ]


async def test_oversized_deep_and_non_json_bodies(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    for method, path, _template, _field, family in BODY_ROUTES:
        headers = {**_headers(user, family), "content-type": "application/json"}
        big = await client.request(
            method, path, content=b'{"name": "' + b"x" * 1_100_000 + b'"}', headers=headers
        )
        assert big.status_code == 413, path
        _assert_shape(big, family)
        deep = await client.request(
            method, path, content="[" * 100_000 + "]" * 100_000, headers=headers
        )
        assert deep.status_code == 400, path
        broken = await client.request(method, path, content=b'{"name": ', headers=headers)
        assert broken.status_code == 400, path
        text = await client.request(
            method,
            path,
            content=b"name=x",
            headers={**_headers(user, family), "content-type": "text/plain"},
        )
        assert text.status_code == 415, path


async def test_huge_limits_and_forged_cursors(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    for path, family in LIST_ROUTES:
        for value in ("101", "0", "-1", "10" * 20, "abc"):
            response = await client.get(
                path, params={"limit": value}, headers=_headers(user, family)
            )
            assert response.status_code == 400, (path, value)
            _assert_shape(response, family)
    for path, family in (("/v1/agents", "bearer"), ("/v1/jobs", "key")):
        for cursor in ("../../etc/passwd", "' OR 1=1 --", "x" * 99):
            response = await client.get(
                path, params={"cursor": cursor}, headers=_headers(user, family)
            )
            assert response.status_code == 400, (path, cursor)


async def test_request_id_and_workspace_header_injection(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    user = await make_user()
    sneaky = await client.get(
        "/v1/users/me", headers={**user.key_headers, "X-Request-Id": "a b<script>"}
    )
    assert sneaky.status_code == 200
    assert sneaky.headers["x-request-id"] != "a b<script>"  # replaced by a generated id
    for value in ("' OR 1=1 --", "../../", "0" * 500):
        response = await client.get(
            "/v1/projects", headers={**user.bearer_headers, "X-Workspace-Id": value}
        )
        assert response.status_code == 400, value
    unknown_org = await client.get(
        "/v1/projects", headers={**user.bearer_headers, "X-Organization-Slug": "' OR 1=1"}
    )
    assert unknown_org.status_code == 403


async def test_another_tenants_ids_answer_404_everywhere(
    client: httpx2.AsyncClient, make_user: MakeUser, db: Database
) -> None:
    owner, stranger = await make_user(), await make_user()
    project = (
        await client.post(
            "/v1/projects", json={"name": "Secret Q3 launch"}, headers=owner.bearer_headers
        )
    ).json()["data"]
    task = (
        await client.post("/v1/tasks", json={"name": "T"}, headers=owner.bearer_headers)
    ).json()["data"]
    conversation = (
        await client.post("/v1/conversations", json={"title": "C"}, headers=owner.bearer_headers)
    ).json()["data"]
    job_id = str(await make_job(db, owner, await make_agent(db)))
    mine = (
        await client.post("/v1/projects", json={"name": "Mine"}, headers=stranger.bearer_headers)
    ).json()["data"]
    attempts = [
        ("GET", f"/v1/jobs/{job_id}", None, "key"),
        ("GET", f"/v1/jobs/{job_id}/events", None, "key"),
        ("GET", f"/v1/jobs/{job_id}/input-request", None, "key"),
        ("POST", f"/v1/jobs/{job_id}/inputs", {"inputData": {}}, "key"),
        ("POST", f"/v1/jobs/{job_id}/cancel", None, "key"),
        ("PUT", f"/v1/jobs/{job_id}/share", {}, "key"),
        ("DELETE", f"/v1/jobs/{job_id}/share", None, "key"),
        ("GET", f"/v1/projects/{project['id']}", None, "bearer"),
        ("PATCH", f"/v1/projects/{project['id']}", {"name": "stolen"}, "bearer"),
        ("DELETE", f"/v1/projects/{project['id']}", None, "bearer"),
        ("POST", f"/v1/projects/{project['id']}/tasks", {"taskId": task["id"]}, "bearer"),
        ("POST", f"/v1/projects/{mine['id']}/jobs", {"jobId": job_id}, "bearer"),
        ("POST", f"/v1/projects/{mine['id']}/tasks", {"taskId": task["id"]}, "bearer"),
        ("DELETE", f"/v1/projects/{project['id']}/jobs/{job_id}", None, "bearer"),
        ("GET", f"/v1/tasks/{task['id']}", None, "bearer"),
        ("PATCH", f"/v1/tasks/{task['id']}", {"name": "stolen"}, "bearer"),
        ("POST", f"/v1/tasks/{task['id']}/archive", None, "bearer"),
        ("GET", f"/v1/conversations/{conversation['id']}", None, "bearer"),
        ("PATCH", f"/v1/conversations/{conversation['id']}", {"title": "stolen"}, "bearer"),
        ("GET", f"/v1/conversations/{conversation['id']}/messages", None, "bearer"),
        (
            "POST",
            f"/v1/conversations/{conversation['id']}/messages",
            {"role": "user", "content": "hi"},
            "bearer",
        ),
    ]
    for method, path, body, family in attempts:
        response = await client.request(method, path, json=body, headers=_headers(stranger, family))
        assert response.status_code == 404, (method, path, response.status_code, response.text)
        _assert_shape(response, family)
        assert project["name"] not in response.text
    # Nothing changed for the owner.
    still = await client.get(f"/v1/projects/{project['id']}", headers=owner.bearer_headers)
    assert still.json()["data"]["name"] == "Secret Q3 launch"
    listed = await client.get("/v1/jobs", headers=stranger.key_headers)
    assert listed.json()["data"] == []


@pytest.mark.parametrize(
    "path", ["/v1/projects/%00", "/v1/jobs/%27%20OR%201%3D1", "/v1/tasks/..%2F..%2F"]
)
async def test_hostile_path_ids_are_404(
    client: httpx2.AsyncClient, make_user: MakeUser, path: str
) -> None:
    user = await make_user()
    response = await client.get(path, headers=user.bearer_headers)
    assert response.status_code == 404
