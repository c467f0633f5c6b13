"""A notification's mail: text and HTML from the kind's data (``templates/``), with the RFC 8058
one-click unsubscribe headers for that kind. The agent's message is rendered with the results'
sanitiser (Markdown → nh3-cleaned HTML); everything else is escaped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from agora.kit.mail import Mail
from agora.models import NotificationDelivery, User
from agora.notifications import kinds as registry
from agora.notifications import unsubscribe
from agora.notifications.channels import SendContext

_ENV = Environment(
    loader=FileSystemLoader(str(Path(__file__).parent / "templates")),
    autoescape=select_autoescape(["html"]),
    undefined=StrictUndefined,
    keep_trailing_newline=True,
)


def _markdown(text: str) -> Any:
    from agora.web.render import markdown  # the results' sanitiser

    return markdown(text)


def compose(ctx: SendContext, delivery: NotificationDelivery, user: User) -> Mail:
    payload = delivery.payload
    kind_name = str(payload.get("kind") or delivery.event)
    data: dict[str, Any] = dict(payload.get("data") or {})
    kind = registry.KINDS.get(kind_name)
    base = ctx.public_url.rstrip("/")
    path = kind.link(data) if kind is not None else None
    link = f"{base}{path}" if path else base + "/notifications"
    title = str(payload.get("title") or (kind.title(data) if kind else kind_name))
    headers: list[tuple[str, str]] = []
    unsubscribe_url = None
    if ctx.unsubscribe_token is not None:
        token = ctx.unsubscribe_token(str(user.id), kind_name)
        unsubscribe_url = unsubscribe.url(base, token)
        headers += unsubscribe.headers(unsubscribe_url)
    message = data.get("message") if isinstance(data.get("message"), str) else None
    values = {
        "name": user.name,
        "title": title,
        "description": kind.description if kind else "",
        "message": message,
        "message_html": _markdown(message) if message else None,
        "link": link,
        "settings": f"{base}/settings/notifications",
        "unsubscribe": unsubscribe_url,
        "kind": kind_name,
    }
    return Mail(
        to=delivery.target,
        subject=title,
        text=_ENV.get_template("mail.txt").render(values),
        html=_ENV.get_template("mail.html").render(values),
        headers=tuple(headers),
    )


def compose_digest(
    public_url: str, deliveries: list[NotificationDelivery], user: User, unsubscribe_token: str
) -> Mail:
    """The hourly digest: one plain-text mail listing the held notifications (title and link),
    oldest first, with the settings page to change what is mailed and a one-click unsubscribe
    from the digest (``unsubscribe.DIGEST``: every digest kind's mail off)."""
    base = public_url.rstrip("/")
    unsubscribe_url = unsubscribe.url(base, unsubscribe_token)
    lines = []
    for delivery in deliveries:
        payload = delivery.payload
        kind_name = str(payload.get("kind") or delivery.event)
        data: dict[str, Any] = dict(payload.get("data") or {})
        kind = registry.KINDS.get(kind_name)
        title = str(payload.get("title") or (kind.title(data) if kind else kind_name))
        path = kind.link(data) if kind is not None else None
        lines.append(f"- {title}\n  {base}{path or '/notifications'}")
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
