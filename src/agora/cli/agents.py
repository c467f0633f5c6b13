"""agora agents register|verify|revoke|show, agora categories create|list"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from agora.agents import service
from agora.agents.schemas import AgentOut
from agora.cli.common import emit, run_with_db
from agora.kit.db import Database
from agora.mip003.client import client_for
from agora.settings import Settings

agents_app = typer.Typer(help="Operate the agent catalogue.", no_args_is_help=True)
categories_app = typer.Typer(help="Manage agent categories.", no_args_is_help=True)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _agent_command(action: str, agent_id: str) -> dict[str, Any]:
    """Run one verification action on an agent and return its catalogue record."""

    async def work(db: Database, settings: Settings) -> dict[str, Any]:
        probe = None
        if action == "verify":  # read the URL, probe with no transaction open, then write
            async with db.transaction(write=False) as session:
                base_url = (await service.get_any(session, agent_id)).base_url
            async with client_for(settings) as client:
                probe = await service.probe(client, base_url)
        async with db.transaction() as session:
            if probe is not None:
                agent = await service.verify_agent(session, settings, agent_id, probe)
            elif action == "revoke":
                agent = await service.revoke_agent(session, agent_id)
            else:
                agent = await service.get_any(session, agent_id)
            out = AgentOut.model_validate(await service.with_categories_one(session, agent))
            return {**out.model_dump(mode="json"), "baseUrl": agent.base_url}

    return run_with_db(work)


@agents_app.command("register")
def register(
    url: Annotated[str, typer.Argument(help="The agent's MIP-003 base URL (http or https).")],
    name: Annotated[str, typer.Option(help="Display name.")],
    description: Annotated[str, typer.Option(help="What the agent does.")] = "",
    price: Annotated[str, typer.Option(help="Base price in credits (the fee is added).")] = "0",
    category: Annotated[
        list[str] | None, typer.Option(help="Category slug (repeatable; must exist).")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option(help="Tag (repeatable).")] = None,
    verify: Annotated[bool, typer.Option("--verify", help="Mark it VERIFIED at once.")] = False,
    hidden: Annotated[bool, typer.Option("--hidden", help="Keep it out of listings.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Register an agent after checking its /availability and /input_schema."""

    async def work(db: Database, settings: Settings) -> str:
        async with client_for(settings) as client:
            probe = await service.probe(client, url)  # no transaction open
        async with db.transaction() as session:
            agent = await service.register_agent(
                session,
                settings,
                probe,
                name=name,
                description=description,
                price=price,
                categories=category,
                tags=tag,
                verify=verify,
                is_shown=not hidden,
            )
            return str(agent.id)

    agent_id = run_with_db(work)
    emit({"agentId": agent_id}, as_json, f"agent {agent_id}")


@agents_app.command("verify")
def verify(agent_id: Annotated[str, typer.Argument(help="The agent id.")]) -> None:
    """Check the agent live and mark it VERIFIED for the verification lifetime."""
    out = _agent_command("verify", agent_id)
    typer.echo(f"agent {agent_id} is {out['status']}")


@agents_app.command("revoke")
def revoke(agent_id: Annotated[str, typer.Argument(help="The agent id.")]) -> None:
    """Revoke the agent's verification: it leaves the available listings at once."""
    out = _agent_command("revoke", agent_id)
    typer.echo(f"agent {agent_id} is {out['status']}")


@agents_app.command("show")
def show(
    agent_id: Annotated[str, typer.Argument(help="The agent id.")], as_json: JsonOpt = False
) -> None:
    """Show an agent's catalogue record, whatever its status."""
    out = _agent_command("show", agent_id)
    text = "\n".join(f"{key}: {value}" for key, value in out.items())
    emit(out, as_json, text)


@categories_app.command("create")
def create_category(
    slug: Annotated[str, typer.Option(help="Lowercase letters, digits and hyphens.")],
    name: Annotated[str, typer.Option(help="Display name.")],
    description: Annotated[str, typer.Option(help="Description.")] = "",
    as_json: JsonOpt = False,
) -> None:
    """Create a category for agents."""

    async def work(db: Database, _settings: Settings) -> str:
        async with db.transaction() as session:
            category = await service.create_category(
                session, slug=slug, name=name, description=description
            )
            return str(category.id)

    category_id = run_with_db(work)
    emit({"categoryId": category_id, "slug": slug}, as_json, f"category {slug} ({category_id})")
