"""OAuth 2.1 through HTTP (issue 36), on SQLite and PostgreSQL: metadata, registration, the
authorization code with PKCE S256 only, exact redirect URIs, rotation and reuse detection,
revocation, the REST API and /mcp accepting the access tokens, the device flow."""

from __future__ import annotations

import hashlib
import time

import httpx2
from itsdangerous import TimestampSigner, URLSafeTimedSerializer

from agora.app import create_app
from agora.kit.db import Database
from agora.oauth.pages import RESUME_SECONDS
from agora.settings import Settings
from tests.accounts.helpers import sign_in, sign_up_verified
from tests.conftest import MakeUser
from tests.oauth.helpers import (
    REDIRECT,
    authorize_params,
    consent,
    csrf_of,
    member_of_new_organization,
    pkce,
    query_of,
    register,
    tokens_for,
)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_metadata_at_the_well_known_paths(client: httpx2.AsyncClient) -> None:
    server = (await client.get("/.well-known/oauth-authorization-server")).json()
    assert server["issuer"] == "http://testserver"
    assert server["token_endpoint"] == "http://testserver/oauth/token"
    assert server["registration_endpoint"] == "http://testserver/oauth/register"
    assert server["code_challenge_methods_supported"] == ["S256"]
    assert "urn:ietf:params:oauth:grant-type:device_code" in server["grant_types_supported"]
    resource = (await client.get("/.well-known/oauth-protected-resource/mcp")).json()
    assert resource["resource"] == "http://testserver/mcp"
    assert resource["authorization_servers"] == ["http://testserver"]
    # The MCP endpoints advertise the least scopes their tools need (issue 44.6); the server
    # as a whole every scope, the least first.
    assert resource["scopes_supported"] == ["read", "jobs:write", "projects:write"]
    whole = (await client.get("/.well-known/oauth-protected-resource")).json()
    assert whole["scopes_supported"] == ["read", "jobs:write", "projects:write", "profile:write"]


async def test_mcp_401_names_the_resource_metadata(client: httpx2.AsyncClient) -> None:
    refused = await client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"] == (
        'Bearer resource_metadata="http://testserver/.well-known/oauth-protected-resource/mcp", '
        'scope="read jobs:write projects:write"'
    )
    bad = await client.post(
        "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=bearer("agora_oat_x")
    )
    assert bad.status_code == 401
    assert 'error="invalid_token"' in bad.headers["www-authenticate"]
    sse = await client.get("/sse")
    assert sse.status_code == 401
    assert "/.well-known/oauth-protected-resource/sse" in sse.headers["www-authenticate"]


async def test_registration_limits(client: httpx2.AsyncClient) -> None:
    refused_uris = (
        ["http://example.com/cb"],
        ["javascript:alert(1)"],
        [f"https://a.example/{'x' * 2100}"],
        [f"http://127.0.0.1/{i}" for i in range(6)],
        ["https://a.example/cb#frag"],
    )
    for uris in refused_uris:
        refused = await client.post("/oauth/register", json={"redirect_uris": uris})
        assert refused.status_code == 400, uris
        assert refused.json()["error"] == "invalid_redirect_uri"
    plain = await client.post(
        "/oauth/register", json={"redirect_uris": [REDIRECT], "grant_types": ["implicit"]}
    )
    assert plain.status_code == 400 and plain.json()["error"] == "invalid_client_metadata"
    confidential = await register(client, method="client_secret_basic")
    assert confidential["client_secret"].startswith("agora_ocs_")
    wrong = await client.post(
        "/oauth/token",
        data={"grant_type": "refresh_token", "refresh_token": "x"},
        auth=(confidential["client_id"], "agora_ocs_wrong"),
    )
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_client"
    no_secret = await client.post(
        "/oauth/token",
        data={
            "grant_type": "refresh_token",
            "refresh_token": "x",
            "client_id": confidential["client_id"],
        },
    )
    assert no_secret.status_code == 400 and no_secret.json()["error"] == "invalid_client"
    public = await register(client)
    assert "client_secret" not in public


