"""agora agent new|update|check: a builder's start (a rendered template) and local loop (the
conformance suite), before anything is submitted (docs/developer.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated

import typer

from agora.conformance import report
from agora.conformance.suite import SuiteOptions, run_suite
from agora.developer.scaffold import ScaffoldError, render_agent, update_agent
from agora.mip003.client import validate_base_url

agent_app = typer.Typer(help="Build an agent: a template and the conformance check.")


@agent_app.command("check")
def check(
    url: Annotated[str, typer.Argument(help="The agent's base URL.")],
    paid: Annotated[bool, typer.Option("--paid", help="Also the MIP-004 checks.")] = False,
    junit: Annotated[
        Path | None, typer.Option("--junit", help="Write JUnit XML here (for CI).")
    ] = None,
    call_seconds: Annotated[
        float, typer.Option("--call-seconds", min=0.1, max=120, help="Limit of one call.")
    ] = 10.0,
    job_seconds: Annotated[
        float, typer.Option("--job-seconds", min=0.1, max=600, help="Limit of one job.")
    ] = 30.0,
) -> None:
    """Run the MIP-003 conformance suite against URL; exit 0 only when no check failed."""
    try:
        url = validate_base_url(url)
    except ValueError as exc:
        typer.echo(f"error: URL {exc}", err=True)
        raise typer.Exit(2) from exc
    options = SuiteOptions(paid=paid, call_seconds=call_seconds, job_seconds=job_seconds)
    results = asyncio.run(run_suite(url, options))
    typer.echo(report.text(url, results))
    if junit is not None:
        junit.write_bytes(report.junit(url, results))
    if any(r.failed for r in results):
        raise typer.Exit(1)


@agent_app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The agent's name; also its directory.")],
    paid: Annotated[bool, typer.Option("--paid", help="Sell it: MIP-004 hashes.")] = False,
    directory: Annotated[
        Path | None, typer.Option("--dir", help="Where to write it (default: ./NAME).")
    ] = None,
) -> None:
    """Render a MIP-003 agent (FastAPI) from Agora's template with copier."""
    try:
        target = render_agent(name, directory or Path(name), paid=paid)
    except ScaffoldError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(f"Created {target}. Run it: cd {target} && python agent.py")


@agent_app.command("update")
def update(
    directory: Annotated[
        Path, typer.Option("--dir", help="The generated project (default: here).")
    ] = Path(),
) -> None:
    """Update a project made by `agora agent new` to this Agora's template (copier update):
    the template's changes are applied, your own edits kept. Commit your work first."""
    try:
        old, new = update_agent(directory)
    except ScaffoldError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    if old == new:
        typer.echo(f"{directory} is already on template version {new}.")
    else:
        typer.echo(
            f"Updated {directory} from template version {old} to {new}: review `git diff` "
            "(conflicts are marked inline), then commit."
        )
