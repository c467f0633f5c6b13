"""The developer's pages through HTTP (SQLite and PostgreSQL): a submission's every problem at
once (with the summary, aria-invalid and aria-describedby, full sentences) and nothing created;
the live MIP-003 check refusing a URL that is no agent; a submission, the review note shown, an
edit (PRG), the statistics page's SVG charts with the figures in words, a withdrawal; another
person's agent is the 404 page."""

from __future__ import annotations

import re

import httpx2
from fastapi import FastAPI

from agora.settings import Settings
from tests.agents.conftest import make_categories
from tests.conftest import MakeUser, TestUser
from tests.jobs.helpers import dispatcher, echo
from tests.support.agents import LoopbackAgents
from tests.web.test_pages import _csrf, _sign_up_in

_ID = re.compile(r"/developer/([0-9a-f-]{36})")


def _form(csrf: str, base_url: str, **extra: str) -> dict[str, str]:
    return {
        "csrf": csrf,
        "baseUrl": base_url,
        "name": "Summariser",
        "description": "Summarises **text**",
        "tags": "text, summary",
        "price": "1",
        "authorName": "Ada",
        "authorEmail": "ada@example.com",
        "authorWebsite": "https://example.com",
        **extra,
    }


async def test_submit_with_every_problem_at_once_then_live_checked_reviewed_edited_withdrawn(
    client: httpx2.AsyncClient,
    app: FastAPI,
    settings: Settings,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
    db: object,
) -> None:
    await make_categories(app.state.db, "writing")
    csrf = await _sign_up_in(client, settings, "dev@example.com")
    empty = await client.get("/developer")
    assert empty.status_code == 200 and "You have not submitted an agent yet." in empty.text
    new = await client.get("/developer/new")
    assert new.status_code == 200 and 'id="agent-form"' in new.text and "Writing" in new.text

    bad = await client.post(
        "/developer/new",
        data={
            **_form(csrf, "ftp://example.com/agent", name=" ", price="-1"),
            "authorWebsite": "javascript:alert(1)",
            "categories": "nope",
        },
    )
    assert bad.status_code == 400
    assert "There are 5 problems" in bad.text
    for field in ("baseUrl", "name", "price", "authorWebsite", "categories"):
        assert f'href="#{field}"' in bad.text, field
        assert f'aria-describedby="err-{field}"' in bad.text, field
        assert re.search(rf'id="err-{field}"[^>]*>[^<]+\.</p>', bad.text), field
    for field in ("baseUrl", "name", "price", "authorWebsite"):
        assert re.search(rf'id="{field}"[^>]*aria-invalid="true"', bad.text), field
    assert "Name must be 1 to 200 characters after trimming." in bad.text
    assert "Price must not be negative." in bad.text
    assert 'value="ftp://example.com/agent"' in bad.text  # the values are kept
    assert "You have not submitted" in (await client.get("/developer")).text  # nothing created

    # The live check: a URL that answers no MIP-003 is refused on its field.
    nothing = agents_server.base_url + "/no-agent-here"
    refused = await client.post("/developer/new", data=_form(csrf, nothing))
    assert refused.status_code == 400 and 'href="#baseUrl"' in refused.text
    assert "failed the MIP-003 check" in refused.text

    url = agents_server.serve(echo())
    done = await client.post("/developer/new", data={**_form(csrf, url), "categories": "writing"})
    assert done.status_code == 303, done.text
    agent_id = _ID.search(done.headers["location"]).group(1)  # type: ignore[union-attr]
    page = await client.get(done.headers["location"])
    assert 'id="review-state" data-status="pending">Waiting for review' in page.text
    assert "Submitted." in page.text
    listing = await client.get("/developer")
    assert f'href="/developer/{agent_id}"' in listing.text

    # The review's note is shown to the developer.
    rejected = await client.post(
        f"/v1/admin/agents/{agent_id}/reject",
        json={"reason": "The description needs an example."},
        headers=admin.bearer_headers,
    )
    assert rejected.status_code == 200, rejected.text
    page = await client.get(f"/developer/{agent_id}")
    assert 'id="review-note">The description needs an example.' in page.text

    # An edit: every problem at once again, then saved (redirect), back to review.
    wrong = await client.post(
        f"/developer/{agent_id}", data=_form(csrf, url, name="", price="lots")
    )
    assert wrong.status_code == 400 and "There are 2 problems" in wrong.text
    saved = await client.post(f"/developer/{agent_id}", data=_form(csrf, url, name="Summariser 2"))
    assert saved.status_code == 303 and saved.headers["location"].endswith("?saved=1")
    page = await client.get(saved.headers["location"])
    assert "<h1>Summariser 2</h1>" in page.text
    assert 'id="review-state" data-status="pending">' in page.text
    approved = await client.post(
        f"/v1/admin/agents/{agent_id}/approve", json={}, headers=admin.bearer_headers
    )
    assert approved.status_code == 200, approved.text

    # Jobs, then the statistics page.
    buyer = await make_user(credits=100_000_000)
    for text in ("one", "two"):
        hired = await client.post(
            f"/v1/agents/{agent_id}/jobs",
            json={"inputData": {"text": text}},
            headers=buyer.key_headers,
        )
        assert hired.status_code in (200, 201), hired.text
    await dispatcher(app).run_until_idle(10)
    stats = await client.get(f"/developer/{agent_id}/stats")
    assert stats.status_code == 200
    assert 'id="jobs-total">2 (2 completed' in stats.text
    assert 'id="failure-rate">0 %' in stats.text
    assert stats.text.count('role="img"') == 5 and "<script" not in stats.text.split("</head>")[1]
    assert "2 jobs from" in stats.text and "2 credits earned" in stats.text
    assert re.search(r'<rect class="chart-up"', stats.text)  # the submission's live check

    # Another person: the 404 page, and nothing of it in their list.
    client.cookies.clear()
    await _sign_up_in(client, settings, "other@example.com")
    assert (await client.get(f"/developer/{agent_id}")).status_code == 404
    assert (await client.get(f"/developer/{agent_id}/stats")).status_code == 404
    client.cookies.clear()
    csrf = await _sign_up_in_again(client, "dev@example.com")

    # Withdrawn: out of the catalogue, the record stays.
    gone = await client.post(f"/developer/{agent_id}/withdraw", data={"csrf": csrf})
    assert gone.status_code == 303
    page = await client.get(gone.headers["location"])
    assert (
        'id="agent-status" data-status="REVOKED">Revoked' in page.text and "Withdrawn:" in page.text
    )
    assert (await client.get(f"/agents/{agent_id}")).status_code == 404


