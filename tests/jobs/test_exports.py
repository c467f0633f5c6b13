"""Structured results and CSV exports over the API: a JSON result as JSON and CSV
(``GET /v1/jobs/{id}/result?format=``), the job list, the ledger and a period's spend as CSV,
streamed, every cell a spreadsheet would run as a formula guarded (opened with Python's csv)."""

from __future__ import annotations

import csv
import io
import json
import re

import httpx2
from fastapi import FastAPI

from agora.credits import ledger
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.sandbox.protocol import Step
from tests.conftest import MakeUser
from tests.jobs.helpers import create, dispatcher, echo, register
from tests.support.agents import LoopbackAgents

HOSTILE = ("=cmd|' /C calc'!A0", "+1+2", "-3-4", "@SUM(A1:A2)", "\t=1+1")


def _rows(response: httpx2.Response) -> list[list[str]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    return list(csv.reader(io.StringIO(response.text)))


NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _guarded(cell: str) -> bool:
    """What a spreadsheet sees: a cell starting with ' is text, never a formula; a plain number
    (``-2``) is a number."""
    return cell[:1] not in ("=", "+", "-", "@", "\t", "\r") or NUMBER.fullmatch(cell) is not None


def _table(records: list[dict[str, object]]) -> Step:
    return Step("completed", result=json.dumps(records))


async def test_a_json_result_is_offered_as_json_and_csv_with_the_guard(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
) -> None:
    records: list[dict[str, object]] = [
        {"name": HOSTILE[0], "score": 3, "tags": ["a", "b"]},
        {"name": "plain", "score": -2, "note": HOSTILE[3]},
    ]
    agent_id = await register(
        app, agents_server, echo(name="tabler", step=lambda job: _table(records))
    )
    text_agent = await register(app, agents_server, echo())
    user = await make_user()
    job_id = (await create(client, user.key_headers, agent_id)).json()["data"]["id"]
    text_job = (await create(client, user.key_headers, text_agent)).json()["data"]["id"]

    early = await client.get(f"/v1/jobs/{job_id}/result", headers=user.key_headers)
    assert early.status_code == 409, early.text  # no result yet
    await dispatcher(app).run_until_idle(5)

    markdown = await client.get(f"/v1/jobs/{job_id}/result", headers=user.key_headers)
    assert markdown.status_code == 200
    assert markdown.headers["content-type"].startswith("text/markdown")  # today's default
    assert json.loads(markdown.text) == records
    as_json = await client.get(f"/v1/jobs/{job_id}/result?format=json", headers=user.key_headers)
    assert as_json.headers["content-type"].startswith("application/json")
    assert as_json.json() == records
    rows = _rows(await client.get(f"/v1/jobs/{job_id}/result?format=csv", headers=user.key_headers))
    assert rows[0] == ["name", "score", "tags", "note"]
    assert rows[1] == ["'" + HOSTILE[0], "3", '["a", "b"]', ""]
    assert rows[2] == ["plain", "-2", "", "'" + HOSTILE[3]]  # a JSON number stays a number
    assert all(_guarded(cell) for row in rows for cell in row)

    # A text result: JSON is the text as a string; CSV is refused (409).
    text_json = await client.get(
        f"/v1/jobs/{text_job}/result?format=json", headers=user.key_headers
    )
    assert text_json.json() == "HELLO"
    refused = await client.get(f"/v1/jobs/{text_job}/result?format=csv", headers=user.key_headers)
    assert refused.status_code == 409
    bad = await client.get(f"/v1/jobs/{job_id}/result?format=xlsx", headers=user.key_headers)
    assert bad.status_code == 400 and bad.json()["details"][0]["field"].endswith("format")
    stranger = await make_user()
    hidden = await client.get(f"/v1/jobs/{job_id}/result", headers=stranger.key_headers)
    assert hidden.status_code == 404


async def test_jobs_ledger_and_spend_export_as_guarded_csv(
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    agents_server: LoopbackAgents,
    db: Database,
) -> None:
    agent_id = await register(app, agents_server, echo(), price=1)
    user = await make_user(credits=to_base(10))
    other = await make_user(credits=to_base(10))
    for name in HOSTILE:
        created = await create(
            client, user.key_headers, agent_id, {"inputData": {"text": "x"}, "name": name}
        )
        assert created.status_code == 201, created.text
    await create(client, other.key_headers, agent_id, {"inputData": {"text": "y"}, "name": "no"})
    await dispatcher(app).run_until_idle(10)
    async with db.transaction() as session:
        for memo in HOSTILE:
            await ledger.grant(session, workspace_id=user.workspace_id, amount=1, memo=memo)

    jobs = _rows(await client.get("/v1/jobs/export", headers=user.key_headers))
    assert jobs[0][:5] == ["job_id", "created_at", "completed_at", "name", "status"]
    names = [row[3] for row in jobs[1:]]
    assert names == ["'" + n.strip() for n in reversed(HOSTILE)]  # newest first, guarded
    assert {row[4] for row in jobs[1:]} == {"COMPLETED"}
    assert {row[-1] for row in jobs[1:]} == {"1.05"}  # net credits of each
    assert all(_guarded(cell) for row in jobs for cell in row)
    completed = await client.get("/v1/jobs/export?status=FAILED", headers=user.key_headers)
    assert len(_rows(completed)) == 1  # the header only
    bad = await client.get("/v1/jobs/export?status=NOPE", headers=user.key_headers)
    assert bad.status_code == 400 and bad.json()["details"][0]["field"] == "status"

    entries = _rows(await client.get("/v1/credits/ledger/export", headers=user.key_headers))
    assert entries[0][:4] == ["time", "entry_id", "kind", "credits"]
    kinds = [row[2] for row in entries[1:]]
    assert kinds.count("hold") == len(HOSTILE) and kinds.count("capture") == len(HOSTILE)
    assert [row[-1] for row in entries[-len(HOSTILE) :]] == ["'" + m for m in HOSTILE]
    assert all(_guarded(cell) for row in entries for cell in row)

    spend = _rows(await client.get("/v1/credits/spend/export", headers=user.key_headers))
    assert spend[0] == [
        "time", "entry_id", "kind", "credits_spent", "job_id", "user_id", "memo",
    ]  # fmt: skip
    assert [(row[2], row[3]) for row in spend[1:]] == [("capture", "1.05")] * len(HOSTILE)
    empty = _rows(
        await client.get(
            "/v1/credits/spend/export?from=2020-01-01&to=2020-02-01", headers=user.key_headers
        )
    )
    assert len(empty) == 1
    for query, field in (("from=yesterday", "from"), ("from=2026-02-01&to=2026-01-01", "to")):
        refused = await client.get(f"/v1/credits/spend/export?{query}", headers=user.key_headers)
        assert refused.status_code == 400, refused.text
        assert refused.json()["details"][0]["field"] == field
    assert (await client.get("/v1/credits/ledger/export")).status_code == 401
