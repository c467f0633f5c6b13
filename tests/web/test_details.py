"""The agent page's facts, the gallery's availability badges, job share links and the mailed
links, through HTTP on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import timedelta

import httpx2
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import select

from agora.agents import service as agents
from agora.agents.worker import check_availability
from agora.kit.db import Database
from agora.kit.money import to_base
from agora.models import Job
from agora.sandbox.protocol import AgentJob, Step
from agora.settings import Settings
from tests.accounts.helpers import last_link, sign_up_verified
from tests.conftest import MakeUser, TestUser
from tests.developer.conftest import submission
from tests.jobs.helpers import create, dispatcher, echo, register
from tests.support.agents import LoopbackAgents

_CSRF = re.compile(r'name="csrf" value="([^"]*)"')


async def _page_csrf(client: httpx2.AsyncClient) -> str:
    found = _CSRF.search((await client.get("/agents")).text)
    assert found, "no CSRF field in the page"
    return found.group(1)


def _between(html: str, start: str, end: str) -> str:
    assert start in html, f"{start!r} not in the page"
    return html.split(start, 1)[1].split(end, 1)[0]


def _card(html: str, name: str) -> str:
    """The gallery card of the agent called ``name``."""
    cards = [c for c in html.split('<li class="card agent">')[1:] if f">{name}</a>" in c]
    assert len(cards) == 1, f"no single card for {name}"
    return cards[0].split("</li>", 1)[0]


def _fail_on_boom(job: AgentJob) -> Step:
    if "boom" in str(job.input_data.get("text", "")):
        return Step("failed", result="cannot do 'boom'")
    return Step("completed", result="ok")


async def register_at(app: FastAPI, name: str, url: str) -> str:
    """Register the agent already served at ``url`` (``register`` serves a new one)."""
    probe = await agents.probe(app.state.agent_client, url)
    async with app.state.db.transaction() as session:
        agent = await agents.register_agent(
            session, app.state.settings, probe, name=name.title(), verify=True
        )
        return str(agent.id)


async def test_agent_page_shows_author_examples_runs_and_average_duration(
    app: FastAPI,
    client: httpx2.AsyncClient,
    db: Database,
    agents_server: LoopbackAgents,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    developer = await make_user()
    listing = submission(
        agents_server.serve(echo(step=_fail_on_boom)),
        exampleOutputs=[
            {"name": "A summary", "mimeType": "text/markdown", "url": "https://example.com/a.md"},
            {"name": "<b>Chart</b>", "mimeType": "image/png", "url": "http://example.com/c.png"},
        ],
        author={"name": "Ada Lovelace", "organization": "Engines Ltd",
                "website": "https://ada.example.com"},
    )  # fmt: skip
    created = await client.post(
        "/v1/developer/agents", json=listing, headers=developer.bearer_headers
    )
    assert created.status_code == 201, created.text
    agent_id = created.json()["data"]["id"]
    approved = await client.post(
        f"/v1/admin/agents/{agent_id}/approve", headers=admin.bearer_headers
    )
    assert approved.status_code == 200, approved.text

    # No job yet: the empty states say so.
    fresh = (await client.get(f"/agents/{agent_id}")).text
    assert "No job yet" in _between(fresh, 'id="runs">', "</dd>")
    assert "No completed job yet" in _between(fresh, 'id="avg-duration">', "</dd>")

    # Three real jobs: two complete, one fails (not in the average).
    hirer = await make_user(credits=to_base(100))
    for text in ("one", "boom", "two"):
        made = await create(client, hirer.key_headers, agent_id, {"inputData": {"text": text}})
        assert made.status_code == 201, made.text
    await dispatcher(app).run_until_idle()
    async with db.transaction() as session:  # known durations (start → completion): 10 s, 30 s
        done = list(await session.scalars(select(Job).where(Job.status == "COMPLETED")))
        assert len(done) == 2
        for job, seconds in zip(done, (10, 30), strict=True):
            assert job.completed_at is not None
            job.started_at = job.completed_at - timedelta(seconds=seconds)
        failed = await session.scalar(select(Job).where(Job.status == "FAILED"))
        assert failed is not None and failed.completed_at is not None
        failed.started_at = failed.completed_at - timedelta(seconds=500)

    page = await client.get(f"/agents/{agent_id}")  # anonymous visitor
    assert page.status_code == 200
    html = page.text
    author = _between(html, 'id="author">', "</dd>")
    assert "Ada Lovelace" in author and "Engines Ltd" in author
    assert 'href="https://ada.example.com" rel="noopener noreferrer nofollow"' in author
    examples = _between(html, 'id="examples">', "</ul>")
    assert (
        '<a href="https://example.com/a.md" rel="noopener noreferrer nofollow">A summary</a>'
        in examples
    )
    assert "(text/markdown)" in examples and "(image/png)" in examples
    assert "&lt;b&gt;Chart&lt;/b&gt;" in examples and "<b>" not in examples  # escaped
    assert _between(html, 'id="runs">', "</dd>") == "3 jobs"
    average = _between(html, 'id="avg-duration">', "</dd>")
    assert average.startswith("20 s") and "over 2 completed jobs" in average, average
    assert "2.1 credits per job (marketplace fee 0.1 credits included)" in html


async def test_agent_page_without_listing_data_has_empty_states(
    app: FastAPI, client: httpx2.AsyncClient, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    html = (await client.get(f"/agents/{agent_id}")).text
    assert _between(html, 'id="author">', "</dd>") == "Not given"
    assert "has not published example outputs" in html and 'id="examples"' not in html
    assert "Not checked yet" in html  # registered without a stored check


async def test_gallery_shows_availability_from_the_latest_stored_check(
    app: FastAPI, client: httpx2.AsyncClient, agents_server: LoopbackAgents
) -> None:
    urls = {}
    for name in ("alpha", "beta"):
        urls[name] = agents_server.serve(echo(name=name))
    await register_at(app, "alpha", urls["alpha"])
    await register_at(app, "beta", urls["beta"])
    down = JSONResponse({"detail": "maintenance"}, status_code=503)
    agents_server.host.mount(urls["beta"].rsplit("/", 1)[1], down)
    await check_availability(app.state.db, app.state.agent_client, app.state.settings)
    await register(app, agents_server, echo(name="gamma"))  # never checked
    # Alpha goes down after its check: the page shows the stored check and calls no agent.
    agents_server.host.mount(urls["alpha"].rsplit("/", 1)[1], down)

    html = (await client.get("/agents")).text
    alpha, beta, gamma = (_card(html, n) for n in ("Alpha", "Beta", "Gamma"))
    assert "availability-available" in alpha and "Available</span>" in alpha
    assert "availability-unavailable" in beta and "Unavailable</span>" in beta
    assert "availability-unknown" in gamma and "Not checked yet</span>" in gamma
    assert 'title="Checked ' in alpha and "title=" not in gamma.split("availability-")[1][:40]


async def test_share_link_created_viewed_anonymously_and_revoked(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    await sign_up_verified(client, settings, "sharer@example.com", "Sam Sharer")
    csrf = await _page_csrf(client)
    hired = await client.post(
        f"/agents/{agent_id}/hire",
        data={"csrf": csrf, "in.text": "<script>alert(1)</script> **bold** words"},
    )
    assert hired.status_code == 303, hired.text
    job_path = hired.headers["location"]
    job_id = job_path.rsplit("/", 1)[1]
    await dispatcher(app).run_until_idle()
    before = (await client.get(job_path)).text
    assert "Not shared" in before and 'id="share-url"' not in before

    # No CSRF token: refused.
    assert (await client.post(f"{job_path}/share", data={"audience": "public"})).status_code == 403
    shared = await client.post(f"{job_path}/share", data={"csrf": csrf, "audience": "public"})
    assert shared.status_code == 303 and shared.headers["location"].endswith("#share")
    page = (await client.get(job_path)).text
    link = _between(page, '<code id="share-url">', "</code>")
    assert link.startswith("http://testserver/shares/")
    token = link.rsplit("/", 1)[1]
    assert "Anyone with the link" in page and "Revoke the link" in page
    # The API's JSON is unchanged: its share url is the API's route.
    api_job = (await client.get(f"/v1/jobs/{job_id}")).json()["data"]
    assert api_job["share"]["url"] == f"http://testserver/v1/shares/{token}"
    workspace_id = (await client.get("/v1/credits")).json()["data"]["workspaceId"]

    # Sharing again keeps the link.
    await client.post(f"{job_path}/share", data={"csrf": csrf, "audience": "public"})
    assert _between((await client.get(job_path)).text, '<code id="share-url">', "</code>") == link

    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as anonymous:
        view = await anonymous.get(f"/shares/{token}")
        assert view.status_code == 200, view.text
        assert "Content-Security-Policy" in view.headers
        result = _between(view.text, 'id="result">', "</div>")
        assert "<strong>BOLD</strong>" in result
        assert "<script" not in result.lower() and "&lt;script&gt;" in result.lower()
        assert "Sam Sharer" in view.text and "Echo" in view.text
        assert workspace_id not in view.text and "sharer@example.com" not in view.text
        assert 'name="csrf"' not in view.text  # nothing to act on
        assert (await anonymous.get(f"/v1/shares/{token}")).status_code == 200
        wrong = await anonymous.get("/shares/not-a-real-token")
        assert wrong.status_code == 404 and "<h1>404" in wrong.text

        # Revoked: the link answers 404 on the page and the API.
        revoked = await client.post(f"{job_path}/share/revoke", data={"csrf": csrf})
        assert revoked.status_code == 303
        assert (await anonymous.get(f"/shares/{token}")).status_code == 404
        assert (await anonymous.get(f"/v1/shares/{token}")).status_code == 404
        assert "Not shared" in (await client.get(job_path)).text


async def test_share_for_an_organization_and_other_peoples_jobs(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings, agents_server: LoopbackAgents
) -> None:
    agent_id = await register(app, agents_server, echo())
    await sign_up_verified(client, settings, "owner@example.com", "Olive Owner")
    csrf = await _page_csrf(client)
    made = await client.post("/organizations", data={"csrf": csrf, "name": "Lantern Works"})
    org_id = made.headers["location"].rsplit("/", 1)[1]
    hired = await client.post(f"/agents/{agent_id}/hire", data={"csrf": csrf, "in.text": "hi"})
    job_path = hired.headers["location"]
    await dispatcher(app).run_until_idle()
    page = (await client.get(job_path)).text
    assert f'value="{org_id}"> Members of Lantern Works' in page

    # An organization that is not yours: 400 on the form, shown in the page.
    foreign = await client.post(
        f"{job_path}/share",
        data={"csrf": csrf, "audience": "00000000-0000-0000-0000-000000000000"},
    )
    assert foreign.status_code == 400 and "no organization you belong to" in foreign.text

    shared = await client.post(f"{job_path}/share", data={"csrf": csrf, "audience": org_id})
    assert shared.status_code == 303
    page = (await client.get(job_path)).text
    assert "Members of Lantern Works can see" in page
    token = _between(page, '<code id="share-url">', "</code>").rsplit("/", 1)[1]
    assert (await client.get(f"/shares/{token}")).status_code == 200  # the owner

    # Someone else, signed in: not a member → 404 on the share; another's job → 404.
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as other:
        assert (await other.get(f"/shares/{token}")).status_code == 404  # anonymous
        await sign_up_verified(other, settings, "stranger@example.com", "Stan")
        other_csrf = await _page_csrf(other)
        assert (await other.get(f"/shares/{token}")).status_code == 404
        for path in ("share", "share/revoke"):
            taken = await other.post(
                f"{job_path}/{path}", data={"csrf": other_csrf, "audience": "public"}
            )
            assert taken.status_code == 404 and "<h1>404" in taken.text
    assert (await client.get(f"/shares/{token}")).status_code == 200  # untouched


async def test_mails_link_to_the_web_pages(client: httpx2.AsyncClient, settings: Settings) -> None:
    owner = await sign_up_verified(client, settings, "mailer@example.com", "Mo")
    url, token = last_link(settings, "mailer@example.com", "Confirm")
    assert url == f"http://testserver/verify-email?token={token}"
    assert (await client.get(url.removeprefix("http://testserver"))).status_code == 200

    org = await client.post("/v1/organizations", json={"name": "Mail Co"}, headers=owner)
    invited = await client.post(
        f"/v1/organizations/{org.json()['data']['id']}/invitations",
        json={"email": "guest@example.com", "role": "member"},
        headers=owner,
    )
    assert invited.status_code == 201, invited.text
    url, token = last_link(settings, "guest@example.com", "Join Mail Co")
    assert url == f"http://testserver/invitations/accept?token={token}"
    assert invited.json()["data"]["url"] == url

    client.cookies.clear()
    await client.post("/v1/auth/magic-link", json={"email": "mailer@example.com"})
    url, token = last_link(settings, "mailer@example.com", "sign-in link")
    assert url == f"http://testserver/magic-link?token={token}"
    landing = await client.get(url.removeprefix("http://testserver"))
    assert landing.status_code == 200 and token in landing.text
    # The API route still takes the mailed token.
    signed = await client.post("/v1/auth/magic-link/sign-in", json={"token": token})
    assert signed.status_code == 200, signed.text

    client.cookies.clear()
    await client.post("/v1/auth/password-reset", json={"email": "mailer@example.com"})
    url, token = last_link(settings, "mailer@example.com", "Reset")
    assert url == f"http://testserver/reset-password?token={token}"
    assert (await client.get(url.removeprefix("http://testserver"))).status_code == 200


async def test_share_an_existing_job_over_the_api(
    app: FastAPI, client: httpx2.AsyncClient, agents_server: LoopbackAgents, make_user: MakeUser
) -> None:
    agent_id = await register(app, agents_server, echo())
    owner, stranger = await make_user(), await make_user()
    made = await create(client, owner.key_headers, agent_id)
    job_id = made.json()["data"]["id"]
    assert made.json()["data"]["share"] is None
    # Another workspace's job: 404, and nothing changes.
    for method in ("PUT", "DELETE"):
        taken = await client.request(
            method, f"/v1/jobs/{job_id}/share", json={} if method == "PUT" else None,
            headers=stranger.key_headers,
        )  # fmt: skip
        assert taken.status_code == 404, taken.text
    bad = await client.put(
        f"/v1/jobs/{job_id}/share", json={"public": False}, headers=owner.key_headers
    )
    assert bad.status_code == 400 and "needs a recipient organization" in bad.text
    shared = await client.put(f"/v1/jobs/{job_id}/share", json={}, headers=owner.key_headers)
    assert shared.status_code == 200, shared.text
    share = shared.json()["data"]["share"]
    assert share["public"] is True and share["url"].startswith("http://testserver/v1/shares/")
    public = await client.get(share["url"].removeprefix("http://testserver"))
    assert public.status_code == 200 and public.json()["data"]["id"] == job_id
    again = await client.put(f"/v1/jobs/{job_id}/share", json={}, headers=owner.key_headers)
    assert again.json()["data"]["share"]["url"] == share["url"]  # the same link
    revoked = await client.delete(f"/v1/jobs/{job_id}/share", headers=owner.key_headers)
    assert revoked.status_code == 200 and revoked.json()["data"]["share"] is None
    gone = await client.get(share["url"].removeprefix("http://testserver"))
    assert gone.status_code == 404
