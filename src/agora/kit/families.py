"""Endpoint families (DESIGN §3). The family, not the credential form, fixes the envelope and the
error shape:

- KEY (jobs, agent jobs, users, credits, the x-api-key agent listing): Envelope A, Simple errors.
- BEARER (projects, history, tasks, conversations, agent listings and documents): Envelope B,
  Detailed errors.

A router made by ``key_router()`` or ``bearer_router()`` stamps its routes; the error handlers read
the stamp from the matched route. ``GET /v1/agents`` is split by credentials: an ``x-api-key``
request there belongs to the KEY family.
"""

from __future__ import annotations

import enum
from typing import Any

from fastapi import APIRouter
from starlette.requests import HTTPConnection

from agora.kit.units import UnitOfWorkRoute


class Family(enum.StrEnum):
    KEY = "key"
    BEARER = "bearer"


class _KeyRoute(UnitOfWorkRoute):
    family = Family.KEY


class _BearerRoute(UnitOfWorkRoute):
    family = Family.BEARER


def key_router(**kwargs: Any) -> APIRouter:
    return APIRouter(route_class=_KeyRoute, **kwargs)


def bearer_router(**kwargs: Any) -> APIRouter:
    return APIRouter(route_class=_BearerRoute, **kwargs)


def family_of(conn: HTTPConnection) -> Family:
    override = conn.scope.get("state", {}).get("family")
    if isinstance(override, Family):
        return override
    route = conn.scope.get("route")
    family = getattr(route, "family", None)
    return family if isinstance(family, Family) else Family.BEARER


def set_family(conn: HTTPConnection, family: Family) -> None:
    """For routes whose family depends on the request (``GET /v1/agents``)."""
    conn.state.family = family
