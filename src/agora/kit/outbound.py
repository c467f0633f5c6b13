"""The one guard for every HTTP request Agora makes to a URL that a user or an admin gave it
(agents, notification webhooks, file or registry fetches).

- Only ``http``/``https`` URLs with a host and no userinfo (``user:pass@``).
- Every address the host resolves to is checked **at connect time**, inside the connection
  pool's network backend: the TCP connection goes to the very address that was checked (the URL's
  host name still drives ``Host`` and TLS SNI), so a DNS answer cannot change between the check and
  the connect (no rebinding gap). Literal addresses in odd notations (``2130706433``, ``127.1``,
  ``0x7f.1``, v4-mapped IPv6) resolve to their real address and are checked as such.
- Refused: loopback, private, link-local (cloud metadata 169.254.169.254), multicast, reserved,
  unspecified, CGNAT (100.64.0.0/10), IPv6 unique-local and site-local, NAT64/6to4/Teredo forms
  of those, and well-known metadata host names — unless the address falls in one of the CIDR
  ranges of the operator setting ``AGORA_OUTBOUND_ALLOW`` (empty by default).
- Redirects are never followed (clients are built with ``follow_redirects=False``): a 3xx is an
  answer like any other non-2xx.
- ``read_limited`` streams an answer and stops at a byte limit and a total-time limit.

Errors say only "refused by policy" or "unreachable"; which step failed (DNS, connect, port
closed, reset) is logged for operators but never returned to the user.

In-process routes: the embedded demo serves its own MIP-003 agents inside the API process. A
request to a loopback URL whose path starts with a registered local prefix is handed to that ASGI
app directly (it never touches the network), so the demo keeps working with the default policy.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import httpcore2
import httpx2

from agora.kit.internals import AutoBackend, replace_pool

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

REFUSED = "refused by policy"
UNREACHABLE = "unreachable"

# Ranges refused on top of what ``is_global`` already rules out (kept explicit for readers).
_BLOCKED: tuple[IPNetwork, ...] = tuple(
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",  # CGNAT
        "127.0.0.0/8",
        "169.254.0.0/16",  # link-local, cloud metadata
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "224.0.0.0/4",
        "240.0.0.0/4",
        "::/128",
        "::1/128",
        "fc00::/7",  # unique local
        "fe80::/10",  # link-local
        "fec0::/10",  # site-local (deprecated, still routed by some stacks)
        "ff00::/8",  # multicast
        "fd00:ec2::254/128",  # AWS metadata over IPv6
    )
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
METADATA_HOSTS = frozenset(
    {
        "metadata.google.internal",
        "metadata.goog",
        "metadata",
        "instance-data",
        "instance-data.ec2.internal",
        "metadata.azure.internal",
    }
)
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


class OutboundError(Exception):
    """Base of the guard's errors; ``str()`` is safe to show to users."""

    public = UNREACHABLE

    def __init__(self, detail: str = "") -> None:
        self.detail = detail  # for operators' logs only
        super().__init__(self.public)


class OutboundRefused(OutboundError):
    public = REFUSED


class OutboundUnreachable(OutboundError):
    public = UNREACHABLE


class OutboundTimeout(OutboundError):
    public = "no answer in time"


class OutboundTooLarge(OutboundError):
    public = "answer too large"


def parse_allow(value: str | Iterable[str] | None) -> tuple[IPNetwork, ...]:
    """``"127.0.0.1/32, ::1/128"`` → networks. Invalid entries raise ``ValueError``."""
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value)
    return tuple(ipaddress.ip_network(i.strip(), strict=False) for i in items if i.strip())


def _embedded_v4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip.teredo is not None:
        return ip.teredo[1]
    # IPv4-compatible (deprecated ::a.b.c.d)
    if int(ip) >> 32 == 0 and int(ip) > 1:
        return ipaddress.IPv4Address(int(ip))
    return None


