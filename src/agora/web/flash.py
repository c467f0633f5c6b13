"""A one-time message for the next page of the same browser session, never in a URL: the new
API key shown once after ``POST /keys`` answers with a redirect (PRG).

The text is sealed (AES-256-GCM, a key derived from the app's secret key) with the session
token as associated data, and travels in a cookie limited to one path (``HttpOnly``,
``SameSite=Strict``, five minutes). Nothing is stored on the server, so it works whichever API
process serves the next request; another session (or a tampered or expired cookie) reads
nothing; the page that shows it deletes the cookie, so a reload shows it no more.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from starlette.requests import Request
from starlette.responses import Response

from agora.auth.dependencies import secret_key, session_cookie
from agora.settings import Settings

MAX_AGE_SECONDS = 300


def _cookie_name(path: str) -> str:
    return "agora_flash" + path.replace("/", "_")


def _cipher(request: Request) -> AESGCM:
    key = hashlib.sha256(b"agora web flash\0" + secret_key(request).encode()).digest()
    return AESGCM(key)


def put(request: Request, response: Response, settings: Settings, path: str, text: str) -> None:
    """Seal ``text`` for the next GET of ``path`` by this browser session."""
    nonce = os.urandom(12)
    bound = (session_cookie(request) or "").encode()
    sealed = nonce + _cipher(request).encrypt(nonce, text.encode(), bound)
    response.set_cookie(
        _cookie_name(path),
        base64.urlsafe_b64encode(sealed).decode(),
        max_age=MAX_AGE_SECONDS,
        path=path,
        secure=settings.public_url.lower().startswith("https://"),
        httponly=True,
        samesite="strict",
    )


def take(request: Request, path: str) -> str:
    """The text sealed for this session and ``path`` (or ""), read once."""
    raw = request.cookies.get(_cookie_name(path))
    if not raw or len(raw) > 4000:
        return ""
    try:
        sealed = base64.urlsafe_b64decode(raw.encode())
        bound = (session_cookie(request) or "").encode()
        return _cipher(request).decrypt(sealed[:12], sealed[12:], bound).decode()
    except (InvalidTag, ValueError, binascii.Error, UnicodeDecodeError):
        return ""


def clear(request: Request, response: Response, path: str) -> None:
    """Delete the cookie once its text is shown (a reload shows nothing)."""
    if _cookie_name(path) in request.cookies:
        response.delete_cookie(_cookie_name(path), path=path, httponly=True, samesite="strict")
