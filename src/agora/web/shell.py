"""The shell's part of every page: who is looking (``ViewerDep``, ``SignedInDep``), rendering a
template with the header's context, reading a posted form after its CSRF check, field errors.

The header shows what domains above the shell know (the person's workspaces, the balance, the
unread count): the composition root hands them in as a ``Layout`` (``api.LAYOUT``, kept on
``app.state.layout``), so the shell imports no domain.

A page that needs a person takes ``SignedInDep``: without a session it raises ``SignInFirst``,
which the app answers with a 303 to ``/sign-in?next=<this path>`` (``sign_in_first``). Any other
error a page does not show on its fields (``AgoraError``: 404 for another workspace's ids, 409 …)
is left to reach the app-wide HTML error page (``app.state.html_error_page``, render.error_page),
which reads the viewer stashed on ``request.state`` so it keeps the header of a signed-in page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from agora.auth.dependencies import (
    SessionDep,
    SessionPrincipalDep,
    check_csrf,
    csrf_token_for,
    public,
)
from agora.auth.principal import Principal
from agora.kit.errors import AgoraError
from agora.kit.timeutil import known_zone, utcnow, zone_names
from agora.kit.units import UnitOfWorkRoute
from agora.web.charts import bars
from agora.web.render import ZONE_COOKIE, chosen_zone, page, reader_zone

Text = Annotated[str | None, Query(max_length=200)]
# The shell's own routes (the home redirect, the icon); each domain's pages.py has its router.
router = APIRouter(include_in_schema=False, route_class=UnitOfWorkRoute)


HeaderPart = Callable[[AsyncSession, Principal], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Layout:
    """What the header shows of the domains: ``workspaces`` (the switcher; also on error pages,
    so it is read with the viewer) and ``parts`` (each adds keys to a rendered page's context)."""

    workspaces: Callable[[AsyncSession, Principal], Awaitable[Sequence[Any]]]
    parts: Sequence[HeaderPart] = ()


def _layout(request: Request) -> Layout:
    layout: Layout = request.app.state.layout
    return layout


class SignInFirst(Exception):  # a signal answered with a redirect, not an error
    """Raised by ``SignedInDep`` when no one is signed in; answered by ``sign_in_first``."""


async def sign_in_first(request: Request, _exc: Exception) -> RedirectResponse:
    """The app's handler for ``SignInFirst``: to the sign-in page, then back here."""
    path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/sign-in?next={quote(path, safe='')}", status_code=303)


async def _viewer(
    request: Request, session: SessionDep, principal: SessionPrincipalDep
) -> Principal | None:
    """The signed-in person (or None), with the header's workspace list, kept on
    ``request.state`` for the error page."""
    if principal is not None:
        request.state.web_principal = principal
        request.state.web_workspaces = await _layout(request).workspaces(session, principal)
    return principal


ViewerDep = Annotated[Principal | None, Depends(_viewer)]


async def _signed_in(principal: ViewerDep) -> Principal:
    if principal is None:
        raise SignInFirst
    return principal


SignedInDep = Annotated[Principal, Depends(_signed_in)]


async def render(
    request: Request,
    session: Any,
    principal: Principal | None,
    name: str,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    layout = _layout(request)
    choices: Sequence[Any] = []
    if principal is not None:
        choices = getattr(request.state, "web_workspaces", None) or await layout.workspaces(
            session, principal
        )
    base: dict[str, Any] = {
        "principal": principal,
        "csrf": csrf_token_for(request),
        "workspaces": choices,
    }
    if principal is not None:
        for part in layout.parts:
            base.update(await part(session, principal))
    shown = TOASTS.get(request.cookies.get(TOAST_COOKIE, ""))
    response = page(request, name, {**base, "toast": shown, **context}, status_code)
    if TOAST_COOKIE in request.cookies:
        response.delete_cookie(TOAST_COOKIE, path="/")
    return response


# Toasts: what an action did, said once on the page it redirects to (base.html, a status
# message app.js dismisses after a while or on its close button). The cookie holds a key of
# this catalogue, never text, so no one can make a page say something else.
TOAST_COOKIE = "agora_toast"
TOASTS = {
    "saved": "Saved.",
    "theme": "Theme changed.",
    "read-all": "Everything in your inbox is marked read.",
    "workspace": "Switched workspace.",
    "favourite-added": "Added to your favourites.",
    "favourite-removed": "Removed from your favourites.",
    "assistant-added": "Added to your assistant.",
    "assistant-removed": "Removed from your assistant.",
    "signed-out": "You are signed out.",
}


def toasted(request: Request, target: str, key: str) -> RedirectResponse:
    """A 303 to ``target`` whose page shows the toast ``key`` (of ``TOASTS``) once."""
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        TOAST_COOKIE, key, max_age=60, path="/", samesite="lax", httponly=True,
        secure=request.url.scheme == "https",
    )  # fmt: skip
    return response


def field_errors(exc: AgoraError, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for detail in exc.details:
        name = detail.field.removeprefix(prefix)
        out.setdefault(name, detail.reason)
    return out


async def posted(request: Request) -> FormData:
    """The posted form, after its CSRF token was checked (403 otherwise)."""
    form = await request.form(max_files=0, max_fields=200)
    token = form.get("csrf")
    check_csrf(request, token if isinstance(token, str) else None)
    return form


def text(form: FormData, name: str, limit: int = 10_000) -> str:
    value = form.get(name)
    return value[:limit] if isinstance(value, str) else ""


def safe_next(target: str | None, default: str = "/agents") -> str:
    """Only same-site paths (no open redirect)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return default
    return target


@router.get("/")
@public
async def home() -> RedirectResponse:
    return RedirectResponse("/agents", status_code=303)


_DEMO_SPEND = (3, 0, 5, 8, 2, 0, 0, 4, 9, 12, 6, 0, 3, 7)
_DEMO_CHART = bars(
    "demo-chart",
    "Credits spent per day",
    [(f"Nov {15 + i}", float(v), f"{v} credits") for i, v in enumerate(_DEMO_SPEND)],
    description="Credits spent per day from Nov 15 to Nov 28 (an example): 59 in all, "
    "at most 12 a day.",
)
THEMES = ("light", "dark")
THEME_COOKIE = "agora_theme"


def _cookie(request: Request, response: Response, name: str, value: str | None) -> None:
    """A preference kept in the browser (no account needed, nothing stored on the server)."""
    if value:
        response.set_cookie(
            name, value, max_age=400 * 86400, path="/", samesite="lax", httponly=True,
            secure=request.url.scheme == "https",
        )  # fmt: skip
    else:
        response.delete_cookie(name, path="/")


@router.post("/theme")
@public
async def choose_theme(request: Request) -> RedirectResponse:
    """The footer's theme choice: ``light``, ``dark`` or ``system`` (follow the device), kept in
    a cookie; base.html reads it. /settings/appearance offers the same with the time zone."""
    form = await posted(request)
    choice = text(form, "theme", 20)
    response = toasted(request, safe_next(text(form, "next", 500)), "theme")
    _cookie(request, response, THEME_COOKIE, choice if choice in THEMES else None)
    return response


APPEARANCE = "/settings/appearance"


async def _appearance_page(
    request: Request,
    session: Any,
    principal: Principal | None,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    chosen = chosen_zone(request)
    values = {
        "theme": request.cookies.get(THEME_COOKIE) or "system",
        "timezone": chosen.key if chosen else "",
    }
    return await render(
        request, session, principal, "settings_appearance.html", status_code,
        zones=zone_names(), detected=reader_zone(request).key if chosen is None else "",
        now=utcnow(),
        **{"values": values, "errors": {}, **context},
    )  # fmt: skip


@router.get(APPEARANCE)
async def appearance(request: Request, session: SessionDep, principal: ViewerDep) -> HTMLResponse:
    """The theme and the time zone every time is shown in (cookies: no account needed)."""
    return await _appearance_page(request, session, principal)


@router.post(APPEARANCE)
async def save_appearance(request: Request, session: SessionDep, principal: ViewerDep) -> Response:
    form = await posted(request)
    theme, zone = text(form, "theme", 20), text(form, "timezone", 100).strip()
    errors: dict[str, str] = {}
    if theme not in (*THEMES, "system"):
        errors["theme"] = "Choose As the device, Light or Dark."
    if zone and known_zone(zone) is None:
        errors["timezone"] = f"{zone!r} is not a time zone: choose one from the list."
    if errors:
        return await _appearance_page(
            request, session, principal, 400, values={"theme": theme, "timezone": zone},
            errors=errors,
        )  # fmt: skip
    response = toasted(request, APPEARANCE, "saved")
    _cookie(request, response, THEME_COOKIE, theme if theme in THEMES else None)
    _cookie(request, response, ZONE_COOKIE, zone or None)
    return response


@router.get("/design")
async def design(request: Request, session: SessionDep, principal: ViewerDep) -> HTMLResponse:
    """Every component of the design system on one page (public: it shows no one's data)."""
    return await render(request, session, principal, "design.html", demo_chart=_DEMO_CHART)


@router.get("/favicon.ico")
@public
async def favicon() -> RedirectResponse:
    """Browsers ask for /favicon.ico whatever the page says: the app's icon (pages name it with
    ``<link rel="icon">``), so no page shows a 404 in the console."""
    return RedirectResponse(
        "/static/favicon.svg", status_code=301, headers={"Cache-Control": "public, max-age=86400"}
    )
