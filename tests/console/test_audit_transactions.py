"""Every audited action writes its row in the action's own transaction: rolled back, the action
leaves no row; committed, exactly one (so each case can fail). The actions run through the same
service functions the routes, pages and MCP tools call, with the callers' real principals."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, cast

import httpx2
import pytest
import stripe
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from agora.accounts import identities, passkeys
from agora.accounts import keys as account_keys
from agora.accounts import provisioning as identity
from agora.accounts import repository as identity_repo
from agora.accounts import service as accounts
from agora.accounts.providers import Claims, Provider
from agora.audit import service as audit
from agora.auth import service as auth
from agora.auth.principal import Principal
from agora.billing import caps, payouts, promotions, webhook
from agora.billing.stripe_api import ConnectState, TransferResult
from agora.console import jobs as console_jobs
from agora.console import organizations as console_organizations
from agora.console import users as console_users
from agora.credits import ledger
from agora.developer import service as developer
from agora.developer.service import Probe
from agora.kit.attempts import AttemptLimiter
from agora.kit.db import Database
from agora.kit.outbound import OutboundPolicy
from agora.kit.security import new_token
from agora.kit.timeutil import utcnow
from agora.models import (
    AccountDeletion,
    CreditPurchase,
    DataExport,
    Job,
    Passkey,
    Payout,
    RegistryQuarantine,
)
from agora.notifications import service as notifications
from agora.notifications.mailer import build_sender
from agora.oauth import clients as oauth_clients
from agora.oauth import device as oauth_device
from agora.oauth import service as oauth
from agora.oauth.rfc import DEVICE_CODE_GRANT_TYPE
from agora.organizations import service as organizations
from agora.payments import stuck
from agora.registry import service as registry
from agora.settings import Settings
from agora.users import privacy
from tests.conftest import MakeUser, TestUser
from tests.support.webauthn import SoftAuthenticator

SCHEMA = {"input_data": [{"id": "text", "type": "string", "name": "Text"}]}


class Rollback(Exception):
    pass


@dataclass
class World:
    db: Database
    settings: Settings
    owner: TestUser
    member: TestUser
    outsider: TestUser
    admin: TestUser
    org_id: uuid.UUID
    org_slug: str
    org_workspace: uuid.UUID
    agent_id: str = ""
    invitation: str = ""
    quarantined: str = ""
    stuck_job: str = ""
    oauth_client: str = ""
    # In process (no Redis): the passkey sign-ins and recovery codes spend and check budgets.
    attempts: AttemptLimiter = field(default_factory=lambda: AttemptLimiter(None))

    async def principal(
        self, session: AsyncSession, user: TestUser, *, in_org: bool = False
    ) -> Principal:
        return await auth.authenticate(
            session, user.api_key, organization_slug=self.org_slug if in_org else None
        )

    def ctx(self) -> accounts.Context:
        return accounts.Context(
            settings=self.settings,
            mailer=cast(Any, None),  # none of these actions mails by address
            attempts=self.attempts,
            client_address="192.0.2.1",
        )

    def operator(self) -> audit.Actor:
        return audit.Actor("admin", self.admin.user_id)


Action = Callable[[AsyncSession, World], Awaitable[object]]


async def _sign_in(s: AsyncSession, w: World) -> object:
    user = await identity_repo.user_by_id(s, w.member.user_id)
    assert user is not None
    return await accounts.start_session(s, w.ctx(), user, "password", None)


async def _key_created(s: AsyncSession, w: World) -> object:
    return await account_keys.issue_key(
        s,
        w.settings,
        await w.principal(s, w.member),
        name="k",
        expires_at=None,
        scopes=None,
        workspace_id=None,
    )


async def _key_revoked(s: AsyncSession, w: World) -> object:
    principal = await w.principal(s, w.member)
    return await account_keys.revoke_key(s, principal, str(principal.key_id))


async def _session_revoked(s: AsyncSession, w: World) -> object:
    return await accounts.sign_out_everywhere(s, await w.principal(s, w.member))


async def _role_changed(s: AsyncSession, w: World) -> object:
    owner = await w.principal(s, w.owner)
    return await organizations.change_role(s, owner, str(w.org_id), str(w.member.user_id), "admin")


async def _member_removed(s: AsyncSession, w: World) -> object:
    owner = await w.principal(s, w.owner)
    return await organizations.remove(s, owner, str(w.org_id), str(w.member.user_id))


async def _invitation_sent(s: AsyncSession, w: World) -> object:
    return await organizations.invite(
        s,
        w.ctx(),
        await w.principal(s, w.owner),
        str(w.org_id),
        email=None,
        role="member",
        max_uses=None,
        expires_in_days=None,
    )


async def _invitation_accepted(s: AsyncSession, w: World) -> object:
    return await organizations.accept(s, await w.principal(s, w.outsider), w.invitation)


async def _granted(s: AsyncSession, w: World) -> object:
    return await console_users.grant_credits(
        s, w.operator(), str(w.member.user_id), amount=2, reason="ticket 1"
    )


async def _job_refunded(s: AsyncSession, w: World) -> object:
    job = Job(
        workspace_id=w.member.workspace_id,
        user_id=w.member.user_id,
        agent_id=uuid.UUID(w.agent_id),
        name="completed",
        status="COMPLETED",
        job_type="PAID",
        identifier_from_purchaser=uuid.uuid4().hex[:16],
        price=1_000_000,
        fee=0,
        settled=True,
    )
    s.add(job)
    await s.flush()
    return await console_jobs.refund_job(s, w.operator(), str(job.id), "ticket 2")


async def _promotion_created(s: AsyncSession, w: World) -> object:
    code = "CASE-" + uuid.uuid4().hex[:8]
    return await promotions.create_code(s, w.operator(), code=code, bonus_credits=1)


async def _promotion_changed(s: AsyncSession, w: World) -> object:
    row = await _promotion_created(s, w)
    return await promotions.set_active(s, w.operator(), str(row.id), False)  # type: ignore[attr-defined]


async def _account_connected(s: AsyncSession, w: World) -> object:
    state = ConnectState("acct_" + uuid.uuid4().hex[:12], False, False, ["external_account"], None)
    return await payouts.record_connected(s, await w.principal(s, w.outsider), state)


async def _payout(s: AsyncSession, w: World, **values: Any) -> Payout:
    """A payout a run claimed (billing/worker.py), for the member's earnings account."""
    row = Payout(
        id=uuid.uuid4(), account_key=f"user:{w.member.user_id}", owner_user_id=w.member.user_id,
        period="2026-11", currency="eur", attempt=int(uuid.uuid4().int % 1_000_000) + 1,
        amount=500, amount_reversed=0, stripe_account_id="acct_case",
        **({"status": "pending"} | values),
    )  # fmt: skip
    s.add(row)
    await s.flush()
    return row


