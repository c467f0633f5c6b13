"""/v1/notifications (key family): the webhook channel of job status notifications and its
delivery log. Notifications are sent only while `jobStatusNotificationsOptIn` is true."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query

from agora.auth.dependencies import SessionDep, require
from agora.auth.principal import Permission, Principal
from agora.kit.envelopes import EnvelopeA, envelope_a
from agora.kit.families import key_router
from agora.notifications import service
from agora.notifications.schemas import DeliveryOut, WebhookIn, WebhookOut

router = key_router(prefix="/notifications", tags=["notifications"])
Reader = Annotated[Principal, require(Permission.READ)]
Writer = Annotated[Principal, require(Permission.PROFILE_WRITE)]


@router.get("/webhook", response_model=EnvelopeA[WebhookOut], operation_id="getNotificationWebhook")
async def get_webhook(session: SessionDep, principal: Reader) -> dict[str, Any]:
    """The current webhook URL (the secret is never shown again)."""
    return envelope_a(await service.get_webhook(session, principal))


@router.put("/webhook", response_model=EnvelopeA[WebhookOut], operation_id="setNotificationWebhook")
async def put_webhook(body: WebhookIn, session: SessionDep, principal: Writer) -> dict[str, Any]:
    """Set the webhook URL; a new signing secret is returned (once)."""
    return envelope_a(await service.set_webhook(session, principal, body.url))


@router.delete(
    "/webhook", response_model=EnvelopeA[WebhookOut], operation_id="deleteNotificationWebhook"
)
async def delete_webhook(session: SessionDep, principal: Writer) -> dict[str, Any]:
    """Remove the webhook."""
    return envelope_a(await service.delete_webhook(session, principal))


@router.get(
    "/deliveries",
    response_model=EnvelopeA[list[DeliveryOut]],
    operation_id="listNotificationDeliveries",
)
async def list_deliveries(
    session: SessionDep,
    principal: Reader,
    limit: Annotated[int, Query(ge=1, le=100, description="How many, newest first.")] = 20,
) -> dict[str, Any]:
    """The delivery log: each notification, its attempts and outcome."""
    return envelope_a(await service.deliveries(session, principal, limit=limit))
