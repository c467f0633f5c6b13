"""The Agent Card Agora publishes for a listed agent (docs/a2a.md, "Agent Cards"): its JSON-RPC
interface at ``/a2a/agents/{agentId}``, one skill described from the agent's input schema, and
Agora's own OAuth 2.1 authorization server as the one security scheme."""

from __future__ import annotations

import json
from typing import Any

from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentProvider,
    AgentSkill,
    AuthorizationCodeOAuthFlow,
    OAuth2SecurityScheme,
    OAuthFlows,
    SecurityRequirement,
    SecurityScheme,
    StringList,
)

from agora import __version__
from agora.kit.money import to_display
from agora.models import Agent
from agora.models.statuses import PricingType

CARD_PATH = "/.well-known/agent-card.json"
SKILL_ID = "hire"
SCHEME = "agora-oauth"
# What a token needs to hire through A2A (the scopes of Agora's authorization server).
SCOPES = {
    "read": "Read the catalogue and your jobs",
    "jobs:write": "Create, answer and cancel jobs (spends credits)",
}
MAX_FIELDS_DESCRIBED = 30


def endpoint(public_url: str, agent_id: object) -> str:
    """The agent's A2A JSON-RPC endpoint; its card is this plus ``CARD_PATH``."""
    return f"{public_url.rstrip('/')}/a2a/agents/{agent_id}"


def _fields(schema: dict[str, Any] | None) -> list[dict[str, Any]]:
    fields = (schema or {}).get("input_data") or []
    return [f for f in fields if isinstance(f, dict) and isinstance(f.get("id"), str)]


def _optional(field: dict[str, Any]) -> bool:
    return any(
        isinstance(v, dict) and v.get("validation") == "optional" and str(v.get("value")) == "true"
        for v in field.get("validations") or []
    )


def _described(field: dict[str, Any]) -> str:
    found = field.get("data")
    data: dict[str, Any] = found if isinstance(found, dict) else {}
    about = str(data.get("description") or field.get("name") or "")[:200]
    values = data.get("values")
    choice = f"; one of {', '.join(map(str, values[:20]))}" if isinstance(values, list) else ""
    need = "optional" if _optional(field) else "required"
    return f"`{field['id']}` ({field.get('type', 'string')}, {need}{choice}): {about}"


def _example(fields: list[dict[str, Any]]) -> str:
    sample: dict[str, Any] = {}
    for field in fields:
        if _optional(field):
            continue
        kind = str(field.get("type", "string"))
        sample[field["id"]] = {"number": 1, "boolean": True}.get(kind, "…")
    return json.dumps(sample, ensure_ascii=False)


def _price(agent: Agent) -> str:
    if agent.pricing_type == PricingType.DYNAMIC:
        return "Priced by the agent for each job; the task fails when it is above your limit."
    if agent.pricing_type == PricingType.FREE or not agent.price:
        return "Free."
    fee = f" plus a marketplace fee of {to_display(agent.fee)}" if agent.fee else ""
    return f"Price: {to_display(agent.price)} credits a job{fee}, held when the task starts."


def _tags(tags: Any) -> list[str]:
    """The listing's tag names (stored as ``{"name": …}``)."""
    names = [t.get("name") if isinstance(t, dict) else t for t in (tags or [])]
    return [str(n) for n in names if n][:20]


def skill(agent: Agent) -> AgentSkill:
    """One skill: hiring the agent with its input (a data part with the input's fields, or a
    text message for an agent whose input has one text field)."""
    fields = _fields(agent.input_schema)
    described = "\n".join(f"- {_described(f)}" for f in fields[:MAX_FIELDS_DESCRIBED])
    return AgentSkill(
        id=SKILL_ID,
        name=f"Hire {agent.name}"[:200],
        description=(
            f"{agent.description[:2000]}\n\n{_price(agent)}\n\nInput: a data part (JSON object) "
            f"with these fields, or a text part for the one text field:\n{described}"
        ),
        tags=_tags(agent.tags) or ["agora"],
        examples=[_example(fields)] if fields else [],
        input_modes=["application/json", "text/plain"],
        output_modes=["text/plain"],
    )


def agent_card(agent: Agent, public_url: str) -> AgentCard:
    """The card of ``agent`` (listed and verified) as this Agora at ``public_url`` serves it."""
    base = public_url.rstrip("/")
    oauth = OAuth2SecurityScheme(
        description="Sign in with Agora (OAuth 2.1, PKCE): the jobs are the person's, "
        "paid from their workspace's credits",
        flows=OAuthFlows(
            authorization_code=AuthorizationCodeOAuthFlow(
                authorization_url=f"{base}/oauth/authorize",
                token_url=f"{base}/oauth/token",
                refresh_url=f"{base}/oauth/token",
                scopes=SCOPES,
                pkce_required=True,
            )
        ),
        oauth2_metadata_url=f"{base}/.well-known/oauth-authorization-server",
    )
    icon = agent.image if agent.image and agent.image.startswith(("https://", "http://")) else ""
    return AgentCard(
        name=agent.name,
        description=agent.description or agent.name,
        version=str(agent.current_version or 1),
        supported_interfaces=[
            AgentInterface(
                url=endpoint(base, agent.id), protocol_binding="JSONRPC", protocol_version="1.0"
            )
        ],
        provider=AgentProvider(organization=f"Agora {__version__}", url=base),
        documentation_url=f"{base}/agents/{agent.id}",
        capabilities=AgentCapabilities(
            streaming=True, push_notifications=False, extended_agent_card=False
        ),
        security_schemes={SCHEME: SecurityScheme(oauth2_security_scheme=oauth)},
        security_requirements=[
            SecurityRequirement(schemes={SCHEME: StringList(list=list(SCOPES))})
        ],
        default_input_modes=["application/json", "text/plain"],
        default_output_modes=["text/plain"],
        skills=[skill(agent)],
        icon_url=icon,
    )
