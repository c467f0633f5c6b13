"""Notifications for people and programs: the inbox, mail and webhooks, written by the outbox in
the transaction of the event (docs/notifications.md). Other domains call ``notify``."""

from agora.notifications.outbox import notify

__all__ = ["notify"]
