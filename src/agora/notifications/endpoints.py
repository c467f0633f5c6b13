"""/v1/notifications (key family): the inbox (list, unread count, mark read/unread/all, read by
reference), preferences per kind and channel, the account-wide webhook, the per-job webhooks'
signing secret, redelivery and the delivery log (docs/notifications.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request, Response

from agora.auth.dependencies import ProfileWriter, Reader, SessionDep, SettingsDep
from agora.kit import wire
from agora.kit.envelopes import EnvelopeA, now_iso, written_a
from agora.kit.families import key_router
from agora.kit.openapi import errors
from agora.kit.outbound import OutboundPolicy
from agora.notifications import service
from agora.notifications.schemas import (
    DeliveryOut,
    MarkedOut,
    NotificationOut,
    NotificationPage,
    PreferenceOut,
    PreferencesIn,
    ReadByReferenceIn,
    SigningSecretOut,
    UnreadCountOut,
    WebhookEndpointOut,
    WebhookIn,
    WebhookOut,
)

router = key_router(prefix="/notifications", tags=["notifications"])
# Ids stay ``str`` in the path: a malformed id answers the same 404 as an unknown one.
NotificationId = Annotated[str, Path(alias="notificationId")]
DeliveryId = Annotated[str, Path(alias="deliveryId")]
EndpointId = Annotated[str, Path(alias="endpointId")]


@router.get("", response_model=EnvelopeA[NotificationPage], operation_id="listNotifications")
async def list_notifications(
    session: SessionDep,
    principal: Reader,
    settings: SettingsDep,
    unread: Annotated[bool, Query(description="Only unread ones.")] = False,
    kind: Annotated[
        str | None, Query(max_length=300, description="Kinds, comma-separated.")
    ] = None,
    cursor: Annotated[str | None, Query(max_length=1000)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    """Your notifications, newest first (cursor-paged), with the unread count."""
    inbox = await service.list_notifications(
        session,
        principal,
        secret=settings.resolved_secret_key(),
        unread=unread,
        kind=kind,
        cursor=cursor,
        limit=limit,
    )
    timestamp = now_iso()
    return wire.answer(
        written_a(inbox.page_json(), timestamp),
        lambda: EnvelopeA[NotificationPage](data=inbox.page(), timestamp=timestamp),
    )


@router.get("/unread-count", operation_id="countUnreadNotifications")
async def unread_count(session: SessionDep, principal: Reader) -> EnvelopeA[UnreadCountOut]:
    """How many of your notifications are unread."""
    count = await service.unread_count(session, principal)
    return EnvelopeA[UnreadCountOut](data=UnreadCountOut(unread_count=count))


@router.post(
    "/{notificationId}/read",
    operation_id="markNotificationRead",
    openapi_extra=errors(404),
)
async def mark_read(
    notification_id: NotificationId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[NotificationOut]:
    """Mark one notification read."""
    row = await service.mark(session, principal, notification_id, read=True)
    return EnvelopeA[NotificationOut](data=row)


@router.post(
    "/{notificationId}/unread",
    operation_id="markNotificationUnread",
    openapi_extra=errors(404),
)
async def mark_unread(
    notification_id: NotificationId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[NotificationOut]:
    """Mark one notification unread again."""
    row = await service.mark(session, principal, notification_id, read=False)
    return EnvelopeA[NotificationOut](data=row)


@router.post("/read-all", operation_id="markAllNotificationsRead")
async def mark_all_read(
    session: SessionDep,
    principal: ProfileWriter,
    kind: Annotated[str | None, Query(max_length=300, description="Only these kinds.")] = None,
) -> EnvelopeA[MarkedOut]:
    """Mark all (or all of some kinds) read."""
    return EnvelopeA[MarkedOut](data=await service.mark_all_read(session, principal, kind))


@router.post("/read-by-reference", operation_id="markNotificationsReadByReference")
async def read_by_reference(
    body: ReadByReferenceIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[MarkedOut]:
    """Mark read everything about one thing (``subjectRef``, e.g. "job:<id>")."""
    marked = await service.read_by_reference(session, principal, body.subjectRef)
    return EnvelopeA[MarkedOut](data=marked)


@router.get("/preferences", operation_id="getNotificationPreferences")
async def get_preferences(session: SessionDep, principal: Reader) -> EnvelopeA[list[PreferenceOut]]:
    """Each kind with its channels on or off (defaults unless you changed them)."""
    return EnvelopeA[list[PreferenceOut]](data=await service.preferences(session, principal))


@router.put("/preferences", operation_id="setNotificationPreferences")
async def put_preferences(
    body: PreferencesIn, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[list[PreferenceOut]]:
    """Turn channels on or off per kind; fields left out keep their value."""
    prefs = await service.set_preferences(session, principal, body.preferences)
    return EnvelopeA[list[PreferenceOut]](data=prefs)


@router.get("/signing-secret", operation_id="getWebhookSigningSecret", openapi_extra=errors(404))
async def get_signing_secret(
    session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[SigningSecretOut]:
    """The Standard Webhooks secret that signs your per-job webhooks (made with your first).
    Needs ``profile:write``, as rotating it does: whoever reads it can sign webhooks."""
    secret = await service.signing_secret(session, principal)
    return EnvelopeA[SigningSecretOut](data=SigningSecretOut(secret=secret))


@router.post("/signing-secret", operation_id="rotateWebhookSigningSecret")
async def rotate_signing_secret(
    session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[SigningSecretOut]:
    """A new signing secret for per-job webhooks (the old one stops at once)."""
    secret = await service.rotate_signing_secret(session, principal)
    return EnvelopeA[SigningSecretOut](data=SigningSecretOut(secret=secret))


@router.post(
    "/deliveries/{deliveryId}/redeliver",
    operation_id="redeliverNotification",
    openapi_extra=errors(404),
)
async def redeliver(
    delivery_id: DeliveryId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[DeliveryOut]:
    """Send a webhook delivery again (a new delivery with the same payload)."""
    return EnvelopeA[DeliveryOut](data=await service.redeliver(session, principal, delivery_id))


@router.get("/webhook", operation_id="getNotificationWebhook")
async def get_webhook(session: SessionDep, principal: Reader) -> EnvelopeA[WebhookOut]:
    """The current webhook URL (the secret is never shown again)."""
    return EnvelopeA[WebhookOut](data=await service.get_webhook(session, principal))


@router.put("/webhook", operation_id="setNotificationWebhook")
async def put_webhook(
    body: WebhookIn, request: Request, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[WebhookOut]:
    """Set the webhook URL; a new signing secret is returned (once)."""
    policy = OutboundPolicy.from_setting(request.app.state.settings.outbound_allow)
    return EnvelopeA[WebhookOut](
        data=await service.set_webhook(session, principal, body.url, policy)
    )


@router.delete("/webhook", operation_id="deleteNotificationWebhook")
async def delete_webhook(session: SessionDep, principal: ProfileWriter) -> EnvelopeA[WebhookOut]:
    """Remove the webhook."""
    return EnvelopeA[WebhookOut](data=await service.delete_webhook(session, principal))


@router.get("/deliveries", operation_id="listNotificationDeliveries")
async def list_deliveries(
    session: SessionDep,
    principal: Reader,
    limit: Annotated[int, Query(ge=1, le=100, description="How many, newest first.")] = 20,
    channel: Annotated[
        str, Query(max_length=20, description="webhook (account and per-job) | mail")
    ] = "webhook",
    job_id: Annotated[
        str | None, Query(alias="jobId", max_length=100, description="One job's deliveries.")
    ] = None,
) -> EnvelopeA[list[DeliveryOut]]:
    """The delivery log: each notification, its attempts and outcome."""
    found = await service.deliveries(
        session, principal, limit=limit, channel=channel, job_id=job_id
    )
    return EnvelopeA[list[DeliveryOut]](data=found)


@router.get("/webhook-endpoints", operation_id="listWebhookEndpoints")
async def list_webhook_endpoints(
    session: SessionDep, principal: Reader
) -> EnvelopeA[list[WebhookEndpointOut]]:
    """Your webhook URLs that a delivery failed to reach: failing, disabled, or healthy again."""
    return EnvelopeA[list[WebhookEndpointOut]](
        data=await service.list_endpoints(session, principal)
    )


@router.post(
    "/webhook-endpoints/{endpointId}/enable",
    operation_id="enableWebhookEndpoint",
    openapi_extra=errors(404),
)
async def enable_webhook_endpoint(
    endpoint_id: EndpointId, session: SessionDep, principal: ProfileWriter
) -> EnvelopeA[WebhookEndpointOut]:
    """Re-enable a disabled webhook endpoint (410 Gone, or failing for days)."""
    found = await service.enable_endpoint(session, principal, endpoint_id)
    return EnvelopeA[WebhookEndpointOut](data=found)
