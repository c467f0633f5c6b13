"""Developer listings: submit, edit, withdraw, review, override.

Lifecycle of a submitted agent (``review_state`` beside the catalogue ``status``):

    submit ──► PENDING / pending (hidden) ──approve──► VERIFIED / approved (listed)
                     │                                   │ new baseUrl or price
                     └──reject──► REVOKED / rejected      └──► PENDING / pending (hidden)
    any edit of a rejected agent resubmits it (PENDING / pending); withdraw → REVOKED / withdrawn

The actions that check the agent live (submit, an edit of the base URL, approve) take the
request's ``Unit`` and run their phases themselves (``probe_and_submit``, ``probe_and_update``,
``probe_and_approve``): the reads, the MIP-003 check with no transaction open
(``unit.call_out``), then the write (``submit``, ``update``, ``approve``). The published columns
(name, description, tags, image, is_shown) are always derived by ``listings.publish`` from the
submitted listing and the admin's overrides, so an override survives edits, re-probes and
registry re-imports. A developer's figures are developer/stats.py.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from agora.a2a.client import A2aClient, A2aError, Card
from agora.a2a.client import input_schema as a2a_input_schema
from agora.a2a.credentials import seal
from agora.agents import service as agents
from agora.agents import versions
from agora.agents.schemas import AGENT_STATUSES
from agora.agents.service import Probe
from agora.audit import service as audit
from agora.auth.principal import Principal
from agora.developer import certification
from agora.developer import repository as repo
from agora.developer.listings import (
    OVERRIDABLE,
    back_to_review,
    category_ids,
    clean_price,
    clean_tags,
    link,
    listing_text,
    publish,
    set_price,
    snapshot,
)
from agora.kit.errors import BadRequest, Conflict, Forbidden
from agora.kit.fields import trimmed
from agora.kit.ids import fetch_by_id
from agora.kit.pagination import PageParams
from agora.kit.timeutil import utcnow
from agora.kit.units import Unit
from agora.mip003.client import Mip003Client, validate_base_url
from agora.models import Agent
from agora.models.statuses import (
    AgentCheckKind,
    AgentProtocol,
    AgentSource,
    AgentStatus,
    ReviewState,
)
from agora.notifications import notify
from agora.settings import Settings

PENDING, APPROVED, REJECTED, WITHDRAWN = (
    ReviewState.PENDING,
    ReviewState.APPROVED,
    ReviewState.REJECTED,
    ReviewState.WITHDRAWN,
)
# Each submission makes Agora call a URL the submitter chose; a cap keeps that bounded.
MAX_AGENTS_PER_OWNER = 100


# ---- live checks (no transaction open) -----------------------------------------------------


async def probe(client: Mip003Client, base_url: str) -> Probe:
    """The live MIP-003 check (``agents.probe``) of a developer's base URL; a failure is a 400
    naming baseUrl. Call it with no transaction open (a slow agent must not hold a lock)."""
    found = await agents.probe(client, base_url)
    if found.error is not None:
        raise BadRequest.field(
            "baseUrl", f"{found.base_url} failed the MIP-003 check: {found.error}"
        )
    return found


async def probe_for_review(client: Mip003Client, agent_id: str, base_url: str) -> Probe:
    """For an approval: the live check of the agent's current base URL (no transaction open)."""
    try:
        return await probe(client, base_url)
    except BadRequest as exc:
        raise BadRequest(f"Agent {agent_id} failed its check: {exc.message}") from exc


# ---- developer ------------------------------------------------------------------------------


def require_developer(principal: Principal) -> None:
    if principal.key_kind == "coworker":
        raise Forbidden("Coworker keys cannot list agents; use a user key")


async def get_owned(
    session: AsyncSession, principal: Principal, agent_id: str, *, for_update: bool = False
) -> Agent:
    owner = agents.owned_by(principal)
    return await fetch_by_id(
        agent_id, "Agent", lambda parsed: repo.owned(session, parsed, owner, for_update=for_update)
    )


async def ensure_room(session: AsyncSession, principal: Principal) -> None:
    """Refuse a submission beyond ``MAX_AGENTS_PER_OWNER`` live (not withdrawn) agents, before
    anything is probed (in the read phase)."""
    require_developer(principal)
    live = await agents.count(session, agents.owned_by(principal), repo.not_withdrawn())
    if live >= MAX_AGENTS_PER_OWNER:
        raise Conflict(
            f"You already list {live} agents (at most {MAX_AGENTS_PER_OWNER}); withdraw one first"
        )


