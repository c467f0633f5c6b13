"""All tables, one module each. Importing this package registers them on ``Base.metadata``."""

from agora.models.account_token import AccountToken
from agora.models.agent import Agent, Category, agent_categories
from agora.models.agent_check import AgentCheck
from agora.models.agent_version import AgentVersion
from agora.models.api_key import ApiKey
from agora.models.assistant_agent import AssistantAgent
from agora.models.audit_event import AuditEvent
from agora.models.base import Base
from agora.models.browser_session import BrowserSession
from agora.models.conformance_run import ConformanceRun
from agora.models.conversation import Conversation, Message
from agora.models.coworker import Coworker, CoworkerUsage, CoworkerWorkspace
from agora.models.credit_pack import CreditPack
from agora.models.credit_purchase import CreditPurchase
from agora.models.earnings import EarningsEntry
from agora.models.job import Job, JobEvent
from agora.models.ledger import LedgerEntry
from agora.models.notification import (
    JobWebhook,
    Notification,
    NotificationDelivery,
    NotificationPreference,
    WebhookEndpoint,
    WebhookSigningSecret,
)
from agora.models.oauth import OAuthClient, OAuthDeviceCode, OAuthGrant, OAuthToken
from agora.models.organization import Organization, OrganizationMember
from agora.models.passkey import Passkey, RecoveryCode
from agora.models.payout import ConnectedAccount, Payout
from agora.models.privacy import AccountDeletion, DataExport
from agora.models.project import Project
from agora.models.promotion_code import PromotionCode, PromotionRedemption
from agora.models.rating import AgentDailyCompletions, Favourite, Rating, RatingReport
from agora.models.registry_checkpoint import RegistryCheckpoint
from agora.models.registry_quarantine import RegistryQuarantine
from agora.models.saved_input import SavedInput
from agora.models.schedule import Schedule, ScheduleRun
from agora.models.spending_cap import SpendingCap
from agora.models.stored_file import JobFileScan, StoredFile
from agora.models.stripe_event import StripeEvent
from agora.models.task import Task
from agora.models.task_event import TaskEvent
from agora.models.task_participant import TaskParticipant
from agora.models.user import User
from agora.models.user_identity import UserIdentity
from agora.models.workspace import Workspace

__all__ = [
    "AccountDeletion",
    "AccountToken",
    "Agent",
    "AgentCheck",
    "AgentDailyCompletions",
    "AgentVersion",
    "ApiKey",
    "AssistantAgent",
    "AuditEvent",
    "Base",
    "BrowserSession",
    "Category",
    "ConformanceRun",
    "ConnectedAccount",
    "Conversation",
    "Coworker",
    "CoworkerUsage",
    "CoworkerWorkspace",
    "CreditPack",
    "CreditPurchase",
    "DataExport",
    "EarningsEntry",
    "Favourite",
    "Job",
    "JobEvent",
    "JobFileScan",
    "JobWebhook",
    "LedgerEntry",
    "Message",
    "Notification",
    "NotificationDelivery",
    "NotificationPreference",
    "OAuthClient",
    "OAuthDeviceCode",
    "OAuthGrant",
    "OAuthToken",
    "Organization",
    "OrganizationMember",
    "Passkey",
    "Payout",
    "Project",
    "PromotionCode",
    "PromotionRedemption",
    "Rating",
    "RatingReport",
    "RecoveryCode",
    "RegistryCheckpoint",
    "RegistryQuarantine",
    "SavedInput",
    "Schedule",
    "ScheduleRun",
    "SpendingCap",
    "StoredFile",
    "StripeEvent",
    "Task",
    "TaskEvent",
    "TaskParticipant",
    "User",
    "UserIdentity",
    "WebhookEndpoint",
    "WebhookSigningSecret",
    "Workspace",
    "agent_categories",
]
