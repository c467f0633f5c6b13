"""structlog setup: JSON lines in production, readable lines in development, the request id in
every line, and secrets redacted (API keys, Authorization, ``api_key`` query values)."""

from __future__ import annotations

import functools
import logging
import re
import sys
import threading
from collections.abc import MutableMapping
from datetime import UTC, datetime
from json import JSONEncoder
from typing import Any

import structlog

REDACTED = "[redacted]"
_SECRET_NAMES = re.compile(
    r"(authorization|api[_-]?key|secret|password|token|cookie|session_?id)", re.I
)
_KEY_VALUE = re.compile(r"agora_[a-z]{3}_[A-Za-z0-9_-]{8,}")
_QUERY_SECRET = re.compile(r"((?:api[_-]?key|token|secret|session_?id)=)[^&\s]*", re.I)
# MCP SSE session ids act as credentials: "session_id=<hex>", "session ID: <hex>" and the like.
# Every name the patterns above and below can match contains one of these (lower case); a
# share link's path contains "/shares/".
_SECRET_MARKERS = ("api", "token", "secret", "session", "/shares/")
# A share's token is the last segment of its link (/v1/shares/<token>, /shares/<token>).
_SHARE_PATH = re.compile(r"(/shares/)[^/?#\s\"']+")
_SESSION_ID = re.compile(r"(session[ _-]?id[\"']?\s*[:=]?\s*[\"']?)[0-9a-fA-F-]{16,}", re.I)


def redact_text(text: str) -> str:
    # Each pattern needs its marker: a key value "agora_", a query secret's or session id's
    # name (any case; non-ASCII text takes the regexes, whose IGNORECASE folds more than
    # lower() does). Most log text has none and is returned as it is (the access log redacts
    # every field of every line, "limit=20" included: docs/performance.md).
    if text.isascii() and "agora_" not in text:
        lowered = text.lower()
        if not any(name in lowered for name in _SECRET_MARKERS):
            return text
    text = _SESSION_ID.sub(r"\1" + REDACTED, text)
    if "/shares/" in text:
        text = _SHARE_PATH.sub(r"\1" + REDACTED, text)
    return _QUERY_SECRET.sub(r"\1" + REDACTED, _KEY_VALUE.sub(REDACTED, text))


@functools.lru_cache(maxsize=1024)
def _secret_name(name: str) -> bool:
    """Whether a field of this name holds a secret (the same few names recur: memoised)."""
    return _SECRET_NAMES.search(name) is not None


def _redact(value: Any, depth: int = 0) -> Any:
    if depth > 5:
        return value
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {
            k: (REDACTED if isinstance(k, str) and _secret_name(k) else _redact(v, depth + 1))
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_redact(v, depth + 1) for v in value]
    return value


def redact_processor(
    _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    for key, value in event_dict.items():
        if key != "event" and _secret_name(key):
            event_dict[key] = REDACTED
        elif isinstance(value, str):
            event_dict[key] = redact_text(value)
        elif value is not None and not isinstance(value, (int, float)):
            event_dict[key] = _redact(value)
    return event_dict


_WRITE_LOCK = threading.Lock()


def _write_line(message: str) -> None:
    """One line to the *current* ``sys.stderr``, looked up per line, so a replaced stream (a
    test's capture, a daemon's redirect) never leaves a logger writing to a closed file. One
    lock keeps lines from threads whole."""
    with _WRITE_LOCK:
        stream = sys.stderr
        stream.write(message + "\n")
        stream.flush()


class StderrLogger:
    """structlog's output (``_write_line``)."""

    def msg(self, message: str) -> None:
        _write_line(message)

    log = debug = info = warn = warning = error = critical = exception = fatal = failure = msg


_STDERR_LOGGER = StderrLogger()


def _stderr_logger(*_args: Any) -> StderrLogger:
    return _STDERR_LOGGER


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A stdlib handler for the current ``sys.stderr`` (the same reason as ``StderrLogger``)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, _value: Any) -> None:
        pass


# Bumped by every configure_logging: loggers bound once and reused (the access log's) rebind
# when it changes.
generation = 0
# What configure_logging chose, for ``write_json_event``: JSON lines, and the least level shown.
_json_lines = False
_least_level = logging.INFO


def write_json_event(level: int, event: str, fields: dict[str, Any]) -> bool:
    """The line structlog would write for ``logger.<level>(event, **fields)`` with the JSON
    configuration (the same keys, order, redaction and stream), written without its processor
    chain: for the access log, one line per request. False, writing nothing, when the console
    renderer is configured (the caller then logs through structlog)."""
    if not _json_lines:
        return False
    if level < _least_level:
        return True
    event_dict: dict[str, Any] = {**fields, "event": event}
    for key, value in structlog.contextvars.get_contextvars().items():
        event_dict.setdefault(key, value)
    name = _LEVEL_NAMES.get(level) or logging.getLevelName(level).lower()
    event_dict["level"] = name
    event_dict["timestamp"] = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    _write_line(_JSON.encode(redact_processor(None, name, event_dict)))
    return True


_LEVEL_NAMES = {n: logging.getLevelName(n).lower() for n in (10, 20, 30, 40, 50)}
_JSON = JSONEncoder(default=repr)  # as structlog's renderer: unknown values by their repr


def configure_logging(level: str = "INFO", *, json: bool = False) -> None:
    global generation, _json_lines, _least_level
    generation += 1
    _json_lines, _least_level = json, logging.getLevelName(level.upper())
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        redact_processor,
    ]
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if json
        else structlog.dev.ConsoleRenderer(
            colors=False, exception_formatter=structlog.dev.plain_traceback
        )
    )
    structlog.configure(
        processors=[*shared, structlog.processors.format_exc_info, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )
    # Route stdlib logs (uvicorn errors, SQLAlchemy warnings) through the same redaction.
    handler = _StderrHandler()
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
            foreign_pre_chain=shared,
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("uvicorn.access",):  # we write our own access log, with secrets redacted
        logging.getLogger(noisy).disabled = True
    # The HTTP client logs every URL it requests (webhook URLs, agents' paths) at INFO: only
    # its warnings pass; our own lines name destinations as scheme and host (redact_url).
    for chatty in ("httpx2", "httpcore2", "httpx", "httpcore"):
        logging.getLogger(chatty).setLevel(max(logging.WARNING, root.level))
    # SQL is never logged by the app's level (DEBUG included): SQLAlchemy's engine logs every
    # statement at INFO (its parameters are hidden: kit/db.py), the SQLite driver every call
    # with its parameters at DEBUG. Their warnings and errors pass.
    for database_logger in ("sqlalchemy.engine", "sqlalchemy.pool", "aiosqlite", "asyncpg"):
        logging.getLogger(database_logger).setLevel(max(logging.WARNING, root.level))
