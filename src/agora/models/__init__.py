"""All tables, one module each. Importing this package registers them on ``Base.metadata``."""

from agora.models.agent import Agent, Category, agent_categories
from agora.models.api_key import ApiKey
from agora.models.base import Base
from agora.models.conversation import Conversation, Message
from agora.models.job import Job, JobEvent
from agora.models.ledger import LedgerEntry
from agora.models.notification import NotificationDelivery
from agora.models.organization import Organization, OrganizationMember
from agora.models.project import Project
from agora.models.task import Task
from agora.models.user import User
from agora.models.workspace import Workspace

__all__ = [
    "Agent",
    "ApiKey",
    "Base",
    "Category",
    "Conversation",
    "Job",
    "JobEvent",
    "LedgerEntry",
    "Message",
    "NotificationDelivery",
    "Organization",
    "OrganizationMember",
    "Project",
    "Task",
    "User",
    "Workspace",
    "agent_categories",
]