async def probe_and_submit(
    unit: Unit,
    principal: Principal,
    settings: Settings,
    body: dict[str, Any],
    client: Mip003Client,
) -> Agent:
    """Submit an agent (the developer API and page): room for it (read phase), its base URL
    checked live and the conformance suite run with nothing held, then the write (``submit``)
    and the suite's result (kept whether it passed or not: review shows it)."""
    await ensure_room(await unit.session(), principal)
    checked = await unit.call_out(probe(client, body["baseUrl"]))
    results = await unit.call_out(certification.run(client, settings, checked.base_url, paid=False))
    session = await unit.write()
    agent = await submit(session, principal, settings, body, checked)
    await certification.record(session, settings, agent.id, AgentCheckKind.SUBMIT, results)
    return agent


async def submit(
    session: AsyncSession,
    principal: Principal,
    settings: Settings,
    body: dict[str, Any],
    checked: Probe,
) -> Agent:
    require_developer(principal)
    price = clean_price(body.get("price", 0))
    listing = listing_text(body)
    ids = await category_ids(session, body.get("categories", []))
    now = utcnow()
    agent = Agent(
        base_url=checked.base_url,
        status=AgentStatus.PENDING,
        source=AgentSource.DEVELOPER,
        owner_user_id=principal.user_id,
        owner_organization_id=principal.organization_id,
        review_state=PENDING,
        review_note=None,
        listing=listing,
        admin_override={},
        input_schema=checked.input_schema,
        last_checked_at=now,
        name=listing["name"],
        pending_changelog=versions.clean_changelog(body.get("changelog")),
    )
    set_price(agent, price, settings)
    publish(agent)
    await agents.add(session, agent, ids)
    await agents.record_check(session, agent.id, AgentCheckKind.SUBMIT, checked)
    await audit.record(
        session,
        "agent.submitted",
        actor=principal,
        target_kind="agent",
        target_id=agent.id,
        workspace_id=principal.workspace_id,
        details={"name": agent.name, "baseUrl": agent.base_url, "price": price},
    )
    return agent


# ---- A2A agents (docs/a2a.md) ----------------------------------------------------------------


async def read_card(client: A2aClient, url: str, field: str = "agentCardUrl") -> Card:
    """The live A2A check: the Agent Card read and parsed (a JSON-RPC interface, a name); a
    failure is a 400 naming ``field``. No transaction open."""
    try:
        checked = validate_base_url(url)
    except ValueError as exc:
        raise BadRequest.field(field, str(exc)) from exc
    try:
        return await client.read_card(checked)
    except A2aError as exc:
        raise BadRequest.field(field, f"{checked} failed the A2A check: {exc.message}") from exc


def card_probe(card: Card) -> Probe:
    """What the catalogue records of a card check (available: the card was read and usable)."""
    return Probe(card.url, available=True, input_schema=a2a_input_schema(card))


async def read_card_and_submit(
    unit: Unit,
    principal: Principal,
    settings: Settings,
    body: dict[str, Any],
    client: A2aClient,
) -> Agent:
    """Submit an A2A agent by its card: room for it (read phase), the card read live with
    nothing held, then the write. The MIP-003 conformance suite does not apply (docs/a2a.md)."""
    await ensure_room(await unit.session(), principal)
    card = await unit.call_out(read_card(client, body["agentCardUrl"]))
    return await submit_a2a(await unit.write(), principal, settings, body, card)


async def submit_a2a(
    session: AsyncSession,
    principal: Principal,
    settings: Settings,
    body: dict[str, Any],
    card: Card,
) -> Agent:
    given = {k: v for k, v in body.items() if k not in ("agentCardUrl", "credential")}
    given.setdefault("name", card.card.name[:200])
    given.setdefault("description", card.card.description[:10_000])
    agent = await submit(session, principal, settings, given, card_probe(card))
    agent.protocol = AgentProtocol.A2A
    agent.a2a_card = card.as_json
    if body.get("credential"):
        agent.a2a_credential = seal(
            settings.resolved_secret_key(), str(agent.id), body["credential"]
        )
    await session.flush()
    return agent


async def changed_base_url(
    session: AsyncSession, principal: Principal, agent_id: str, base_url: str
) -> str | None:
    """For an edit, in the read phase: the new base URL to check live, or None when it did not
    change. Ownership is checked here, so a stranger's edit probes nothing."""
    url = agents.check_base_url(base_url)
    owned = await get_owned(session, principal, agent_id)
    if url != owned.base_url and owned.protocol == AgentProtocol.A2A:
        raise BadRequest.field(
            "baseUrl", "an A2A agent's Agent Card URL cannot change; withdraw it and submit again"
        )
    return None if url == owned.base_url else url


