"""The web pages of jobs as they are rendered: the agent page with its hire form and the job page
(its input, files, answer form, refund and share cards). Not a door: the doors that show these
pages again after a refusal call them (jobs/pages.py; payments/pages.py for the refund card)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from agora.agents import saved_inputs
from agora.agents import service as agents
from agora.agents import views as agents_views
from agora.auth.dependencies import SessionDep, SettingsDep
from agora.auth.principal import Principal
from agora.files import service as files_service
from agora.files.attachments import JobFile
from agora.files.serving import is_preview
from agora.jobs import results
from agora.jobs import service as jobs
from agora.jobs.lifecycle import FINAL_STATUSES, INPUT_REQUIRED
from agora.jobs.refunds import refund_offer
from agora.jobs.sharing import share_link, share_targets
from agora.kit.errors import AgoraError, NotFound
from agora.kit.money import to_display
from agora.projects import service as projects
from agora.ratings import service as ratings
from agora.settings import Settings
from agora.web import forms
from agora.web.nextsteps import next_step
from agora.web.shell import SignedInDep, field_errors, posted, render

PROJECT_CHOICES = 100  # projects in the job page's "Project" select


async def agent_page(
    request: Request,
    session: AsyncSession,
    principal: Principal | None,
    agent_id: str,
    *,
    values: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
    max_credits: str | None = None,
    refusal: AgoraError | None = None,
    saved_input: str | None = None,
) -> HTMLResponse:
    """The agent page; after a refused hire, with what was filled in and the problems; with
    ``saved_input`` (one of the person's saved inputs for this agent), its input filled in."""
    listed = await agents.get_listed(session, agent_id)
    agent = listed.row
    saved = []
    if principal is not None:
        saved = await saved_inputs.of_agent(session, principal, agent_id)
        if saved_input and values is None:
            chosen = await saved_inputs.get_owned(
                session, principal, saved_input, agent_id=agent.id
            )
            values = dict(chosen.input_data)
    price, fee = to_display(agent.price + agent.fee), to_display(agent.fee)
    groups = forms.fill(forms.groups(agent.input_schema), values or {}, errors or {})
    summary = forms.summary(groups)
    if errors and errors.get("maxCredits"):
        summary.append(("maxCredits", f"Maximum credits you accept: {errors['maxCredits']}"))
    return await render(
        request, session, principal, "agent.html", status_code, agent=agent, listed=listed,
        price=price, fee=fee, groups=groups, errors=errors or {}, summary=summary,
        max_credits=max_credits if max_credits is not None else str(price),
        facts=await agents_views.agent_facts(session, listed.row),
        payment_required=status_code == 402,
        reviews=(await ratings.of_agent(session, agent_id, offset=0, limit=10))[0],
        liked=principal is not None
        and agent.id in (await agents_views.marks(session, principal.user_id, [agent.id]))[0],
        in_assistant=principal is not None
        and await ratings.in_assistant(session, principal.user_id, agent.id),
        step=next_step(refusal, principal, f"/agents/{agent_id}") if refusal else None,
        saved_inputs=saved, chosen_saved=saved_input,
    )  # fmt: skip


def hire_errors(exc: AgoraError) -> dict[str, str]:
    """A refused hire on the form: each field problem on its field (the maximum's on
    ``maxCredits``), anything else (402, 409 …) as the form's."""
    errors = field_errors(exc, "inputData.")
    limit = errors.pop("maxAcceptedCredits", None)
    if limit:
        errors["maxCredits"] = limit
    return errors or {"form": exc.message}


async def job_page(
    request: Request,
    session: AsyncSession,
    principal: Principal,
    job_id: str,
    settings: Settings,
    *,
    values: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> HTMLResponse:
    """The job page; after a refused answer, refund or share, with the problem on its card."""
    shown = await jobs.get_job(session, principal, job_id, settings=settings)
    row = shown.row
    groups: list[forms.Group] = []
    status_id = message = None
    if shown.status == INPUT_REQUIRED:
        try:
            asked = await jobs.input_request(session, principal, job_id)
            groups = forms.fill(forms.groups(asked.inputSchema), values or {}, errors or {})
            status_id, message = asked.statusId, asked.message
        except NotFound:
            groups = []
    files = await jobs.job_files(session, principal, job_id, settings=settings)
    own = row.workspace_id == principal.workspace_id
    return await render(
        request, session, principal, "job.html", status_code, job=shown,
        events=await jobs.job_events(session, principal, job_id),
        my_rating=(await ratings.rated_jobs(session, [row.id])).get(row.id),
        can_rate=shown.status in ratings.ENDED and row.user_id == principal.user_id,
        agent_name=(await agents_views.agent_names(session, [row.agent_id])).get(row.agent_id, ""),
        message=message,
        job_input=await agents_views.job_input(session, row.agent_id, row.input_data),
        job_files=job_file_views(files, settings), summary=forms.summary(groups),
        groups=groups, status_id=status_id, errors=errors or {},
        final=shown.status in FINAL_STATUSES, price=to_display(shown.price or 0),
        refunded=to_display(row.refund or 0) if row.refund else None,
        result_is_json=results.structured(row.result) is not None,
        refund=refund_offer(row),
        refund_summary=[(None, f"{errors['refund']}.")] if errors and errors.get("refund") else [],
        share_link=share_link(settings, row.share_token),
        share_targets=await share_targets(session, principal),
        projects=await projects.choices(
            session, principal.workspace_id, PROJECT_CHOICES, row.project_id
        ) if own else None,
    )  # fmt: skip


@dataclass(frozen=True)
class JobPost:
    """A form posted from the job page: its fields (its CSRF token checked), the job's id, who
    posts, and the way back to the page (again with a refusal, or by a redirect)."""

    request: Request
    form: FormData
    job_id: str
    session: AsyncSession
    principal: Principal
    settings: Settings

    async def again(
        self, status_code: int, errors: dict[str, str], values: dict[str, Any] | None = None
    ) -> HTMLResponse:
        """The job page again, with the refusal on its card (and what was filled in)."""
        return await job_page(
            self.request, self.session, self.principal, self.job_id, self.settings,
            values=values, errors=errors, status_code=status_code,
        )  # fmt: skip

    def back(self, to: str = "") -> RedirectResponse:
        return RedirectResponse(f"/jobs/{self.job_id}{to}", status_code=303)


async def _job_post(
    request: Request,
    job_id: str,
    session: SessionDep,
    principal: SignedInDep,
    settings: SettingsDep,
) -> JobPost:
    return JobPost(request, await posted(request), job_id, session, principal, settings)


JobPostDep = Annotated[JobPost, Depends(_job_post)]


_FILE_STATES = {
    "STORED": "",
    "AVAILABLE": "not fetched yet",
    "TOO_LARGE": "too large to keep",
    "REFUSED": "refused by policy",
    "UNREACHABLE": "unreachable",
}


def job_file_views(items: list[JobFile], settings: Settings) -> list[dict[str, Any]]:
    """The job page's files: stored ones link to a short-lived signed URL of this origin (an
    image of a preview type shows inline), the others say why they are not kept."""
    out = []
    for item in items:
        stored = item.status == "STORED"
        link = (
            files_service.signed_url(settings, item.id, seconds=3600, base="") if stored else None
        )
        out.append(
            {
                "name": item.name,
                "source": item.source,
                "size": item.size,
                "link": link,
                "preview": link if stored and is_preview(settings, item.mime_type) else None,
                "state": _FILE_STATES.get(item.status, item.status.lower()),
                "url": None if stored else item.source_url,
            }
        )
    return out
