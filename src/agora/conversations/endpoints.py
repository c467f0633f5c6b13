"""/v1/conversations (bearer family: Envelope B, Detailed errors). Only the owner sees one."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query, Request

from agora.auth.dependencies import ConversationId, ProjectsWriter, Reader, SessionDep
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

router = bearer_router(prefix="/conversations", tags=["conversations"])


@router.get("", response_model=EnvelopeB[list[ConversationOut]], operation_id="listConversations")
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
    result = await service.list_conversations(
        session, principal.workspace_id, principal.user_id, archived, paging
    )
    return EnvelopeB[list[ConversationOut]](
        data=result.items, meta=meta_b(request, paging.meta(result.total))
    )


@router.post(
    "",
    status_code=201,
    response_model=EnvelopeB[ConversationOut],
    operation_id="createConversation",
)
async def create_conversation(
    body: ConversationCreate, request: Request, session: SessionDep, principal: ProjectsWriter
) -> EnvelopeB[ConversationOut]:
    """Start a conversation (owned by the caller)."""
    conversation = await service.create_conversation(
        session, principal.workspace_id, principal.user_id, body
    )
    return EnvelopeB[ConversationOut](data=conversation, meta=meta_b(request))


@router.get(
    "/{conversationId}",
    response_model=EnvelopeB[ConversationOut],
    operation_id="getConversation",
)
async def get_conversation(
    conversation_id: ConversationId, request: Request, session: SessionDep, principal: Reader
) -> EnvelopeB[ConversationOut]:
    """One of the caller's conversations."""
    conversation = await service.get_conversation(
        session, principal.workspace_id, principal.user_id, conversation_id
    )
    return EnvelopeB[ConversationOut](data=conversation, meta=meta_b(request))


@router.patch(
    "/{conversationId}",
    response_model=EnvelopeB[ConversationOut],
    operation_id="updateConversation",
)
async def update_conversation(
    conversation_id: ConversationId,
    body: ConversationUpdate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[ConversationOut]:
    """Rename the conversation (title and/or description)."""
    conversation = await service.update_conversation(
        session, principal.workspace_id, principal.user_id, conversation_id, body
    )
    return EnvelopeB[ConversationOut](data=conversation, meta=meta_b(request))


@router.post(
    "/{conversationId}/archive",
    response_model=EnvelopeB[ConversationOut],
    operation_id="archiveConversation",
)
async def archive_conversation(
    conversation_id: ConversationId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[ConversationOut]:
    """Archive the conversation (idempotent)."""
    conversation = await service.set_archived(
        session, principal.workspace_id, principal.user_id, conversation_id, archived=True
    )
    return EnvelopeB[ConversationOut](data=conversation, meta=meta_b(request))


@router.post(
    "/{conversationId}/unarchive",
    response_model=EnvelopeB[ConversationOut],
    operation_id="unarchiveConversation",
)
async def unarchive_conversation(
    conversation_id: ConversationId,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[ConversationOut]:
    """Unarchive the conversation (idempotent)."""
    conversation = await service.set_archived(
        session, principal.workspace_id, principal.user_id, conversation_id, archived=False
    )
    return EnvelopeB[ConversationOut](data=conversation, meta=meta_b(request))


@router.get(
    "/{conversationId}/messages",
    response_model=EnvelopeB[list[MessageOut]],
    operation_id="listConversationMessages",
)
async def list_messages(
    conversation_id: ConversationId,
    request: Request,
    session: SessionDep,
    principal: Reader,
    paging: PageDep,
) -> EnvelopeB[list[MessageOut]]:
    """The conversation's messages, oldest first."""
    result = await service.list_messages(
        session, principal.workspace_id, principal.user_id, conversation_id, paging
    )
    return EnvelopeB[list[MessageOut]](
        data=result.items, meta=meta_b(request, paging.meta(result.total))
    )


@router.post(
    "/{conversationId}/messages",
    status_code=201,
    response_model=EnvelopeB[MessageOut],
    operation_id="appendConversationMessage",
)
async def append_message(
    conversation_id: ConversationId,
    body: MessageCreate,
    request: Request,
    session: SessionDep,
    principal: ProjectsWriter,
) -> EnvelopeB[MessageOut]:
    """Append a message (bumps the conversation's updatedAt)."""
    message = await service.append_message(
        session, principal.workspace_id, principal.user_id, conversation_id, body
    )
    return EnvelopeB[MessageOut](data=message, meta=meta_b(request))
