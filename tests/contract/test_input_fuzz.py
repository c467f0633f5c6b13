"""Input that once answered 500 answers 400 naming the field: a lone surrogate in inputData,
maxAcceptedCredits 1e30, a validly signed history cursor with a malformed position. Generated
inputs (hypothesis: any JSON, with NULs, lone surrogates and extreme numbers) keep it so."""

from __future__ import annotations

import json
from typing import Any

import httpx2
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agora.history.service import CURSOR_MAX_AGE_SECONDS
from agora.kit.cursors import CursorSigner
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import echo, register
from tests.support.agents import LoopbackAgents


def examples(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """``count`` deterministic examples of ``strategy`` (hypothesis drives the generation; the
    async test sends them)."""
    found: list[Any] = []

    @settings(
        max_examples=count,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        deadline=None,
    )
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


TEXT = st.text(
    alphabet=st.one_of(
        st.characters(categories=["Cs"]),  # lone surrogates
        st.just("\x00"),
        st.characters(),
    ),
    max_size=20,
)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
NUMBER = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([1e30, 1e300, 9.3e12, 1e12, 1e-7, 0.1234567, -1]),
)


def raw(body: Any) -> bytes:
    """JSON with every non-ASCII character escaped: lone surrogates travel as ``\\udXXX``."""
    return json.dumps(body, ensure_ascii=True).encode()


async def post_job(
    client: httpx2.AsyncClient, user: TestUser, agent_id: str, body: Any
) -> httpx2.Response:
    return await client.post(
        f"/v1/agents/{agent_id}/jobs",
        content=raw(body),
        headers={**user.key_headers, "content-type": "application/json"},
    )


async def test_the_three_500s_are_400s_naming_the_field(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    surrogate = await post_job(client, user, agent_id, {"inputData": {"text": "a\ud800"}})
    assert surrogate.status_code == 400, surrogate.text
    assert "inputData.text" in surrogate.text
    assert "surrogate" in surrogate.text
    huge = await post_job(
        client, user, agent_id, {"inputData": {"text": "a"}, "maxAcceptedCredits": 1e30}
    )
    assert huge.status_code == 400, huge.text
    assert huge.json()["details"][0]["field"] == "maxAcceptedCredits"

    for i in range(3):
        made = await client.post("/v1/tasks", json={"name": f"t{i}"}, headers=user.bearer_headers)
        assert made.status_code == 201, made.text
    first = await client.get("/v1/history", params={"limit": 1}, headers=user.bearer_headers)
    cursor = first.json()["pagination"]["cursor"]
    signer = CursorSigner(
        "test-secret-key", purpose="history", max_age_seconds=CURSOR_MAX_AGE_SECONDS
    )
    payload = signer._serializer.loads(cursor)
    positions: list[Any] = [
        [],
        ["x"],
        ["2020-01-01T00:00:00Z"],
        ["not a time", "not an id"],
        ["0001-01-01T00:00:00-05:00", payload["p"][1]],
        [12, 13],
        [None, None],
        [payload["p"][0], payload["p"][1], "extra"],
        [{"a": 1}, [1]],
        ["9999-12-31T23:59:59+14:00", "00000000-0000-0000-0000-000000000000"],
    ]
    for position in positions:
        forged = signer.encode(position, payload["b"])
        answer = await client.get(
            "/v1/history", params={"limit": 1, "cursor": forged}, headers=user.bearer_headers
        )
        assert answer.status_code in (200, 400), (position, answer.text)
        if answer.status_code == 400:
            assert answer.json()["details"][0]["field"] == "cursor", answer.text


async def test_generated_job_bodies_never_answer_5xx(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    user = await make_user()
    bodies = [{"inputData": {"text": value}} for value in examples(JSON, 60)]
    bodies += [{"inputData": value} for value in examples(JSON, 40)]
    bodies += [{"inputData": {"text": "a"}, "maxAcceptedCredits": n} for n in examples(NUMBER, 40)]
    bodies += [{"inputData": {"text": "a"}, "maxCredits": n} for n in examples(NUMBER, 20)]
    statuses: dict[int, int] = {}
    for body in bodies:
        answer = await post_job(client, user, agent_id, body)
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
        assert answer.status_code < 500, (body, answer.text)
        if answer.status_code == 400:
            assert answer.json().get("details"), (body, answer.text)
    assert statuses.get(400, 0) > 0 and statuses.get(201, 0) > 0, statuses