async def _payout_paid(s: AsyncSession, w: World) -> object:
    row = await _payout(s, w)
    return await payouts.record(s, row.id, TransferResult("tr_" + uuid.uuid4().hex[:12], None))


async def _payout_failed(s: AsyncSession, w: World) -> object:
    row = await _payout(s, w)
    return await payouts.record(s, row.id, TransferResult(None, "balance_insufficient: short"))


async def _payout_reversed(s: AsyncSession, w: World) -> object:
    transfer = "tr_" + uuid.uuid4().hex[:12]
    await _payout(s, w, status="paid", stripe_transfer_id=transfer)
    event = {
        "id": "evt_" + uuid.uuid4().hex,
        "type": "transfer.reversed",
        "data": {"object": {"id": transfer, "object": "transfer", "amount": 500,
                            "amount_reversed": 500, "currency": "eur"}},
    }  # fmt: skip
    assert await webhook.apply_event(s, stripe.Event.construct_from(event, None)) == "reversed"
    return transfer


def _intent(intent_id: str, amount: int) -> dict[str, Any]:
    return {
        "id": intent_id,
        "amount": amount,
        "currency": "eur",
        "latest_charge": "ch_" + intent_id,
    }


async def _purchase(s: AsyncSession, w: World, status: str) -> str:
    intent_id = "pi_" + uuid.uuid4().hex[:10]
    s.add(
        CreditPurchase(
            workspace_id=w.member.workspace_id,
            user_id=w.member.user_id,
            credits=5_000_000,
            price=500,
            currency="eur",
            status=status,
            stripe_payment_intent_id=intent_id,
            stripe_customer_id="cus_1",
            stripe_charge_id="ch_" + intent_id,
        )
    )
    await s.flush()
    return intent_id


