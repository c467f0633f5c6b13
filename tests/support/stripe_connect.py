"""Stripe Connect as Agora uses it, which localstripe 1.15.10 lacks entirely: Express accounts,
account links and the onboarding they lead to, transfers, transfer reversals, the platform's
balance, and the ``account.updated``, ``transfer.created`` and ``transfer.reversed`` events,
delivered as localstripe delivers its own (signed, to every registered webhook, ``webhooks.py``).
Mounted in front of localstripe by ``stripe_rules.wrap`` (the same server, port and idempotency
layer: ``make run-stripe`` and ``tests/support/stripe.py`` serve it too).

The contract it keeps, and where each rule is read:
- **Stripe's OpenAPI description**, ``github.com/stripe/openapi`` at commit
  ``f6c2a48fbac2819d1feba8143d942ffc65e1c0d2`` (2026-08-21). ``openapi/spec3.json`` is held there
  as a listed name only (too large to carry); its example objects, ``openapi/fixtures3.json``
  (``resources.account``, ``account_link``, ``transfer``, ``transfer_reversal``, ``balance``), are
  readable and give every field name and the shape of each object built here (``_account``,
  ``_transfer``, ``_reversal``, ``balance``).
- **The ``stripe`` Python SDK 16.1.0** (API version ``2026-10-28.endive``), generated from the
  same description: ``_account.py`` (``details_submitted``, ``charges_enabled``,
  ``payouts_enabled``, ``requirements.currently_due|eventually_due|past_due|disabled_reason``,
  ``type`` express), ``_account_link.py`` (``url``, ``expires_at``), ``_transfer.py``
  (``amount_reversed``, ``reversed``, ``destination``, ``reversals``), ``_transfer_reversal.py``,
  ``_balance.py`` (``available``, ``pending``, ``connect_reserved``) and the request shapes
  ``params/_account_create_params.py``, ``_account_link_create_params.py``
  (``type``: account_onboarding | account_update; ``refresh_url``, ``return_url``),
  ``_transfer_create_params.py`` (``amount``, ``currency``, ``destination`` required),
  ``_transfer_create_reversal_params.py`` (``amount`` optional: the rest when left out).
- **Stripe's documentation**: errors (https://docs.stripe.com/api/errors: ``{"error": {"type",
  "code", "message", "param"}}``; 400 invalid request, 404 ``resource_missing``),
  https://docs.stripe.com/connect/express-accounts (an Express account is created with
  nothing due done; onboarding through an account link; ``account.updated`` when details are
  submitted and payouts enabled), https://docs.stripe.com/api/account_links (links are
  single-use and expire a few minutes after creation: a used or expired link sends the person to
  ``refresh_url``), https://docs.stripe.com/connect/separate-charges-and-transfers (a transfer
  needs the destination's ``transfers`` capability active — error code
  ``insufficient_capabilities_for_transfer`` — and the platform's available balance —
  ``balance_insufficient``), https://docs.stripe.com/api/transfer_reversals (a reversal above
  what is left is refused; ``transfer.reversed`` "occurs whenever a transfer is reversed,
  including partial reversals"). Idempotency is ``stripe_rules.Idempotency`` (its own source).

Test controls beside localstripe's own ``/_config``: ``POST /_config/connect/accounts/{id}/
restrict`` (Stripe restricts an account: payouts off, a requirement past due, ``account.updated``)
and ``POST /_config/connect/balance`` (``amount``, ``currency``: the platform's available balance,
which test mode tops up with the ``4000000000000077`` card).
"""

from __future__ import annotations

import html
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

ONBOARDING = "/_stripe/connect/onboarding/"
LINK_SECONDS = 300  # an account link's lifetime (Stripe: "a few minutes")
# What an Express account in a supported country still owes before onboarding (fixtures3.json).
DUE = [
    "business_profile.product_description",
    "business_profile.support_phone",
    "business_profile.url",
    "external_account",
    "tos_acceptance.date",
    "tos_acceptance.ip",
]
START_BALANCE = 10_000_000  # minor units per currency, the platform's available balance


def _error(status: int, message: str, *, code: str | None = None, param: str | None = None,
           kind: str = "invalid_request_error") -> web.Response:  # fmt: skip
    body: dict[str, Any] = {"type": kind, "message": message}
    if code:
        body["code"] = code
        body["doc_url"] = f"https://stripe.com/docs/error-codes/{code.replace('_', '-')}"
    if param:
        body["param"] = param
    return web.json_response({"error": body}, status=status)


def _missing(what: str, value: str, param: str) -> web.Response:
    return _error(404, f"No such {what}: '{value}'", code="resource_missing", param=param)


