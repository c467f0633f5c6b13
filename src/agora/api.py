"""Every door of every domain, in one place: ``ROUTERS`` (REST; the app serves each under
``/v1`` and again under ``/api/v1``), ``PAGES`` (the web app) and ``TOOLS`` (MCP).

To add a domain: give it ``endpoints.py`` with a ``router``, ``pages.py`` with a ``router`` and
``tools.py`` with ``TOOLS``, and add them here. Order matters where paths overlap: a router whose
literal path (``/agents/compare``) shadows another's parameter (``/agents/{agent_id}``) comes
first.
"""

from __future__ import annotations

from fastapi import APIRouter

from agora.accounts import pages as account_pages
from agora.accounts import provider_pages as account_provider_pages
from agora.accounts import workspaces as account_workspaces
from agora.accounts.endpoints import keys_router as api_keys_router
from agora.accounts.endpoints import passkeys_router
from agora.accounts.endpoints import router as accounts_router
from agora.agents import pages as agent_pages
from agora.agents import tools as agent_tools
from agora.agents.admin import router as admin_router
from agora.agents.endpoints import router as agents_router
from agora.agents.endpoints import saved_inputs_router
from agora.audit.endpoints import admin_router as audit_admin_router
from agora.audit.endpoints import organization_router as audit_organization_router
from agora.billing import pages as billing_pages
from agora.billing import tools as billing_tools
from agora.billing.endpoints import developer_router as payout_router
from agora.billing.endpoints import router as billing_router
from agora.console import ops_pages as console_ops_pages
from agora.console import pages as console_pages
from agora.console.endpoints import router as console_router
from agora.conversations.endpoints import router as conversations_router
from agora.coworkers import tools as coworker_tools
from agora.coworkers.endpoints import admin_router as coworkers_admin_router
from agora.coworkers.endpoints import router as coworkers_router
from agora.credits import tools as credit_tools
from agora.credits.endpoints import router as credits_router
from agora.developer import pages as developer_pages
from agora.developer.admin import router as developer_admin_router
from agora.developer.endpoints import router as developer_router
from agora.files import tools as file_tools
from agora.files.endpoints import router as files_router
from agora.history import tools as history_tools
from agora.history.endpoints import router as history_router
from agora.jobs import pages as job_pages
from agora.jobs import toolbox as job_toolbox
from agora.jobs import tools as job_tools
from agora.jobs.endpoints import router as jobs_router
from agora.jobs.endpoints import shares_router
from agora.mcp.runner import Tool
from agora.mcp.toolbox import Toolbox
from agora.notifications import pages as notification_pages
from agora.notifications import tools as notification_tools
from agora.notifications.endpoints import router as notifications_router
from agora.ops.endpoints import v1_router as meta_router
from agora.organizations import pages as organization_pages
from agora.organizations.endpoints import invitations_router
from agora.organizations.endpoints import router as organizations_router
from agora.payments import pages as payment_pages
from agora.payments.endpoints import admin_router as payments_admin_router
from agora.payments.endpoints import router as payments_router
from agora.projects import pages as project_pages
from agora.projects import tools as project_tools
from agora.projects.endpoints import router as projects_router
from agora.ratings import pages as rating_pages
from agora.ratings import tools as rating_tools
from agora.ratings.endpoints import admin_router as ratings_admin_router
from agora.ratings.endpoints import router as ratings_router
from agora.ratings.signals import TOOLBOX_CHANGED
from agora.registry.endpoints import router as registry_router
from agora.schedules import pages as schedule_pages
from agora.schedules import tools as schedule_tools
from agora.schedules.endpoints import router as schedules_router
from agora.tasks import pages as task_pages
from agora.tasks import tools as task_tools
from agora.tasks.endpoints import coworker_router as coworker_tasks_router
from agora.tasks.endpoints import router as tasks_router
from agora.users import tools as user_tools
from agora.users.endpoints import router as users_router
from agora.users.pages import router as user_pages_router
from agora.web import shell
from agora.web.shell import Layout

ROUTERS: list[APIRouter] = [
    meta_router,
    users_router,
    agents_router,
    saved_inputs_router,
    admin_router,
    jobs_router,
    shares_router,
    credits_router,
    notifications_router,
    projects_router,
    tasks_router,
    conversations_router,
    history_router,
    accounts_router,
    api_keys_router,
    passkeys_router,
    organizations_router,
    invitations_router,
    developer_router,
    payout_router,
    developer_admin_router,
    registry_router,
    coworkers_router,
    coworker_tasks_router,  # /coworkers/me/events: the tasks assigned to the coworker
    coworkers_admin_router,
    payments_router,
    billing_router,
    files_router,
    schedules_router,
    ratings_router,
    ratings_admin_router,
    console_router,
    audit_admin_router,
    audit_organization_router,
    payments_admin_router,
]

PAGES: list[APIRouter] = [
    project_pages.router,  # projects, deleting one, a job into one
    task_pages.router,  # history, the project page, tasks
    notification_pages.router,  # inbox, settings, unsubscribe
    user_pages_router,  # your data: export, delete the account
    billing_pages.router,  # credits, buy credits, receipts
    schedule_pages.router,
    rating_pages.router,  # favourites, ratings
    organization_pages.router,
    developer_pages.router,  # your agents: submit, edit, withdraw, statistics
    console_pages.router,  # the operator's console (/admin)
    console_ops_pages.router,  # its registry quarantine and stuck payments
    shell.router,  # the home redirect, the icon
    account_pages.router,  # sign-up, sign-in, keys
    account_provider_pages.router,  # sign-in with an identity provider, Sign-in methods
    agent_pages.router,  # the gallery, compare (before the agent page)
    job_pages.router,  # the agent page and its hire form, compare runs, jobs, shares
    payment_pages.router,  # the job page's refund button
]

# The header of every page (web/shell.py): the workspace switcher, the balance, the bell.
LAYOUT = Layout(
    workspaces=account_workspaces.workspaces,
    parts=(billing_pages.header, notification_pages.header),
)

# Each person's own MCP tools: an agent of their toolbox (favourites, "add to my assistant") is
# a tool of its own, hire_<slug> (mcp/toolbox.py, jobs/toolbox.py, docs/mcp.md).
TOOLBOX = Toolbox(
    prefix=job_toolbox.PREFIX,
    topic=TOOLBOX_CHANGED,
    listed=job_tools.toolbox_tools,
    called=job_tools.hire_with_tool,
)

TOOLS: list[Tool] = [
    *agent_tools.TOOLS,
    *rating_tools.TOOLS,
    *billing_tools.TOOLS,
    *job_tools.TOOLS,
    *history_tools.TOOLS,
    *project_tools.TOOLS,
    *user_tools.TOOLS,
    *notification_tools.TOOLS,
    *credit_tools.TOOLS,
    *file_tools.TOOLS,
    *coworker_tools.TOOLS,
    *task_tools.TOOLS,
    *schedule_tools.TOOLS,
]