async def _purchased(s: AsyncSession, w: World) -> object:
    intent_id = await _purchase(s, w, "pending")
    event = {
        "id": "evt_" + uuid.uuid4().hex,
        "type": "payment_intent.succeeded",
        "data": {"object": _intent(intent_id, 500)},
    }
    assert await webhook.apply_event(s, stripe.Event.construct_from(event, None)) == "granted"
    return intent_id


async def _refunded(s: AsyncSession, w: World) -> object:
    intent_id = await _purchase(s, w, "paid")
    await ledger.grant(
        s, workspace_id=w.member.workspace_id, amount=5_000_000, kind="purchase", memo="bought"
    )
    event = {
        "id": "evt_" + uuid.uuid4().hex,
        "type": "charge.refunded",
        "data": {
            "object": {"id": "ch_" + intent_id, "payment_intent": intent_id, "amount_refunded": 500}
        },
    }
    assert await webhook.apply_event(s, stripe.Event.construct_from(event, None)) == "clawed_back"
    return intent_id


async def _cap_changed(s: AsyncSession, w: World) -> object:
    owner = await w.principal(s, w.owner, in_org=True)
    return await caps.set_cap(
        s, owner, user_id=str(w.member.user_id), project_id=None, monthly_limit=5
    )


async def _submitted(s: AsyncSession, w: World) -> object:
    return await developer.submit(
        s,
        await w.principal(s, w.member),
        w.settings,
        {"name": "Second agent", "description": "Does things", "price": 0},
        Probe("http://127.0.0.1:9/other", True, None, SCHEMA),
    )


async def _approved(s: AsyncSession, w: World) -> object:
    agent = await developer.get_any(s, w.agent_id)
    checked = Probe(agent.base_url, True, None, SCHEMA)
    return await developer.approve(s, w.settings, w.agent_id, checked, "fine")


async def _rejected(s: AsyncSession, w: World) -> object:
    return await developer.reject(s, w.agent_id, "not yet")


async def _overridden(s: AsyncSession, w: World) -> object:
    return await developer.override(s, w.agent_id, {"name": "Renamed"})


async def _webhook(s: AsyncSession, w: World) -> object:
    return await notifications.set_webhook(
        s,
        await w.principal(s, w.member),
        "https://hooks.example.com/agora",
        OutboundPolicy.from_setting(w.settings.outbound_allow),
    )


async def _suspended(s: AsyncSession, w: World) -> object:
    return await console_users.suspend(s, w.operator(), str(w.outsider.user_id), "abuse")


async def _unsuspended(s: AsyncSession, w: World) -> object:
    user = await identity_repo.user_by_id(s, w.member.user_id)
    assert user is not None
    user.suspended_at = user.created_at  # suspended before (the prepared state)
    await s.flush()
    return await console_users.unsuspend(s, w.operator(), str(w.member.user_id))


async def _org_suspended(s: AsyncSession, w: World) -> object:
    return await console_organizations.suspend_organization(s, w.operator(), str(w.org_id), "abuse")


async def _org_unsuspended(s: AsyncSession, w: World) -> object:
    org = await identity_repo.organization_by_id(s, w.org_id)
    assert org is not None
    org.suspended_at = org.created_at  # suspended before (the prepared state)
    await s.flush()
    return await console_organizations.unsuspend_organization(s, w.operator(), str(w.org_id))


