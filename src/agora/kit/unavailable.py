"""A dependency that is down answers 503 with ``Retry-After`` (never 500): which exceptions mean
"the database is unreachable", and the error to raise for them."""

from __future__ import annotations

import sqlalchemy.exc

from agora.kit.errors import ServiceUnavailable

RETRY_AFTER_SECONDS = 5


def _classes() -> tuple[type[Exception], ...]:
    import asyncpg

    return (
        sqlalchemy.exc.DBAPIError,
        sqlalchemy.exc.TimeoutError,
        OSError,
        asyncpg.PostgresConnectionError,
        asyncpg.CannotConnectNowError,
    )


# The exception classes a database outage surfaces as (checked again by database_unavailable).
UNAVAILABLE_CLASSES = _classes()


def database_unavailable(exc: BaseException) -> bool:
    """Connection-level failures (refused, reset, pool timeout, server shutting down), not
    errors in a statement."""
    if isinstance(exc, sqlalchemy.exc.DBAPIError) and exc.connection_invalidated:
        return True
    if isinstance(exc, (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError)):
        return True
    if isinstance(exc, sqlalchemy.exc.TimeoutError):  # the pool had no connection in time
        return True
    if isinstance(exc, (ConnectionError, OSError, TimeoutError)):
        return True
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return False
    return isinstance(
        exc, (asyncpg.PostgresConnectionError, asyncpg.CannotConnectNowError)
    ) or isinstance(getattr(exc, "orig", None), asyncpg.PostgresConnectionError)


def database_error() -> ServiceUnavailable:
    return ServiceUnavailable(
        "The database is unavailable; retry shortly",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )
