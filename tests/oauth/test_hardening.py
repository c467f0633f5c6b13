"""OAuth, third security round (issue 43 items 1, 5, 6, 8; issue 44 item 7), through HTTP on
SQLite and PostgreSQL: redirect URIs cannot write into the consent page's CSP, an approved device
code is spent once under concurrent polls, RFC 8707's invalid_target, per-address registration
limits and the expiry of clients never used."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from agora.app import create_app
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import OAuthClient, OAuthGrant, OAuthToken
from agora.settings import Settings
from agora.web.render import CSP
from tests.accounts.helpers import sign_up_verified
from tests.oauth.helpers import (
    REDIRECT,
    answer_device,
    authorize_params,
    consent,
    pkce,
    query_of,
    register,
    tokens_for,
)

INJECTED = "https://evil.example:443;frame-ancestors *;/cb"
INJECTED_USERINFO = "http://x;frame-ancestors *;@127.0.0.1:5555/callback"
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


def consent_csp(origin: str) -> str:
    """The exact policy of a consent page whose client redirects to ``origin``."""
    return CSP.replace("form-action 'self'", f"form-action 'self' {origin}")


async def test_registration_refuses_redirect_uris_outside_the_rules(
    client: httpx2.AsyncClient,
) -> None:
    refused = (
        INJECTED,
        INJECTED_USERINFO,
        "https://user@a.example/cb",  # userinfo
        "https://a.example /cb",  # whitespace
        "https://a.example,b.example/cb",
        'https://a"b.example/cb',
        "https://a'b.example/cb",
        "https://a.example:0/cb",
        "https://a.example:70000/cb",
        "https://a.example:44x/cb",
        "http://a.example/cb",  # http only on loopback
        "http://127.0.0.1.evil.example/cb",
        "https:///cb",  # no host
        "/cb",  # not absolute
        "javascript:alert(1)",
        "https://a.example/cb#frag",
        "com.example.app:/cb",  # no authority (Authlib's metadata check needs a host)
        "com.example.app://cb\n",
    )
    for uri in refused:
        answer = await client.post("/oauth/register", json={"redirect_uris": [uri]})
        assert answer.status_code == 400, uri
        assert answer.json()["error"] == "invalid_redirect_uri", uri  # RFC 7591 §3.2.2
    accepted = (
        "https://app.example:8443/cb?x=1;y=2",  # ';' in the path or query is fine
        "http://127.0.0.1:33418/callback",
        "http://localhost/cb",
        "http://[::1]:5000/cb",
        "com.example.app://oauth2redirect",  # RFC 8252 §7.1
        "cursor://anysphere.cursor-retrieval/oauth/callback",
    )
    for uri in accepted:
        answer = await client.post("/oauth/register", json={"redirect_uris": [uri]})
        assert answer.status_code == 201, (uri, answer.text)


async def test_the_consent_policy_names_only_the_rebuilt_origin(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "csp@example.com")
    uri = "https://App.Example:8443/cb;x?y=1;frame-ancestors%20*"
    client_id = (await register(client, redirect_uris=[uri]))["client_id"]
    page = await client.get(
        "/oauth/authorize", params=authorize_params(client_id, pkce()[1], redirect_uri=uri)
    )
    assert page.status_code == 200, page.text
    assert page.headers["content-security-policy"] == consent_csp("https://app.example:8443")


async def test_a_presented_uri_with_userinfo_never_matches_a_loopback_registration(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "loop@example.com")
    client_id = (await register(client))["client_id"]  # http://127.0.0.1:33418/callback
    challenge = pkce()[1]
    for presented in (
        INJECTED_USERINFO,
        "http://user@127.0.0.1:5555/callback",
        "http://127.0.0.1:5555;frame-ancestors */callback",
    ):
        page = await client.get(
            "/oauth/authorize",
            params=authorize_params(client_id, challenge, redirect_uri=presented),
        )
        assert page.status_code == 400, presented
        assert "location" not in page.headers
        assert page.headers["content-security-policy"] == CSP
    # The loopback rule still holds: another port, the same host, path and query.
    other_port = await client.get(
        "/oauth/authorize",
        params=authorize_params(
            client_id, challenge, redirect_uri="http://127.0.0.1:5999/callback"
        ),
    )
    assert other_port.status_code == 200
    assert other_port.headers["content-security-policy"] == consent_csp("http://127.0.0.1:5999")
    assert "frame-ancestors *" not in other_port.text


async def test_a_redirect_uri_stored_before_the_rules_is_never_used(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    """Defence in depth: a client registered with the injected URI before registration checked
    it (written here as the old code wrote it) gets no consent page, redirect or policy."""
    await sign_up_verified(client, settings, "old@example.com")
    async with db.transaction() as session:
        session.add(
            OAuthClient(
                client_id="agora_ocl_legacy",
                name="Legacy",
                redirect_uris=[INJECTED],
                grant_types=["authorization_code", "refresh_token"],
                auth_method="none",
            )
        )
    named = authorize_params("agora_ocl_legacy", pkce()[1], redirect_uri=INJECTED)
    unnamed = {k: v for k, v in named.items() if k != "redirect_uri"}  # the only one registered
    for params in (named, unnamed):
        page = await client.get("/oauth/authorize", params=params)
        assert page.status_code == 400 and "location" not in page.headers
        assert page.headers["content-security-policy"] == CSP


async def _approved_device(client: httpx2.AsyncClient) -> dict[str, str]:
    """A device client whose request the signed-in person approved: the poll's form."""
    cli = await register(
        client, redirect_uris=[], grant_types=[DEVICE_GRANT, "refresh_token"], client_name="CLI"
    )
    started = await client.post(
        "/oauth/device_authorization", data={"client_id": cli["client_id"], "scope": "read"}
    )
    assert started.status_code == 200, started.text
    device = started.json()
    allowed = await answer_device(client, device["user_code"], "allow")
    assert allowed.status_code == 200, allowed.text
    return {
        "grant_type": DEVICE_GRANT,
        "device_code": device["device_code"],
        "client_id": cli["client_id"],
    }


