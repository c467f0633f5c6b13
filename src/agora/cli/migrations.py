"""agora migration new: the next migration, written from the house template."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agora.kit.migrate import MIGRATIONS_DIR, new_revision

migration_app = typer.Typer(help='Database migrations (docs/operations.md, "Migration names").')


@migration_app.command("new")
def new(
    message: Annotated[str, typer.Argument(help="What the migration does, in a few words.")],
    autogenerate: Annotated[
        bool,
        typer.Option(
            help="Fill it with the difference between the models and a scratch database at the "
            "current head (review what it wrote)."
        ),
    ] = False,
    directory: Annotated[
        Path, typer.Option(help="The migrations' folder (default: the package's).")
    ] = MIGRATIONS_DIR,
) -> None:
    """Write ``versions/NNNN_<slug>.py``: the next number in application order, revising the
    current head, dated (UTC), from ``migrations/script.py.mako``."""
    path = new_revision(message, autogenerate=autogenerate, location=directory)
    typer.echo(str(path))
