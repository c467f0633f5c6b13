"""Every door of an action calls the same use case.

An action a person can take through more than one door — a REST route, a web page, an MCP tool,
an A2A method (``a2aserver/handler.py``) — is one function of its domain (the use case); each
door parses, authorises, calls it and shapes the answer. ``ACTIONS`` lists every action with more
than one door: its use case and its doors. The test reads each door's code (and the private
helpers of the door's own module that it calls or hands on) and checks that it reaches that use
case. Every MCP tool is in ``ACTIONS`` or in ``ONE_DOOR`` with why, so a new tool must say which
action it is; the scanner's self-tests show that it fails when a door calls something else.
"""

from __future__ import annotations

import ast
import inspect
import linecache
import textwrap
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, iter_route_contexts

from agora import api
from agora.a2aserver.handler import AgoraRequestHandler

DOOR_MODULES = frozenset(
    {"endpoints", "admin", "pages", "ops_pages", "provider_pages", "tools", "handler"}
)
# The A2A methods Agora answers, by the method of its RequestHandler that answers each.
A2A_METHODS = {
    "message/send": "on_message_send",
    "message/stream": "on_message_send_stream",
    "tasks/get": "on_get_task",
    "tasks/cancel": "on_cancel_task",
    "tasks/resubscribe": "on_subscribe_to_task",
}


@dataclass(frozen=True)
class Action:
    use_case: str  # "module.function", as it is defined (e.g. "agora.jobs.admission.create_job")
    rest: tuple[str, ...] = ()  # operation ids
    pages: tuple[str, ...] = ()  # "METHOD /path"
    tools: tuple[str, ...] = ()  # MCP tool names
    a2a: tuple[str, ...] = ()  # A2A methods (A2A_METHODS)


def _a(use_case: str, *, rest: str = "", pages: str = "", tools: str = "", a2a: str = "") -> Action:
    def split(text: str, sep: str = ",") -> tuple[str, ...]:
        return tuple(part.strip() for part in text.split(sep) if part.strip())

    return Action(use_case, split(rest), split(pages, ";"), split(tools), split(a2a))


