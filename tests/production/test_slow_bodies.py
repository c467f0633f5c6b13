"""Slow request bodies hold no database connection (issue: 24 dripping form posts from one
signed-in person held the whole PostgreSQL pool, and everyone else's requests waited 30 s and
got 503). The route reads the body, bounded in time, before any database work (kit/units.py).

Real sockets against a real server on PostgreSQL, loopback only; every wait is bounded."""

from __future__ import annotations

import re
import select
import socket
import threading
import time
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import httpx2
import pytest

from tests.accounts.helpers import STRONG_PASSWORD
from tests.support.server import create_user, running_server

pytestmark = pytest.mark.process  # a real server process: make prove

DRIPPERS = 24  # more than the pool (16 + 4 overflow)
DRIP_SECONDS = 6.0
_TOKEN = re.compile(r"\?token=([A-Za-z0-9_\-]+)")


def _mailed_token(data_dir: Path) -> str | None:
    """The token of the mailed link, once a mail file is there and complete."""
    for path in (data_dir / "mail").glob("*.eml"):
        message = message_from_bytes(path.read_bytes(), policy=default)
        text = message.get_body(("plain",)) if isinstance(message, EmailMessage) else None
        found = _TOKEN.search(text.get_content()) if text is not None else None
        if found:
            return found.group(1)
    return None


def _signed_in_cookie(base: str, data_dir: Path, email: str) -> str:
    """Sign up, confirm from the mail the server wrote, sign in: the session cookie."""
    with httpx2.Client(base_url=base, timeout=10) as client:
        made = client.post(
            "/v1/auth/sign-up", json={"email": email, "password": STRONG_PASSWORD, "name": "Drip"}
        )
        assert made.status_code == 201, made.text
        deadline = (
            time.monotonic() + 10
        )  # the mail is sent (and its file written) after the response
        while (found := _mailed_token(data_dir)) is None:
            assert time.monotonic() < deadline, "no complete verification mail within 10 s"
            time.sleep(0.05)
        assert client.post("/v1/auth/verify-email", json={"token": found}).is_success
        signed = client.post("/v1/auth/sign-in", json={"email": email, "password": STRONG_PASSWORD})
        assert signed.status_code == 200, signed.text
        return str(client.cookies["agora_session"])


def _drip(port: int, cookie: str, stop: threading.Event, answers: list[bytes]) -> None:
    """A form post whose body arrives one byte a second (until ``stop`` or DRIP_SECONDS)."""
    body = b"name=" + b"x" * 60
    head = (
        "POST /projects HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Cookie: agora_session={cookie}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=DRIP_SECONDS + 15) as sock:
        sock.sendall(head)
        deadline = time.monotonic() + DRIP_SECONDS
        for byte in body:
            if stop.is_set() or time.monotonic() > deadline:
                break
            try:
                sock.sendall(bytes([byte]))
            except OSError:
                break
            readable, _, _ = select.select([sock], [], [], 1.0)
            if readable:  # the server answered before the body was complete
                break
        try:
            answers.append(sock.recv(200))
        except OSError:
            answers.append(b"")


def test_slow_form_bodies_do_not_slow_another_persons_reads(
    postgres_env: dict[str, str], tmp_path: Path
) -> None:
    env = {**postgres_env, "AGORA_BODY_TIMEOUT_SECONDS": "4"}
    other = create_user(env, "reader@example.com")
    with running_server(env) as base:
        port = int(base.rsplit(":", 1)[1])
        cookie = _signed_in_cookie(base, Path(env["AGORA_DATA_DIR"]), "drip@example.com")
        stop, answers = threading.Event(), []
        threads = [
            threading.Thread(target=_drip, args=(port, cookie, stop, answers), daemon=True)
            for _ in range(DRIPPERS)
        ]
        for thread in threads:
            thread.start()
        time.sleep(1.0)  # every dripper has sent its headers and is holding its request open
        latencies = []
        try:
            with httpx2.Client(base_url=base, timeout=5) as client:
                for _ in range(20):
                    started = time.monotonic()
                    listed = client.get(
                        "/v1/projects", headers={"Authorization": f"Bearer {other['apiKey']}"}
                    )
                    latencies.append(time.monotonic() - started)
                    assert listed.status_code == 200, listed.text
                    time.sleep(0.1)
        finally:
            for thread in threads:
                thread.join(timeout=DRIP_SECONDS + 20)
            stop.set()
        assert max(latencies) < 1.0, latencies
        # The drippers were cut off at the body timeout with a 408, not served or left hanging.
        assert len(answers) == DRIPPERS
        assert all(answer.startswith(b"HTTP/1.1 408") for answer in answers), answers[:3]
