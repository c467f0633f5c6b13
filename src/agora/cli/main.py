"""Entry point of the ``agora`` command."""

from __future__ import annotations

import typer

from agora.cli import (
    agents,
    audit,
    backup,
    builder,
    coworkers,
    credits,
    identity,
    migrations,
    payouts,
    registry,
    serve,
    storage,
    worker,
)
from agora.cli.payment_node import payment_node

app = typer.Typer(
    help="Agora: a marketplace and work tracker for software agents.", no_args_is_help=True
)
app.command()(serve.serve)
app.command()(serve.migrate)
app.command()(worker.worker)
app.add_typer(identity.users_app, name="users")
app.add_typer(identity.keys_app, name="keys")
app.add_typer(identity.orgs_app, name="orgs")
app.add_typer(agents.agents_app, name="agents")
app.add_typer(builder.agent_app, name="agent")
app.add_typer(agents.categories_app, name="categories")
app.add_typer(credits.credits_app, name="credits")
app.add_typer(payouts.payouts_app, name="payouts")
app.add_typer(registry.registry_app, name="registry")
app.add_typer(coworkers.coworkers_app, name="coworkers")
app.add_typer(storage.storage_app, name="storage")
app.add_typer(audit.audit_app, name="audit")
app.add_typer(migrations.migration_app, name="migration")
app.command(name="payment-node")(payment_node)
app.command(name="backup")(backup.backup_command)
app.command(name="restore")(backup.restore_command)

if __name__ == "__main__":
    app()