ACTIONS: dict[str, Action] = {
    # accounts
    "sign up": _a("agora.accounts.signin.sign_up", rest="signUp", pages="POST /sign-up"),
    "verify an email address": _a(
        "agora.accounts.signin.verify_email",
        rest="verifyEmail, verifyEmailLink",
        pages="POST /verify-email",
    ),
    "sign in with a password": _a(
        "agora.accounts.signin.sign_in", rest="signIn", pages="POST /sign-in"
    ),
    "unlink an identity provider": _a(
        "agora.accounts.identities.unlink",
        rest="unlinkIdentity",
        pages="POST /settings/sign-in/identities/{identity_id}/unlink",
    ),
    "list the linked identity providers": _a(
        "agora.accounts.identities.linked", rest="listIdentities", pages="GET /settings/sign-in"
    ),
    "sign in with a mailed link": _a(
        "agora.accounts.signin.sign_in_with_link", rest="signInWithLink", pages="POST /magic-link"
    ),
    "reset a password": _a(
        "agora.accounts.passwords.reset_password",
        rest="confirmPasswordReset",
        pages="POST /reset-password",
    ),
    "sign out": _a("agora.accounts.service.sign_out", rest="signOut", pages="POST /sign-out"),
    "switch workspace": _a(
        "agora.accounts.service.switch_workspace", rest="switchWorkspace", pages="POST /workspace"
    ),
    "list API keys": _a("agora.accounts.keys.list_keys", rest="listApiKeys", pages="GET /keys"),
    # your data (users/privacy.py)
    "ask for a data export": _a(
        "agora.users.privacy.request_export",
        rest="requestDataExport",
        pages="POST /settings/data/export",
    ),
    "download a data export": _a(
        "agora.users.privacy.take_export",
        rest="downloadDataExport",
        pages="POST /settings/data/download",
    ),
    "ask to delete the account": _a(
        "agora.users.privacy.request_deletion",
        rest="requestAccountDeletion",
        pages="POST /settings/data/delete",
    ),
    "confirm deleting the account": _a(
        "agora.users.privacy.confirm_deletion",
        rest="confirmAccountDeletion",
        pages="POST /settings/data/delete/confirm",
    ),
    "keep the account": _a(
        "agora.users.privacy.cancel_deletion",
        rest="cancelAccountDeletion",
        pages="POST /settings/data/delete/cancel",
    ),
    "create an API key": _a(
        "agora.accounts.keys.create_key", rest="createApiKey", pages="POST /keys"
    ),
    "revoke an API key": _a(
        "agora.accounts.keys.revoke_key", rest="revokeApiKey", pages="POST /keys/{key_id}/revoke"
    ),
    "read your profile": _a(
        "agora.users.service.get_profile",
        rest="getCurrentUser",
        tools="get_profile, get_user_profile",
    ),
    "change your profile": _a(
        "agora.users.service.update_profile", rest="updateCurrentUser", tools="update_profile"
    ),
    # organizations
    "create an organization": _a(
        "agora.organizations.service.create", rest="createOrganization", pages="POST /organizations"
    ),
    "list your organizations": _a(
        "agora.organizations.service.list_mine",
        rest="listOrganizations",
        pages="GET /organizations",
    ),
    "invite to an organization": _a(
        "agora.organizations.service.invite",
        rest="createInvitation",
        pages="POST /organizations/{org_id}/invitations",
    ),
    "revoke an invitation": _a(
        "agora.organizations.service.revoke_invitation",
        rest="revokeInvitation",
        pages="POST /organizations/{org_id}/invitations/{invitation_id}/revoke",
    ),
    "accept an invitation": _a(
        "agora.organizations.service.accept",
        rest="acceptInvitation",
        pages="POST /invitations/accept",
    ),
    "change a member's role": _a(
        "agora.organizations.service.change_role",
        rest="changeMemberRole",
        pages="POST /organizations/{org_id}/members/{user_id}/role",
    ),
    "remove a member or leave": _a(
        "agora.organizations.service.remove",
        rest="removeMember",
        pages="POST /organizations/{org_id}/leave;"
        " POST /organizations/{org_id}/members/{user_id}/remove",
    ),
    "revoke an organization's key": _a(
        "agora.organizations.service.revoke_key",
        rest="revokeOrganizationApiKey",
        pages="POST /organizations/{org_id}/keys/{key_id}/revoke",
    ),
    "read an organization's audit log": _a(
        "agora.audit.service.search_organization",
        rest="listOrganizationAuditEvents, exportOrganizationAuditEvents",
        pages="GET /organizations/{org_id}/audit; GET /organizations/{org_id}/audit/export",
    ),
    # the catalogue
    "browse the catalogue": _a(
        "agora.agents.service.public_listing", rest="listAgents", pages="GET /agents"
    ),
    "page through available agents": _a(
        "agora.agents.service.cursor_listing", rest="listAgents", tools="list_agents, search_agents"
    ),
    "read an agent": _a(
        "agora.agents.service.get_detail", rest="getAgent", tools="get_agent, fetch"
    ),
    "list your saved inputs for an agent": _a(
        "agora.agents.saved_inputs.of_agent", rest="listSavedInputs", tools="list_saved_inputs"
    ),
    "read an agent's input schema": _a(
        "agora.agents.service.get_input_schema",
        rest="getAgentInputSchema",
        tools="get_agent_input_schema",
    ),
    "list categories": _a(
        "agora.agents.service.counted_categories", rest="listCategories", tools="list_categories"
    ),
    "compare agents": _a(
        "agora.agents.comparison.compare",
        rest="compareAgents",
        pages="GET /agents/compare",
        tools="compare_agents",
    ),
    "favourite an agent": _a(
        "agora.ratings.service.set_favourite",
        rest="favouriteAgent, unfavouriteAgent",
        pages="POST /agents/{agent_id}/favourite",
        tools="favourite_agent",
    ),
    "add an agent to my assistant": _a(
        "agora.ratings.service.set_in_assistant",
        rest="addAgentToAssistant, removeAgentFromAssistant",
        pages="POST /agents/{agent_id}/assistant",
        tools="add_to_assistant",
    ),
    "rate a job": _a(
        "agora.ratings.service.rate",
        rest="rateJob",
        pages="POST /jobs/{job_id}/rate",
        tools="rate_job",
    ),
    "change a rating": _a(
        "agora.ratings.service.edit",
        rest="updateRating",
        pages="POST /jobs/{job_id}/rate",
        tools="update_rating",
    ),
    # developers and the review
    "submit an agent": _a(
        "agora.developer.service.probe_and_submit",
        rest="developerSubmitAgent",
        pages="POST /developer/new",
    ),
    "submit an A2A agent by its card": _a(
        "agora.developer.service.read_card_and_submit",
        rest="developerSubmitA2aAgent",
        pages="POST /developer/new-a2a",
    ),
    "change a submitted agent": _a(
        "agora.developer.service.probe_and_update",
        rest="developerUpdateAgent",
        pages="POST /developer/{agent_id}",
    ),
    "withdraw an agent": _a(
        "agora.developer.service.withdraw",
        rest="developerWithdrawAgent",
        pages="POST /developer/{agent_id}/withdraw",
    ),
    "read an agent's statistics": _a(
        "agora.developer.stats.stats",
        rest="developerAgentStats",
        pages="GET /developer/{agent_id}/stats",
    ),
    "read your earnings": _a(
        "agora.developer.earnings.earnings",
        rest="developerEarnings",
        pages="GET /developer/earnings",
    ),
    "read a month's earnings statement": _a(
        "agora.developer.earnings.statement",
        rest="developerEarningsStatement",
        pages="GET /developer/earnings/{period}",
    ),
    "export a month's earnings statement": _a(
        "agora.developer.earnings.statement_rows",
        rest="developerEarningsStatementCsv",
        pages="GET /developer/earnings/{period}.csv",
    ),
    "approve an agent": _a(
        "agora.developer.service.probe_and_approve",
        rest="adminApproveAgent",
        pages="POST /admin/reviews/{agent_id}/approve",
    ),
    "reject an agent": _a(
        "agora.developer.service.reject",
        rest="adminRejectAgent",
        pages="POST /admin/reviews/{agent_id}/reject",
    ),
    "override a review": _a(
        "agora.developer.service.override",
        rest="adminOverrideAgent",
        pages="POST /admin/reviews/{agent_id}/override",
    ),
    # jobs
    "hire an agent": _a(
        "agora.jobs.admission.create_job",
        rest="createJob",
        pages="POST /agents/{agent_id}/hire; POST /agents/compare/run",
        tools="create_job",
        a2a="message/send, message/stream",
    ),
    "read a job": _a(
        "agora.jobs.service.get_job",
        rest="getJob",
        pages="GET /jobs/following; GET /jobs/{job_id}/result.md",
        tools="get_job, wait_for_job",
        a2a="tasks/get, tasks/resubscribe",
    ),
    "list jobs": _a("agora.jobs.service.list_jobs", rest="listJobs", tools="list_jobs"),
    "export jobs as CSV": _a(
        "agora.jobs.service.jobs_export",
        rest="exportJobs",
        pages="GET /jobs/export.csv",
        tools="export_jobs",
    ),
    "download a job's result": _a(
        "agora.jobs.results.result_file",
        rest="getJobResult",
        pages="GET /jobs/{job_id}/result.{kind}",
        tools="get_job_result",
    ),
    "list an agent's jobs": _a(
        "agora.jobs.service.list_agent_jobs", rest="listAgentJobs", tools="list_agent_jobs"
    ),
    "read a job's events": _a(
        "agora.jobs.service.job_events", rest="getJobEvents", tools="list_job_events"
    ),
    "upload a file": _a(
        "agora.files.service.record_upload", rest="uploadFile", tools="upload_file"
    ),
    "read a job's files": _a(
        "agora.jobs.service.job_files", rest="getJobFiles", tools="list_job_files"
    ),
    "read a job's links": _a(
        "agora.jobs.service.job_links", rest="getJobLinks", tools="list_job_links"
    ),
    "read what an agent asks": _a(
        "agora.jobs.service.input_request",
        rest="getJobInputRequest",
        pages="POST /jobs/{job_id}/input",
        tools="get_input_request, get_job_input_request",
    ),
    "answer an agent": _a(
        "agora.jobs.service.provide_inputs",
        rest="provideJobInputs",
        pages="POST /jobs/{job_id}/input",
        tools="answer_input_request, provide_job_input",
        a2a="message/send, message/stream",
    ),
    "cancel a job": _a(
        "agora.jobs.service.cancel_job",
        rest="cancelJob",
        pages="POST /jobs/{job_id}/cancel",
        tools="cancel_job",
        a2a="tasks/cancel",
    ),
    "share a job": _a(
        "agora.jobs.sharing.share_job", rest="shareJob", pages="POST /jobs/{job_id}/share"
    ),
    "stop sharing a job": _a(
        "agora.jobs.sharing.unshare_job",
        rest="unshareJob",
        pages="POST /jobs/{job_id}/share/revoke",
    ),
    "read a shared job": _a(
        "agora.jobs.sharing.shared_job", rest="getSharedJob", pages="GET /shares/{token}"
    ),
    "ask for a refund": _a(
        "agora.payments.service.request_refund",
        rest="requestJobRefund",
        pages="POST /jobs/{job_id}/refund",
    ),
    # credits and billing
    "read the workspace's credits": _a(
        "agora.credits.service.account",
        rest="getCredits",
        pages="GET /credits",
        tools="get_credits",
    ),
    "export the ledger as CSV": _a(
        "agora.credits.service.ledger_export",
        rest="exportLedger",
        pages="GET /credits/ledger.csv",
        tools="export_ledger",
    ),
    "export a period's spend as CSV": _a(
        "agora.credits.service.spend_export",
        rest="exportSpend",
        pages="GET /credits/spend.csv",
        tools="export_spend",
    ),
    "list credit packs": _a(
        "agora.billing.service.list_packs",
        rest="listPacks",
        pages="GET /credits/buy",
        tools="get_purchase_link",
    ),
    "buy credits": _a(
        "agora.billing.service.start_purchase", rest="createPurchase", tools="get_purchase_link"
    ),
    "read a purchase": _a(
        "agora.billing.service.get_purchase",
        rest="getPurchase",
        pages="GET /credits/purchases/{purchase_id}; GET /credits/buy/{purchase_id}",
    ),
    "list purchases": _a(
        "agora.billing.service.list_purchases", rest="listPurchases", pages="GET /credits"
    ),
    # paying sellers, promotion codes
    "connect a Stripe account": _a(
        "agora.billing.payouts.start_onboarding",
        rest="developerPayoutOnboardingLink",
        pages="POST /developer/payouts/connect",
    ),
    "read the Stripe account again": _a(
        "agora.billing.payouts.refresh_account",
        rest="developerPayoutAccountRefresh",
        pages="POST /developer/payouts/check",
    ),
    "list payouts": _a(
        "agora.billing.payouts.list_payouts", rest="adminListPayouts", pages="GET /admin/payouts"
    ),
    "list promotion codes": _a(
        "agora.billing.promotions.list_codes",
        rest="adminListPromotionCodes",
        pages="GET /admin/promotions",
    ),
    "create a promotion code": _a(
        "agora.billing.promotions.create_code",
        rest="adminCreatePromotionCode",
        pages="POST /admin/promotions",
    ),
    # the inbox
    "read the inbox": _a(
        "agora.notifications.service.list_notifications",
        rest="listNotifications",
        pages="GET /notifications",
        tools="list_notifications",
    ),
    "mark a notification": _a(
        "agora.notifications.service.mark",
        rest="markNotificationRead, markNotificationUnread",
        tools="mark_notifications",
    ),
    "mark all notifications read": _a(
        "agora.notifications.service.mark_all_read",
        rest="markAllNotificationsRead",
        pages="POST /notifications/read-all",
        tools="mark_notifications",
    ),
    "mark read what is about one thing": _a(
        "agora.notifications.service.read_by_reference",
        rest="markNotificationsReadByReference",
        tools="mark_notifications",
    ),
    "read notification preferences": _a(
        "agora.notifications.service.preferences",
        rest="getNotificationPreferences",
        pages="GET /settings/notifications",
    ),
    "change notification preferences": _a(
        "agora.notifications.service.set_preferences",
        rest="setNotificationPreferences",
        pages="POST /settings/notifications",
    ),
    "list webhook endpoints": _a(
        "agora.notifications.service.list_endpoints",
        rest="listWebhookEndpoints",
        pages="GET /settings/notifications",
    ),
    "re-enable a webhook endpoint": _a(
        "agora.notifications.service.enable_endpoint",
        rest="enableWebhookEndpoint",
        pages="POST /settings/notifications/webhooks/{endpoint_id}/enable",
    ),
    # work: history, projects, tasks, coworkers, schedules
    "read the history feed": _a(
        "agora.history.service.read_feed",
        rest="getHistory",
        pages="GET /history",
        tools="read_history",
    ),
    "list projects": _a(
        "agora.projects.service.list_projects",
        rest="listProjects",
        pages="GET /projects",
        tools="list_projects",
    ),
    "create a project": _a(
        "agora.projects.service.create_project",
        rest="createProject",
        pages="POST /projects",
        tools="create_project",
    ),
    "read a project": _a(
        "agora.projects.service.get_project",
        rest="getProject",
        pages="GET /projects/{project_id}",
        tools="get_project",
    ),
    "change a project": _a(
        "agora.projects.service.update_project",
        rest="updateProject",
        pages="POST /projects/{project_id}",
        tools="update_project",
    ),
    "delete a project": _a(
        "agora.projects.service.delete_project",
        rest="deleteProject",
        pages="POST /projects/{project_id}/delete",
        tools="delete_project",
    ),
    "put into a project": _a(
        "agora.projects.service.assign",
        rest="assignJobToProject, assignTaskToProject",
        pages="POST /projects/{project_id}/tasks/add",
        tools="assign_to_project",
    ),
    "take out of a project": _a(
        "agora.projects.service.unassign",
        rest="unassignJobFromProject, unassignTaskFromProject",
        tools="unassign_from_project",
    ),
    "list tasks": _a(
        "agora.tasks.listing.list_tasks", rest="listTasks", pages="GET /tasks", tools="list_tasks"
    ),
    "create a task": _a(
        "agora.tasks.service.create_task", rest="createTask", tools="create_coworker_task"
    ),
    "read a task": _a(
        "agora.tasks.service.get_task",
        rest="getTask",
        pages="GET /tasks/{task_id}",
        tools="get_task",
    ),
    "read a task's events": _a(
        "agora.tasks.service.list_events", rest="listTaskEvents", tools="list_task_events"
    ),
    "comment on or move a task": _a(
        "agora.tasks.service.add_event", rest="createTaskEvent", tools="create_task_event"
    ),
    "assign a task": _a(
        "agora.tasks.people.assign", rest="assignTask, unassignTask", tools="assign_task"
    ),
    "add a participant": _a(
        "agora.tasks.people.add_participant",
        rest="addTaskParticipant",
        tools="add_task_participant",
    ),
    "remove a participant": _a(
        "agora.tasks.people.remove_participant",
        rest="removeTaskParticipant",
        tools="remove_task_participant",
    ),
    "list a task's jobs": _a(
        "agora.tasks.service.list_jobs", rest="listTaskJobs", tools="list_task_jobs"
    ),
    "hire inside a task": _a(
        "agora.tasks.service.create_job", rest="createTaskJob", tools="add_job_to_task"
    ),
    "list coworkers": _a(
        "agora.coworkers.service.listing", rest="listCoworkers", tools="list_coworkers"
    ),
    "read a coworker": _a("agora.coworkers.service.find", rest="getCoworker", tools="get_coworker"),
    "preview a schedule": _a(
        "agora.schedules.rules.preview", rest="previewSchedule", tools="preview_schedule"
    ),
    "create a schedule": _a(
        "agora.schedules.service.create_schedule", rest="createSchedule", tools="create_schedule"
    ),
    "list schedules": _a(
        "agora.schedules.service.list_schedules",
        rest="listSchedules",
        pages="GET /schedules",
        tools="list_schedules",
    ),
    "read a schedule's runs": _a(
        "agora.schedules.service.list_runs",
        rest="listScheduleRuns",
        pages="GET /schedules/{schedule_id}",
        tools="get_schedule",
    ),
    "read a schedule's next occurrences": _a(
        "agora.schedules.service.occurrences",
        rest="getScheduleOccurrences",
        pages="GET /schedules/{schedule_id}",
        tools="get_schedule",
    ),
    "change a schedule": _a(
        "agora.schedules.service.update_schedule", rest="updateSchedule", tools="update_schedule"
    ),
    "pause a schedule": _a(
        "agora.schedules.service.pause", rest="pauseSchedule", tools="update_schedule"
    ),
    "resume a schedule": _a(
        "agora.schedules.service.resume", rest="resumeSchedule", tools="update_schedule"
    ),
    "end a schedule": _a(
        "agora.schedules.service.end", rest="endSchedule", tools="update_schedule"
    ),
    # the operator's console
    "read the dashboard": _a(
        "agora.console.dashboard.dashboard", rest="adminDashboard", pages="GET /admin"
    ),
    "find users": _a(
        "agora.console.users.search_users", rest="adminSearchUsers", pages="GET /admin/users"
    ),
    "read a user": _a(
        "agora.console.users.user_detail", rest="adminGetUser", pages="GET /admin/users/{user_id}"
    ),
    "find organizations": _a(
        "agora.console.organizations.search_organizations",
        rest="adminSearchOrganizations",
        pages="GET /admin/organizations",
    ),
    "read an organization": _a(
        "agora.console.organizations.organization_detail",
        rest="adminGetOrganization",
        pages="GET /admin/organizations/{org_id}",
    ),
    "find jobs": _a(
        "agora.console.jobs.search_jobs", rest="adminSearchJobs", pages="GET /admin/jobs"
    ),
    "read a job as the operator": _a(
        "agora.console.jobs.job_detail", rest="adminGetJob", pages="GET /admin/jobs/{job_id}"
    ),
    "read the audit log": _a(
        "agora.audit.service.search_all",
        rest="adminListAuditEvents, adminExportAuditEvents",
        pages="GET /admin/audit; GET /admin/audit/export",
    ),
    "read the registry's quarantine": _a(
        "agora.registry.service.quarantine_page",
        rest="adminRegistryQuarantine",
        pages="GET /admin/registry",
    ),
    "read a quarantined entry": _a(
        "agora.registry.service.get_quarantined",
        rest="adminGetQuarantinedEntry",
        pages="GET /admin/registry/{entry_id}",
    ),
    "retry a quarantined entry": _a(
        "agora.registry.service.retry_quarantined",
        rest="adminRetryQuarantinedEntry",
        pages="POST /admin/registry/{entry_id}/retry",
    ),
    "list stuck payments": _a(
        "agora.payments.stuck.list_stuck", rest="adminStuckPayments", pages="GET /admin/payments"
    ),
}

