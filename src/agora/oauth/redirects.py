"""Redirect URIs (docs/security.md, "OAuth redirect URIs"): which a client may register, which
presented URI matches a registered one, and the origin the consent page's CSP may name.

Every check parses the URI strictly here (``parsed``), never with ``urlsplit`` alone: urlsplit
keeps userinfo, ``;`` and spaces in the netloc, and a netloc taken verbatim once let a redirect
URI write directives into the consent page's Content-Security-Policy (issue 43.1).

The rules (RFC 3986 §3, RFC 8252 §7, OAuth 2.1 §2.3.1):
- at most ``MAX_URI_CHARS`` characters, each an RFC 3986 character (letters, digits and
  ``-._~:/?[]@!$&'()*+,;=%``): no whitespace, no control character, no ``"<>\\^`{|}``;
- absolute (a scheme, RFC 3986 §3.1 syntax), no fragment;
- ``https``; ``http`` only on a loopback host (``127.0.0.0/8``, ``[::1]``, ``localhost``); or
  an app's private-use scheme (RFC 8252 §7.1) with an authority, as Authlib's client metadata
  check requires (``com.example.app://callback``, ``cursor://host/path``), never
  ``javascript:``, ``data:``, ``file:`` and the like;
- the authority is ``host[:port]`` only: no userinfo (``@``), a host of DNS
  labels (letters, digits, ``-``), an IPv4 address or a bracketed IPv6 address, a port of digits
  (1 to 65535). So ``;``, ``,``, quotes and spaces never reach a scheme, host or port.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

MAX_URI_CHARS = 2000
_URI_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=%]+")  # fullmatch: "$" passes "\n"
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(.*)", re.S)
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")
_AUTHORITY = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[^:\[\]@]+)(?::(?P<port>[0-9]{1,5}))?")
_REFUSED_SCHEMES = {
    "javascript", "data", "file", "vbscript", "about", "blob", "filesystem", "ftp", "ws", "wss",
    "mailto", "tel", "view-source",
}  # fmt: skip
_LOOPBACK_NAMES = {"localhost"}


@dataclass(frozen=True)
class RedirectUri:
    """A redirect URI taken apart by the rules above (scheme and host lower-cased)."""

    scheme: str
    host: str
    port: int | None
    path: str
    query: str

    @property
    def origin(self) -> str:
        """``scheme://host[:port]`` rebuilt from the checked parts: the only form the consent
        page's CSP names (a CSP source expression)."""
        port = f":{self.port}" if self.port is not None else ""
        return f"{self.scheme}://{self.host}{port}"

    @property
    def loopback(self) -> bool:
        return self.scheme == "http" and is_loopback(self.host)


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if bare.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def _host(raw: str) -> str | None:
    """A checked host, lower-cased: DNS labels, IPv4, or bracketed IPv6; else None."""
    if raw.startswith("["):
        try:
            return f"[{ipaddress.IPv6Address(raw[1:-1]).compressed}]"
        except ValueError:
            return None
    return raw.lower() if _HOST.fullmatch(raw) else None


def parsed(uri: str) -> RedirectUri | None:
    """``uri`` by the rules in the module docstring, or None when it breaks one."""
    if not uri or len(uri) > MAX_URI_CHARS or not _URI_CHARS.fullmatch(uri) or "#" in uri:
        return None
    found = _SCHEME.fullmatch(uri)
    if found is None:
        return None
    scheme, rest = found.group(1).lower(), found.group(2)
    if scheme in _REFUSED_SCHEMES:
        return None
    if not rest.startswith("//"):
        return None
    authority, slash, tail = rest[2:].partition("/")
    path_and_query = slash + tail
    if "?" in authority:
        authority, _, query_first = authority.partition("?")
        path_and_query = "?" + query_first + path_and_query
    bits = _AUTHORITY.fullmatch(authority)
    host = _host(bits.group("host")) if bits else None
    if bits is None or host is None:
        return None
    port = int(bits.group("port")) if bits.group("port") is not None else None
    if port is not None and not 1 <= port <= 65535:
        return None
    path, _, query = path_and_query.partition("?")
    shaped = RedirectUri(scheme, host, port, path, query)
    return None if scheme == "http" and not shaped.loopback else shaped


def allowed(uri: str) -> bool:
    """A redirect URI a client may register (and present)."""
    return parsed(uri) is not None


def matches(registered: list[str], presented: str) -> bool:
    """``presented`` is one of ``registered``: scheme, host, port, path and query equal; only
    the port of a loopback ``http`` URI may differ (RFC 8252 §7.3: a native app picks a free
    port when it runs). A presented URI that breaks the rules (userinfo, ``;`` in the host, a
    fragment …) matches nothing."""
    shown = parsed(presented)
    if shown is None:
        return False
    for uri in registered:
        known = parsed(uri)
        if known is None:
            continue  # registered before these rules, and breaking them: never used
        if known == shown:
            return True
        same_but_port = (known.scheme, known.host, known.path, known.query) == (
            shown.scheme, shown.host, shown.path, shown.query,
        )  # fmt: skip
        if same_but_port and known.loopback:
            return True
    return False


def csp_origin(uri: str) -> str | None:
    """The origin the consent page's ``form-action`` may add, rebuilt from the checked parts;
    None for a URI that breaks the rules (the page then allows only itself)."""
    shown = parsed(uri)
    return shown.origin if shown is not None else None
