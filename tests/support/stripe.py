"""localstripe (PyPI ``localstripe`` 1.15.10, Adrien Vergé, GPL-3.0): a stateful Stripe API server
and a Stripe.js stand-in, run on loopback in a thread of the test process (or as a process:
``python -m tests.support.stripe --port N``).

This is the real package, not a fake of ours, with Stripe Connect, which it lacks entirely,
emulated beside it on the same port (``tests/support/stripe_connect.py``), behind the rules of
real Stripe it lacks for the paths Agora uses (``tests/support/stripe_rules.py``: minimum
charges, three-decimal amounts, ``Idempotency-Key`` replays, confirming with a PaymentMethod
and 3-D Secure by redirect, Stripe.js ``createPaymentMethod``, declined test cards). Two more
things differ from ``localstripe`` run by its own console script, both about where it runs, not
how it answers:
- it binds 127.0.0.1 only (its ``start()`` binds ``::``, every interface);
- its store is not pickled to ``/tmp/localstripe.pickle`` after every write (a file shared by every
  localstripe on the machine; parallel test sessions would overwrite each other's). The store
  lives in memory, as in ``localstripe --from-scratch`` between writes.

What localstripe 1.15.10 does not do (read from its ``resources.py``), and how the tests cope:
- a refund (``POST /v1/refunds``) is made and listed, but no ``charge.refunded`` event is sent;
- there are no disputes at all (no ``/v1/disputes``, no ``charge.dispute.*`` events);
- its Stripe.js has the card Element, ``createToken``, ``confirmCardPayment`` (3-D Secure only)
  and, from the rules, ``createPaymentMethod`` and ``handleNextAction``, but no Payment Element
  and no ``confirmPayment``;
- charges have no ``receipt_url``.
For the two missing events the tests sign, with the webhook secret and Stripe's scheme (the one
localstripe's own ``webhooks.py`` uses), an event whose ``data.object`` is the charge localstripe
returns for ``GET /v1/charges/{id}`` after the refund (``charge_event``).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx2

from tests.support import stripe_rules
from tests.support.server import free_port

SECRET_KEY = "sk_test_agora_localstripe"
PUBLISHABLE_KEY = "pk_test_agora_localstripe"
WEBHOOK_SECRET = "whsec_agora_localstripe_test"


def _app() -> Any:
    """localstripe's aiohttp application behind Stripe's rules it lacks (a new application each
    time: ``tests/support/stripe_rules.py``). localstripe registers plain (not async) handlers,
    which aiohttp 3.14 accepts with a DeprecationWarning (an error under this suite's
    filterwarnings)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from localstripe.server import app

        return stripe_rules.wrap(app)


def _quiet_store() -> None:
    from localstripe import resources

    resources.Store.dump_to_disk = lambda self: None  # type: ignore[method-assign]
    resources.Store.try_load_from_disk = lambda self: None  # type: ignore[method-assign]


@dataclass
class LocalStripe:
    url: str

    def register_webhook(self, url: str, name: str = "agora") -> None:
        """localstripe's own configuration endpoint: send every event to ``url``, signed."""
        response = httpx2.post(
            f"{self.url}/_config/webhooks/{name}",
            data={"url": url, "secret": WEBHOOK_SECRET},
            timeout=10,
        )
        response.raise_for_status()

    def get(self, path: str) -> dict[str, Any]:
        response = httpx2.get(
            f"{self.url}{path}", headers={"Authorization": f"Bearer {SECRET_KEY}"}, timeout=10
        )
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data

    def post(self, path: str, **form: str) -> httpx2.Response:
        return httpx2.post(
            f"{self.url}{path}",
            data=form,
            headers={"Authorization": f"Bearer {SECRET_KEY}"},
            timeout=10,
        )


def sign(payload: bytes, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """A ``Stripe-Signature`` header: ``t=<unix>,v1=HMAC-SHA256(secret, "<t>.<payload>")``
    (Stripe's documented scheme, as localstripe's webhooks.py computes it)."""
    stamp = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), b"%d.%s" % (stamp, payload), hashlib.sha256).hexdigest()
    return f"t={stamp},v1={mac}"


def charge_event(event_type: str, obj: dict[str, Any], event_id: str) -> bytes:
    """An event envelope the way localstripe builds its own (resources.Event._export)."""
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "api_version": "2017-08-15",
            "created": int(time.time()),
            "livemode": False,
            "type": event_type,
            "data": {"object": obj},
        },
        indent=2,
        sort_keys=True,
    ).encode()


async def _serve(port: int, started: threading.Event, stop: asyncio.Event) -> None:
    from aiohttp import web

    runner = web.AppRunner(_app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    started.set()
    await stop.wait()
    await runner.cleanup()


@contextmanager
def running_localstripe() -> Iterator[LocalStripe]:
    """localstripe on a free loopback port in a thread; stopped on exit (bounded waits)."""
    _quiet_store()
    port = free_port()
    loop = asyncio.new_event_loop()
    started = threading.Event()
    stop = asyncio.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(_serve(port, started, stop))

    thread = threading.Thread(target=run, name="localstripe", daemon=True)
    thread.start()
    if not started.wait(15):
        raise RuntimeError("localstripe did not start within 15 s")
    try:
        yield LocalStripe(f"http://127.0.0.1:{port}")
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)


def main() -> None:  # pragma: no cover - the demo's and the browser test's process form
    from aiohttp import web

    app = _app()
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8420)
    args = parser.parse_args()
    _quiet_store()
    web.run_app(app, host="127.0.0.1", port=args.port, access_log=None, print=None)


if __name__ == "__main__":  # pragma: no cover
    main()


@dataclass
class Delivery:
    body: bytes
    signature: str

    @property
    def event(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.body)
        return data


class WebhookInbox:
    """A loopback HTTP receiver for localstripe's webhooks: keeps each delivery's exact bytes
    and ``Stripe-Signature`` so a test hands them to the in-process app, as often as it likes."""

    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []
        self._lock = threading.Lock()

    def add(self, body: bytes, signature: str) -> None:
        with self._lock:
            self.deliveries.append(Delivery(body, signature))

    def wait_for(self, event_type: str, object_id: str, timeout: float = 15.0) -> Delivery:
        """The delivery of ``event_type`` about ``object_id`` (localstripe sends after 1 s)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                for delivery in self.deliveries:
                    event = delivery.event
                    if event["type"] == event_type and event["data"]["object"]["id"] == object_id:
                        return delivery
            time.sleep(0.05)
        raise AssertionError(f"no {event_type} for {object_id} within {timeout} s")


@contextmanager
def running_inbox() -> Iterator[tuple[WebhookInbox, str]]:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    inbox = WebhookInbox()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            size = min(int(self.headers.get("Content-Length") or 0), 1_048_576)
            inbox.add(self.rfile.read(size), self.headers.get("Stripe-Signature") or "")
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=server.serve_forever, name="stripe-inbox", daemon=True)
    thread.start()
    try:
        yield inbox, f"http://127.0.0.1:{server.server_address[1]}/stripe"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