async def _signin_failures(s: AsyncSession, w: World) -> object:
    # What accounts.service's after-rollback work writes (its own short transaction after the
    # refused request's unit rolled back: tests/console/test_signin_failures.py).
    return await audit.record(
        s,
        "signin.failures",
        actor=audit.SYSTEM,
        target_kind="user",
        target_id=w.member.user_id,
        details={"email": w.member.email, "address": "192.0.2.1", "crossed": ["account"]},
    )


async def _registry_retried(s: AsyncSession, w: World) -> object:
    return await registry.retry_quarantined(s, w.settings, w.operator(), w.quarantined)


async def _registry_dismissed(s: AsyncSession, w: World) -> object:
    return await registry.dismiss_quarantined(s, w.operator(), w.quarantined, "noise")


async def _payment_retried(s: AsyncSession, w: World) -> object:
    return await stuck.retry_refund(s, w.operator(), w.stuck_job)


OAUTH_REDIRECT = "http://127.0.0.1:33418/callback"
OAUTH_METADATA = {
    "client_name": "Audited app",
    "redirect_uris": [OAUTH_REDIRECT],
    "token_endpoint_auth_method": "none",
    "grant_types": ["authorization_code", "refresh_token", DEVICE_CODE_GRANT_TYPE],
}


async def _oauth_registered(s: AsyncSession, w: World) -> object:
    return await oauth_clients.register_client(s, oauth_clients.checked_metadata(OAUTH_METADATA))


async def _oauth_request(s: AsyncSession, w: World) -> oauth.AuthorizationRequest:
    params = {
        "client_id": w.oauth_client, "redirect_uri": OAUTH_REDIRECT, "response_type": "code",
        "code_challenge": "c" * 43, "code_challenge_method": "S256", "scope": "read",
    }  # fmt: skip
    return await oauth.check_authorization_request(s, params, "http://testserver")


async def _oauth_answer(s: AsyncSession, w: World, *, allow: bool) -> object:
    return await oauth.answer_authorization(
        s, await _oauth_request(s, w), await w.principal(s, w.member), allow=allow,
        workspace=str(w.member.workspace_id),
    )  # fmt: skip


async def _oauth_consented(s: AsyncSession, w: World) -> object:
    return await _oauth_answer(s, w, allow=True)


async def _oauth_denied(s: AsyncSession, w: World) -> object:
    return await _oauth_answer(s, w, allow=False)


async def _oauth_device_approved(s: AsyncSession, w: World) -> object:
    client = await oauth_clients.authenticate_client(s, w.oauth_client, None, via_basic=False)
    started = await oauth_device.start_device(s, client, "read", "http://testserver")
    return await oauth_device.answer_device(
        s, started["user_code"], await w.principal(s, w.member), allow=True,
        workspace=str(w.member.workspace_id),
    )  # fmt: skip


async def _oauth_grant_revoked(s: AsyncSession, w: World) -> object:
    principal = await w.principal(s, w.member)
    request = await _oauth_request(s, w)
    await oauth.approve(s, principal, w.member.workspace_id, request)
    [grant] = await oauth.authorized_apps(s, w.member.user_id)
    return await oauth.revoke_grant_of(s, principal, str(grant.grant.id))


# ---- your data (users/privacy.py) ----------------------------------------------------------


async def _export_requested(s: AsyncSession, w: World) -> object:
    return await privacy.request_export(s, await w.principal(s, w.member))


async def _export_downloaded(s: AsyncSession, w: World) -> object:
    plaintext, token_hash = new_token()
    s.add(
        DataExport(
            user_id=w.member.user_id, state="ready", storage_key="exports/x.zip", size=1,
            token_hash=token_hash, expires_at=utcnow() + timedelta(hours=1),
        )
    )  # fmt: skip
    await s.flush()
    return await privacy.take_export(s, await w.principal(s, w.member), plaintext)