async def probe_and_update(
    unit: Unit,
    principal: Principal,
    settings: Settings,
    agent_id: str,
    given: dict[str, Any],
    client: Mip003Client,
) -> Agent:
    """Edit an agent (the developer API's PATCH and the edit page): a new base URL is checked
    live with nothing held (read phase: is it new?), then the write (``update``)."""
    require_developer(principal)
    url = None
    if "baseUrl" in given:
        url = await changed_base_url(await unit.session(), principal, agent_id, given["baseUrl"])
    checked = None if url is None else await unit.call_out(probe(client, url))
    results = None
    if checked is not None:  # a new base URL: the suite runs again
        results = await unit.call_out(
            certification.run(client, settings, checked.base_url, paid=False)
        )
    session = await unit.write()
    agent = await update(session, principal, settings, agent_id, given, checked)
    if results is not None:
        await certification.record(session, settings, agent.id, AgentCheckKind.SUBMIT, results)
    return agent


async def update(
    session: AsyncSession,
    principal: Principal,
    settings: Settings,
    agent_id: str,
    given: dict[str, Any],
    checked: Probe | None,
) -> Agent:
    """Apply a PATCH. ``checked`` is the live check of a new baseUrl (made before, outside)."""
    require_developer(principal)
    agent = await get_owned(session, principal, agent_id, for_update=True)
    if agent.review_state == WITHDRAWN:
        raise Conflict(f"Agent {agent_id} was withdrawn; submit it again instead")
    listing = {**(agent.listing or {}), **listing_text(given)}
    reasons: list[str] = []
    if "changelog" in given:
        agent.pending_changelog = versions.clean_changelog(given["changelog"])
    if checked is not None and checked.base_url != agent.base_url:
        # Before the change takes effect: owners of inputs it breaks are told now.
        await versions.warn_breaking(session, agent, checked.input_schema)
        agent.base_url = checked.base_url
        agent.input_schema = checked.input_schema
        agent.last_checked_at = utcnow()
        await agents.record_check(session, agent.id, AgentCheckKind.SUBMIT, checked)
        reasons.append("base URL")
    if "price" in given:
        price = clean_price(given["price"])
        if price != agent.price:
            set_price(agent, price, settings)
            reasons.append("price")
    if "categories" in given:
        await repo.replace_categories(
            session, agent.id, await category_ids(session, given["categories"])
        )
    agent.listing = listing
    if reasons and agent.review_state != PENDING:
        back_to_review(agent, f"Changed {' and '.join(reasons)}: waiting for review again")
    elif agent.review_state == REJECTED:
        back_to_review(agent, "Edited after a rejection: waiting for review again")
    publish(agent)
    agent.updated_at = utcnow()
    await session.flush()
    return agent


async def withdraw(session: AsyncSession, principal: Principal, agent_id: str) -> Agent:
    require_developer(principal)
    agent = await get_owned(session, principal, agent_id, for_update=True)
    if agent.review_state != WITHDRAWN:
        now = utcnow()
        agent.status = AgentStatus.REVOKED
        agent.revoked_at = now
        agent.withdrawn_at = now
        agent.review_state = WITHDRAWN
        agent.review_note = "Withdrawn by its developer"
        publish(agent)
        await session.flush()
    return agent


async def list_owned(
    session: AsyncSession, principal: Principal, params: PageParams
) -> tuple[list[Agent], int]:
    owner = agents.owned_by(principal)
    return await agents.matching(session, [owner], offset=params.offset, limit=params.limit)


# ---- admin review ---------------------------------------------------------------------------


async def admin_list(
    session: AsyncSession, *, status: str | None, review: str | None, params: PageParams
) -> tuple[list[Agent], int]:
    conditions: list[ColumnElement[bool]] = []
    if status is not None:
        status = status.upper()
        if status not in AGENT_STATUSES:
            raise BadRequest.field("status", f"must be one of {', '.join(AGENT_STATUSES)}")
        conditions.append(repo.status_condition(status))
    if review is not None:
        review = review.lower()
        if review not in tuple(ReviewState):
            raise BadRequest.field("review", "must be pending, approved, rejected or withdrawn")
        conditions.append(repo.review_condition(review))
    return await agents.matching(session, conditions, offset=params.offset, limit=params.limit)


async def get_any(session: AsyncSession, agent_id: str, *, for_update: bool = False) -> Agent:
    return await agents.get_any(session, agent_id, for_update=for_update)


async def probe_and_approve(
    unit: Unit,
    settings: Settings,
    client: Mip003Client,
    agent_id: str,
    note: str,
    *,
    actor: audit.Actor | None = None,
    a2a: A2aClient | None = None,
) -> Agent:
    """Approve an agent (the admin API and the console's review queue): read its base URL,
    check it live with nothing held, then verify and list it (``approve``)."""
    found = await get_any(await unit.session(), agent_id)
    base_url, paid = found.base_url, certification.is_paid(found.agent_identifier)
    if found.protocol == AgentProtocol.A2A:  # the card read again; no MIP-003 suite
        if a2a is None:
            raise BadRequest(f"Agent {agent_id} speaks A2A; no A2A client here")
        card = await unit.call_out(read_card(a2a, base_url, "agentCardUrl"))
        session = await unit.write()
        agent = await approve(session, settings, agent_id, card_probe(card), note, actor=actor)
        agent.a2a_card = card.as_json
        agent.input_schema = a2a_input_schema(card)
        return agent
    checked = await unit.call_out(probe_for_review(client, agent_id, base_url))
    results = await unit.call_out(certification.run(client, settings, base_url, paid=paid))
    session = await unit.write()
    agent = await approve(session, settings, agent_id, checked, note, actor=actor)
    await certification.record(session, settings, agent.id, AgentCheckKind.REVIEW, results)
    return agent