# MCP tools that no other door offers, and why.
ONE_DOOR: dict[str, str] = {
    "search": "the public Sokosumi MCP server's word search over agents (reference/clients.md)",
}


# ---- the scanner ------------------------------------------------------------------------------


def _is_door(module: str) -> bool:
    return module.rsplit(".", 1)[-1] in DOOR_MODULES


def _resolve(node: ast.expr, namespace: dict[str, Any]) -> Any:
    if isinstance(node, ast.Name):
        return namespace.get(node.id)
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, namespace)
        if isinstance(base, (types.ModuleType, type)):  # a module's name, or self's method
            return getattr(base, node.attr, None)
    return None


def _namespace(fn: Callable[..., Any]) -> dict[str, Any]:
    """The names ``fn`` reads: its module's, and ``self`` as its class for a method."""
    namespace: dict[str, Any] = dict(getattr(fn, "__globals__", {}))
    owner = namespace.get(getattr(fn, "__qualname__", "").split(".")[0])
    if isinstance(owner, type):
        namespace["self"] = owner
    return namespace


def _handed_on(value: Any) -> list[Any]:
    """The functions a dispatch table (a dict, tuple or list, nested) hands on."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [fn for item in value for fn in _handed_on(item)]
    return [value] if callable(value) else []


def reached(fn: Callable[..., Any], depth: int = 4) -> set[str]:
    """The functions outside door modules that ``fn`` calls, as ``module.name``, following the
    functions of its own door module that it calls or hands on (a dispatch table) ``depth``
    levels deep."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError):
        return set()
    namespace = _namespace(fn)
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Call, ast.Name)):
            continue
        resolved = _resolve(node.func if isinstance(node, ast.Call) else node, namespace)
        for target in _handed_on(resolved):
            module = getattr(target, "__module__", None) or ""
            if not module.startswith("agora."):
                continue
            if _is_door(module):
                if depth > 0 and module == fn.__module__ and target is not fn:
                    found |= reached(target, depth - 1)
            elif isinstance(node, ast.Call):
                found.add(f"{module}.{getattr(target, '__name__', '')}")
    return found