async def _deletion_requested(s: AsyncSession, w: World) -> object:
    principal = await w.principal(s, w.member)
    return await privacy.request_deletion(s, principal, w.settings, build_sender(w.settings))


async def _deletion_confirmed(s: AsyncSession, w: World) -> object:
    plaintext, token_hash = new_token()
    s.add(
        AccountDeletion(
            user_id=w.member.user_id, state="requested", token_hash=token_hash,
            token_expires_at=utcnow() + timedelta(hours=1),
        )
    )  # fmt: skip
    await s.flush()
    return await privacy.confirm_deletion(s, plaintext, w.settings, build_sender(w.settings))


async def _deletion_cancelled(s: AsyncSession, w: World) -> object:
    s.add(AccountDeletion(user_id=w.member.user_id, state="scheduled"))
    await s.flush()
    return await privacy.cancel_deletion(s, await w.principal(s, w.member))


async def _erased(s: AsyncSession, w: World) -> object:
    now = utcnow()
    s.add(AccountDeletion(user_id=w.outsider.user_id, state="scheduled", erase_after=now))
    await s.flush()
    erased = await privacy.erase_account(s, w.outsider.user_id, now)
    assert erased is not None
    return erased


_SSO = Provider("oidc", "SSO", "https://sso.example", "client", "secret")


async def _identity_linked(s: AsyncSession, w: World) -> object:
    principal = await w.principal(s, w.member)
    subject = uuid.uuid4().hex
    claims = Claims(_SSO.issuer, subject, "m@sso.example", email_verified=True, name="M")
    return await identities.link(s, principal.user_id, principal, _SSO, claims)


async def _identity_unlinked(s: AsyncSession, w: World) -> object:
    await _identity_linked(s, w)  # two: one stays, a way to sign in
    linked = await _identity_linked(s, w)
    return await identities.unlink(s, await w.principal(s, w.member), str(linked.id))  # type: ignore[attr-defined]


async def _sign_in_rule(s: AsyncSession, w: World) -> object:
    owner = await w.principal(s, w.owner)
    return await organizations.set_sign_in_rule(
        s, w.settings, owner, str(w.org_id), domain="", provider=""
    )


# ---- passkeys and recovery codes (accounts/passkeys.py) --------------------------------------


async def _browser(s: AsyncSession, w: World) -> Principal:
    """The member signed in with the password just now: a browser session's principal, as the
    session cookie authenticates it (auth.authenticate_session)."""
    user = await identity_repo.user_by_id(s, w.member.user_id)
    assert user is not None
    started = await accounts.start_session(s, w.ctx(), user, "password", None)
    return await auth.authenticate_session(s, started.token)


async def _registered(s: AsyncSession, w: World) -> tuple[Principal, SoftAuthenticator, Passkey]:
    """A new passkey of the member's (a new software authenticator), registered as the route
    does: the options, then the authenticator's answer."""
    principal = await _browser(s, w)
    rp = passkeys.relying_party(w.settings)
    authenticator = SoftAuthenticator(rp.origin, rp.id)
    options = await passkeys.registration_options(s, w.settings, principal)
    passkey = await passkeys.register(
        s, w.settings, principal, name="Laptop", credential=authenticator.create(options)
    )
    return principal, authenticator, passkey


async def _passkey_added(s: AsyncSession, w: World) -> object:
    return (await _registered(s, w))[2]


async def _passkey_removed(s: AsyncSession, w: World) -> object:
    principal, _authenticator, passkey = await _registered(s, w)
    await passkeys.remove(s, w.settings, principal, str(passkey.id))
    return passkey.id


async def _passkey_used(s: AsyncSession, w: World) -> object:
    _principal, authenticator, _passkey = await _registered(s, w)
    options = await passkeys.sign_in_options(s, w.ctx())
    return await passkeys.sign_in(s, w.ctx(), authenticator.get(options), None)