async def approve(
    session: AsyncSession,
    settings: Settings,
    agent_id: str,
    checked: Probe,
    note: str,
    *,
    actor: audit.Actor | None = None,
) -> Agent:
    agent = await get_any(session, agent_id, for_update=True)
    if agent.review_state == WITHDRAWN:
        raise Conflict(f"Agent {agent_id} was withdrawn by its developer")
    if agent.base_url != checked.base_url:
        raise Conflict(f"Agent {agent_id} changed its base URL during the review; try again")
    await agents.record_check(session, agent.id, AgentCheckKind.REVIEW, checked)
    if not checked.available:
        raise BadRequest(f"Agent {agent_id} reports itself unavailable; cannot approve it")
    if checked.input_schema != agent.input_schema:  # changed since it was submitted
        await versions.warn_breaking(session, agent, checked.input_schema)
    agents.mark_verified(agent, settings, checked)
    agent.review_state = APPROVED
    agent.review_note = note.strip() or None
    agent.reviewed_at = agent.verified_at
    await versions.record(session, agent)  # the approved change: the next version
    await _decided(session, agent, "approved", actor, {"note": agent.review_note})
    return agent


async def reject(
    session: AsyncSession, agent_id: str, reason: str, *, actor: audit.Actor | None = None
) -> Agent:
    agent = await get_any(session, agent_id, for_update=True)
    if agent.review_state == WITHDRAWN:
        raise Conflict(f"Agent {agent_id} was withdrawn by its developer")
    now = utcnow()
    agent.status = AgentStatus.REVOKED
    agent.revoked_at = now
    agent.review_state = REJECTED
    agent.review_note = trimmed("reason", reason, 2000)
    agent.reviewed_at = now
    await _decided(session, agent, "rejected", actor, {"reason": agent.review_note})
    return agent


async def _decided(
    session: AsyncSession,
    agent: Agent,
    decision: str,
    actor: audit.Actor | None,
    details: dict[str, Any],
) -> None:
    """A review's decision published and kept: the audit row (``agent.approved``,
    ``agent.rejected``), and the submitting developer hears it (``agent.review_decided``), in the
    decision's transaction."""
    publish(agent)
    await session.flush()
    await audit.record(
        session,
        f"agent.{decision}",
        actor=actor,
        target_kind="agent",
        target_id=agent.id,
        details={"name": agent.name, **details},
    )
    if agent.owner_user_id is None:  # an operator-registered agent: nobody submitted it
        return
    data = {"agentId": str(agent.id), "name": agent.name, "decision": decision}
    if agent.review_note:
        data["message"] = f"Reviewer's note: {agent.review_note}"
    await notify(
        session,
        user_id=agent.owner_user_id,
        kind="agent.review_decided",
        subject_ref=f"agent:{agent.id}",
        data=data,
    )


async def override(
    session: AsyncSession,
    agent_id: str,
    given: dict[str, Any],
    *,
    actor: audit.Actor | None = None,
    reason: str | None = None,
) -> Agent:
    """Set (a value) or clear (``null``) admin overrides of the published listing (``reason``:
    the console's required why, kept in the audit row)."""
    if not given:
        raise BadRequest(f"Give at least one of {', '.join(OVERRIDABLE)}")
    agent = await get_any(session, agent_id, for_update=True)
    if not agent.listing:
        agent.listing = snapshot(agent)
    current = dict(agent.admin_override or {})
    for field, value in given.items():
        if value is None:
            current.pop(field, None)
        elif field == "name":
            current[field] = trimmed("name", value, 200)
        elif field == "tags":
            current[field] = clean_tags("tags", value)
        elif field == "image":
            current[field] = link("image", value)
        elif field == "description":
            current[field] = value.strip()
        else:
            current[field] = bool(value)
    agent.admin_override = current
    publish(agent)
    agent.updated_at = utcnow()
    await session.flush()
    await audit.record(
        session,
        "agent.overridden",
        actor=actor,
        target_kind="agent",
        target_id=agent.id,
        details={"fields": sorted(given), **({"reason": reason[:500]} if reason else {})},
    )
    return agent
