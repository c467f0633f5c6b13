"""What real Stripe does on the paths Agora uses and localstripe 1.15.10 does not, put in front of
localstripe's own aiohttp application (``wrap``): a new application with these rules as
middleware and routes, then every route of localstripe's, whose handlers and store stay its own.

Each rule names its source (Stripe's documentation, or the ``stripe`` SDK 16.1.0 installed here):
- **Minimum charge** — https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts; the
  SDK's ``amount`` ("The minimum amount is $0.50 US or equivalent in charge currency"); the error
  is Stripe's ``amount_too_small`` (``_payment_intent.py`` lists the code; its shape is Stripe's
  error object, ``_error_object.py``: ``type``, ``code``, ``param``, ``message``, ``doc_url``).
  A currency outside the table is let through: Stripe converts it at the day's rate.
- **Three-decimal amounts end in 0** — https://docs.stripe.com/currencies#three-decimal (BHD, JOD,
  KWD, OMR, TND): a 400 ``invalid_request_error`` on ``amount``.
- **Idempotency** — https://docs.stripe.com/api/idempotent_requests: on POST, the first response
  of a key is saved once the endpoint ran (not when parameters failed validation) and replayed,
  500s included, with ``Idempotent-Replayed: true``; the same key with other parameters or
  another endpoint is a 400 ``idempotency_error`` (the SDK's ``IdempotencyError``,
  ``_api_requestor.py``); a key still in use is a 409 (which the SDK retries, ``_http_client.py``).
- **Confirming with a PaymentMethod** — ``POST /v1/payment_intents/{id}/confirm`` takes
  ``payment_method`` and ``return_url`` (``params/_payment_intent_confirm_params.py``);
  localstripe answers 500 "Not implemented" to the first and 400 to the second. With a
  ``return_url``, a card that needs 3-D Secure gets ``next_action`` ``redirect_to_url``
  (``_payment_intent.py``, ``NextAction.RedirectToUrl``), whose page sends the buyer back to
  ``return_url`` with ``payment_intent``, ``payment_intent_client_secret`` and
  ``redirect_status``, as Stripe's test 3-D Secure page does (its two buttons, "Complete" and
  "Fail authentication"); a failed authentication sends ``payment_intent.payment_failed``
  (https://docs.stripe.com/payments/3d-secure: the intent returns to
  ``requires_payment_method``), which localstripe does not.
- **Stripe.js** ``createPaymentMethod`` with the publishable key (``POST /v1/payment_methods``;
  localstripe's is an empty stub and its API refuses the publishable key there) and
  ``handleNextAction``.
- **Test cards declined when charged** — https://docs.stripe.com/testing#declined-payments:
  ``4000 0000 0000 0002`` and the other "declined" cards are declined by the charge; localstripe
  declines them only when the card is attached to a customer.
"""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from aiohttp import web

from tests.support import stripe_connect

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# Stripe's "Minimum and maximum charge amounts" table, in minor units (its own copy here: the
# emulation does not read Agora's table).
MINIMUM = {
    "usd": 50, "aed": 200, "aud": 50, "bgn": 100, "brl": 50, "cad": 50, "chf": 50, "czk": 1500,
    "dkk": 250, "eur": 50, "gbp": 30, "hkd": 400, "huf": 17500, "inr": 50, "jpy": 50,
    "mxn": 1000, "myr": 200, "nok": 300, "nzd": 50, "pln": 200, "ron": 200, "sek": 300,
    "sgd": 50, "thb": 1000,
}  # fmt: skip
ZERO_DECIMAL = {"bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx",
                "vnd", "vuv", "xaf", "xof", "xpf"}  # fmt: skip
THREE_DECIMAL = {"bhd", "jod", "kwd", "omr", "tnd"}
SYMBOL = {"usd": "$", "eur": "€", "gbp": "£", "jpy": "¥"}
# The paths whose ``amount`` and ``currency`` Stripe checks, of those Agora calls.
AMOUNT_PATHS = re.compile(r"^/v1/(payment_intents|charges)$")
THREE_DS = "/_stripe/3ds/"


def error(status: int, **fields: Any) -> web.Response:
    """Stripe's error object (``{"error": {...}}``)."""
    body = {"error": {"type": "invalid_request_error", **fields}}
    return web.json_response(body, status=status)


def amount_refusal(amount: Any, currency: Any) -> web.Response | None:
    """Stripe's 400 for an amount it cannot charge in ``currency``."""
    if not isinstance(currency, str) or not str(amount).isdigit():
        return None
    code, value = currency.lower(), int(str(amount))
    least = MINIMUM.get(code)
    if least is not None and value < least:
        exponent = 0 if code in ZERO_DECIMAL else 2
        shown = f"{SYMBOL.get(code, '')}{Decimal(least).scaleb(-exponent):.{exponent}f}"
        return error(
            400,
            code="amount_too_small",
            param="amount",
            message=f"Amount must be at least {shown} {code}",
            doc_url="https://stripe.com/docs/error-codes/amount-too-small",
        )
    if code in THREE_DECIMAL and value % 10:
        return error(
            400,
            param="amount",
            message=f"Invalid amount: {code} is a three-decimal currency and its amounts must "
            "be a multiple of 10 (https://docs.stripe.com/currencies#three-decimal).",
        )
    return None


