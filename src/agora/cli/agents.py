"""agora agents register|verify|revoke|show, agora categories create|list"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

import typer
from sqlalchemy.ext.asyncio import AsyncSession

from agora.agents import service
from agora.agents.schemas import AgentOut
from agora.cli.common import emit, run_with_db
from agora.kit.db import Database
from agora.kit.units import Mode, Unit
from agora.mip003.client import Mip003Client, client_for
from agora.models import Agent
from agora.settings import Settings

agents_app = typer.Typer(help="Operate the agent catalogue.", no_args_is_help=True)
categories_app = typer.Typer(help="Manage agent categories.", no_args_is_help=True)

T = TypeVar("T")
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def _calling_out(work: Callable[[Unit, Settings, Mip003Client], Awaitable[T]]) -> T:
    """Run a use case that calls an agent as a request runs it: in a unit of its own (read, the
    call with nothing held, write), committed when ``work`` returns; then its after-commit
    hooks run."""

    async def in_unit(db: Database, settings: Settings) -> T:
        unit = Unit(db, Mode.CALLS_OUT)
        try:
            async with client_for(settings) as client:
                done = await work(unit, settings, client)
        except BaseException as exc:
            await unit.finish(exc)
            raise
        await unit.finish(None)
        for hook, committed in unit.after:
            await hook(committed)
        return done

    return run_with_db(in_unit)


async def _record(session: AsyncSession, agent: Agent) -> dict[str, Any]:
    """The agent's catalogue record, with its base URL."""
    out = AgentOut.model_validate(await service.with_categories_one(session, agent))
    return {**out.model_dump(mode="json"), "baseUrl": agent.base_url}


def _in_transaction(
    agent_id: str, change: Callable[[AsyncSession, str], Awaitable[Agent]]
) -> dict[str, Any]:
    async def work(db: Database, _settings: Settings) -> dict[str, Any]:
        async with db.transaction() as session:
            return await _record(session, await change(session, agent_id))

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

    async def work(unit: Unit, settings: Settings, client: Mip003Client) -> str:
        agent = await service.probe_and_register(
            unit, settings, client, url, name=name, description=description, price=price,
            categories=category, tags=tag, verify=verify, is_shown=not hidden,
        )  # fmt: skip
        return str(agent.id)

    agent_id = _calling_out(work)
    emit({"agentId": agent_id}, as_json, f"agent {agent_id}")


@agents_app.command("verify")
def verify(agent_id: Annotated[str, typer.Argument(help="The agent id.")]) -> None:
    """Check the agent live and mark it VERIFIED for the verification lifetime."""

    async def work(unit: Unit, settings: Settings, client: Mip003Client) -> str:
        agent = await service.probe_and_verify(unit, settings, client, agent_id)
        return str(agent.status)

    typer.echo(f"agent {agent_id} is {_calling_out(work)}")


@agents_app.command("revoke")
def revoke(agent_id: Annotated[str, typer.Argument(help="The agent id.")]) -> None:
    """Revoke the agent's verification: it leaves the available listings at once."""
    out = _in_transaction(agent_id, service.revoke_agent)
    typer.echo(f"agent {agent_id} is {out['status']}")


@agents_app.command("show")
def show(
    agent_id: Annotated[str, typer.Argument(help="The agent id.")], as_json: JsonOpt = False
) -> None:
    """Show an agent's catalogue record, whatever its status."""
    out = _in_transaction(agent_id, service.get_any)
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