def literal_address(host: str) -> IPAddress | None:
    """The address a literal host denotes, in any notation ``inet_aton`` accepts (``127.1``,
    ``2130706433``, ``0x7f.0.0.1``) or IPv6 (with or without brackets, with a zone)."""
    host = host.strip().strip("[]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    if host and all(c in "0123456789abcdefxABCDEFX." for c in host):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    return None


@dataclass(frozen=True)
class OutboundPolicy:
    """Which destinations are allowed. ``allow``: ranges exempt from the private-address rule."""

    allow: tuple[IPNetwork, ...] = ()

    @classmethod
    def from_setting(cls, value: str | None) -> OutboundPolicy:
        return cls(allow=parse_allow(value))

    def address_allowed(self, ip: IPAddress) -> bool:
        if any(ip.version == n.version and ip in n for n in self.allow):
            return True
        if isinstance(ip, ipaddress.IPv6Address):
            inner = _embedded_v4(ip)
            if inner is not None:
                return self.address_allowed(inner)
        if any(ip.version == n.version and ip in n for n in _BLOCKED):
            return False
        return ip.is_global and not ip.is_multicast

    def check_url(self, url: str) -> str:
        """Static checks (scheme, userinfo, host, literal addresses, metadata names); returns the
        host. Host names are checked again, resolved, at connect time."""
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as exc:
            raise OutboundRefused(f"unparsable URL: {exc}") from exc
        if parts.scheme.lower() not in ("http", "https"):
            raise OutboundRefused(f"scheme {parts.scheme!r}")
        if parts.username is not None or parts.password is not None or "@" in parts.netloc:
            raise OutboundRefused("userinfo in URL")
        host = (parts.hostname or "").rstrip(".").lower()
        if not host:
            raise OutboundRefused("no host")
        if port == 0:
            raise OutboundRefused("port 0")
        literal = literal_address(host)
        if literal is not None:
            if not self.address_allowed(literal):
                raise OutboundRefused(f"address {literal}")
            return host
        special = host in METADATA_HOSTS or host in LOOPBACK_NAMES or host.endswith(".localhost")
        if special and not self._name_allowed(host):
            raise OutboundRefused(f"host {host}")
        return host

    def _name_allowed(self, host: str) -> bool:
        # A loopback name is allowed only when loopback itself is exempted.
        if host in LOOPBACK_NAMES or host.endswith(".localhost"):
            return self.address_allowed(ipaddress.ip_address("127.0.0.1"))
        return False

    async def resolve(self, host: str, port: int, timeout: float | None) -> list[str]:  # noqa: ASYNC109
        """Resolve ``host`` once; every address must pass, else the connection is refused."""
        literal = literal_address(host)
        if literal is not None:
            addresses: list[IPAddress] = [literal]
        else:
            loop = asyncio.get_running_loop()
            try:
                infos = await asyncio.wait_for(
                    loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), timeout
                )
            except (OSError, TimeoutError) as exc:
                raise OutboundUnreachable(f"resolve {host}: {type(exc).__name__}") from exc
            addresses = []
            for info in infos:
                ip = literal_address(str(info[4][0]))
                if ip is not None and ip not in addresses:
                    addresses.append(ip)
        if not addresses:
            raise OutboundUnreachable(f"resolve {host}: no address")
        refused = [str(ip) for ip in addresses if not self.address_allowed(ip)]
        if refused:
            raise OutboundRefused(f"{host} resolves to {', '.join(refused)}")
        return [str(ip) for ip in addresses]


class GuardedBackend(httpcore2.AsyncNetworkBackend):
    """httpcore network backend: resolve, check, connect to the checked address."""

    def __init__(self, policy: OutboundPolicy) -> None:
        self.policy = policy
        self._inner = AutoBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's signature)
        local_address: str | None = None,
        socket_options: Iterable[httpcore2.SOCKET_OPTION] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        started = time.monotonic()
        addresses = await self.policy.resolve(host, port, timeout)
        last: Exception | None = None
        for address in addresses:
            remaining = (
                None if timeout is None else max(0.01, timeout - (time.monotonic() - started))
            )
            try:
                return await self._inner.connect_tcp(
                    address,
                    port,
                    timeout=remaining,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore2.ConnectError, httpcore2.ConnectTimeout, OSError) as exc:
                last = exc
        assert last is not None
        raise last

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 (httpcore's signature)
        socket_options: Iterable[httpcore2.SOCKET_OPTION] | None = None,
    ) -> httpcore2.AsyncNetworkStream:
        raise OutboundRefused("unix sockets")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


@cache
def shared_ssl_context() -> ssl.SSLContext:
    """httpx2's default TLS context (certifi's roots, no environment), made once per process:
    loading the roots costs 50-150 ms, and every guarded client made one, twice."""
    return httpx2.create_ssl_context(trust_env=False)