async def _passkey_second_step(s: AsyncSession, w: World) -> object:
    principal, _authenticator, _passkey = await _registered(s, w)
    return await passkeys.set_second_step(s, w.settings, principal, True)


async def _recovery_codes_created(s: AsyncSession, w: World) -> object:
    return await passkeys.new_recovery_codes(s, w.settings, await _browser(s, w))


def _no_rollback_work(work: object) -> None:
    raise AssertionError("a right recovery code counts no failure")


async def _recovery_code_used(s: AsyncSession, w: World) -> object:
    codes = await passkeys.new_recovery_codes(s, w.settings, await _browser(s, w))
    user = await identity_repo.user_by_id(s, w.member.user_id)
    assert user is not None
    pending, _options = await passkeys.begin_second_step(s, w.settings, user, "password")
    return await passkeys.sign_in_with_recovery_code(
        s, w.ctx(), _no_rollback_work, token=pending, code=codes[0], previous_cookie=None
    )


ACTIONS: dict[str, list[tuple[str, Action]]] = {
    "auth.sign_in": [("auth.sign_in", _sign_in)],
    "auth.identity_linked": [("auth.identity_linked", _identity_linked)],
    "auth.identity_unlinked": [("auth.identity_unlinked", _identity_unlinked)],
    "org.sign_in_rule": [("org.sign_in_rule", _sign_in_rule)],
    "key.created": [("key.created", _key_created)],
    "key.revoked": [("key.revoked", _key_revoked)],
    "session.revoked": [("session.revoked", _session_revoked)],
    "org.role_changed": [("org.role_changed", _role_changed)],
    "org.member_removed": [("org.member_removed", _member_removed)],
    "org.invitation_sent": [("org.invitation_sent", _invitation_sent)],
    "org.invitation_accepted": [("org.invitation_accepted", _invitation_accepted)],
    "org.member_added": [("org.member_added", _invitation_accepted)],
    "credits.granted": [("credits.granted", _granted)],
    "job.refunded": [("job.refunded", _job_refunded)],
    "promotion.created": [("promotion.created", _promotion_created)],
    "promotion.changed": [("promotion.changed", _promotion_changed)],
    "credits.purchased": [("credits.purchased", _purchased)],
    "credits.refunded": [("credits.refunded", _refunded)],
    "payouts.account_connected": [("payouts.account_connected", _account_connected)],
    "payouts.paid": [("payouts.paid", _payout_paid)],
    "payouts.failed": [("payouts.failed", _payout_failed)],
    "payouts.reversed": [("payouts.reversed", _payout_reversed)],
    "cap.changed": [("cap.changed", _cap_changed)],
    "agent.submitted": [("agent.submitted", _submitted)],
    "agent.approved": [("agent.approved", _approved)],
    "agent.rejected": [("agent.rejected", _rejected)],
    "agent.overridden": [("agent.overridden", _overridden)],
    "webhook.changed": [("webhook.changed", _webhook)],
    "user.suspended": [("user.suspended", _suspended)],
    "user.unsuspended": [("user.unsuspended", _unsuspended)],
    "org.suspended": [("org.suspended", _org_suspended)],
    "org.unsuspended": [("org.unsuspended", _org_unsuspended)],
    "signin.failures": [("signin.failures", _signin_failures)],
    "registry.retried": [("registry.retried", _registry_retried)],
    "registry.dismissed": [("registry.dismissed", _registry_dismissed)],
    "payment.retried": [("payment.retried", _payment_retried)],
    "oauth.client_registered": [("oauth.client_registered", _oauth_registered)],
    "oauth.consented": [("oauth.consented", _oauth_consented)],
    "oauth.denied": [("oauth.denied", _oauth_denied)],
    "oauth.device_approved": [("oauth.device_approved", _oauth_device_approved)],
    "oauth.grant_revoked": [("oauth.grant_revoked", _oauth_grant_revoked)],
    "account.export_requested": [("account.export_requested", _export_requested)],
    "account.export_downloaded": [("account.export_downloaded", _export_downloaded)],
    "account.deletion_requested": [("account.deletion_requested", _deletion_requested)],
    "account.deletion_confirmed": [("account.deletion_confirmed", _deletion_confirmed)],
    "account.deletion_cancelled": [("account.deletion_cancelled", _deletion_cancelled)],
    "account.erased": [("account.erased", _erased)],
    "passkey.added": [("passkey.added", _passkey_added)],
    "passkey.removed": [("passkey.removed", _passkey_removed)],
    "passkey.used": [("passkey.used", _passkey_used)],
    "passkey.second_step": [("passkey.second_step", _passkey_second_step)],
    "recovery_codes.created": [("recovery_codes.created", _recovery_codes_created)],
    "recovery_code.used": [("recovery_code.used", _recovery_code_used)],
}


