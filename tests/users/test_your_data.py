"""Your data and deleting your account (issue 49 items 3 and 4; docs/accounts.md): through the
REST doors, the web page and the privacy worker, on SQLite and PostgreSQL."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import timedelta
from typing import Any

import httpx2
from sqlalchemy import JSON, String, Text, select
from sqlalchemy import text as sql

from agora.files import service as files
from agora.kit.db import Database
from agora.kit.timeutil import utcnow
from agora.models import Base, Job, LedgerEntry, User
from agora.models.personal_data import BY_NAME, ERASED_NAME, TABLES, Treat, erased_email
from agora.models.statuses import JobStatus
from agora.settings import Settings
from agora.users.worker import PrivacyWorker
from tests.accounts.helpers import last_link, mails_to, sign_in, sign_up_verified
from tests.conftest import MakeUser, TestUser
from tests.files.test_storage_check import check
from tests.users.seed import seed


def _texty(column: Any) -> bool:
    return isinstance(column.type, String | Text | JSON) or "JSON" in type(column.type).__name__


async def _everything(db: Database) -> str:
    """Every text and JSON value of every table, as one string."""
    found: list[str] = []
    async with db.transaction(write=False) as s:
        for table in Base.metadata.sorted_tables:
            columns = [c for c in table.columns if _texty(c)]
            if not columns:
                continue
            for row in (await s.execute(select(*columns))).all():
                found += [json.dumps(v) if not isinstance(v, str) else v for v in row if v]
    return "\n".join(found)


async def _export(
    client: httpx2.AsyncClient, settings: Settings, worker: PrivacyWorker, person: TestUser
) -> zipfile.ZipFile:
    asked = await client.post("/v1/users/me/data-exports", headers=person.key_headers)
    assert asked.status_code == 202, asked.text
    assert asked.json()["data"]["state"] == "pending"
    assert await worker.build_one() is True
    _, token = last_link(settings, person.email, "data export")
    got = await client.post(
        "/v1/users/me/data-exports/download", json={"token": token}, headers=person.key_headers
    )
    assert got.status_code == 200, got.text
    assert got.headers["content-type"] == "application/zip"
    again = await client.post(
        "/v1/users/me/data-exports/download", json={"token": token}, headers=person.key_headers
    )
    assert again.status_code == 400 and "already been used" in again.text
    return zipfile.ZipFile(io.BytesIO(got.content))


async def test_the_export_holds_every_kind_of_row_and_nothing_of_another_person(
    client: httpx2.AsyncClient, db: Database, settings: Settings, make_user: MakeUser
) -> None:
    alice = await make_user(name="Alice", email="alice-marker@example.com")
    bob = await make_user(name="Bob", email="bob-marker@example.com")
    a = await seed(db, settings, alice, "ALICE-PERSONAL-7f3")
    b = await seed(db, settings, bob, "BOB-PERSONAL-9c1")
    worker = PrivacyWorker(db, settings)

    archive = await _export(client, settings, worker, alice)

    names = set(archive.namelist())
    expected = {f"{t.name}.json" for t in TABLES if t.reach and t.export}
    assert expected <= names
    empty = [n for n in sorted(expected) if not json.loads(archive.read(n))]
    # data_exports: Alice's own export, pending while it is built; every other kind has a row.
    assert empty == [], f"kinds with no row in the export: {empty}"
    users = json.loads(archive.read("users.json"))
    assert [u["email"] for u in users] == [alice.email]
    assert "password_hash" not in users[0] and "notification_webhook_secret" not in users[0]
    keys = json.loads(archive.read("api_keys.json"))
    assert keys and all("key_hash" not in k for k in keys)
    jobs = json.loads(archive.read("jobs.json"))
    assert jobs[0]["input_data"] == {"text": a.marker} and a.marker in jobs[0]["result"]
    blobs = [n for n in names if n.startswith("files/")]
    assert len(blobs) == 1 and archive.read(blobs[0]) == f"bytes of {a.marker}".encode()
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["account"] == str(alice.user_id)

    everything = b"".join(archive.read(n) for n in names)
    assert a.marker.encode() in everything
    for trace in (b.marker, bob.email, str(bob.user_id), str(bob.workspace_id), str(b.job_id)):
        assert trace.encode() not in everything, f"another person's {trace} in the export"
    assert alice.api_key.encode() not in everything


async def test_a_download_link_is_for_its_person_only_and_expires(
    client: httpx2.AsyncClient, db: Database, settings: Settings, make_user: MakeUser
) -> None:
    alice = await make_user(name="Alice")
    bob = await make_user(name="Bob")
    worker = PrivacyWorker(db, settings)
    asked = await client.post("/v1/users/me/data-exports", headers=alice.key_headers)
    assert asked.status_code == 202
    # built long ago: its link expired
    assert await worker.build_one(now=utcnow() - timedelta(days=30)) is True
    _, token = last_link(settings, alice.email, "data export")
    by_bob = await client.post(
        "/v1/users/me/data-exports/download", json={"token": token}, headers=bob.key_headers
    )
    assert by_bob.status_code == 400 and "unknown link" in by_bob.text
    late = await client.post(
        "/v1/users/me/data-exports/download", json={"token": token}, headers=alice.key_headers
    )
    assert late.status_code == 400 and "expired" in late.text
    listed = await client.get("/v1/users/me/data-exports", headers=alice.key_headers)
    (row,) = listed.json()["data"]
    assert row["state"] == "ready"
    # the next round deletes the expired export's blob
    assert (await worker.run_once())["stale"] == 1
    listed = await client.get("/v1/users/me/data-exports", headers=alice.key_headers)
    assert listed.json()["data"][0]["state"] == "expired"


async def _confirm_deletion(
    client: httpx2.AsyncClient, settings: Settings, person: TestUser
) -> dict[str, Any]:
    asked = await client.post("/v1/users/me/deletion", headers=person.key_headers)
    assert asked.status_code == 202, asked.text
    assert asked.json()["data"]["state"] == "requested"
    _, token = last_link(settings, person.email, "Confirm deleting")
    confirmed = await client.post("/v1/users/me/deletion/confirm", json={"token": token})
    assert confirmed.status_code == 200, confirmed.text
    data: dict[str, Any] = confirmed.json()["data"]
    assert data["state"] == "scheduled"
    return data


async def test_after_the_grace_period_no_personal_data_is_left(
    client: httpx2.AsyncClient, db: Database, settings: Settings, make_user: MakeUser
) -> None:
    alice = await make_user(name="Alice Marker", email="alice-erase@example.com", credits=50)
    bob = await make_user(name="Bob Keeper", email="bob-keep@example.com")
    a = await seed(db, settings, alice, "ALICE-ERASE-5d2")
    b = await seed(db, settings, bob, "BOB-KEEP-8e4")
    worker = PrivacyWorker(db, settings)
    storage = files.storage_for(settings)
    assert await client.post("/v1/users/me/data-exports", headers=alice.key_headers)
    assert await worker.build_one()

    data = await _confirm_deletion(client, settings, alice)
    assert (await worker.run_once())["erased"] == 0  # the grace period runs
    due = utcnow() + timedelta(days=settings.accounts.account_deletion_grace_days, minutes=1)
    assert data["eraseAfter"] is not None
    assert (await worker.run_once(now=due))["erased"] == 1

    everything = await _everything(db)
    for trace in (a.marker, alice.email, "Alice Marker"):
        assert trace not in everything, f"{trace} left after the erasure"
    assert b.marker in everything and bob.email in everything  # another person is untouched

    # Every column the declaration says is erased or anonymised, in the rows about Alice.
    async with db.transaction(write=False) as s:
        user = await s.get(User, alice.user_id)
        assert user is not None
        assert user.email == erased_email(alice.user_id) and user.name == ERASED_NAME
        assert user.password_hash is None and user.suspended_at is not None
        for spec in TABLES:
            table = Base.metadata.tables[spec.name]
            for reach in spec.erase_reach:
                if reach.kind != "user" or spec.fate.value == "keep":
                    continue
                rows = (
                    await s.execute(select(table).where(table.c[reach.column] == alice.user_id))
                ).mappings()
                for row in rows:
                    assert spec.fate.value == "scrub", f"{spec.name}: a row left"
                    for name, col in spec.columns.items():
                        if col.treat is Treat.ERASE:
                            assert row[name] in (None, "", {}, []), f"{spec.name}.{name}"
        # what the books keep stays, pointing at the anonymous row
        kept = (
            await s.scalars(select(LedgerEntry).where(LedgerEntry.user_id == alice.user_id))
        ).all()
        assert kept
        assert (await s.execute(sql("SELECT count(*) FROM credit_purchases"))).scalar() == 2

    # the files' bytes are gone from storage; another person's stay
    assert not [k async for k in storage.list_keys() if k == a.blob_key]
    assert [k async for k in storage.list_keys() if k == b.blob_key]
    assert not [k async for k in storage.list_keys() if k.startswith(f"exports/{alice.user_id}")]
    # keys and sessions are revoked
    me = await client.get("/v1/users/me", headers=alice.key_headers)
    assert me.status_code == 401
    farewell = mails_to(settings, alice.email)[-1]
    assert "has been deleted" in str(farewell["Subject"])
    signed_in = await client.post(
        "/v1/auth/sign-in", json={"email": alice.email, "password": "anything-at-all-1"}
    )
    assert signed_in.status_code == 401


async def test_every_text_column_is_declared(db: Database) -> None:
    """The erasure test above checks the columns the declaration lists; this one that it lists
    every column (also tests/models/test_personal_data.py)."""
    for table in Base.metadata.sorted_tables:
        spec = BY_NAME[table.name]
        assert {c.name for c in table.columns if _texty(c)} <= set(spec.columns), table.name


async def test_the_only_owner_of_an_organization_is_refused(
    client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser
) -> None:
    alice = await make_user(name="Alice")
    made = await client.post(
        "/v1/organizations", json={"name": "Acme Research"}, headers=alice.key_headers
    )
    assert made.status_code == 201, made.text
    refused = await client.post("/v1/users/me/deletion", headers=alice.key_headers)
    assert refused.status_code == 409
    assert "only owner of Acme Research" in refused.text
    assert "transfer" in refused.text.lower() or "make another member an owner" in refused.text
    assert not [m for m in mails_to(settings, alice.email) if "Confirm deleting" in m["Subject"]]
    status = await client.get("/v1/users/me/deletion", headers=alice.key_headers)
    assert status.json()["data"]["state"] == "none"


async def test_signing_in_cancels_a_scheduled_deletion(
    client: httpx2.AsyncClient, db: Database, settings: Settings
) -> None:
    email = "carol-cancel@example.com"
    headers = await sign_up_verified(client, settings, email, name="Carol")
    asked = await client.post("/v1/users/me/deletion", headers=headers)
    assert asked.status_code == 202, asked.text
    _, token = last_link(settings, email, "Confirm deleting")
    confirmed = await client.post("/v1/users/me/deletion/confirm", json={"token": token})
    assert confirmed.status_code == 200
    # signed out everywhere: the old cookie no longer works
    assert (await client.get("/v1/users/me")).status_code == 401
    headers = await sign_in(client, email)
    status = await client.get("/v1/users/me/deletion", headers=headers)
    assert status.json()["data"]["state"] == "cancelled"
    worker = PrivacyWorker(db, settings)
    assert (await worker.run_once(now=utcnow() + timedelta(days=60)))["erased"] == 0
    me = await client.get("/v1/users/me", headers=headers)
    assert me.status_code == 200 and me.json()["data"]["email"] == email


async def test_the_settings_page_exports_and_refuses_the_only_owner(
    client: httpx2.AsyncClient, db: Database, settings: Settings
) -> None:
    email = "dora-page@example.com"
    headers = await sign_up_verified(client, settings, email, name="Dora")
    page = await client.get("/settings/data")
    assert page.status_code == 200 and "Delete your account" in page.text
    csrf = headers["X-CSRF-Token"]
    asked = await client.post("/settings/data/export", data={"csrf": csrf})
    assert asked.status_code == 303
    assert await PrivacyWorker(db, settings).build_one()
    url, token = last_link(settings, email, "data export")
    landing = await client.get(url.replace("http://testserver", ""))
    assert landing.status_code == 200 and token in landing.text
    got = await client.post("/settings/data/download", data={"csrf": csrf, "token": token})
    assert got.status_code == 200 and got.content[:2] == b"PK"
    made = await client.post("/v1/organizations", json={"name": "Dora Labs"}, headers=headers)
    assert made.status_code == 201
    refused = await client.post("/settings/data/delete", data={"csrf": csrf})
    assert refused.status_code == 409 and "only owner of Dora Labs" in refused.text


async def test_storage_check_knows_an_export_is_no_orphan(
    client: httpx2.AsyncClient, db: Database, settings: Settings, make_user: MakeUser
) -> None:
    alice = await make_user(name="Alice")
    assert (await client.post("/v1/users/me/data-exports", headers=alice.key_headers)).is_success
    assert await PrivacyWorker(db, settings).build_one()
    report = await check(settings, db)
    assert report["blobs"] == 1 and report["orphans"] == []


async def test_a_running_job_postpones_the_erasure(
    client: httpx2.AsyncClient, db: Database, settings: Settings, make_user: MakeUser
) -> None:
    alice = await make_user(name="Alice Running", email="alice-running@example.com")
    seeded = await seed(db, settings, alice, "ALICE-RUNNING-1a1")
    async with db.transaction() as s:
        job = await s.get(Job, seeded.job_id)
        assert job is not None
        job.dispatch_state, job.status = "leased", JobStatus.RUNNING
    await _confirm_deletion(client, settings, alice)
    worker = PrivacyWorker(db, settings)
    due = utcnow() + timedelta(days=settings.accounts.account_deletion_grace_days, minutes=1)
    assert (await worker.run_once(now=due))["erased"] == 0
    status = await client.get("/v1/users/me/deletion", headers=alice.key_headers)
    assert status.json()["data"]["state"] == "scheduled"  # a day later, tried again
    async with db.transaction() as s:
        job = await s.get(Job, seeded.job_id)
        assert job is not None
        job.dispatch_state, job.status = "done", JobStatus.COMPLETED
    assert (await worker.run_once(now=due + timedelta(days=1, minutes=1)))["erased"] == 1
    assert seeded.marker not in await _everything(db)


async def test_deleting_from_the_settings_page_and_keeping_the_account_by_signing_in(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    email = "erin-page@example.com"
    headers = await sign_up_verified(client, settings, email, name="Erin")
    asked = await client.post("/settings/data/delete", data={"csrf": headers["X-CSRF-Token"]})
    assert asked.status_code == 303 and asked.headers["location"] == "/settings/data?done=delete"
    page = await client.get("/settings/data?done=delete")
    assert "We mailed you a link" in page.text and "Keep my account" in page.text
    url, token = last_link(settings, email, "Confirm deleting")
    landing = await client.get(url.replace("http://testserver", ""))
    assert landing.status_code == 200 and "Delete my account" in landing.text
    done = await client.post(
        "/settings/data/delete/confirm", data={"csrf": headers["X-CSRF-Token"], "token": token}
    )
    assert done.status_code == 200 and "will be erased on" in done.text
    assert "will be deleted" in str(mails_to(settings, email)[-1]["Subject"])
    gone = await client.get("/settings/data")  # signed out everywhere
    assert gone.status_code == 303 and gone.headers["location"].startswith("/sign-in")
    again = await client.post(
        "/settings/data/delete/confirm", data={"csrf": headers["X-CSRF-Token"], "token": token}
    )
    assert again.status_code == 400 and "already been used" in again.text
    await sign_in(client, email)
    page = await client.get("/settings/data")
    assert page.status_code == 200 and "Keep my account" not in page.text