async def test_an_approved_device_code_gives_tokens_to_one_of_eight_concurrent_polls(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    await sign_up_verified(client, settings, "poll@example.com")
    poll = await _approved_device(client)
    answers = await asyncio.gather(*(client.post("/oauth/token", data=poll) for _ in range(8)))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200] + [400] * 7, [a.text for a in answers]
    assert {a.json()["error"] for a in answers if a.status_code == 400} == {"expired_token"}
    async with db.transaction() as session:
        grants = await session.scalar(select(func.count()).select_from(OAuthGrant))
        kinds = (
            await session.execute(select(OAuthToken.kind, func.count()).group_by(OAuthToken.kind))
        ).all()
    assert grants == 1
    assert dict(kinds) == {"access": 1, "refresh": 1}  # one pair issued, not eight


async def test_a_resource_of_another_server_is_invalid_target(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    """RFC 8707 §2: invalid_target, at the client's redirect URI on the authorization endpoint
    and as a 400 on the token endpoint (every grant)."""
    await sign_up_verified(client, settings, "target@example.com")
    client_id = (await register(client))["client_id"]
    verifier, challenge = pkce()
    for resource in ("https://other.example/mcp", "http://testserver.evil.example/mcp"):
        refused = await client.get(
            "/oauth/authorize", params=authorize_params(client_id, challenge, resource=resource)
        )
        assert refused.status_code == 303, refused.text
        assert refused.headers["location"].startswith(REDIRECT)
        assert query_of(refused.headers["location"])["error"] == "invalid_target"
        assert query_of(refused.headers["location"])["state"] == "st-123"
    answered = await consent(
        client, authorize_params(client_id, challenge, resource="http://testserver/mcp")
    )
    code = query_of(answered.headers["location"])["code"]
    exchange = {
        "grant_type": "authorization_code", "code": code, "client_id": client_id,
        "redirect_uri": REDIRECT, "code_verifier": verifier,
    }  # fmt: skip
    other = await client.post("/oauth/token", data={**exchange, "resource": "https://x.example"})
    assert other.status_code == 400 and other.json()["error"] == "invalid_target"
    good = await client.post("/oauth/token", data={**exchange, "resource": "http://testserver/mcp"})
    assert good.status_code == 200, good.text
    refresh = {
        "grant_type": "refresh_token", "client_id": client_id,
        "refresh_token": good.json()["refresh_token"],
    }  # fmt: skip
    other = await client.post("/oauth/token", data={**refresh, "resource": "https://x.example"})
    assert other.status_code == 400 and other.json()["error"] == "invalid_target"
    assert (await client.post("/oauth/token", data=refresh)).status_code == 200


@pytest.fixture
async def limited_app(settings: Settings, db: Database) -> AsyncIterator[FastAPI]:
    limited = settings.with_changes(oauth_registrations_per_address="3/hour")
    app = create_app(limited, db=db, migrate=False, background=False)
    async with app.router.lifespan_context(app):
        yield app


async def test_registrations_are_limited_per_address(limited_app: FastAPI) -> None:
    def at(address: str) -> httpx2.AsyncClient:
        transport = httpx2.ASGITransport(app=limited_app, client=(address, 4000))
        return httpx2.AsyncClient(transport=transport, base_url="http://testserver")

    body = {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"}
    async with at("192.0.2.10") as first, at("192.0.2.11") as second:
        statuses = [(await first.post("/oauth/register", json=body)).status_code for _ in range(3)]
        assert statuses == [201, 201, 201]
        refused = await first.post("/oauth/register", json=body)
        assert refused.status_code == 429
        assert refused.json()["error"] == "temporarily_unavailable"
        assert int(refused.headers["retry-after"]) >= 1
        assert (await second.post("/oauth/register", json=body)).status_code == 201


async def test_clients_never_used_are_deleted_after_the_setting(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    await sign_up_verified(client, settings, "sweep@example.com")
    unused = (await register(client))["client_id"]
    used = (await register(client))["client_id"]
    tokens = await tokens_for(client, used)
    polling = await register(
        client, redirect_uris=[], grant_types=[DEVICE_GRANT], client_name="Waiting CLI"
    )
    started = await client.post(
        "/oauth/device_authorization", data={"client_id": polling["client_id"]}
    )
    assert started.status_code == 200
    from agora.oauth.worker import UnusedClients  # (here: so the other tests run on old code)

    days = settings.accounts.oauth_unused_client_days
    assert days == 30
    sweeper = UnusedClients(db, settings)
    assert await sweeper.run_once(utcnow() + timedelta(days=days - 1)) == 0  # too young
    assert await sweeper.run_once(utcnow() + timedelta(days=days + 1)) == 1
    gone = await client.get("/oauth/authorize", params=authorize_params(unused, pkce()[1]))
    assert gone.status_code == 400 and "unknown client" in gone.text
    kept = await client.get("/oauth/authorize", params=authorize_params(used, pkce()[1]))
    assert kept.status_code == 200
    refreshed = await client.post(
        "/oauth/token",
        data={"grant_type": "refresh_token", "client_id": used,
              "refresh_token": tokens["refresh_token"]},
    )  # fmt: skip
    assert refreshed.status_code == 200, refreshed.text
    assert await sweeper.run_once(utcnow() + timedelta(days=days + 1)) == 0  # idempotent
    off = UnusedClients(db, settings.with_changes(oauth_unused_client_days=0))
    assert await off.run_once(utcnow() + timedelta(days=10_000)) == 0


def test_the_sweep_runs_where_housekeeping_runs(app: FastAPI) -> None:
    from agora.workers import background_services

    def names(s: Settings) -> set[str]:
        services = background_services(
            app.state.db, app.state.agent_client, s, dispatching=True, serving=False
        )
        return {service.name for service in services}

    settings: Settings = app.state.settings
    assert "oauth-unused-clients" in names(settings)
    assert "oauth-unused-clients" not in names(settings.with_changes(oauth_unused_client_days=0))
    assert "oauth-unused-clients" not in names(settings.with_changes(housekeeping_seconds=0))
