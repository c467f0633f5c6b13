"""`agora credits reconcile`: Stripe's balance transactions (localstripe's, from its API) against
the purchases and the ledger."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx2
from typer.testing import CliRunner

from agora.cli.main import app as cli
from agora.kit.db import Database
from agora.settings import Settings, get_settings
from tests.billing.conftest import Stripe, make_pack
from tests.billing.test_purchases import bought, deliver
from tests.conftest import MakeUser, TestUser
from tests.support.stripe import PUBLISHABLE_KEY, SECRET_KEY, WEBHOOK_SECRET


async def reconcile(settings: Settings, db: Database) -> tuple[int, dict[str, Any]]:
    env = {
        "AGORA_DATABASE_URL": db.url,
        "AGORA_DATA_DIR": str(settings.data_dir),
        "AGORA_SECRET_KEY": "test-secret-key",
        "AGORA_STRIPE_SECRET_KEY": SECRET_KEY,
        "AGORA_STRIPE_PUBLISHABLE_KEY": PUBLISHABLE_KEY,
        "AGORA_STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "AGORA_STRIPE_API_BASE": settings.stripe.api_base,
        "AGORA_LOG_LEVEL": "WARNING",
    }
    get_settings.cache_clear()  # the command reads these settings, not an earlier test's
    # The command runs its own event loop: in a thread, beside this test's.
    result = await asyncio.to_thread(
        CliRunner().invoke, cli, ["credits", "reconcile", "--json"], env=env
    )
    get_settings.cache_clear()
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, json.loads(result.stdout)


async def test_reconciliation_finds_what_differs(
    client: httpx2.AsyncClient,
    make_user: MakeUser,
    admin: TestUser,
    stripe_server: Stripe,
    settings: Settings,
    db: Database,
) -> None:
    # localstripe's store outlives tests: start from an empty Stripe account.
    httpx2.delete(f"{stripe_server.server.url}/_config/data", timeout=10).raise_for_status()
    pack = await make_pack(client, admin, credits=100, price=1000)
    user = await make_user()
    purchase, delivery = await bought(client, stripe_server, user, pack)
    code, out = await reconcile(settings, db)
    assert code == 1  # paid at Stripe, the webhook not yet delivered: not granted
    assert [d["kind"] for d in out["differences"]] == ["unknown_charge"]
    granted = await deliver(client, delivery)
    assert granted.json()["outcome"] == "granted", granted.text
    code, out = await reconcile(settings, db)
    assert (code, out["differences"], out["transactions"]) == (0, [], 1), out

    # A refund Stripe made whose webhook never arrived, and a charge Agora never made.
    charge = (
        await client.get(f"/v1/credits/purchases/{purchase['id']}", headers=user.key_headers)
    ).json()["data"]["stripeChargeId"]
    assert stripe_server.server.post("/v1/refunds", charge=charge, amount="250").status_code == 200
    other = stripe_server.server.post(
        "/v1/payment_intents",
        amount="700",
        currency="eur",
        payment_method="pm_card_visa",
        confirm="true",
    )
    assert other.status_code == 200, other.text
    code, out = await reconcile(settings, db)
    assert code == 1
    found = {(d["kind"], d["stripe"], d["agora"]) for d in out["differences"]}
    assert found == {("refunded", 250, 0), ("unknown_charge", 700, None)}
