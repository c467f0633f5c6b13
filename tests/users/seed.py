"""One person's data in every table of models/personal_data.py that can be about a person, each
personal text carrying ``marker`` (so a test can look for it everywhere afterwards).

Rows are written directly: the point is to have a row of every kind, which the public surface
would take dozens of flows to make; what is checked (the export, the erasure) goes through the
HTTP doors and the worker."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta

from agora.files import service as files
from agora.kit.db import Database
from agora.kit.ids import uuid7
from agora.kit.timeutil import utcnow
from agora.models import (
    AccountDeletion,
    AccountToken,
    Agent,
    AssistantAgent,
    AuditEvent,
    BrowserSession,
    ConnectedAccount,
    Conversation,
    Coworker,
    CoworkerUsage,
    CreditPurchase,
    EarningsEntry,
    Favourite,
    Job,
    JobEvent,
    JobWebhook,
    LedgerEntry,
    Message,
    Notification,
    NotificationDelivery,
    NotificationPreference,
    OAuthClient,
    OAuthGrant,
    Organization,
    OrganizationMember,
    Passkey,
    Payout,
    Project,
    PromotionCode,
    PromotionRedemption,
    Rating,
    RatingReport,
    RecoveryCode,
    SavedInput,
    Schedule,
    ScheduleRun,
    SpendingCap,
    StoredFile,
    Task,
    TaskEvent,
    TaskParticipant,
    UserIdentity,
    WebhookEndpoint,
    WebhookSigningSecret,
)
from agora.models.notification import endpoint_id
from agora.models.statuses import JobStatus
from agora.settings import Settings
from tests.conftest import TestUser


@dataclass(frozen=True)
class Seeded:
    marker: str
    blob_key: str
    job_id: uuid.UUID


async def _blob(settings: Settings, key: str, data: bytes) -> None:
    async def chunks():  # type: ignore[no-untyped-def]
        yield data

    await files.storage_for(settings).write(key, chunks())


async def seed(db: Database, settings: Settings, person: TestUser, marker: str) -> Seeded:
    now = utcnow()
    uid, ws = person.user_id, person.workspace_id
    file_id = uuid7()
    key = files.storage_key(ws, file_id)
    await _blob(settings, key, f"bytes of {marker}".encode())
    hexed = uuid.uuid4().hex
    async with db.transaction() as s:
        agent = Agent(name=f"Operator agent {hexed[:6]}", base_url="http://127.0.0.1:9/")
        own = Agent(
            name="Own agent",
            base_url="http://127.0.0.1:9/own",
            owner_user_id=uid,
            source="developer",
            listing={"author": {"name": marker}},
        )
        org = Organization(slug=f"org-{hexed[:10]}", name="Team")
        client = OAuthClient(client_id=f"c-{hexed}", auth_method="none")
        code = PromotionCode(code=f"P{hexed[:10]}")
        s.add_all([agent, own, org, client, code])
        await s.flush()
        job = Job(
            workspace_id=ws,
            user_id=uid,
            agent_id=agent.id,
            name=marker,
            input_data={"text": marker},
            result=f"result {marker}",
            error=f"error {marker}",
            identifier_from_purchaser=hexed[:14],
            idempotency_key=marker,
            status=JobStatus.COMPLETED,
            dispatch_state="done",
        )
        task = Task(workspace_id=ws, creator_id=uid, name=marker, description=marker,
                    meta={"m": marker})  # fmt: skip
        project = Project(workspace_id=ws, name=marker, description=marker, created_by=uid)
        schedule = Schedule(
            workspace_id=ws, user_id=uid, agent_id=agent.id, name=marker,
            input_data={"m": marker}, interval_seconds=3600, starts_at=now,
        )  # fmt: skip
        conversation = Conversation(workspace_id=ws, user_id=uid, title=marker, description=marker)
        coworker = Coworker(owner_user_id=uid, slug=f"cw-{hexed[:10]}", name="Bot",
                            email=f"{marker}@company.example", company=marker)  # fmt: skip
        grant = OAuthGrant(client_pk=client.id, user_id=uid, workspace_id=ws, scopes=["read"])
        s.add_all([job, task, project, schedule, conversation, coworker, grant])
        await s.flush()
        rating = Rating(job_id=job.id, agent_id=agent.id, user_id=uid, workspace_id=ws, stars=4,
                        review=f"review {marker}")  # fmt: skip
        purchase = CreditPurchase(
            workspace_id=ws, user_id=uid, credits=100, price=100, currency="eur",
            stripe_payment_intent_id=f"pi_{hexed}", stripe_customer_id=f"cus_{hexed[:8]}",
        )  # fmt: skip
        s.add_all([rating, purchase])
        await s.flush()
        hook = f"http://127.0.0.1:9/{marker}"
        s.add_all(
            [
                JobEvent(job_id=job.id, type="status", detail={"m": marker}),
                JobWebhook(job_id=job.id, user_id=uid, url=hook),
                StoredFile(
                    id=file_id,
                    workspace_id=ws,
                    user_id=uid,
                    origin="upload",
                    name=f"{marker}.txt",
                    size=10,
                    storage_key=key,
                    state="stored",
                ),
                TaskEvent(
                    task_id=task.id,
                    comment=f"comment {marker}",
                    actor_user_id=uid,
                    actor_type="user",
                ),
                TaskParticipant(task_id=task.id, user_id=uid),
                ScheduleRun(
                    schedule_id=schedule.id,
                    occurrence_at=now,
                    status="created",
                    period=f"{now:%Y-%m}",
                ),
                SavedInput(
                    workspace_id=ws,
                    user_id=uid,
                    agent_id=agent.id,
                    name=marker,
                    input_data={"m": marker},
                ),
                Message(
                    conversation_id=conversation.id, role="user", content=marker, author_id=uid
                ),
                RatingReport(rating_id=rating.id, user_id=uid, reason=marker),
                Favourite(user_id=uid, agent_id=agent.id),
                AssistantAgent(user_id=uid, agent_id=agent.id),
                Notification(user_id=uid, kind="job.completed", title=marker, data={"m": marker}),
                NotificationPreference(
                    user_id=uid, kind="job.completed", channel="mail", enabled=True
                ),
                NotificationDelivery(
                    user_id=uid, event="job.completed", target=hook, payload={"m": marker}
                ),
                WebhookEndpoint(id=endpoint_id(uid, hook), user_id=uid, url=hook),
                WebhookSigningSecret(user_id=uid, secret=f"whsec_{hexed}"),
                LedgerEntry(
                    workspace_id=ws,
                    user_id=uid,
                    kind="grant",
                    amount=5,
                    balance_after=5,
                    memo="grant",
                ),
                PromotionRedemption(code_id=code.id, user_id=uid, seq=1, purchase_id=purchase.id),
                EarningsEntry(
                    owner_user_id=uid,
                    agent_id=own.id,
                    kind="earning",
                    credits=5,
                    currency="eur",
                    credit_value=1,
                    amount=5,
                    payable_at=now,
                ),
                ConnectedAccount(
                    account_key=f"user:{uid}",
                    owner_user_id=uid,
                    stripe_account_id=f"acct_{uuid.uuid4().hex[:16]}",
                ),
                Payout(
                    account_key=f"user:{uid}",
                    owner_user_id=uid,
                    period="2026-10",
                    currency="eur",
                    attempt=1,
                    amount=5,
                    status="paid",
                    stripe_account_id="acct_x",
                ),
                CoworkerUsage(
                    coworker_id=coworker.id,
                    user_id=uid,
                    workspace_id=ws,
                    idempotency_key=hexed,
                    credits=1,
                    request_hash=hexed,
                ),
                SpendingCap(workspace_id=ws, user_id=uid, monthly_limit=10, period=f"{now:%Y-%m}"),
                AuditEvent(
                    action="auth.sign_in",
                    actor_kind="user",
                    actor_id=uid,
                    client_address="203.0.113.9",
                    details={"m": marker},
                ),
                AuditEvent(
                    action="org.invitation_sent",
                    actor_kind="system",
                    details={"email": person.email},
                ),
                BrowserSession(
                    user_id=uid,
                    token_hash=uuid.uuid4().hex,
                    method="password",
                    user_agent=marker,
                    expires_at=now + timedelta(days=1),
                ),
                AccountToken(
                    purpose="magic_link",
                    token_hash=uuid.uuid4().hex,
                    user_id=uid,
                    email=person.email,
                    expires_at=now + timedelta(days=1),
                ),
                OrganizationMember(organization_id=org.id, user_id=uid, role="member"),
                Passkey(
                    user_id=uid,
                    credential_id=f"cred-{uuid.uuid4().hex}",
                    public_key=b"cose-public-key",
                    name=f"{marker} laptop",
                ),
                UserIdentity(
                    user_id=uid,
                    provider="oidc",
                    issuer="https://sso.example",
                    subject=f"{marker}-subject",
                    email=person.email,
                    email_verified=True,
                ),
                RecoveryCode(user_id=uid, code_hash=uuid.uuid4().hex + uuid.uuid4().hex),
                AccountDeletion(user_id=uid, state="cancelled", cancelled_at=now),
            ]
        )
    return Seeded(marker, key, job.id)
