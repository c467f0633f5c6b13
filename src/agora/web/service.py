"""What the pages need beyond the other domains' services: job shares and files."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from agora.auth import service as auth
from agora.auth.principal import Principal
from agora.files import service as files_service
from agora.files.serving import is_preview
from agora.settings import Settings

# ---- job shares -----------------------------------------------------------------------------

SHARE_PATH = "/shares/"


def share_link(settings: Settings, token: str | None) -> str | None:
    """The web page of a job's share (the API's ``share.url`` stays ``/v1/shares/{token}``)."""
    return f"{settings.public_url.rstrip('/')}{SHARE_PATH}{token}" if token else None


@dataclass(frozen=True)
class ShareTarget:
    organization_id: uuid.UUID
    name: str


async def share_targets(session: AsyncSession, principal: Principal) -> list[ShareTarget]:
    """The organizations a job can be shared with: the signed-in person's own."""
    return [
        ShareTarget(org["id"], str(org["name"]))
        for org in await auth.memberships_of(session, principal.user_id)
    ]


_FILE_STATES = {
    "STORED": "",
    "AVAILABLE": "not fetched yet",
    "TOO_LARGE": "too large to keep",
    "REFUSED": "refused by policy",
    "UNREACHABLE": "unreachable",
}


def job_file_views(items: list[Any], settings: Settings) -> list[dict[str, Any]]:
    """The job page's files: stored ones link to a short-lived signed URL of this origin (an
    image of a preview type shows inline), the others say why they are not kept."""
    out = []
    for item in items:
        stored = item.status == "STORED"
        link = (
            files_service.signed_url(settings, item.id, seconds=3600, base="") if stored else None
        )
        out.append(
            {
                "name": item.name,
                "source": item.source,
                "size": item.size,
                "link": link,
                "preview": link if stored and is_preview(settings, item.mime_type) else None,
                "state": _FILE_STATES.get(item.status, item.status.lower()),
                "url": None if stored else item.source_url,
            }
        )
    return out