async def _sign_up_in_again(client: httpx2.AsyncClient, email: str) -> str:
    from tests.accounts.helpers import STRONG_PASSWORD

    page = await client.get("/sign-in")
    signed = await client.post(
        "/sign-in", data={"csrf": _csrf(page.text), "email": email, "password": STRONG_PASSWORD}
    )
    assert signed.status_code == 303, signed.text
    return _csrf((await client.get("/developer")).text)


async def test_the_form_takes_each_versions_changelog(
    client: httpx2.AsyncClient,
    settings: Settings,
    agents_server: LoopbackAgents,
    admin: TestUser,
) -> None:
    """Submitted and edited through the pages, with a changelog each time (issue 47: versions);
    once approved, each version lists its own. Left empty on an edit, a changelog given earlier
    for the pending change stays."""
    csrf = await _sign_up_in(client, settings, "versions@example.com")
    url = agents_server.serve(echo())
    done = await client.post("/developer/new", data=_form(csrf, url, changelog="The first cut"))
    assert done.status_code == 303, done.text
    agent_id = _ID.search(done.headers["location"]).group(1)  # type: ignore[union-attr]
    approve = f"/v1/admin/agents/{agent_id}/approve"
    assert (await client.post(approve, json={}, headers=admin.bearer_headers)).status_code == 200

    new_price = _form(csrf, url, price="2", changelog="Twice the price, twice the care")
    saved = await client.post(f"/developer/{agent_id}", data=new_price)
    assert saved.status_code == 303, saved.text
    page = await client.get(f"/developer/{agent_id}")  # shown while the change is pending
    assert "Twice the price, twice the care</textarea>" in page.text
    kept = await client.post(f"/developer/{agent_id}", data={**new_price, "changelog": " "})
    assert kept.status_code == 303, kept.text
    assert (await client.post(approve, json={}, headers=admin.bearer_headers)).status_code == 200
    versions = (await client.get(f"/v1/agents/{agent_id}/versions")).json()["data"]
    assert [(v["number"], v["changelog"]) for v in versions] == [
        (2, "Twice the price, twice the care"),
        (1, "The first cut"),
    ]
