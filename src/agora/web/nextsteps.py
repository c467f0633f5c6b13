"""What to do after a refusal (docs/web.md, "Refusals say what to do"): every refusal a page
shows — on the hire form or on the app's error page — names the next step and links to it.
Who may take the step is the roles table's answer (``auth.roles``), as everywhere."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from agora.auth.principal import Principal
from agora.auth.roles import OrgAction, role_allows
from agora.kit.errors import AgoraError


@dataclass(frozen=True)
class NextStep:
    text: str  # what to do, a whole sentence
    href: str  # where to do it
    label: str  # the link's words


def _org_page(principal: Principal) -> str:
    return f"/organizations/{principal.organization_id}"


def _may(principal: Principal, action: OrgAction) -> bool:
    return principal.organization_id is None or role_allows(principal.org_role, action)


def next_step(exc: AgoraError, principal: Principal | None, path: str = "/") -> NextStep | None:
    """The step that gets the person past ``exc``, or None when there is nothing to do but
    read the message (a bad input is shown on its field instead)."""
    back = quote(path, safe="/")
    status = exc.status_code
    if principal is None:
        if status in (401, 403):
            return NextStep("Sign in, then try again.", f"/sign-in?next={back}", "Sign in")
        return NextStep("Look for another agent.", "/agents", "Browse the agents")
    if status == 402 and "spending cap" in exc.message:
        if principal.organization_id is not None and not role_allows(
            principal.org_role, OrgAction.SET_CAPS
        ):
            return NextStep(
                "An owner of the organization can raise the cap: ask one of them (the members "
                "page lists them).",
                _org_page(principal),
                "See the organization's owners",
            )
        return NextStep(
            "As an owner you can raise or remove the cap (PUT or DELETE /v1/credits/caps, "
            "docs/billing.md), then try again.",
            "/docs",
            "The API's spending-cap routes",
        )
    if status == 402:
        if _may(principal, OrgAction.BUY_CREDITS):
            return NextStep(
                "Buy credits, then try again: you come back here after paying.",
                f"/credits/buy?next={back}",
                "Buy credits",
            )
        return NextStep(
            "Only the organization's owners and admins buy its credits: ask one of them (the "
            "members page lists them), or switch to your personal workspace.",
            _org_page(principal),
            "See the organization's owners and admins",
        )
    org_path = "/".join(path.split("/")[:3]) if path.startswith("/organizations/") else None
    if status == 403 and (org_path or principal.organization_id is not None):
        return NextStep(
            "Your role in this organization does not allow this: ask an owner or admin (the "
            "members page lists them).",
            org_path or _org_page(principal),
            "See the organization's owners and admins",
        )
    if status == 404:
        return NextStep(
            "It may belong to another workspace: switch workspace in the header, or go back to "
            "your history.",
            "/history",
            "Go to your history",
        )
    if status == 409:
        return NextStep(
            "Something changed meanwhile: reload the page to see it now.", path, "Reload"
        )
    return None
