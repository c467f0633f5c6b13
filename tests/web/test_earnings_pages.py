"""The developer's earnings pages (docs/billing.md, "Paying sellers"), signed in through the
pages: what a completed job earned, held back; the month's statement and its CSV."""

from __future__ import annotations

import httpx2
from fastapi import FastAPI

from agora.kit.timeutil import utcnow
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import dispatcher, echo
from tests.support.agents import LoopbackAgents
from tests.web.test_developer_pages import _ID, _form
from tests.web.test_pages import _sign_up_in


async def test_earnings_page_statement_and_csv(
    client: httpx2.AsyncClient,
    app: FastAPI,
    settings: Settings,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    csrf = await _sign_up_in(client, settings, "seller@example.com")
    empty = await client.get("/developer/earnings")
    assert empty.status_code == 200 and 'id="no-earnings"' in empty.text
    done = await client.post("/developer/new", data=_form(csrf, agents_server.serve(echo())))
    assert done.status_code == 303, done.text
    agent_id = _ID.search(done.headers["location"]).group(1)  # type: ignore[union-attr]
    approved = await client.post(
        f"/v1/admin/agents/{agent_id}/approve", json={}, headers=admin.bearer_headers
    )
    assert approved.status_code == 200, approved.text
    buyer = await make_user(credits=100_000_000)
    hired = await client.post(
        f"/v1/agents/{agent_id}/jobs", json={"inputData": {"text": "x"}}, headers=buyer.key_headers
    )
    assert hired.status_code in (200, 201), hired.text
    await dispatcher(app).run_until_idle(10)

    page = await client.get("/developer/earnings")
    assert page.status_code == 200
    assert '<td class="pending">1.00 EUR</td><td class="payable">0.00 EUR</td>' in page.text
    assert "Not connected: connect a Stripe account to be paid your earnings." in page.text
    period = f"{utcnow():%Y-%m}"
    assert f'href="/developer/earnings/{period}"' in page.text
    statement = await client.get(f"/developer/earnings/{period}")
    assert statement.status_code == 200 and "<td>Summariser</td><td>1</td>" in statement.text
    sheet = await client.get(f"/developer/earnings/{period}.csv")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
    assert sheet.text.splitlines()[0].startswith("date,kind,agent_id,agent,job_id")
    assert len(sheet.text.splitlines()) == 2
    bad = await client.get("/developer/earnings/20x6-01")
    assert bad.status_code == 400


async def test_connecting_without_stripe_configured_is_a_clear_409(
    client: httpx2.AsyncClient, make_user: MakeUser
) -> None:
    """The operator has not configured Stripe: asking for an onboarding link is refused with
    the reason (a state of the server, not a fault: 409, not 503), and nothing is written."""
    developer = await make_user()
    refused = await client.post(
        "/v1/developer/payout-account/onboarding-link", headers=developer.bearer_headers
    )
    assert refused.status_code == 409, refused.text
    assert "Payouts are not set up on this server" in refused.json()["message"]
    account = await client.get("/v1/developer/earnings", headers=developer.bearer_headers)
    assert account.json()["data"]["payoutAccount"]["state"] == "not_connected"