def test_every_action_has_a_case() -> None:
    assert set(ACTIONS) == set(audit.ACTIONS)


async def _world(
    app: FastAPI, client: httpx2.AsyncClient, make_user: MakeUser, admin: TestUser
) -> World:
    db: Database = app.state.db
    owner, member, outsider = await make_user(), await make_user(), await make_user()
    async with db.transaction() as session:
        users = [await identity_repo.user_by_id(session, u.user_id) for u in (owner, member)]
        org, workspace = await identity.create_organization(
            session,
            slug="audited",
            name="Audited",
            owner=users[0],  # type: ignore[arg-type]
        )
        await identity.add_member(session, org=org, user=users[1], role="member")  # type: ignore[arg-type]
    world = World(
        db, app.state.settings, owner, member, outsider, admin, org.id, "audited", workspace.id
    )
    async with db.transaction() as session:
        agent = await _submitted(session, world)
        world.agent_id = str(agent.id)  # type: ignore[attr-defined]
        _token, plaintext, _url = await _invitation_sent(session, world)  # type: ignore[misc]
        world.invitation = plaintext
        entry = RegistryQuarantine(
            source="s" * 64,
            source_url="http://127.0.0.1:9/registry",
            entry_key="agentIdentifier:broken",
            reason="apiBaseUrl: not http(s)",
            entry={"agentIdentifier": "broken", "apiBaseUrl": "ftp://x", "name": "Broken"},
        )
        job = Job(
            workspace_id=member.workspace_id,
            user_id=member.user_id,
            agent_id=agent.id,  # type: ignore[attr-defined]
            name="paid",
            status="FAILED",
            job_type="PAID",
            identifier_from_purchaser="a" * 16,
            payment_backend="masumi",
            blockchain_identifier="bc-1",
            on_chain_status="FundsLocked",
            payment={"purchased": True, "refundStuck": {"error": "refused"}},
        )
        session.add_all([entry, job])
        await session.flush()
        world.quarantined, world.stuck_job = str(entry.id), str(job.id)
        registered = await _oauth_registered(session, world)
        world.oauth_client = registered["client_id"]  # type: ignore[index]
    return world


async def _count(client: httpx2.AsyncClient, admin: TestUser, action: str) -> int:
    response = await client.get(
        "/v1/admin/audit-events", params={"action": action}, headers=admin.bearer_headers
    )
    assert response.status_code == 200, response.text
    total: int = response.json()["meta"]["pagination"]["total"]
    return total


@pytest.mark.parametrize("action", sorted(ACTIONS))
async def test_a_rolled_back_action_leaves_no_row(
    action: str,
    app: FastAPI,
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    admin: TestUser,
) -> None:
    world = await _world(app, client, make_user, admin)
    before = await _count(client, admin, action)
    [(expected, perform)] = ACTIONS[action]
    try:
        async with world.db.transaction() as session:
            await perform(session, world)
            raise Rollback
    except Rollback:
        pass
    assert await _count(client, admin, expected) == before
    async with world.db.transaction() as session:
        await perform(session, world)
    assert await _count(client, admin, expected) == before + 1