async def test_code_flow_rest_refresh_rotation_and_reuse_revokes_the_family(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "ada@example.com")
    registered = await register(client)
    everything = "read jobs:write projects:write profile:write"
    tokens = await tokens_for(client, registered["client_id"], scope=everything)
    assert tokens["token_type"] == "Bearer" and int(tokens["expires_in"]) <= 900
    me = await client.get("/v1/users/me", headers=bearer(tokens["access_token"]))
    assert me.status_code == 200 and me.json()["data"]["email"] == "ada@example.com"
    created = await client.post(
        "/v1/projects", json={"name": "By OAuth"}, headers=bearer(tokens["access_token"])
    )
    assert created.status_code == 201, created.text
    no_key = await client.post(
        "/v1/api-keys", json={"name": "lasting"}, headers=bearer(tokens["access_token"])
    )
    assert no_key.status_code == 403, no_key.text  # a token never mints a lasting key
    assert "OAuth access token cannot create API keys" in no_key.text

    form = {"grant_type": "refresh_token", "client_id": registered["client_id"]}
    rotated = await client.post(
        "/oauth/token", data={**form, "refresh_token": tokens["refresh_token"]}
    )
    assert rotated.status_code == 200, rotated.text
    fresh = rotated.json()
    assert fresh["refresh_token"] != tokens["refresh_token"]
    assert (
        await client.get("/v1/users/me", headers=bearer(fresh["access_token"]))
    ).status_code == 200

    reused = await client.post(
        "/oauth/token", data={**form, "refresh_token": tokens["refresh_token"]}
    )
    assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
    # The whole family is gone: the newest access and refresh tokens too.
    assert (
        await client.get("/v1/users/me", headers=bearer(fresh["access_token"]))
    ).status_code == 401
    again = await client.post(
        "/oauth/token", data={**form, "refresh_token": fresh["refresh_token"]}
    )
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


async def test_refusals_redirect_uri_pkce_and_plain(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "bea@example.com")
    client_id = (await register(client))["client_id"]
    verifier, challenge = pkce()

    wrong_uri = authorize_params(client_id, challenge, redirect_uri="http://127.0.0.1:33418/other")
    page = await client.get("/oauth/authorize", params=wrong_uri)
    assert page.status_code == 400 and "location" not in page.headers  # never redirected there
    https_uri = authorize_params(client_id, challenge, redirect_uri="https://evil.example/callback")
    assert (await client.get("/oauth/authorize", params=https_uri)).status_code == 400
    # A loopback redirect URI may use another port (RFC 8252 §7.3); the path must match.
    other_port = authorize_params(
        client_id, challenge, redirect_uri="http://127.0.0.1:5999/callback"
    )
    assert (await client.get("/oauth/authorize", params=other_port)).status_code == 200

    plain = authorize_params(client_id, verifier, code_challenge_method="plain")
    refused = await client.get("/oauth/authorize", params=plain)
    assert refused.status_code == 303
    assert refused.headers["location"].startswith(REDIRECT)
    assert query_of(refused.headers["location"])["error"] == "invalid_request"
    assert query_of(refused.headers["location"])["state"] == "st-123"
    no_pkce = authorize_params(client_id, challenge)
    del no_pkce["code_challenge"], no_pkce["code_challenge_method"]
    refused = await client.get("/oauth/authorize", params=no_pkce)
    assert query_of(refused.headers["location"])["error"] == "invalid_request"

    answered = await consent(client, authorize_params(client_id, challenge))
    code = query_of(answered.headers["location"])["code"]
    exchange = {"grant_type": "authorization_code", "code": code, "client_id": client_id}
    missing = await client.post("/oauth/token", data={**exchange, "redirect_uri": REDIRECT})
    assert missing.status_code == 400 and missing.json()["error"] == "invalid_request"
    assert "code_verifier" in missing.json()["error_description"]
    other_uri = await client.post(
        "/oauth/token",
        data={**exchange, "redirect_uri": "http://127.0.0.1:1/x", "code_verifier": verifier},
    )
    assert other_uri.status_code == 400 and other_uri.json()["error"] == "invalid_grant"
    wrong = await client.post(
        "/oauth/token",
        data={**exchange, "redirect_uri": REDIRECT, "code_verifier": pkce()[0]},
    )
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    good = await client.post(
        "/oauth/token", data={**exchange, "redirect_uri": REDIRECT, "code_verifier": verifier}
    )
    assert good.status_code == 200, good.text
    twice = await client.post(
        "/oauth/token", data={**exchange, "redirect_uri": REDIRECT, "code_verifier": verifier}
    )
    assert twice.status_code == 400 and twice.json()["error"] == "invalid_grant"
    # A reused code revokes what the first exchange issued.
    token = good.json()["access_token"]
    assert (await client.get("/v1/users/me", headers=bearer(token))).status_code == 401


