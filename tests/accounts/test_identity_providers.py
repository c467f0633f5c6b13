"""Sign in with an identity provider (docs/accounts.md, "Identity providers"), through the web
app's routes, against a real OpenID Connect provider on loopback (oidc-provider-mock 0.3.4 in its
own process: tests/support/identity.py) and a double of GitHub's documented OAuth endpoints."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections.abc import Iterator
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2
import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from agora.kit.db import Database
from agora.models import BrowserSession, User
from agora.settings import Settings
from tests.accounts.helpers import STRONG_PASSWORD, last_link, sign_up_verified
from tests.support.identity import (
    GitHubDouble,
    GitHubUser,
    authorize_at_oidc,
    oidc_provider,
    set_oidc_user,
)
from tests.support.server import serve_in_thread


@pytest.fixture(scope="module")
def oidc_issuer() -> Iterator[str]:
    with oidc_provider() as issuer:
        yield issuer


@pytest.fixture(scope="module")
def github() -> Iterator[tuple[GitHubDouble, str]]:
    double = GitHubDouble()
    with serve_in_thread(double.app(), "github-double") as base_url:
        yield double, base_url


@pytest.fixture
def settings(settings: Settings, oidc_issuer: str, github: tuple[GitHubDouble, str]) -> Settings:
    double, base_url = github
    return settings.with_changes(
        idp_oidc_issuer=oidc_issuer,
        idp_oidc_client_id="agora-test",
        idp_oidc_client_secret="agora-test-secret",
        idp_oidc_name="Acme SSO",
        idp_github_client_id=double.client_id,
        idp_github_client_secret=double.client_secret,
        idp_github_url=base_url,
        idp_github_api_url=base_url,
    )


def _person(issuer: str, *, verified: bool = True, email: str | None = None) -> tuple[str, str]:
    sub = f"sub-{uuid.uuid4().hex[:12]}"
    email = email or f"{sub}@people.example"
    set_oidc_user(issuer, sub, email=email, email_verified=verified, name="Ada Lovelace")
    return sub, email


async def _start(client: httpx2.AsyncClient, path: str = "/sign-in/oidc") -> str:
    started = await client.get(path)
    assert started.status_code == 303, started.text
    return started.headers["location"]


async def _at_provider(url: str, sub: str) -> str:
    return await asyncio.to_thread(authorize_at_oidc, url, sub)


async def _oidc_sign_in(client: httpx2.AsyncClient, sub: str) -> httpx2.Response:
    url = await _start(client)
    return await client.get(await _at_provider(url, sub))


async def _me(client: httpx2.AsyncClient) -> dict[str, str]:
    answer = await client.get("/v1/auth/session")
    assert answer.status_code == 200, answer.text
    return dict(answer.json()["data"]["user"])


def _csrf(client: httpx2.AsyncClient) -> str:
    return str(client.cookies.get("agora_session_csrf"))


async def test_sign_up_then_sign_in_keyed_on_the_issuer_and_subject(
    client: httpx2.AsyncClient, oidc_issuer: str
) -> None:
    sub, email = _person(oidc_issuer)
    url = await _start(client, "/sign-in/oidc?next=/projects")
    query = parse_qs(urlsplit(url).query)
    # state, nonce and PKCE (S256) on the request the browser takes to the provider
    assert url.startswith(f"{oidc_issuer}/oauth2/authorize?")
    assert query["code_challenge_method"] == ["S256"] and len(query["code_challenge"][0]) == 43
    assert len(query["state"][0]) >= 40 and len(query["nonce"][0]) >= 32
    assert query["redirect_uri"] == ["http://testserver/sign-in/oidc/callback"]

    back = await client.get(await _at_provider(url, sub))
    assert back.status_code == 303, back.text
    assert back.headers["location"] == "/projects"
    me = await _me(client)
    assert me["email"] == email and me["name"] == "Ada Lovelace"
    user_id = me["id"]

    # No password: only the provider signs this account in.
    client.cookies.clear()
    refused = await client.post(
        "/v1/auth/sign-in", json={"email": email, "password": STRONG_PASSWORD}
    )
    assert refused.status_code == 401

    # The provider changes the address: the same (issuer, subject) is the same account.
    set_oidc_user(oidc_issuer, sub, email=f"new-{email}", email_verified=True, name="Ada")
    again = await _oidc_sign_in(client, sub)
    assert again.status_code == 303, again.text
    assert (await _me(client))["id"] == user_id

    page = await client.get("/settings/sign-in")
    assert page.status_code == 200
    assert "Acme SSO" in page.text and f"new-{email}" in page.text


async def test_an_unverified_address_does_not_sign_up(
    client: httpx2.AsyncClient, oidc_issuer: str
) -> None:
    sub, _email = _person(oidc_issuer, verified=False)
    back = await _oidc_sign_in(client, sub)
    assert back.status_code == 403
    assert "did not confirm an email address" in back.text
    assert (await client.get("/v1/auth/session")).status_code == 401


async def test_an_existing_address_is_never_linked_by_itself(
    client: httpx2.AsyncClient, settings: Settings, oidc_issuer: str
) -> None:
    email = f"owner-{uuid.uuid4().hex[:8]}@people.example"
    await sign_up_verified(client, settings, email)
    client.cookies.clear()
    sub, _ = _person(oidc_issuer, email=email)  # verified at the provider, same address
    back = await _oidc_sign_in(client, sub)
    assert back.status_code == 409
    assert "already exists" in back.text and "Sign-in methods" in back.text
    assert (await client.get("/v1/auth/session")).status_code == 401


async def test_linking_needs_a_verified_address_and_the_signed_in_person(
    client: httpx2.AsyncClient, settings: Settings, oidc_issuer: str
) -> None:
    email = f"linker-{uuid.uuid4().hex[:8]}@people.example"
    await sign_up_verified(client, settings, email)
    user_id = (await _me(client))["id"]
    sub, _ = _person(oidc_issuer, verified=False, email=f"work-{email}")

    async def link() -> httpx2.Response:
        page = await client.post("/settings/sign-in/oidc/link", data={"csrf": _csrf(client)})
        assert page.status_code == 200, page.text
        assert "Continue to Acme SSO" in page.text
        url = page.text.split('id="continue-to-provider" href="')[1].split('"')[0]
        return await client.get(await _at_provider(url.replace("&amp;", "&"), sub))

    # Without the CSRF token the link does not start.
    assert (await client.post("/settings/sign-in/oidc/link", data={})).status_code == 403

    refused = await link()
    assert refused.status_code == 403
    assert "linking needs an address the provider verified" in refused.text
    assert "No provider linked" in (await client.get("/settings/sign-in")).text

    set_oidc_user(oidc_issuer, sub, email=f"work-{email}", email_verified=True, name="Ada")
    linked = await link()
    assert linked.status_code == 303, linked.text
    assert linked.headers["location"] == "/settings/sign-in?linked=1"
    assert f"work-{email}" in (await client.get("/settings/sign-in")).text

    # Signed out, the provider signs in to the same account.
    client.cookies.clear()
    back = await _oidc_sign_in(client, sub)
    assert back.status_code == 303
    assert (await _me(client))["id"] == user_id

    # A second Agora account cannot take the same identity.
    other = f"other-{uuid.uuid4().hex[:8]}@people.example"
    client.cookies.clear()
    await sign_up_verified(client, settings, other)
    taken = await link()
    assert taken.status_code == 409 and "already linked to another" in taken.text

    # Unlinking while a password remains.
    client.cookies.clear()
    await _oidc_sign_in(client, sub)
    page = (await client.get("/settings/sign-in")).text
    identity_id = page.split('action="/settings/sign-in/identities/')[1].split("/")[0]
    unlinked = await client.post(
        f"/settings/sign-in/identities/{identity_id}/unlink", data={"csrf": _csrf(client)}
    )
    assert unlinked.status_code == 303
    assert "No provider linked" in (await client.get("/settings/sign-in")).text


async def test_the_only_way_to_sign_in_is_not_unlinked(
    client: httpx2.AsyncClient, oidc_issuer: str
) -> None:
    sub, _ = _person(oidc_issuer)
    assert (await _oidc_sign_in(client, sub)).status_code == 303
    page = (await client.get("/settings/sign-in")).text
    identity_id = page.split('action="/settings/sign-in/identities/')[1].split("/")[0]
    refused = await client.post(
        f"/settings/sign-in/identities/{identity_id}/unlink", data={"csrf": _csrf(client)}
    )
    assert refused.status_code == 409
    assert "only way to sign in" in refused.text

    # The same through the API (key family): the list, and the same refusal.
    listed = await client.get("/v1/auth/identities")
    assert listed.status_code == 200, listed.text
    [one] = listed.json()["data"]
    assert (one["id"], one["provider"], one["issuer"], one["subject"]) == (
        identity_id,
        "oidc",
        oidc_issuer,
        sub,
    )
    assert one["emailVerified"] is True
    csrf = {"X-CSRF-Token": _csrf(client)}
    by_api = await client.delete(f"/v1/auth/identities/{identity_id}", headers=csrf)
    assert by_api.status_code == 409 and "only way to sign in" in by_api.json()["message"]
    # Someone else's identity is not found.
    client.cookies.clear()
    other, _ = _person(oidc_issuer)
    assert (await _oidc_sign_in(client, other)).status_code == 303
    csrf = {"X-CSRF-Token": _csrf(client)}
    assert (
        await client.delete(f"/v1/auth/identities/{identity_id}", headers=csrf)
    ).status_code == 404


async def test_a_tampered_or_replayed_state_is_refused(
    client: httpx2.AsyncClient, oidc_issuer: str
) -> None:
    sub, _ = _person(oidc_issuer)
    back = await _at_provider(await _start(client), sub)
    parts = urlsplit(back)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    tampered = {
        **query,
        "state": query["state"][:-2] + ("AA" if query["state"][-2:] != "AA" else "BB"),
    }
    refused = await client.get(f"{parts.path}?{urlencode(tampered)}")
    assert refused.status_code == 400
    assert "does not belong to the sign-in this browser started" in refused.text

    # The same answer in another browser (no flow cookie) is refused too.
    elsewhere = httpx2.AsyncClient(transport=client._transport, base_url="http://testserver")
    async with elsewhere:
        assert (await elsewhere.get(back)).status_code == 400

    accepted = await client.get(back)
    assert accepted.status_code == 303, accepted.text
    # Once used, the state is spent: the same answer again (its flow cookie put back) is refused.
    replay = httpx2.AsyncClient(transport=client._transport, base_url="http://testserver")
    async with replay:
        url = await _start(replay)
        state = parse_qs(urlsplit(url).query)["state"][0]
        first = await _at_provider(url, sub)
        flow = replay.cookies.get("agora_idp_flow")
        assert (await replay.get(first)).status_code == 303
        replay.cookies.set("agora_idp_flow", str(flow), path="/sign-in/")
        again = await replay.get(first)
        assert again.status_code == 400 and state in first


async def test_a_tampered_nonce_is_refused(client: httpx2.AsyncClient, oidc_issuer: str) -> None:
    sub, _ = _person(oidc_issuer)
    url = await _start(client)
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    # The ID token is minted for another nonce than this browser's flow holds (a token
    # injected from another flow).
    query["nonce"] = f"tampered-{uuid.uuid4().hex}"
    back = await _at_provider(
        f"{parts.scheme}://{parts.netloc}{parts.path}?{urlencode(query)}", sub
    )
    refused = await client.get(back)
    assert refused.status_code == 400
    assert "could not be verified" in refused.text
    assert (await client.get("/v1/auth/session")).status_code == 401


async def test_an_organization_requires_its_provider(
    client: httpx2.AsyncClient,
    settings: Settings,
    oidc_issuer: str,
    github: tuple[GitHubDouble, str],
) -> None:
    domain = f"acme-{uuid.uuid4().hex[:6]}.example"
    owner, member = f"boss@{domain}", f"dev@{domain}"
    # The owner signs up with a password, links the provider, creates the organization.
    await sign_up_verified(client, settings, owner)
    owner_sub, _ = _person(oidc_issuer, email=owner)
    page = await client.post("/settings/sign-in/oidc/link", data={"csrf": _csrf(client)})
    url = page.text.split('id="continue-to-provider" href="')[1].split('"')[0].replace("&amp;", "&")
    assert (await client.get(await _at_provider(url, owner_sub))).status_code == 303
    double, _ = github
    owner_github = GitHubUser(
        id=uuid.uuid4().int % 10**9, login="boss", name="Boss",
        emails=[{"email": owner, "verified": True, "primary": True, "visibility": None}],
    )  # fmt: skip
    double.signed_in = owner_github
    page = await client.post("/settings/sign-in/github/link", data={"csrf": _csrf(client)})
    url = page.text.split('id="continue-to-provider" href="')[1].split('"')[0].replace("&amp;", "&")
    async with httpx2.AsyncClient(trust_env=False) as browser:
        back = urlsplit((await browser.get(url)).headers["location"])
    assert (await client.get(f"{back.path}?{back.query}")).status_code == 303
    org = await client.post(
        "/v1/organizations",
        json={"name": f"Acme {domain}"},
        headers={"X-CSRF-Token": _csrf(client)},
    )
    assert org.status_code == 201, org.text
    org_id = org.json()["data"]["id"]
    invitation = await client.post(
        f"/v1/organizations/{org_id}/invitations",
        json={"email": member, "role": "member"},
        headers={"X-CSRF-Token": _csrf(client)},
    )
    assert invitation.status_code == 201, invitation.text
    token = invitation.json()["data"]["token"]

    saved = await client.post(
        f"/organizations/{org_id}/sign-in-rule",
        data={"csrf": _csrf(client), "domain": domain, "provider": "oidc"},
    )
    assert saved.status_code == 303, saved.text
    shown = (await client.get(f"/organizations/{org_id}")).text
    assert f"Members with an address at @{domain} sign in with Acme SSO only" in shown

    # The member (password account) joins; from then on the password is refused, clearly.
    client.cookies.clear()
    await sign_up_verified(client, settings, member)
    joined = await client.post(
        "/v1/invitations/accept", json={"token": token}, headers={"X-CSRF-Token": _csrf(client)}
    )
    assert joined.status_code == 200, joined.text
    client.cookies.clear()
    refused = await client.post(
        "/v1/auth/sign-in", json={"email": member, "password": STRONG_PASSWORD}
    )
    assert refused.status_code == 403
    assert refused.json()["message"] == (
        f"Acme {domain} requires its members at @{domain} to sign in with Acme SSO: use the "
        "“Sign in with Acme SSO” button"
    )
    form = await client.post("/sign-in", data={"email": member, "password": STRONG_PASSWORD})
    assert form.status_code == 403 and "to sign in with Acme SSO" in form.text
    # … and so is a mailed sign-in link (the token stays unspent).
    assert (await client.post("/v1/auth/magic-link", json={"email": member})).status_code == 202
    _, link_token = last_link(settings, member, "sign-in link")
    by_link = await client.post("/v1/auth/magic-link/sign-in", json={"token": link_token})
    assert by_link.status_code == 403 and "to sign in with Acme SSO" in by_link.json()["message"]
    # GitHub is not the organization's provider: its identity with the member's address is not
    # linked by itself.
    double, _ = github
    double.signed_in = GitHubUser(
        id=uuid.uuid4().int % 10**9, login="dev", name="Dev",
        emails=[{"email": member, "verified": True, "primary": True, "visibility": None}],
    )  # fmt: skip
    assert (await _github_round(client)).status_code == 409
    # The organization's provider, with the member's verified address: linked and signed in
    # (the organization chose it for its domain; nothing else signs the member in).
    member_sub, _ = _person(oidc_issuer, email=member)
    assert (await _oidc_sign_in(client, member_sub)).status_code == 303
    assert (await _me(client))["email"] == member
    client.cookies.clear()
    assert (await _oidc_sign_in(client, member_sub)).status_code == 303

    # The owner's linked GitHub identity no longer signs in: the rule applies to the owner too.
    client.cookies.clear()
    double.signed_in = owner_github
    refused_github = await _github_round(client)
    assert refused_github.status_code == 403 and "sign in with Acme SSO" in refused_github.text
    client.cookies.clear()
    assert (await _oidc_sign_in(client, owner_sub)).status_code == 303

    # Lifting the rule: the password works again.
    lifted = await client.post(
        f"/organizations/{org_id}/sign-in-rule",
        data={"csrf": _csrf(client), "domain": "", "provider": "oidc"},
    )
    assert lifted.status_code == 303
    client.cookies.clear()
    back = await client.post(
        "/v1/auth/sign-in", json={"email": member, "password": STRONG_PASSWORD}
    )
    assert back.status_code == 200


async def _github_round(client: httpx2.AsyncClient) -> httpx2.Response:
    url = await _start(client, "/sign-in/github")
    async with httpx2.AsyncClient(trust_env=False) as browser:
        back = urlsplit((await browser.get(url)).headers["location"])
    return await client.get(f"{back.path}?{back.query}")


async def test_github_sign_up_and_sign_in_with_pkce(
    client: httpx2.AsyncClient, github: tuple[GitHubDouble, str]
) -> None:
    double, base_url = github
    number = uuid.uuid4().int % 10**9
    email = f"octo-{number}@people.example"
    double.signed_in = GitHubUser(
        id=number, login=f"octo{number}", name="Octo Cat",
        emails=[{"email": f"old-{email}", "verified": True, "primary": False, "visibility": None},
                {"email": email, "verified": True, "primary": True, "visibility": "private"}],
    )  # fmt: skip
    url = await _start(client, "/sign-in/github")
    query = parse_qs(urlsplit(url).query)
    assert url.startswith(f"{base_url}/login/oauth/authorize?")
    assert query["scope"] == ["read:user user:email"] and query["code_challenge_method"] == ["S256"]
    assert "nonce" not in query  # OAuth 2, no ID token
    async with httpx2.AsyncClient(trust_env=False) as browser:
        at_github = await browser.get(url)
    back = urlsplit(at_github.headers["location"])
    signed_up = await client.get(f"{back.path}?{back.query}")
    assert signed_up.status_code == 303, signed_up.text
    me = await _me(client)
    assert me["email"] == email and me["name"] == "Octo Cat"
    assert len(double.verifiers_seen[-1]) >= 43  # the PKCE verifier reached the token endpoint

    # Signed out and in again: the same account, found by GitHub's user id.
    client.cookies.clear()
    url = await _start(client, "/sign-in/github")
    async with httpx2.AsyncClient(trust_env=False) as browser:
        back = urlsplit((await browser.get(url)).headers["location"])
    assert (await client.get(f"{back.path}?{back.query}")).status_code == 303
    assert (await _me(client))["id"] == me["id"]


async def test_github_without_a_verified_primary_address_does_not_sign_up(
    client: httpx2.AsyncClient, github: tuple[GitHubDouble, str]
) -> None:
    double, _ = github
    number = uuid.uuid4().int % 10**9
    double.signed_in = GitHubUser(
        id=number, login=f"octo{number}", name="",
        emails=[{"email": f"u{number}@people.example", "verified": False, "primary": True,
                 "visibility": None}],
    )  # fmt: skip
    url = await _start(client, "/sign-in/github")
    async with httpx2.AsyncClient(trust_env=False) as browser:
        back = urlsplit((await browser.get(url)).headers["location"])
    refused = await client.get(f"{back.path}?{back.query}")
    assert refused.status_code == 403 and "GitHub did not confirm" in refused.text


async def test_a_provider_that_is_not_configured_is_not_found(client: httpx2.AsyncClient) -> None:
    assert (await client.get("/sign-in/google")).status_code == 404
    page = await client.get("/sign-in")
    assert 'id="sign-in-oidc"' in page.text and "Sign in with Acme SSO" in page.text
    assert 'id="sign-in-google"' not in page.text


async def test_only_owners_set_a_rule_they_are_not_locked_out_by(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    domain = f"solo-{uuid.uuid4().hex[:6]}.example"
    await sign_up_verified(client, settings, f"owner@{domain}")
    org = await client.post(
        "/v1/organizations",
        json={"name": f"Solo {domain}"},
        headers={"X-CSRF-Token": _csrf(client)},
    )
    org_id = org.json()["data"]["id"]

    async def rule(domain: str, provider: str) -> httpx2.Response:
        return await client.post(
            f"/organizations/{org_id}/sign-in-rule",
            data={"csrf": _csrf(client), "domain": domain, "provider": provider},
        )

    # The owner's own address is at the domain and the provider is not linked: refused.
    locked = await rule(domain, "oidc")
    assert locked.status_code == 409 and "link Acme SSO to your account first" in locked.text
    assert (await rule(domain, "google")).status_code == 400  # not configured here
    assert (await rule("not a domain", "oidc")).status_code == 400
    assert (await rule("elsewhere.example", "github")).status_code == 303

    invitation = await client.post(
        f"/v1/organizations/{org_id}/invitations",
        json={"email": f"admin@{domain}", "role": "admin"},
        headers={"X-CSRF-Token": _csrf(client)},
    )
    client.cookies.clear()
    await sign_up_verified(client, settings, f"admin@{domain}")
    joined = await client.post(
        "/v1/invitations/accept",
        json={"token": invitation.json()["data"]["token"]},
        headers={"X-CSRF-Token": _csrf(client)},
    )
    assert joined.status_code == 200
    assert (await rule("", "oidc")).status_code == 403  # admins may not


async def test_calls_to_the_provider_go_through_the_outbound_guard(
    app: FastAPI, client: httpx2.AsyncClient, settings: Settings
) -> None:
    """The provider on loopback is refused once loopback is no longer allowed
    (AGORA_OUTBOUND_ALLOW empty): discovery is never sent, the person gets a 503 without
    details, and no state is written."""
    app.state.settings = settings.with_changes(outbound_allow="")
    refused = await client.get("/sign-in/oidc")
    assert refused.status_code == 503
    assert "Signing in with Acme SSO failed (unreachable)" in refused.text
    assert "agora_idp_flow" not in refused.headers.get("set-cookie", "")


async def test_a_provider_sign_in_asks_for_the_passkey_when_the_account_does(
    client: httpx2.AsyncClient, oidc_issuer: str, db: Database
) -> None:
    """The passkey second step follows every first step: a provider's sign-in too (before, it
    signed in at once)."""
    sub, email = _person(oidc_issuer)
    assert (await _oidc_sign_in(client, sub)).status_code == 303
    made = await client.post("/settings/passkeys/recovery-codes", data={"csrf": _csrf(client)})
    assert made.status_code == 303, made.text
    shown = await client.get(made.headers["location"])  # shown once, on the next page
    codes = re.findall(r"<li><code>([A-Z0-9-]+)</code></li>", shown.text)
    assert codes, shown.text[:2000]
    async with db.transaction() as session:  # as if a passkey had been added and the step on
        await session.execute(
            update(User).where(User.email == email).values(passkey_second_step=True)
        )
    client.cookies.clear()
    url = await _start(client, "/sign-in/oidc?next=/history")
    page = await client.get(await _at_provider(url, sub))
    assert page.status_code == 200 and 'id="passkey-second-step"' in page.text
    assert "agora_session" not in page.headers.get("set-cookie", "")
    assert (await client.get("/v1/auth/session")).status_code == 401
    pending = re.search(r'name="token" value="([^"]+)"', page.text)
    assert pending is not None
    used = await client.post(
        "/sign-in/recovery-code",
        data={"token": pending.group(1), "code": codes[0], "next": "/history"},
    )
    assert used.status_code == 303 and used.headers["location"] == "/history"
    assert (await _me(client))["email"] == email
    async with db.transaction() as session:
        methods = (
            await session.scalars(
                select(BrowserSession.method).join(User).where(User.email == email)
            )
        ).all()
    # The session says both steps ("idp_microsoft+recovery" fits too: 40 characters).
    assert sorted(methods) == ["idp_oidc", "idp_oidc+recovery"]
