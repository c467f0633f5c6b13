"""A real A2A agent for tests, built with ``a2a-sdk``'s server (``DefaultRequestHandler``, an
``AgentExecutor``, the in-memory ``TaskStore``, the SDK's JSON-RPC and Agent Card routes), served
by uvicorn on a loopback port.

The painter: the first message of a task asks for input ("Which colour?"); the answer, sent as
the next message of the same task, is painted: it streams an artifact with a text part and a
file part (a URL this app serves) and completes. A message ``wait`` works until it is cancelled;
each cancel it receives is recorded. Its JSON-RPC endpoint wants ``Authorization: Bearer
<token>`` (the card says so: an HTTP bearer scheme)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from a2a.helpers.proto_helpers import new_task, new_text_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    HTTPAuthSecurityScheme,
    Part,
    SecurityRequirement,
    SecurityScheme,
    StringList,
    TaskState,
)
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from tests.support.server import serve_in_thread

REPORT = "colour report\n"


@dataclass
class Painter:
    """What the painter saw: the messages' texts and skills, the tasks cancelled."""

    base_url: str = ""
    token: str = "painter-token"
    messages: list[tuple[str, str | None]] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)
    auth_seen: list[str] = field(default_factory=list)


class PainterExecutor(AgentExecutor):
    def __init__(self, painter: Painter) -> None:
        self.painter = painter

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None and context.task_id and context.context_id
        text = context.get_user_input()
        skill = context.metadata.get("skill") if context.metadata else None
        skill = skill or (dict(context.message.metadata).get("skill") or None)
        self.painter.messages.append((text, skill))
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        first = context.current_task is None
        if first:
            await event_queue.enqueue_event(
                new_task(context.task_id, context.context_id, TaskState.TASK_STATE_SUBMITTED)
            )
        await updater.start_work()
        if first and text == "wait":
            for _ in range(600):  # bounded: 30 s, or until cancelled
                await asyncio.sleep(0.05)
            await updater.failed()
            return
        if first:
            await updater.requires_input(
                new_text_message(
                    "Which colour?", context_id=context.context_id, task_id=context.task_id
                )
            )
            return
        await updater.add_artifact(
            [
                Part(text=f"Painted in {text}"),
                Part(
                    url=f"{self.painter.base_url}/files/report.txt",
                    filename="report.txt",
                    media_type="text/plain",
                ),
            ],
            name="painting",
        )
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.task_id and context.context_id
        self.painter.cancelled.append(context.task_id)
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def card(base_url: str, *, streaming: bool = True) -> AgentCard:
    return AgentCard(
        name="Painter",
        description="Paints what you ask, in the colour you choose",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(
                url=f"{base_url}/rpc", protocol_binding="JSONRPC", protocol_version="1.0"
            )
        ],
        capabilities=AgentCapabilities(streaming=streaming),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        security_schemes={
            "bearer": SecurityScheme(
                http_auth_security_scheme=HTTPAuthSecurityScheme(scheme="bearer")
            )
        },
        security_requirements=[SecurityRequirement(schemes={"bearer": StringList()})],
        skills=[
            AgentSkill(id="paint", name="Paint", description="Paints", tags=["art"]),
            AgentSkill(id="sketch", name="Sketch", description="Sketches", tags=["art"]),
        ],
    )


class _Late:
    """The app, made once the port (and so the card's URLs) is known."""

    def __init__(self) -> None:
        self.inner: Any = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.inner(scope, receive, send)


def build_app(painter: Painter, *, streaming: bool = True) -> Any:
    agent_card = card(painter.base_url, streaming=streaming)
    handler = DefaultRequestHandler(
        agent_executor=PainterExecutor(painter),
        task_store=InMemoryTaskStore(),
        agent_card=agent_card,
    )
    rpc = create_jsonrpc_routes(handler, "/rpc")

    async def report(_request: Request) -> Response:
        return PlainTextResponse(REPORT)

    app = Starlette(
        routes=[*create_agent_card_routes(agent_card), *rpc, Route("/files/report.txt", report)]
    )

    async def bearer(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/rpc":
            headers = dict(scope["headers"])
            given = headers.get(b"authorization", b"").decode()
            painter.auth_seen.append(given)
            if given != f"Bearer {painter.token}":
                await JSONResponse({"error": "unauthorised"}, status_code=401)(scope, receive, send)
                return
        await app(scope, receive, send)

    return bearer


@contextmanager
def painter_agent(*, streaming: bool = True) -> Iterator[Painter]:
    """Serve a painter on loopback; its card is at ``{base_url}/.well-known/agent-card.json``."""
    late = _Late()
    with serve_in_thread(late, "a2a-painter") as base_url:
        painter = Painter(base_url=base_url)
        late.inner = build_app(painter, streaming=streaming)
        yield painter