def _required(param: str) -> web.Response:
    return _error(400, f"Missing required param: {param}.", code="parameter_missing", param=param)


class _Exported:
    """What localstripe's ``Event`` needs of an object: ``_export()``."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def _export(self) -> dict[str, Any]:
        return self.data


def _send(event_type: str, obj: dict[str, Any], account: str | None = None) -> None:
    """A signed event to every registered webhook, localstripe's way (after its 1 s delay)."""
    from localstripe.resources import Event
    from localstripe.webhooks import schedule_webhook

    event = Event(event_type, _Exported(obj))
    if account is not None:  # an event about a connected account names it (Connect webhooks)
        event.account = account
    schedule_webhook(event)


@dataclass
class Link:
    account: str
    refresh_url: str
    return_url: str
    expires_at: int
    used: bool = False


@dataclass
class Connect:
    accounts: dict[str, dict[str, Any]] = field(default_factory=dict)
    links: dict[str, Link] = field(default_factory=dict)
    transfers: dict[str, dict[str, Any]] = field(default_factory=dict)
    available: dict[str, int] = field(default_factory=dict)

    def clear(self) -> None:
        self.accounts.clear()
        self.links.clear()
        self.transfers.clear()
        self.available.clear()

    # ---- accounts -------------------------------------------------------------------------
    def _account(self, form: dict[str, Any]) -> dict[str, Any]:
        account_id = "acct_" + secrets.token_hex(8)
        requirements = {
            "alternatives": [], "current_deadline": None, "currently_due": list(DUE),
            "disabled_reason": "requirements.past_due", "errors": [],
            "eventually_due": list(DUE), "past_due": list(DUE), "pending_verification": [],
        }  # fmt: skip
        return {
            "id": account_id,
            "object": "account",
            "type": "express",
            "business_profile": {"name": None, "url": None, "product_description": None},
            "business_type": None,
            "capabilities": {"transfers": "inactive"},
            "charges_enabled": False,
            "controller": {"type": "application", "is_controller": True},
            "country": form.get("country") or "US",
            "created": int(time.time()),
            "default_currency": "usd",
            "details_submitted": False,
            "email": form.get("email"),
            "external_accounts": {
                "object": "list",
                "data": [],
                "has_more": False,
                "url": f"/v1/accounts/{account_id}/external_accounts",
            },
            "future_requirements": {
                **requirements,
                "currently_due": [],
                "eventually_due": [],
                "past_due": [],
                "disabled_reason": None,
            },
            "metadata": dict(form.get("metadata") or {}),
            "payouts_enabled": False,
            "requirements": requirements,
            "settings": {"payouts": {"schedule": {"interval": "daily", "delay_days": 2}}},
            "tos_acceptance": {"date": None, "ip": None},
        }

    async def create_account(self, request: web.Request) -> web.Response:
        form = await _form(request)
        kind = form.get("type")
        if kind is None and not form.get("controller"):
            return _required("type")
        if kind is not None and kind not in ("custom", "express", "standard"):
            return _error(400, "Invalid type: must be one of custom, express, or standard",
                          param="type")  # fmt: skip
        if kind not in (None, "express"):  # Agora creates Express accounts only
            return _error(400, f"This emulation creates express accounts, not {kind}",
                          param="type")  # fmt: skip
        account = self._account(form)
        self.accounts[account["id"]] = account
        return web.json_response(account)

    async def retrieve_account(self, request: web.Request) -> web.Response:
        account_id = request.match_info["id"]
        found = self.accounts.get(account_id)
        if found is None:
            return _missing("account", account_id, "account")
        return web.json_response(found)

    def _update(self, account: dict[str, Any], **changes: Any) -> None:
        previous = {key: account[key] for key in changes if key in account}
        account.update(changes)
        payload = dict(account)
        _send("account.updated", payload | {"previous_attributes": previous}, account["id"])

    def complete(self, account_id: str) -> None:
        """Onboarding finished: details submitted, nothing due, charges and payouts enabled."""
        account = self.accounts[account_id]
        requirements = dict(account["requirements"])
        requirements.update(currently_due=[], eventually_due=[], past_due=[],
                            disabled_reason=None)  # fmt: skip
        self._update(
            account,
            details_submitted=True,
            charges_enabled=True,
            payouts_enabled=True,
            capabilities={"transfers": "active"},
            requirements=requirements,
            tos_acceptance={"date": int(time.time()), "ip": "127.0.0.1"},
        )

    async def restrict(self, request: web.Request) -> web.Response:
        account_id = request.match_info["id"]
        account = self.accounts.get(account_id)
        if account is None:
            return _missing("account", account_id, "account")
        requirements = dict(account["requirements"])
        requirements.update(currently_due=["external_account"], past_due=["external_account"],
                            disabled_reason="requirements.past_due")  # fmt: skip
        self._update(
            account,
            payouts_enabled=False,
            capabilities={"transfers": "inactive"},
            requirements=requirements,
        )
        return web.json_response(account)

    # ---- account links and the onboarding page ---------------------------------------------
    async def create_link(self, request: web.Request) -> web.Response:
        form = await _form(request)
        for name in ("account", "type"):
            if not form.get(name):
                return _required(name)
        if form["type"] not in ("account_onboarding", "account_update"):
            return _error(400, "Invalid type: must be one of account_onboarding or "
                          "account_update", param="type")  # fmt: skip
        if form["account"] not in self.accounts:
            return _missing("account", str(form["account"]), "account")
        for name in ("refresh_url", "return_url"):
            url = form.get(name)
            if not url:
                return _required(name)
            if not str(url).startswith(("http://", "https://")):
                return _error(400, "Not a valid URL", code="url_invalid", param=name)
        token = secrets.token_urlsafe(12)
        created = int(time.time())
        self.links[token] = Link(
            form["account"], form["refresh_url"], form["return_url"], created + LINK_SECONDS
        )
        return web.json_response(
            {
                "object": "account_link",
                "created": created,
                "expires_at": created + LINK_SECONDS,
                "url": f"{request.scheme}://{request.host}{ONBOARDING}{token}",
            }
        )

    async def onboarding(self, request: web.Request) -> web.StreamResponse:
        """Stripe's hosted onboarding, in two buttons: submit the details (the account can be
        paid) or leave (back to the platform's return URL with nothing done, as Stripe does)."""
        link = self.links.get(request.match_info["token"])
        if link is None:
            return web.Response(status=404, text="This link is not valid.")
        if link.used or time.time() > link.expires_at:
            raise web.HTTPFound(link.refresh_url)
        if request.method == "GET":
            account = self.accounts[link.account]
            return web.Response(
                content_type="text/html",
                text="<!doctype html><title>Stripe Express onboarding (test)</title>"
                f"<h1>Set up payouts</h1><p>Account {html.escape(account['id'])}</p>"
                "<form method=post><button name=result value=complete id=complete>"
                "Submit details</button><button name=result value=leave id=leave>"
                "Return to platform</button></form>",
            )
        link.used = True
        if (await request.post()).get("result") == "complete":
            self.complete(link.account)
        raise web.HTTPFound(link.return_url)

    # ---- transfers, reversals, balance ------------------------------------------------------
    def _balance(self, currency: str) -> int:
        return self.available.setdefault(currency, START_BALANCE)

    async def create_transfer(self, request: web.Request) -> web.Response:
        form = await _form(request)
        for name in ("amount", "currency", "destination"):
            if form.get(name) in (None, ""):
                return _required(name)
        amount, currency = str(form["amount"]), str(form["currency"]).lower()
        if not amount.isdigit() or int(amount) < 1:
            return _error(400, "Invalid positive integer", code="parameter_invalid_integer",
                          param="amount")  # fmt: skip
        destination = self.accounts.get(str(form["destination"]))
        if destination is None:
            return _error(400, f"No such destination: '{form['destination']}'",
                          code="resource_missing", param="destination")  # fmt: skip
        if destination["capabilities"].get("transfers") != "active":
            return _error(
                400,
                "Your destination account needs to have at least one of the following "
                "capabilities enabled: transfers, crypto_transfers, legacy_payments",
                code="insufficient_capabilities_for_transfer",
                param="destination",
            )
        if self._balance(currency) < int(amount):
            return _error(
                400,
                "You have insufficient available funds in your Stripe account. Try adding funds "
                "directly to your available balance by creating Charges using the "
                "4000000000000077 test card.",
                code="balance_insufficient",
            )
        self.available[currency] -= int(amount)
        transfer_id = "tr_" + secrets.token_hex(12)
        transfer = {
            "id": transfer_id, "object": "transfer", "amount": int(amount),
            "amount_reversed": 0, "balance_transaction": "txn_" + secrets.token_hex(12),
            "created": int(time.time()), "currency": currency,
            "description": form.get("description"), "destination": destination["id"],
            "destination_payment": "py_" + secrets.token_hex(12), "livemode": False,
            "metadata": dict(form.get("metadata") or {}),
            "reversals": {"object": "list", "data": [], "has_more": False,
                          "url": f"/v1/transfers/{transfer_id}/reversals"},
            "reversed": False, "source_transaction": None, "source_type": "card",
            "transfer_group": form.get("transfer_group"),
        }  # fmt: skip
        self.transfers[transfer_id] = transfer
        _send("transfer.created", transfer)
        return web.json_response(transfer)

    async def retrieve_transfer(self, request: web.Request) -> web.Response:
        transfer_id = request.match_info["id"]
        found = self.transfers.get(transfer_id)
        if found is None:
            return _missing("transfer", transfer_id, "id")
        return web.json_response(found)

    async def list_transfers(self, request: web.Request) -> web.Response:
        """``GET /v1/transfers``: newest first, ``limit`` (1-100, default 10) and
        ``starting_after`` (Stripe's list pagination, ``has_more``)."""
        limit = min(max(int(request.query.get("limit", "10")), 1), 100)
        ordered = list(self.transfers.values())[::-1]  # newest first (creation order)
        after = request.query.get("starting_after")
        if after:
            ids = [t["id"] for t in ordered]
            if after not in ids:
                return _missing("transfer", after, "starting_after")
            ordered = ordered[ids.index(after) + 1 :]
        page = ordered[:limit]
        return web.json_response(
            {"object": "list", "url": "/v1/transfers", "data": page,
             "has_more": len(ordered) > limit}
        )  # fmt: skip

    async def create_reversal(self, request: web.Request) -> web.Response:
        transfer_id = request.match_info["id"]
        transfer = self.transfers.get(transfer_id)
        if transfer is None:
            return _missing("transfer", transfer_id, "id")
        form = await _form(request)
        left = transfer["amount"] - transfer["amount_reversed"]
        raw = str(form.get("amount", left))
        if not raw.isdigit() or int(raw) < 1:
            return _error(400, "Invalid positive integer", code="parameter_invalid_integer",
                          param="amount")  # fmt: skip
        if int(raw) > left:
            return _error(
                400,
                f"Transfer reversal amount ({raw}) is greater than the remaining transfer "
                f"amount ({left}).",
                param="amount",
            )
        reversal = {
            "id": "trr_" + secrets.token_hex(12), "object": "transfer_reversal",
            "amount": int(raw), "balance_transaction": "txn_" + secrets.token_hex(12),
            "created": int(time.time()), "currency": transfer["currency"],
            "destination_payment_refund": None, "metadata": dict(form.get("metadata") or {}),
            "source_refund": None, "transfer": transfer_id,
        }  # fmt: skip
        transfer["amount_reversed"] += int(raw)
        transfer["reversed"] = transfer["amount_reversed"] >= transfer["amount"]
        transfer["reversals"]["data"].insert(0, reversal)
        self.available[transfer["currency"]] = self._balance(transfer["currency"]) + int(raw)
        _send("transfer.reversed", transfer)
        return web.json_response(reversal)

    async def balance(self, _request: web.Request) -> web.Response:
        currencies = sorted(self.available) or ["usd"]
        return web.json_response(
            {
                "object": "balance",
                "livemode": False,
                "available": [
                    {"amount": self._balance(c), "currency": c, "source_types": {"card": 0}}
                    for c in currencies
                ],
                "pending": [
                    {"amount": 0, "currency": c, "source_types": {"card": 0}} for c in currencies
                ],
                "connect_reserved": [{"amount": 0, "currency": c} for c in currencies],
            }
        )

    async def set_balance(self, request: web.Request) -> web.Response:
        form = await request.post()
        self.available[str(form.get("currency", "usd")).lower()] = int(str(form.get("amount")))
        return web.json_response({"ok": True})

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/v1/accounts", self.create_account)
        app.router.add_get("/v1/accounts/{id}", self.retrieve_account)
        app.router.add_post("/v1/account_links", self.create_link)
        app.router.add_route("*", ONBOARDING + "{token}", self.onboarding)
        app.router.add_post("/v1/transfers", self.create_transfer)
        app.router.add_get("/v1/transfers", self.list_transfers)
        app.router.add_get("/v1/transfers/{id}", self.retrieve_transfer)
        app.router.add_post("/v1/transfers/{id}/reversals", self.create_reversal)
        app.router.add_get("/v1/balance", self.balance)
        app.router.add_post("/_config/connect/accounts/{id}/restrict", self.restrict)
        app.router.add_post("/_config/connect/balance", self.set_balance)


async def _form(request: web.Request) -> dict[str, Any]:
    """The request's parameters, nested as Stripe reads them (``metadata[k]=v``)."""
    from localstripe.server import get_post_data

    data = await get_post_data(request)
    return dict(data or {})