@dataclass
class Saved:
    params: tuple[str, str, str]
    status: int
    body: bytes
    content_type: str


@dataclass
class Idempotency:
    """The first response of each (secret key, Idempotency-Key), and the keys in use."""

    saved: dict[tuple[str, str], Saved] = field(default_factory=dict)
    running: set[tuple[str, str]] = field(default_factory=set)

    def middleware(self) -> Any:
        @web.middleware
        async def idempotency(request: web.Request, handler: Handler) -> web.StreamResponse:
            return await self.handle(request, handler)

        return idempotency

    async def handle(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        key = request.headers.get("Idempotency-Key")
        if request.method != "POST" or not key:  # GET and DELETE ignore it (Stripe's page)
            return await handler(request)
        scope = (request.headers.get("Authorization", ""), key)
        params = (request.method, request.path, await _canonical(request))
        first = self.saved.get(scope)
        if first is not None and first.params != params:
            return error(
                400,
                type="idempotency_error",
                message="Keys for idempotent requests can only be used with the same parameters "
                f"they were first used with. Try using a key other than '{key}' if you meant to "
                "execute a different request.",
            )
        if first is not None:
            replay = web.Response(body=first.body, status=first.status)
            replay.headers["Content-Type"] = first.content_type
            replay.headers["Idempotent-Replayed"] = "true"
            return replay
        if scope in self.running:
            return error(
                409,
                type="idempotency_error",
                code="idempotency_key_in_use",
                message="There is currently another in-progress request using this Idempotent "
                f"Key (that probably means you submitted twice, and the other request is still "
                f"going through): {key}. Please try again later.",
            )
        self.running.add(scope)
        try:
            response = await handler(request)
        finally:
            self.running.discard(scope)
        # Saved once the endpoint ran: not when its parameters failed validation (a 400).
        if isinstance(response, web.Response) and response.status not in (400, 401):
            body = response.body if isinstance(response.body, bytes) else b""
            self.saved[scope] = Saved(params, response.status, body, response.content_type)
        return response


async def _canonical(request: web.Request) -> str:
    """The parameters, whatever their order on the wire."""
    raw = (await request.read()).decode("utf-8", "replace")
    if request.content_type == "application/x-www-form-urlencoded":
        return urlencode(sorted(parse_qsl(raw, keep_blank_values=True)))
    return raw


@web.middleware
async def amounts(request: web.Request, handler: Handler) -> web.StreamResponse:
    if request.method == "POST" and AMOUNT_PATHS.match(request.path):
        form = await request.post()
        refused = amount_refusal(form.get("amount"), form.get("currency"))
        if refused is not None:
            return refused
    return await handler(request)


def _publishable(request: web.Request, form: Any) -> bool:
    """Stripe.js creates PaymentMethods with the publishable key (``key=pk_…``)."""
    return (
        request.method == "POST"
        and request.path == "/v1/payment_methods"
        and str(form.get("key", "")).startswith("pk_")
    )


def _auth(localstripe_auth: Any) -> Any:
    @web.middleware
    async def auth(request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith("/_stripe/"):  # Stripe's pages for people, not the API
            return await handler(request)
        if request.method == "POST" and _publishable(request, await request.post()):
            return await handler(request)
        response: web.StreamResponse = await localstripe_auth(request, handler)
        return response

    return auth


def _declined_when_charged() -> None:
    from localstripe.resources import PaymentMethod

    if getattr(PaymentMethod, "_agora_patched", False):
        return
    charged = PaymentMethod._charging_is_declined

    def declined(self: Any) -> bool:
        return bool(charged(self) or self._attaching_is_declined())

    PaymentMethod._charging_is_declined = declined
    PaymentMethod._agora_patched = True


async def confirm(request: web.Request) -> web.Response:
    """``POST /v1/payment_intents/{id}/confirm`` with ``payment_method`` and ``return_url``."""
    from localstripe.resources import PaymentIntent, PaymentMethod
    from localstripe.server import get_post_data, json_response

    data = dict(await get_post_data(request) or {})
    intent_id = request.match_info["id"]
    method, return_url = data.pop("payment_method", None), data.pop("return_url", None)
    expand = data.pop("expand", None)
    intent = PaymentIntent._api_retrieve(intent_id)
    if method is not None:
        if intent.status not in ("requires_payment_method", "requires_confirmation"):
            return error(
                400,
                code="payment_intent_unexpected_state",
                message=f"This PaymentIntent's status is {intent.status}: it cannot be confirmed.",
            )
        PaymentMethod._api_retrieve(method)  # a 404 for an unknown one
        intent.payment_method = method
    confirmed = PaymentIntent._api_confirm(intent_id, **data)
    if return_url and confirmed.next_action:
        confirmed._agora_return_url = return_url
        page = f"{request.scheme}://{request.host}{THREE_DS}{intent_id}"
        confirmed.next_action = {
            "type": "redirect_to_url",
            "redirect_to_url": {"url": page, "return_url": return_url},
        }
    response: web.Response = json_response(confirmed._export(expand=expand))
    return response


async def three_d_secure(request: web.Request) -> web.StreamResponse:
    """Stripe's test 3-D Secure page: complete or fail, then back to the ``return_url``."""
    from localstripe.resources import Event, PaymentIntent, schedule_webhook

    intent = PaymentIntent._api_retrieve(request.match_info["id"])
    back = getattr(intent, "_agora_return_url", None)
    if request.method == "GET" or back is None:
        return web.Response(
            content_type="text/html",
            text="<!doctype html><title>3D Secure test page</title>"
            f"<form method=post><p>Payment {html.escape(intent.id)}</p>"
            "<button name=result value=complete id=complete>Complete authentication</button>"
            "<button name=result value=fail id=fail>Fail authentication</button></form>",
        )
    success = (await request.post()).get("result") == "complete"
    PaymentIntent._api_authenticate(intent.id, client_secret=intent.client_secret, success=success)
    if not success:  # Stripe sends it (localstripe does not): the intent failed authentication
        schedule_webhook(Event("payment_intent.payment_failed", intent))
    query = urlencode(
        {
            "payment_intent": intent.id,
            "payment_intent_client_secret": intent.client_secret,
            "redirect_status": "succeeded" if success else "failed",
        }
    )
    raise web.HTTPFound(f"{back}{'&' if '?' in back else '?'}{query}")


CREATE_PAYMENT_METHOD = """createPaymentMethod: async (options) => {
      console.log('localstripe (Agora): Stripe().createPaymentMethod()');
      const element = options.card, body = ['type=card'];
      Object.keys(element.value.card).forEach(field => {
        body.push('card[' + field + ']=' + encodeURIComponent(element.value.card[field]));
      });
      body.push('billing_details[address][postal_code]=' +
                encodeURIComponent(element.value.postal_code || ''));
      body.push('key=' + apiKey);
      const response = await fetch(`${LOCALSTRIPE_BASE_API}/v1/payment_methods`, {
        method: 'POST',
        headers: {'Content-Type': 'application/x-www-form-urlencoded'},
        body: body.join('&'),
      });
      const res = await response.json().catch(() => ({}));
      return response.status !== 200 || res.error ? {error: res.error} : {paymentMethod: res};
    },
    handleNextAction: async function (options) {
      return this.confirmCardPayment(options.clientSecret);
    },"""


def stripe_js(_request: web.Request) -> web.Response:
    import localstripe

    source = (Path(localstripe.__file__).parent / "localstripe-v3.js").read_text()
    stub = "createPaymentMethod: async () => {},"
    assert stub in source, "localstripe's Stripe.js changed: review the emulation"
    return web.Response(
        text=source.replace(stub, CREATE_PAYMENT_METHOD), content_type="application/javascript"
    )


def wrap(localstripe_app: web.Application) -> web.Application:
    """A new application: Stripe's rules, then localstripe's routes and middleware."""
    from localstripe import server

    _declined_when_charged()
    # Outermost first: the idempotency layer sees every answer, localstripe's errors included.
    app = web.Application(
        middlewares=[
            Idempotency().middleware(),
            server.error_middleware,
            amounts,
            _auth(server.auth_middleware),
        ]
    )
    app.on_response_prepare.append(server.add_cors_headers)
    app.router.add_post("/v1/payment_intents/{id}/confirm", confirm)
    app.router.add_route("*", THREE_DS + "{id}", three_d_secure)
    app.router.add_get("/js.stripe.com/v3/", stripe_js)
    # Stripe Connect, which localstripe lacks (its own GET /v1/balance is replaced by the
    # platform balance transfers draw on): tests/support/stripe_connect.py
    connect = stripe_connect.Connect()
    connect.routes(app)

    async def flush(request: web.Request) -> web.StreamResponse:
        """localstripe's ``DELETE /_config/data`` empties the Connect emulation too."""
        connect.clear()
        response: web.StreamResponse = await server.flush_store(request)
        return response

    app.router.add_delete("/_config/data", flush)
    taken = {(r.method, res.canonical) for res in app.router.resources() for r in res}
    for resource in localstripe_app.router.resources():
        for route in resource:
            if (route.method, resource.canonical) in taken:
                continue
            if route.method != "HEAD":
                app.router.add_route(route.method, resource.canonical, route.handler)
    return app