@dataclass
class Doors:
    rest: dict[str, Callable[..., Any]] = field(default_factory=dict)
    pages: dict[str, Callable[..., Any]] = field(default_factory=dict)
    tools: dict[str, Callable[..., Any]] = field(default_factory=dict)
    a2a: dict[str, Callable[..., Any]] = field(default_factory=dict)


def every_door(app: FastAPI) -> Doors:
    found = Doors()
    for context in iter_route_contexts(app.routes):
        route, path = context.original_route, context.path_format or ""
        if not isinstance(route, APIRoute) or path.startswith("/api/v1"):
            continue
        if path.startswith("/v1/"):
            found.rest[route.operation_id or ""] = route.endpoint
        else:
            for method in context.methods or ():
                found.pages[f"{method} {path}"] = route.endpoint
    found.tools = {tool.__name__: tool for tool in api.TOOLS}
    found.a2a = {name: getattr(AgoraRequestHandler, m) for name, m in A2A_METHODS.items()}
    return found


# ---- the tests --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def doors() -> Doors:
    from agora.app import create_app
    from agora.settings import Settings

    settings = Settings(database_url="sqlite+aiosqlite:///:memory:", demo=False)
    return every_door(create_app(settings, migrate=False, background=False))


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_every_door_of_an_action_calls_its_use_case(doors: Doors, action: str) -> None:
    wanted = ACTIONS[action]
    listed = [
        *(("REST", name, doors.rest.get(name)) for name in wanted.rest),
        *(("page", name, doors.pages.get(name)) for name in wanted.pages),
        *(("MCP tool", name, doors.tools.get(name)) for name in wanted.tools),
        *(("A2A method", name, doors.a2a.get(name)) for name in wanted.a2a),
    ]
    assert len(listed) >= 2, f"{action}: an action in ACTIONS has more than one door"
    for kind, name, endpoint in listed:
        assert endpoint is not None, f"{action}: no {kind} {name!r}"
        assert wanted.use_case in reached(endpoint), (
            f"{action}: the {kind} {name!r} does not call {wanted.use_case}"
        )


def test_every_tool_is_one_of_the_actions(doors: Doors) -> None:
    listed = {tool for action in ACTIONS.values() for tool in action.tools} | set(ONE_DOOR)
    assert sorted(set(doors.tools) - listed) == []


def test_the_use_cases_are_not_doors() -> None:
    assert [a.use_case for a in ACTIONS.values() if _is_door(a.use_case.rsplit(".", 1)[0])] == []


SAMPLE = """
async def door(job_id):
    return await TABLE["read"][1](job_id)


async def _helper(job_id):
    return await service.get_job(job_id)


TABLE = {"read": ("jobId", _helper)}


async def lazy(job_id):
    return job_id
"""


def test_the_scanner_follows_a_door_modules_helpers_and_sees_a_door_that_does_not_call() -> None:
    from agora.jobs import service

    module = types.ModuleType("agora.sample.pages")
    module.__dict__["service"] = service
    filename = "<agora/sample/pages.py>"
    linecache.cache[filename] = (len(SAMPLE), None, SAMPLE.splitlines(True), filename)
    exec(compile(SAMPLE, filename, "exec"), module.__dict__)
    assert reached(module.__dict__["door"]) == {"agora.jobs.service.get_job"}
    assert reached(module.__dict__["lazy"]) == set()
