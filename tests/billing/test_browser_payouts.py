"""Paying a seller, in a real headless Chromium, offline (issue 46, "Done when"): ``agora serve``
with localstripe and its Stripe Connect emulation on loopback (tests/support/stripe_connect.py;
their webhooks sent to the server). A developer signs up, lists a credit-priced agent, connects
a Stripe account through the emulation's onboarding from the earnings page; buyers hire the
agent; the holdback passes (``AGORA_PAYOUTS_HOLDBACK_DAYS`` set to seconds: the real clock
passes it); ``agora payouts run`` transfers exactly the earnings less the refunds; the developer
sees the payout and the statement; a refund after the payout shows a negative balance, which the
next period's run (``--at`` a month on) recovers from new earnings. Marked ``process``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.support.server import agora_env, free_port, run_cli, running_agora_serve
from tests.support.stripe import (
    PUBLISHABLE_KEY,
    SECRET_KEY,
    WEBHOOK_SECRET,
    LocalStripe,
    running_localstripe,
)
from tests.web.test_browser import TIMEOUT_MS, _shot, _sign_up_and_in

pytestmark = pytest.mark.process

HOLDBACK_SECONDS = 6.0
PRICE = 2  # credits a job; one credit is worth 1.00 EUR (the default credit value)


@pytest.fixture(scope="module")
def market(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, Path, LocalStripe, dict[str, str]]]:
    data = tmp_path_factory.mktemp("market")
    port = free_port()  # the public URL: Stripe's return and refresh URLs
    with running_localstripe() as stripe:
        env = agora_env(
            data,
            AGORA_PUBLIC_URL=f"http://127.0.0.1:{port}",
            AGORA_DEMO="true",
            AGORA_STRIPE_SECRET_KEY=SECRET_KEY,
            AGORA_STRIPE_PUBLISHABLE_KEY=PUBLISHABLE_KEY,
            AGORA_STRIPE_WEBHOOK_SECRET=WEBHOOK_SECRET,
            AGORA_STRIPE_API_BASE=stripe.url,
            AGORA_PAYOUTS_HOLDBACK_DAYS=str(HOLDBACK_SECONDS / 86_400),
            AGORA_PAYOUTS_MINIMUM="300",
            AGORA_PAYOUTS_RUN_DAY="0",  # the monthly loop off: the test runs the CLI
        )
        with running_agora_serve(env, data / "banner.txt", startup_seconds=90, port=port) as base:
            stripe.register_webhook(f"{base}/v1/billing/stripe/webhook")
            yield base, data, stripe, env


def _key(env: dict[str, str], email: str, kind: str = "user") -> str:
    out = json.loads(run_cli(env, "keys", "create", "--user", email, "--kind", kind, "--json"))
    key: str = out["apiKey"]
    return key


def _api(base: str, method: str, path: str, key: str, **kwargs: Any) -> dict[str, Any]:
    response = httpx2.request(
        method, f"{base}{path}", headers={"Authorization": f"Bearer {key}"}, timeout=30, **kwargs
    )
    assert response.status_code < 300, response.text
    data: dict[str, Any] = response.json()
    return data


def _hire_and_finish(base: str, buyer_key: str, agent_id: str) -> str:
    job = _api(
        base, "POST", f"/v1/agents/{agent_id}/jobs", buyer_key, json={"inputData": {"text": "hi"}}
    )["data"]
    for _ in range(150):  # bounded: 30 s for the dispatcher
        found = _api(base, "GET", f"/v1/jobs/{job['id']}", buyer_key)["data"]
        if found["status"] in ("COMPLETED", "FAILED"):
            break
        time.sleep(0.2)
    assert found["status"] == "COMPLETED", found
    job_id: str = job["id"]
    return job_id


def _run(env: dict[str, str], at: datetime | None = None) -> dict[str, Any]:
    args = ["payouts", "run", "--json"] + (["--at", at.isoformat()] if at else [])
    report: dict[str, Any] = json.loads(run_cli(env, *args))
    return report


def test_a_developer_is_paid_earnings_less_refunds(
    market: tuple[str, Path, LocalStripe, dict[str, str]], browser: object
) -> None:
    base, data, stripe, env = market
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        # The developer and their credit-priced listing (the demo's echo agent, on loopback).
        email = _sign_up_and_in(page, base, data, "Dana")
        developer_key = _key(env, email)
        admin_email = f"admin-{int(time.time() * 1000)}@example.com"
        run_cli(env, "users", "create", "--email", admin_email, "--name", "Operator")
        admin_key = _key(env, admin_email, "admin")
        listed = _api(
            base, "POST", "/v1/developer/agents", developer_key,
            json={"baseUrl": f"{base}/demo-agents/echo", "name": "Dana's echo",
                  "description": "Says it back", "tags": ["text"], "price": PRICE,
                  "author": {"name": "Dana", "contactEmail": email},
                  "legal": {"terms": "https://example.com/terms"},
                  "exampleOutputs": [{"name": "Sample", "mimeType": "text/plain",
                                      "url": "https://example.com/s.txt"}]},
        )["data"]  # fmt: skip
        agent_id = listed["id"]
        _api(base, "POST", f"/v1/admin/agents/{agent_id}/approve", admin_key)

        # Connect a Stripe account: the earnings page → Stripe's onboarding → back.
        page.goto(f"{base}/developer/earnings")
        assert page.locator("#payout-account").get_attribute("data-state") == "not_connected"
        assert "connect a Stripe account" in page.locator("#payout-account-words").inner_text()
        page.click("#connect-stripe")
        page.wait_for_selector("#complete")  # the emulation's hosted onboarding
        assert page.url.startswith(stripe.url)
        _shot(page, "payouts-onboarding")
        page.click("#complete")
        page.wait_for_url(re.compile(r".*/developer/earnings\?stripe=returned.*"))
        for _ in range(40):  # bounded: account.updated comes after localstripe's 1 s
            if page.locator("#payout-account").get_attribute("data-state") == "ready":
                break
            page.wait_for_timeout(250)
            page.reload()
        assert page.locator("#payout-account").get_attribute("data-state") == "ready"
        assert "Ready" in page.locator("#payout-account-words").inner_text()

        # Two buyers hire the agent four times (4 x 2.00 EUR); one job is refunded before the
        # run: the payout is the earnings less the refund, 6.00 EUR.
        buyers = []
        for n in range(2):
            buyer_email = f"buyer{n}-{int(time.time() * 1000)}@example.com"
            run_cli(env, "users", "create", "--email", buyer_email, "--name", f"Buyer {n}",
                    "--credits", "50")  # fmt: skip
            buyers.append(_key(env, buyer_email))
        jobs = [_hire_and_finish(base, buyers[i % 2], agent_id) for i in range(4)]
        _api(base, "POST", f"/v1/admin/jobs/{jobs[0]}/refund", admin_key, json={"reason": "r1"})
        time.sleep(HOLDBACK_SECONDS + 1)  # the holdback passes
        report = _run(env)
        [paid] = report["paid"]
        assert (paid["amount"], paid["currency"]) == (600, "eur"), report
        transfer = stripe.get(f"/v1/transfers/{paid['transfer']}")
        assert transfer["amount"] == 600 and transfer["destination"].startswith("acct_")
        assert _run(env)["paid"] == []  # once per period

        page.goto(f"{base}/developer/earnings")
        assert page.locator("#balances .paid-out").inner_text() == "6.00 EUR"
        assert page.locator("#balances .payable").inner_text() == "0.00 EUR"
        assert page.locator("#payouts tbody tr").count() == 1
        assert "Paid" in page.locator("#payouts tbody tr td.status").inner_text()
        period = datetime.now(UTC).strftime("%Y-%m")
        page.goto(f"{base}/developer/earnings/{period}")
        row = page.locator("#statement-payouts tbody tr")
        assert row.count() == 1 and "6.00 EUR" in row.inner_text()
        assert paid["transfer"] in row.inner_text()
        _shot(page, "payouts-statement")

        # A refund after the payout: the balance goes below zero ...
        _api(base, "POST", f"/v1/admin/jobs/{jobs[1]}/refund", admin_key, json={"reason": "r2"})
        page.goto(f"{base}/developer/earnings")
        assert page.locator("#balances .payable").inner_text() == "-2.00 EUR"
        _shot(page, "payouts-negative")
        # ... and next month's run recovers it: 3 new jobs (6.00) less the 2.00 owed = 4.00.
        for i in range(3):
            _hire_and_finish(base, buyers[i % 2], agent_id)
        time.sleep(HOLDBACK_SECONDS + 1)
        next_month = datetime.now(UTC) + timedelta(days=32)
        [second] = _run(env, next_month)["paid"]
        assert second["amount"] == 400
        page.goto(f"{base}/developer/earnings")
        assert page.locator("#balances .payable").inner_text() == "0.00 EUR"
        assert page.locator("#balances .paid-out").inner_text() == "10.00 EUR"
        page.goto(f"{base}/developer/earnings/{next_month:%Y-%m}")
        assert "4.00 EUR" in page.locator("#statement-payouts tbody tr").inner_text()
        _shot(page, "payouts-next-month")

        # The books agree: Stripe's transfers against the payouts (localstripe's store is the
        # process's: another module's charges may be listed, and make the exit status 1).
        reconciled = json.loads(
            subprocess.run(
                [sys.executable, "-m", "agora.cli.main", "credits", "reconcile", "--json"],
                env=env, capture_output=True, text=True, timeout=60, check=False,
            ).stdout
        )  # fmt: skip
        assert not [d for d in reconciled["differences"] if "transfer" in d["kind"]
                    or d["kind"].startswith("payout")], reconciled  # fmt: skip
        assert not [e for e in errors if "Content Security Policy" in e], errors
    finally:
        _shot(page, "payouts-journey")
        context.close()
