"""Revocation across processes: each API process caches usable keys for a moment
(auth/service.py, PRINCIPAL_CACHE_SECONDS), so a key revoked by another process (here the CLI)
must be refused by EVERY API process within 1 s — while both are serving it under load, their
caches warm."""

from __future__ import annotations

import json
import threading
import time
import uuid

import httpx2
import pytest

from tests.support.server import create_user, run_cli, running_server

pytestmark = pytest.mark.process  # real API and CLI processes: make prove

DEADLINE_SECONDS = 1.0


def test_a_key_revoked_elsewhere_is_refused_by_every_api_process_within_one_second(
    postgres_env: dict[str, str],
) -> None:
    email = f"revoke-{uuid.uuid4().hex[:8]}@example.com"
    create_user(postgres_env, email)
    key = json.loads(run_cli(postgres_env, "keys", "create", "--user", email, "--json"))
    headers = {"x-api-key": key["apiKey"]}

    with running_server(postgres_env) as first, running_server(postgres_env) as second:
        bases = [first, second]
        with httpx2.Client(timeout=5) as client:
            for base in bases:
                assert client.get(f"{base}/v1/users/me", headers=headers).status_code == 200

        # Keep both processes serving the key (their caches warm) while another process revokes.
        stop = threading.Event()
        seen: list[tuple[float, int, int]] = []  # (monotonic time, process index, status)

        def hammer() -> None:
            with httpx2.Client(timeout=5) as client:
                deadline = time.monotonic() + 60  # bounded even if the test body fails
                while not stop.is_set() and time.monotonic() < deadline:
                    for index, base in enumerate(bases):
                        status = client.get(f"{base}/v1/users/me", headers=headers).status_code
                        seen.append((time.monotonic(), index, status))
                    time.sleep(0.01)

        thread = threading.Thread(target=hammer, daemon=True)
        thread.start()
        try:
            time.sleep(0.5)
            asked = time.monotonic()
            run_cli(postgres_env, "keys", "revoke", key["keyId"])  # commits before it returns
            revoked_at = time.monotonic()
            time.sleep(DEADLINE_SECONDS + 0.5)
        finally:
            stop.set()
            thread.join(timeout=10)

    before = [s for t, _, s in seen if t < asked]
    assert before and set(before) == {200}, "the key worked in both processes before"
    for index in range(2):
        late = [(t, s) for t, i, s in seen if i == index and t >= revoked_at + DEADLINE_SECONDS]
        assert late, f"process {index} was not asked after the deadline"
        assert {s for _, s in late} == {401}, f"process {index} still accepted the revoked key"
        refused = [t for t, i, s in seen if i == index and s == 401]
        assert refused[0] - revoked_at <= DEADLINE_SECONDS