class GuardedTransport(httpx2.AsyncBaseTransport):
    """Checks each request's URL, then sends it over a pool whose backend checks addresses.
    Requests to a loopback host under a ``local`` path prefix go to that in-process app."""

    def __init__(
        self,
        policy: OutboundPolicy,
        *,
        local: Mapping[str, Any] | None = None,
        limits: httpx2.Limits | None = None,
    ) -> None:
        self.policy = policy
        tls = shared_ssl_context()
        self._http = httpx2.AsyncHTTPTransport(
            verify=tls, trust_env=False, limits=limits or httpx2.Limits()
        )
        # Replace the pool by one with the guarded backend (same options, no proxy, no env).
        pool_limits = limits or httpx2.Limits()
        pool = httpcore2.AsyncConnectionPool(
            ssl_context=tls,
            max_connections=pool_limits.max_connections,
            max_keepalive_connections=pool_limits.max_keepalive_connections,
            keepalive_expiry=pool_limits.keepalive_expiry,
            network_backend=GuardedBackend(policy),
        )
        replace_pool(self._http, pool)
        self._local: list[tuple[str, httpx2.AsyncBaseTransport]] = [
            (prefix.rstrip("/") + "/", httpx2.ASGITransport(app=app))
            for prefix, app in (local or {}).items()
        ]

    def _local_route(self, request: httpx2.Request) -> httpx2.AsyncBaseTransport | None:
        if not self._local:
            return None
        host = request.url.host.lower()
        literal = literal_address(host)
        loopback = host in LOOPBACK_NAMES or (literal is not None and literal.is_loopback)
        if not loopback:
            return None
        path = request.url.path
        for prefix, transport in self._local:
            if path.startswith(prefix):
                return transport
        return None

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        local = self._local_route(request)
        if local is not None:
            return await local.handle_async_request(request)
        self.policy.check_url(str(request.url))
        return await self._http.handle_async_request(request)

    async def aclose(self) -> None:
        await self._http.aclose()


def guarded_client(
    policy: OutboundPolicy,
    *,
    timeout: float,
    connect_timeout: float | None = None,
    headers: Mapping[str, str] | None = None,
    local: Mapping[str, Any] | None = None,
) -> httpx2.AsyncClient:
    """An ``AsyncClient`` for user- or admin-given URLs: guarded, no redirects, no env proxies."""
    return httpx2.AsyncClient(
        transport=GuardedTransport(policy, local=local),
        timeout=httpx2.Timeout(timeout, connect=min(timeout, connect_timeout or timeout)),
        follow_redirects=False,
        trust_env=False,
        headers=dict(headers or {}),
    )


@dataclass(frozen=True)
class Answer:
    status_code: int
    body: bytes
    headers: httpx2.Headers


async def send_limited(
    client: httpx2.AsyncClient,
    method: str,
    url: str,
    *,
    max_bytes: int,
    total_seconds: float,
    **kwargs: Any,
) -> Answer:
    """Send one request and stream its answer, stopping at ``max_bytes`` (``OutboundTooLarge``)
    and at ``total_seconds`` for the whole exchange (``OutboundTimeout``), whatever the peer's
    pace. Transport failures become ``OutboundUnreachable``; policy refusals stay refusals."""
    try:
        async with asyncio.timeout(total_seconds):
            async with client.stream(method, url, **kwargs) as response:
                declared = response.headers.get("content-length")
                if declared and declared.isdigit() and int(declared) > max_bytes:
                    raise OutboundTooLarge(f"declared {declared} bytes")
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_raw():
                    size += len(chunk)
                    if size > max_bytes:
                        raise OutboundTooLarge(f"over {max_bytes} bytes")
                    chunks.append(chunk)
                return Answer(response.status_code, b"".join(chunks), response.headers)
    except OutboundError:
        raise
    except (TimeoutError, httpx2.TimeoutException) as exc:
        raise OutboundTimeout(type(exc).__name__) from exc
    except (httpx2.TransportError, httpx2.InvalidURL, httpx2.UnsupportedProtocol, OSError) as exc:
        raise OutboundUnreachable(type(exc).__name__) from exc


def redact_url(url: str | None) -> str:
    """Scheme and host only (no path, query, userinfo): safe for logs."""
    if not url:
        return ""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        return f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
    except ValueError:
        return "<invalid url>"


__all__: Sequence[str] = [
    "REFUSED",
    "UNREACHABLE",
    "Answer",
    "GuardedTransport",
    "OutboundError",
    "OutboundPolicy",
    "OutboundRefused",
    "OutboundTimeout",
    "OutboundTooLarge",
    "OutboundUnreachable",
    "guarded_client",
    "literal_address",
    "parse_allow",
    "redact_url",
    "send_limited",
]
