"""agora payment-node: the local Masumi payment node (docs/payments.md) on its own port."""

from __future__ import annotations

import os
from typing import Annotated

import typer
import uvicorn

from agora.sandbox.payment_node import local_node


def payment_node(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 3001,
    token: Annotated[
        str | None,
        typer.Option(
            help="The `token` header the node accepts (all rights); default "
            "$AGORA_PAYMENT_NODE_TOKEN.",
            show_default=False,
        ),
    ] = None,
    read_token: Annotated[
        str | None, typer.Option(help="An extra read-only token.", show_default=False)
    ] = None,
    testing: Annotated[
        bool,
        typer.Option(
            help="Serve /api/v1/testing/clock and /api/v1/testing/chain (move the clock, stop "
            "locking funds, simulate an outage). Never in production."
        ),
    ] = False,
    chain_delay_ms: Annotated[
        int,
        typer.Option(
            min=0,
            help="How long an action (funds locking, a result, a refund request) takes to show "
            "on the node, as the real node's batches and the chain do.",
        ),
    ] = 1000,
) -> None:
    """Serve a local payment node with the contract of masumi-payment-service (buyer /purchase…
    and seller /payment… routes under /api/v1). It stands in for the chain: nothing is kept
    across restarts."""
    key = token or os.environ.get("AGORA_PAYMENT_NODE_TOKEN")
    if not key:
        raise typer.BadParameter("give --token or set AGORA_PAYMENT_NODE_TOKEN", param_hint="token")
    _, app = local_node(key, testing=testing, read_token=read_token, chain_delay_ms=chain_delay_ms)
    typer.echo(f"payment node on http://{host}:{port}/api/v1 (testing routes: {testing})")
    uvicorn.run(app, host=host, port=port, access_log=False, log_config=None, date_header=False)
