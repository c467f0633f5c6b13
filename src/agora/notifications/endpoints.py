"""/v1/notifications (key family): the webhook channel of job status notifications and its
delivery log. Notifications are sent only while `jobStatusNotificationsOptIn` is true."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request

from agora.auth.dependencies import ProfileWriter, Reader, SessionDep
from agora.kit.envelopes import EnvelopeA
from agora.kit.families import key_router
from agora.kit.outbound import OutboundPolicy
from agora.notifications import service
from agora.notifications.schemas import DeliveryOut, WebhookIn, WebhookOut

router = key_router(prefix="/notifications", tags=["notifications"])


@router.get("/webhook", response_model=EnvelopeA[WebhookOut], operation_id="getNotificationWebhook")
async def get_webhook(session: SessionDep, principal: Reader) -> EnvelopeA[WebhookOut]:
    """The current webhook URL (the secret is never shown again)."""
    return EnvelopeA[WebhookOut](data=await service.get_webhook(session, principal))


@router.put("/webhook", response_model=EnvelopeA[WebhookOut], operation_id="setNotificationWebhook")
async def put_webhook(
    body: WebhookIn, request: Request, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[WebhookOut]:
    """Set the webhook URL; a new signing secret is returned (once)."""
    policy = OutboundPolicy.from_setting(request.app.state.settings.outbound_allow)
    return EnvelopeA[WebhookOut](
        data=await service.set_webhook(session, principal, body.url, policy)
    )


@router.delete(
    "/webhook", response_model=EnvelopeA[WebhookOut], operation_id="deleteNotificationWebhook"
)
async def delete_webhook(session: SessionDep, principal: ProfileWriter) -> EnvelopeA[WebhookOut]:
    """Remove the webhook."""
    return EnvelopeA[WebhookOut](data=await service.delete_webhook(session, principal))


@router.get(
    "/deliveries",
    response_model=EnvelopeA[list[DeliveryOut]],
    operation_id="listNotificationDeliveries",
)
async def list_deliveries(
    session: SessionDep,
    principal: Reader,
    limit: Annotated[int, Query(ge=1, le=100, description="How many, newest first.")] = 20,
) -> EnvelopeA[list[DeliveryOut]]:
    """The delivery log: each notification, its attempts and outcome."""
    return EnvelopeA[list[DeliveryOut]](
        data=await service.deliveries(session, principal, limit=limit)
    )