async def test_revocation_stops_a_token_at_once(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "cy@example.com")
    client_id = (await register(client))["client_id"]
    tokens = await tokens_for(client, client_id)
    assert (
        await client.get("/v1/users/me", headers=bearer(tokens["access_token"]))
    ).status_code == 200
    revoked = await client.post(
        "/oauth/revoke", data={"token": tokens["access_token"], "client_id": client_id}
    )
    assert revoked.status_code == 200
    assert (
        await client.get("/v1/users/me", headers=bearer(tokens["access_token"]))
    ).status_code == 401
    unknown = await client.post("/oauth/revoke", data={"token": "nope", "client_id": client_id})
    assert unknown.status_code == 200

    # The person revokes the app on the "Authorized apps" page: refresh tokens die with it.
    second = await tokens_for(client, client_id)
    apps = await client.get("/authorized-apps")
    assert apps.status_code == 200 and "Test assistant" in apps.text
    grant_id = apps.text.split('action="/authorized-apps/')[1].split("/revoke")[0]
    done = await client.post(
        f"/authorized-apps/{grant_id}/revoke", data={"csrf": csrf_of(apps.text)}
    )
    assert done.status_code == 303
    assert (
        await client.get("/v1/users/me", headers=bearer(second["access_token"]))
    ).status_code == 401
    refresh = await client.post(
        "/oauth/token",
        data={
            "grant_type": "refresh_token",
            "client_id": client_id,
            "refresh_token": second["refresh_token"],
        },
    )
    assert refresh.status_code == 400


async def test_scopes_limit_the_token(client: httpx2.AsyncClient, settings: Settings) -> None:
    await sign_up_verified(client, settings, "dee@example.com")
    client_id = (await register(client))["client_id"]
    tokens = await tokens_for(client, client_id, scope="read")
    assert tokens["scope"] == "read"
    headers = bearer(tokens["access_token"])
    assert (await client.get("/v1/projects", headers=headers)).status_code == 200
    refused = await client.post("/v1/projects", json={"name": "No"}, headers=headers)
    assert refused.status_code == 403
    unknown = await client.get(
        "/oauth/authorize", params=authorize_params(client_id, pkce()[1], scope="admin")
    )
    assert query_of(unknown.headers["location"])["error"] == "invalid_scope"


async def test_signed_out_person_signs_in_then_comes_back(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "eve@example.com")
    client_id = (await register(client))["client_id"]
    client.cookies.clear()
    params = authorize_params(client_id, pkce()[1])
    first = await client.get("/oauth/authorize", params=params)
    assert first.status_code == 303 and first.headers["location"] == "/sign-in?next=/oauth/resume"
    waiting = client.cookies.get("agora_oauth_request")
    assert waiting
    await sign_in(client, "eve@example.com")  # (the helper clears the jar; a browser would not)
    client.cookies.set("agora_oauth_request", waiting)
    resumed = await client.get("/oauth/resume")
    assert resumed.status_code == 303
    assert resumed.headers["location"].startswith("/oauth/authorize?")
    page = await client.get(resumed.headers["location"])
    assert page.status_code == 200 and "Test assistant" in page.text


