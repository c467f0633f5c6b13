"""The browser-session cookies, for the REST endpoints and the server-rendered web app alike.

- ``<session_cookie>`` (default ``agora_session``): the session secret; HttpOnly, SameSite=Lax,
  Path=/, Secure when the public URL is https, Max-Age = the session lifetime.
- ``<session_cookie>_csrf``: the session's CSRF token, readable by the page's JavaScript (not
  HttpOnly) so it can echo it in ``X-CSRF-Token``; same flags otherwise.
"""

from __future__ import annotations

from starlette.responses import Response

from agora.kit.security import csrf_token
from agora.settings import Settings


def csrf_cookie_name(settings: Settings) -> str:
    return f"{settings.accounts.session_cookie}_csrf"


def set_session_cookies(
    response: Response, settings: Settings, secret_key: str, session_token: str
) -> str:
    """Set both cookies; returns the CSRF token."""
    secure = settings.public_url.lower().startswith("https://")
    max_age = int(settings.accounts.session_days * 86400)
    token = csrf_token(secret_key, session_token)
    response.set_cookie(
        settings.accounts.session_cookie,
        session_token,
        max_age=max_age,
        path="/",
        secure=secure,
        httponly=True,
        samesite="lax",
    )
    response.set_cookie(
        csrf_cookie_name(settings),
        token,
        max_age=max_age,
        path="/",
        secure=secure,
        httponly=False,
        samesite="lax",
    )
    return token


def clear_session_cookies(response: Response, settings: Settings) -> None:
    secure = settings.public_url.lower().startswith("https://")
    for name, httponly in (
        (settings.accounts.session_cookie, True),
        (csrf_cookie_name(settings), False),
    ):
        response.delete_cookie(name, path="/", secure=secure, httponly=httponly, samesite="lax")
