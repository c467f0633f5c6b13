"""kit/wire.py: the long lists' item writers are held to their schemas.

Every test in the suite runs with ``wire.CHECK`` on, so each list answered by a writer is also
built the schema's way and compared; these tests show the comparison is strict and live."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from agora.agents import endpoints as agent_endpoints
from agora.agents.schemas import agent_item
from agora.kit import wire
from tests.agents.conftest import RegisterAgent
from tests.conftest import MakeUser


def test_same_is_strict_about_types_order_and_length() -> None:
    wire.same({"a": 1.0, "b": [1, {"c": None}]}, {"a": 1.0, "b": [1, {"c": None}]})
    for written in (
        {"a": 1, "b": [1, {"c": None}]},  # 1 where the schema writes 1.0
        {"b": [1, {"c": None}], "a": 1.0},  # keys out of the schema's order
        {"a": 1.0, "b": [1]},  # an item missing
        {"a": 1.0, "b": [1, {"c": "x"}]},  # another value
        {"a": 1.0, "b": [1, {}]},  # a key missing
    ):
        with pytest.raises(wire.WireMismatch):
            wire.same({"a": 1.0, "b": [1, {"c": None}]}, written)


async def test_a_writer_that_drifts_from_its_schema_fails_the_request(
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    register_agent: RegisterAgent,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    user = await make_user()
    await register_agent(name="Drift")
    assert wire.CHECK
    ok = await client.get("/v1/agents", headers=user.bearer_headers)
    assert ok.status_code == 200 and ok.json()["data"][0]["name"] == "Drift"

    def forgetful(agent: Any) -> dict[str, Any]:
        item = agent_item(agent)
        del item["isNew"]  # a field the schema has and the writer forgot
        return item

    monkeypatch.setattr(agent_endpoints, "agent_item", forgetful)
    with pytest.raises(wire.WireMismatch, match=r"\$\.data\[0\]: keys"):
        await client.get("/v1/agents", headers=user.bearer_headers)