def resume_cookie(settings: Settings, query: str, age: int = 0) -> str:
    """A waiting authorization request signed as the server signs it, ``age`` seconds old."""

    class Dated(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - age

    signer = URLSafeTimedSerializer(
        settings.resolved_secret_key(),
        salt="agora.oauth.resume",
        signer=Dated,
        signer_kwargs={"digest_method": hashlib.sha256},
    )
    return str(signer.dumps(query))


async def test_a_waiting_request_tampered_with_or_too_old_is_refused(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    await sign_up_verified(client, settings, "gil@example.com")
    client_id = (await register(client))["client_id"]
    client.cookies.clear()
    await client.get("/oauth/authorize", params=authorize_params(client_id, pkce()[1]))
    waiting = client.cookies.get("agora_oauth_request")
    assert waiting
    await sign_in(client, "gil@example.com")
    assert (await client.get("/oauth/resume")).status_code == 400  # none waiting
    tampered = waiting[:-2] + ("AA" if waiting[-2:] != "AA" else "BB")
    client.cookies.set("agora_oauth_request", tampered, path="/oauth")
    assert (await client.get("/oauth/resume")).status_code == 400

    old = resume_cookie(settings, "client_id=x", age=RESUME_SECONDS + 5)
    client.cookies.set("agora_oauth_request", old, path="/oauth")
    assert (await client.get("/oauth/resume")).status_code == 400
    client.cookies.set("agora_oauth_request", resume_cookie(settings, "client_id=x"), path="/oauth")
    resumed = await client.get("/oauth/resume")
    assert (
        resumed.status_code == 303 and resumed.headers["location"] == "/oauth/authorize?client_id=x"
    )


async def test_device_flow(client: httpx2.AsyncClient, settings: Settings) -> None:
    await sign_up_verified(client, settings, "fay@example.com")
    device_grant = "urn:ietf:params:oauth:grant-type:device_code"
    cli = await register(
        client,
        redirect_uris=[],
        grant_types=[device_grant, "refresh_token"],
        client_name="agora CLI",
    )
    started = await client.post(
        "/oauth/device_authorization", data={"client_id": cli["client_id"], "scope": "read"}
    )
    assert started.status_code == 200, started.text
    device = started.json()
    poll = {
        "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
        "device_code": device["device_code"],
        "client_id": cli["client_id"],
    }
    pending = await client.post("/oauth/token", data=poll)
    assert pending.status_code == 400 and pending.json()["error"] == "authorization_pending"
    too_fast = await client.post("/oauth/token", data=poll)
    assert too_fast.json()["error"] == "slow_down"

    page = await client.get("/oauth/device", params={"user_code": device["user_code"].lower()})
    assert page.status_code == 200 and "agora CLI" in page.text
    workspace = page.text.split('<option value="')[1].split('"')[0]
    allowed = await client.post(
        "/oauth/device",
        data={"csrf": csrf_of(page.text), "user_code": device["user_code"], "decision": "allow",
              "workspace": workspace},
    )  # fmt: skip
    assert allowed.status_code == 200 and "signed in" in allowed.text
    granted = await client.post("/oauth/token", data=poll)
    assert granted.status_code == 200, granted.text
    token = granted.json()["access_token"]
    assert (await client.get("/v1/users/me", headers=bearer(token))).status_code == 200
    once = await client.post("/oauth/token", data=poll)
    assert once.status_code == 400 and once.json()["error"] == "expired_token"


async def test_removed_member_rule_applies_to_oauth_tokens(
    client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser
) -> None:
    """A token granted in an organization's workspace stops (403) when the person is removed
    from the organization, and its refresh is refused; another workspace in a header: 403."""
    owner = await make_user(name="Owner")
    org = await member_of_new_organization(client, settings, owner, "gus@example.com")
    me = (await client.get("/v1/users/me")).json()["data"]
    client_id = (await register(client))["client_id"]
    tokens = await tokens_for(client, client_id, workspace=org["workspaceId"])
    headers = bearer(tokens["access_token"])
    projects = await client.get("/v1/projects", headers=headers)
    assert projects.status_code == 200, projects.text
    elsewhere = await client.get(
        "/v1/projects", headers={**headers, "X-Workspace-Id": owner.workspace_id.hex}
    )
    assert elsewhere.status_code == 403

    removed = await client.delete(
        f"/v1/organizations/{org['id']}/members/{me['id']}", headers=owner.key_headers
    )
    assert removed.status_code in (200, 204), removed.text
    assert (await client.get("/v1/projects", headers=headers)).status_code == 403
    refresh = await client.post(
        "/oauth/token",
        data={
            "grant_type": "refresh_token",
            "client_id": client_id,
            "refresh_token": tokens["refresh_token"],
        },
    )
    assert refresh.status_code == 400 and refresh.json()["error"] == "invalid_grant"


async def test_rate_limits_count_an_access_token_as_its_grant(
    settings: Settings, db: Database
) -> None:
    """The limiter resolves an access token to its grant (the authenticated budget), not to the
    failed-authentication budget of unknown credentials."""
    limited = settings.with_changes(
        rate_limit_authenticated="4/minute", rate_limit_failed_auth="1/minute"
    )
    app = create_app(limited, db=db, migrate=False, background=False)
    async with (
        app.router.lifespan_context(app),
        httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=app), base_url="http://testserver"
        ) as client,
    ):
        await sign_up_verified(client, limited, "hal@example.com")
        tokens = await tokens_for(client, (await register(client))["client_id"])
        headers = bearer(tokens["access_token"])
        statuses = [
            (await client.get("/v1/projects", headers=headers)).status_code for _ in range(5)
        ]
        assert statuses == [200, 200, 200, 200, 429], statuses


async def test_https_metadata_passes_authlibs_rfc8414_validation(
    settings: Settings, db: Database
) -> None:
    """With an https public URL the metadata is validated by Authlib before it is served."""
    public = settings.with_changes(public_url="https://agora.example")
    app = create_app(public, db=db, migrate=False, background=False)
    transport = httpx2.ASGITransport(app=app)
    async with httpx2.AsyncClient(transport=transport, base_url="https://agora.example") as client:
        answer = await client.get("/.well-known/oauth-authorization-server")
        assert answer.status_code == 200
        assert answer.json()["issuer"] == "https://agora.example"
        assert answer.json()["authorization_endpoint"] == "https://agora.example/oauth/authorize"
