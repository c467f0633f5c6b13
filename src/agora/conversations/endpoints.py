"""/v1/conversations (bearer family: Envelope B, Detailed errors). Only the owner sees one."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query, Request

from agora.auth.dependencies import ProjectsWriter, Reader, SessionDep
from agora.conversations import service
from agora.conversations.schemas import (
    ConversationCreate,
    ConversationOut,
    ConversationUpdate,
    MessageCreate,
    MessageOut,
)
from agora.kit.envelopes import EnvelopeB, meta_b
from agora.kit.families import bearer_router
from agora.kit.pagination import PageDep
from agora.models import Conversation

router = bearer_router(prefix="/conversations", tags=["conversations"])

# A conversation's id in the path; a malformed id answers the same 404 as an unknown one (or
# someone else's), so it stays a string here and the service parses it.
ConversationId = Annotated[str, Path(alias="conversationId")]


def _one(request: Request, conversation: Conversation) -> EnvelopeB[ConversationOut]:
    """The answer of every route that returns one conversation."""
    return EnvelopeB[ConversationOut](data=conversation, meta=meta_b(request))


@router.get("", operation_id="listConversations")
async def list_conversations(
    request: Request,
    session: SessionDep,
    principal: Reader,
    paging: PageDep,
    archived: Annotated[
        service.Archived, Query(description="false (default), true (only archived) or all")
    ] = "false",
) -> EnvelopeB[list[ConversationOut]]:
    """The caller's conversations in the workspace, most recently updated first."""
    found = await service.list_conversations(session, principal, archived, paging)
    meta = meta_b(request, paging.meta(found.total))
    return EnvelopeB[list[ConversationOut]](data=found.items, meta=meta)


@router.post("", status_code=201, operation_id="createConversation")
async def create_conversation(
    body: ConversationCreate, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[ConversationOut]:
    """Start a conversation (owned by the caller)."""
    return _one(request, await service.create_conversation(session, principal, body))


@router.get("/{conversationId}", operation_id="getConversation")
async def get_conversation(
    conversation_id: ConversationId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[ConversationOut]:
    """One of the caller's conversations."""
    return _one(request, await service.get_conversation(session, principal, conversation_id))


@router.patch("/{conversationId}", operation_id="updateConversation")
async def update_conversation(
    conversation_id: ConversationId,
    body: ConversationUpdate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[ConversationOut]:
    """Rename the conversation (title and/or description)."""
    changed = await service.update_conversation(session, principal, conversation_id, body)
    return _one(request, changed)


@router.post("/{conversationId}/archive", operation_id="archiveConversation")
async def archive_conversation(
    conversation_id: ConversationId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[ConversationOut]:
    """Archive the conversation (idempotent)."""
    archived = await service.set_archived(session, principal, conversation_id, archived=True)
    return _one(request, archived)


@router.post("/{conversationId}/unarchive", operation_id="unarchiveConversation")
async def unarchive_conversation(
    conversation_id: ConversationId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[ConversationOut]:
    """Unarchive the conversation (idempotent)."""
    active = await service.set_archived(session, principal, conversation_id, archived=False)
    return _one(request, active)


@router.get("/{conversationId}/messages", operation_id="listConversationMessages")
async def list_messages(
    conversation_id: ConversationId,
    request: Request,
    session: SessionDep,
    principal: Reader,
    paging: PageDep,
) -> EnvelopeB[list[MessageOut]]:
    """The conversation's messages, oldest first."""
    found = await service.list_messages(session, principal, conversation_id, paging)
    meta = meta_b(request, paging.meta(found.total))
    return EnvelopeB[list[MessageOut]](data=found.items, meta=meta)


@router.post(
    "/{conversationId}/messages", status_code=201, operation_id="appendConversationMessage"
)
async def append_message(
    conversation_id: ConversationId,
    body: MessageCreate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[MessageOut]:
    """Append a message (bumps the conversation's updatedAt)."""
    message = await service.append_message(session, principal, conversation_id, body)
    return EnvelopeB[MessageOut](data=message, meta=meta_b(request))
