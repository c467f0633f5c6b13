"""/v1/conversations (bearer family: Envelope B, Detailed errors). Only the owner sees one."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query, Request

from agora.auth.dependencies import SessionDep, require
from agora.auth.principal import Permission, Principal
from agora.conversations import service
from agora.conversations.schemas import (
    ConversationCreate,
    ConversationOut,
    ConversationUpdate,
    MessageCreate,
    MessageOut,
)
from agora.kit.envelopes import EnvelopeB, envelope_b
from agora.kit.families import bearer_router
from agora.kit.pagination import PageDep

router = bearer_router(prefix="/conversations", tags=["conversations"])
Reader = Annotated[Principal, require(Permission.READ)]
Writer = Annotated[Principal, require(Permission.PROJECTS_WRITE)]


@router.get("", response_model=EnvelopeB[list[ConversationOut]], operation_id="listConversations")
async def list_conversations(
    request: Request,
    session: SessionDep,
    principal: Reader,
    paging: PageDep,
    archived: Annotated[
        service.Archived, Query(description="false (default), true (only archived) or all")
    ] = "false",
) -> dict[str, Any]:
    """The caller's conversations in the workspace, most recently updated first."""
    result = await service.list_conversations(
        session, principal.workspace_id, principal.user_id, archived, paging
    )
    data = [ConversationOut.of(c) for c in result.items]
    return envelope_b(request, data, paging.meta(result.total))


@router.post(
    "",
    status_code=201,
    response_model=EnvelopeB[ConversationOut],
    operation_id="createConversation",
)
async def create_conversation(
    body: ConversationCreate, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Start a conversation (owned by the caller)."""
    conversation = await service.create_conversation(
        session, principal.workspace_id, principal.user_id, body
    )
    return envelope_b(request, ConversationOut.of(conversation))


@router.get(
    "/{conversationId}",
    response_model=EnvelopeB[ConversationOut],
    operation_id="getConversation",
)
async def get_conversation(
    conversationId: str, request: Request, session: SessionDep, principal: Reader
) -> dict[str, Any]:
    """One of the caller's conversations."""
    conversation = await service.get_conversation(
        session, principal.workspace_id, principal.user_id, conversationId
    )
    return envelope_b(request, ConversationOut.of(conversation))


@router.patch(
    "/{conversationId}",
    response_model=EnvelopeB[ConversationOut],
    operation_id="updateConversation",
)
async def update_conversation(
    conversationId: str,
    body: ConversationUpdate,
    request: Request,
    session: SessionDep,
    principal: Writer,
) -> dict[str, Any]:
    """Rename the conversation (title and/or description)."""
    conversation = await service.update_conversation(
        session, principal.workspace_id, principal.user_id, conversationId, body
    )
    return envelope_b(request, ConversationOut.of(conversation))


@router.post(
    "/{conversationId}/archive",
    response_model=EnvelopeB[ConversationOut],
    operation_id="archiveConversation",
)
async def archive_conversation(
    conversationId: str, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Archive the conversation (idempotent)."""
    conversation = await service.set_archived(
        session, principal.workspace_id, principal.user_id, conversationId, archived=True
    )
    return envelope_b(request, ConversationOut.of(conversation))


@router.post(
    "/{conversationId}/unarchive",
    response_model=EnvelopeB[ConversationOut],
    operation_id="unarchiveConversation",
)
async def unarchive_conversation(
    conversationId: str, request: Request, session: SessionDep, principal: Writer
) -> dict[str, Any]:
    """Unarchive the conversation (idempotent)."""
    conversation = await service.set_archived(
        session, principal.workspace_id, principal.user_id, conversationId, archived=False
    )
    return envelope_b(request, ConversationOut.of(conversation))


@router.get(
    "/{conversationId}/messages",
    response_model=EnvelopeB[list[MessageOut]],
    operation_id="listConversationMessages",
)
async def list_messages(
    conversationId: str,
    request: Request,
    session: SessionDep,
    principal: Reader,
    paging: PageDep,
) -> dict[str, Any]:
    """The conversation's messages, oldest first."""
    result = await service.list_messages(
        session, principal.workspace_id, principal.user_id, conversationId, paging
    )
    data = [MessageOut.of(m) for m in result.items]
    return envelope_b(request, data, paging.meta(result.total))


@router.post(
    "/{conversationId}/messages",
    status_code=201,
    response_model=EnvelopeB[MessageOut],
    operation_id="appendConversationMessage",
)
async def append_message(
    conversationId: str,
    body: MessageCreate,
    request: Request,
    session: SessionDep,
    principal: Writer,
) -> dict[str, Any]:
    """Append a message (bumps the conversation's updatedAt)."""
    message = await service.append_message(
        session, principal.workspace_id, principal.user_id, conversationId, body
    )
    return envelope_b(request, MessageOut.of(message))
