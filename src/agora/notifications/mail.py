"""A notification's mail: text and HTML from the kind's data (``templates/``), with the RFC 8058
one-click unsubscribe headers for that kind. The agent's message is rendered with the results'
sanitiser (``kit/markdown.py``: Markdown → nh3-cleaned HTML); everything else is escaped."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from agora.kit.mail import Mail
from agora.kit.markdown import markdown
from agora.models import NotificationDelivery, User
from agora.notifications import kinds as registry
from agora.notifications import unsubscribe

_ENV = Environment(
    loader=FileSystemLoader(str(Path(__file__).parent / "templates")),
    autoescape=select_autoescape(["html"]),
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)
# (user id, kind) → the signed one-click unsubscribe token
UnsubscribeToken = Callable[[str, str], str]


@dataclass(frozen=True)
class _Told:
    """What a delivery's payload says: its kind, data, title and link (a path)."""

    kind_name: str
    kind: registry.Kind | None
    data: dict[str, Any]
    title: str
    path: str

    @classmethod
    def of(cls, delivery: NotificationDelivery) -> _Told:
        payload = delivery.payload
        kind_name = str(payload.get("kind") or delivery.event)
        data: dict[str, Any] = dict(payload.get("data") or {})
        kind = registry.KINDS.get(kind_name)
        title = str(payload.get("title") or (kind.title(data) if kind else kind_name))
        path = kind.link(data) if kind is not None else None
        return cls(kind_name, kind, data, title, path or "/notifications")


def compose(
    delivery: NotificationDelivery,
    user: User,
    *,
    public_url: str,
    unsubscribe_token: UnsubscribeToken | None = None,
) -> Mail:
    told = _Told.of(delivery)
    base = public_url.rstrip("/")
    headers: tuple[tuple[str, str], ...] = ()
    unsubscribe_url = None
    if unsubscribe_token is not None:
        unsubscribe_url = unsubscribe.url(base, unsubscribe_token(str(user.id), told.kind_name))
        headers = unsubscribe.headers(unsubscribe_url)
    message = told.data.get("message")
    message = message if isinstance(message, str) else None
    values = {
        "name": user.name,
        "title": told.title,
        "description": told.kind.description if told.kind else "",
        "message": message,
        "message_html": markdown(message) if message else None,
        "link": base + told.path,
        "settings": f"{base}/settings/notifications",
        "unsubscribe": unsubscribe_url,
        "kind": told.kind_name,
    }
    return Mail(
        to=delivery.target,
        subject=told.title,
        text=_ENV.get_template("mail.txt").render(values),
        html=_ENV.get_template("mail.html").render(values),
        headers=headers,
    )


def compose_digest(
    public_url: str, deliveries: list[NotificationDelivery], user: User, unsubscribe_token: str
) -> Mail:
    """The hourly digest: one plain-text mail listing the held notifications (title and link),
    oldest first, with the settings page to change what is mailed and a one-click unsubscribe
    from the digest (``unsubscribe.DIGEST``: every digest kind's mail off)."""
    base = public_url.rstrip("/")
    unsubscribe_url = unsubscribe.url(base, unsubscribe_token)
    lines = [f"- {told.title}\n  {base}{told.path}" for told in map(_Told.of, deliveries)]
    count = len(deliveries)
    noun = "notification" if count == 1 else "notifications"
    text = (f"Hello {user.name},\n\n" if user.name else "Hello,\n\n") + (
        f"{count} {noun} since the last digest:\n\n"
        + "\n".join(lines)
        + f"\n\nYour inbox: {base}/notifications\n"
        f"Choose what is mailed: {base}/settings/notifications\n"
        f"Stop these digests: {unsubscribe_url}\n"
    )
    return Mail(
        to=deliveries[0].target,
        subject=f"Agora digest: {count} {noun}",
        text=text,
        headers=unsubscribe.headers(unsubscribe_url),
    )
