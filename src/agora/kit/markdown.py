"""Untrusted Markdown → safe HTML: the one sanitiser of agent-provided text (results,
descriptions, an agent's question in a mail).

Rendered by markdown-it with raw HTML disabled, then cleaned by nh3 (an allow-list of tags and
attributes, http/https/mailto links only, ``rel="noopener noreferrer nofollow"``), so no script,
handler or ``javascript:`` link survives.
"""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt
from markupsafe import Markup

MAX_MARKDOWN_CHARS = 200_000

_RENDERER = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "code", "pre",
    "blockquote", "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td", "del",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "code": {"class"}, "th": {"align"}, "td": {"align"}}


def markdown(text: str | None) -> Markup:
    """Untrusted Markdown → safe HTML."""
    html = _RENDERER.render((text or "")[:MAX_MARKDOWN_CHARS])
    cleaned = nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
    return Markup(cleaned)  # noqa: S704 - nh3's output is the sanitised HTML
