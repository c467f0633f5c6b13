"""The workspace's work pages through HTTP, on SQLite and PostgreSQL: projects (create, rename,
delete, paged), their tasks (create, assign to a coworker, move along the workflow, comment,
archive), the task page, and the history page on the feed (filters, cursor paging); existing tasks
and jobs put into a project, moved to another (one step) and taken out. State is checked through
the API; another workspace's ids answer 404; forms without their token 403."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx2

from agora.kit.db import Database
from agora.models import Task
from agora.settings import Settings
from tests.conftest import MakeUser, TestUser
from tests.projects.factories import make_agent, make_job
from tests.web.test_pages import _sign_up_in

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def _id_of(location: str, prefix: str) -> str:
    found = re.fullmatch(re.escape(prefix) + f"({_UUID})", location)
    assert found, location
    return found.group(1)


async def _api(client: httpx2.AsyncClient, csrf: str, method: str, path: str, **kwargs: Any) -> Any:
    """The API with the browser's session cookie (and its CSRF header), as a program would."""
    response = await client.request(method, path, headers={"X-CSRF-Token": csrf}, **kwargs)
    assert response.status_code < 300, response.text
    return response.json()["data"]


async def _new_project(client: httpx2.AsyncClient, csrf: str, name: str) -> str:
    made = await client.post("/projects", data={"csrf": csrf, "name": name})
    assert made.status_code == 303, made.text
    return _id_of(made.headers["location"], "/projects/")


async def test_projects_and_tasks_pages_create_assign_move_comment_archive(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "pat@example.com")
    empty = await client.get("/projects")
    assert empty.status_code == 200 and "No projects yet" in empty.text
    assert '<a href="/projects" aria-current="page">Projects</a>' in empty.text  # the nav link

    # Refused without the form's token; a blank name is shown on its field.
    assert (await client.post("/projects", data={"name": "x"})).status_code == 403
    blank = await client.post("/projects", data={"csrf": csrf, "name": "   "})
    assert blank.status_code == 400 and 'id="err-name"' in blank.text
    assert 'aria-invalid="true"' in blank.text
    project_id = await _new_project(client, csrf, "Launch")
    assert [p["name"] for p in await _api(client, csrf, "GET", "/v1/projects")] == ["Launch"]

    page = await client.get(f"/projects/{project_id}")
    assert page.status_code == 200 and "<h1>Launch</h1>" in page.text
    assert "No tasks yet" in page.text and "No jobs in this project yet" in page.text

    coworker = await _api(
        client, csrf, "POST", "/v1/coworkers", json={"name": "Scribe", "capabilities": ["tasks"]}
    )
    # A task with a blank name: refused on its field, what was typed stays.
    bad = await client.post(
        f"/projects/{project_id}/tasks",
        data={"csrf": csrf, "name": "", "description": "kept text"},
    )
    assert bad.status_code == 400 and 'id="err-name"' in bad.text and "kept text" in bad.text
    unknown = await client.post(
        f"/projects/{project_id}/tasks",
        data={"csrf": csrf, "name": "Draft", "coworkerId": "00000000-0000-0000-0000-000000000000"},
    )
    assert unknown.status_code == 400 and 'id="err-coworkerId"' in unknown.text
    added = await client.post(
        f"/projects/{project_id}/tasks",
        data={"csrf": csrf, "name": "Write the post", "coworkerId": coworker["id"]},
    )
    assert added.status_code == 303 and added.headers["location"] == f"/projects/{project_id}"
    [task] = await _api(
        client, csrf, "GET", "/v1/tasks", params={"projectId": project_id, "scope": "workspace"}
    )
    assert task["name"] == "Write the post" and task["status"] == "PENDING"
    assert task["coworkerId"] == coworker["id"]
    task_id = task["id"]

    listed = await client.get(f"/projects/{project_id}")
    assert f'<a href="/tasks/{task_id}">Write the post</a>' in listed.text
    assert f'action="/tasks/{task_id}/status"' in listed.text
    assert f'action="/tasks/{task_id}/assign"' in listed.text
    assert f'<option value="{coworker["id"]}" selected>Scribe</option>' in listed.text
    # The move select offers the workflow's moves from PENDING only, by their labels, with none
    # chosen, and one "Canceled".
    row = listed.text.split(f'id="move-{task_id}"', 1)[1].split("</select>", 1)[0]
    assert '<option value="" selected disabled>Choose a status</option>' in row
    assert '<option value="RUNNING">Running</option>' in row and 'value="PENDING"' not in row
    assert 'value="INPUT_REQUIRED"' not in row
    assert row.count(">Canceled</option>") == 1

    # Move along the workflow from the project page: back to the project.
    moved = await client.post(
        f"/tasks/{task_id}/status",
        data={"csrf": csrf, "status": "RUNNING", "next": f"/projects/{project_id}"},
    )
    assert moved.status_code == 303 and moved.headers["location"] == f"/projects/{project_id}"
    assert (await _api(client, csrf, "GET", f"/v1/tasks/{task_id}"))["status"] == "RUNNING"
    # A move outside the table: 409, the reason on the status field of the task page.
    refused = await client.post(f"/tasks/{task_id}/status", data={"csrf": csrf, "status": "DRAFT"})
    assert refused.status_code == 409 and 'id="err-status"' in refused.text
    assert "invalid status transition" in refused.text
    assert (await _api(client, csrf, "GET", f"/v1/tasks/{task_id}"))["status"] == "RUNNING"
    # An offsite `next` is ignored.
    offsite = await client.post(
        f"/tasks/{task_id}/status",
        data={"csrf": csrf, "status": "COMPLETED", "next": "//evil.example"},
    )
    assert offsite.headers["location"] == f"/tasks/{task_id}"

    # Comment; the task page shows the timeline, project, coworker.
    assert (await client.post(f"/tasks/{task_id}/comment", data={"csrf": csrf})).status_code == 400
    said = await client.post(
        f"/tasks/{task_id}/comment", data={"csrf": csrf, "comment": "<b>Shipped</b>"}
    )
    assert said.status_code == 303
    shown = await client.get(f"/tasks/{task_id}")
    assert shown.status_code == 200 and "<h1>Write the post</h1>" in shown.text
    events = shown.text.split('id="task-events"', 1)[1].split("</ol>", 1)[0]
    assert "&lt;b&gt;Shipped&lt;/b&gt;" in events and "<b>" not in events
    assert "Completed" in events and "Running" in events
    assert f'<a href="/projects/{project_id}">Launch</a>' in shown.text and "Scribe" in shown.text
    assert '<option value="">Nobody</option>' in shown.text  # the assign select
    events_api = await _api(client, csrf, "GET", f"/v1/tasks/{task_id}/events")
    assert [e["comment"] for e in events_api if e["comment"]] == ["<b>Shipped</b>"]

    # Assign to nobody (unassigned), then again to the coworker; an unknown id: on its field.
    none = await client.post(f"/tasks/{task_id}/assign", data={"csrf": csrf, "assigneeId": ""})
    assert none.status_code == 303
    assert (await _api(client, csrf, "GET", f"/v1/tasks/{task_id}"))["assignee"] is None
    unknown_one = await client.post(
        f"/tasks/{task_id}/assign",
        data={"csrf": csrf, "assigneeId": "00000000-0000-0000-0000-000000000000"},
    )
    assert unknown_one.status_code == 400 and 'id="err-assigneeId"' in unknown_one.text
    again = await client.post(
        f"/tasks/{task_id}/assign", data={"csrf": csrf, "coworkerId": coworker["id"]}
    )
    assert again.status_code == 303

    # Archive from the project page: hidden there unless asked for; unarchive brings it back.
    archived = await client.post(
        f"/tasks/{task_id}/archive",
        data={"csrf": csrf, "archived": "true", "next": f"/projects/{project_id}"},
    )
    assert archived.status_code == 303
    assert (await _api(client, csrf, "GET", f"/v1/tasks/{task_id}"))["archived"] is True
    assert f'/tasks/{task_id}"' not in (await client.get(f"/projects/{project_id}")).text
    with_archived = await client.get(f"/projects/{project_id}?archived=true")
    assert f'<a href="/tasks/{task_id}">' in with_archived.text
    assert "Unarchive" in with_archived.text
    back = await client.post(f"/tasks/{task_id}/archive", data={"csrf": csrf, "archived": "false"})
    assert back.status_code == 303 and back.headers["location"] == f"/tasks/{task_id}"
    assert (await _api(client, csrf, "GET", f"/v1/tasks/{task_id}"))["archived"] is False

    # Rename (a blank name on its field), then delete: the task stays, outside any project.
    blank_name = await client.post(f"/projects/{project_id}", data={"csrf": csrf, "name": " "})
    assert blank_name.status_code == 400 and 'id="err-project-name"' in blank_name.text
    renamed = await client.post(
        f"/projects/{project_id}", data={"csrf": csrf, "name": "Launch v2", "description": "Q4"}
    )
    assert renamed.status_code == 303
    project = await _api(client, csrf, "GET", f"/v1/projects/{project_id}")
    assert (project["name"], project["description"]) == ("Launch v2", "Q4")
    deleted = await client.post(f"/projects/{project_id}/delete", data={"csrf": csrf})
    assert deleted.status_code == 303 and deleted.headers["location"] == "/projects"
    assert await _api(client, csrf, "GET", "/v1/projects") == []
    assert (await _api(client, csrf, "GET", f"/v1/tasks/{task_id}"))["projectId"] is None
    assert (await client.get(f"/projects/{project_id}")).status_code == 404


async def test_history_page_reads_the_feed_with_its_filters_and_pages(
    client: httpx2.AsyncClient, settings: Settings
) -> None:
    csrf = await _sign_up_in(client, settings, "hana@example.com")
    empty = await client.get("/history")
    assert empty.status_code == 200 and "Nothing here yet" in empty.text
    assert '<a href="/projects">start a project</a>' in empty.text
    project_id = await _new_project(client, csrf, "Garden")
    await client.post(f"/projects/{project_id}/tasks", data={"csrf": csrf, "name": "Plant roses"})
    for n in range(21):  # outside any project: 22 tasks, two pages of 20
        await _api(client, csrf, "POST", "/v1/tasks", json={"name": f"Chore {n:02d}"})

    first = await client.get("/history")
    assert first.status_code == 200
    rows = re.findall(rf'<a href="/tasks/({_UUID})">([^<]+)</a>', first.text)
    assert len(rows) == 20 and rows[0][1] == "Chore 20"  # newest change first
    older = re.search(r'href="(/history\?[^"]*cursor=[^"]+)" rel="next"', first.text)
    assert older, "no link to the older page"
    second = await client.get(older.group(1).replace("&amp;", "&"))
    rest = [name for _, name in re.findall(rf'<a href="/tasks/({_UUID})">([^<]+)</a>', second.text)]
    assert rest == ["Chore 00", "Plant roses"]
    assert 'rel="next"' not in second.text and ">Newest</a>" in second.text

    # Filters: text, project (a select of the workspace's projects), kinds, status.
    found = await client.get("/history", params={"q": "roses"})
    assert ">Plant roses</a>" in found.text and "Chore" not in found.text
    assert 'value="roses"' in found.text
    in_project = await client.get("/history", params={"project": project_id})
    assert ">Plant roses</a>" in in_project.text and "Chore" not in in_project.text
    assert f'<option value="{project_id}" selected>Garden</option>' in in_project.text
    assert f'<a href="/projects/{project_id}">Garden</a>' in in_project.text
    only_jobs = await client.get("/history", params={"types": "job"})
    assert "Nothing matches these filters" in only_jobs.text
    assert 'value="job" checked' in only_jobs.text
    tasks_pending = await client.get(
        "/history", params={"types": ["task"], "status": "PENDING", "scope": "workspace"}
    )
    assert len(re.findall(r'href="/tasks/', tasks_pending.text)) == 20
    assert '<option value="PENDING" selected>Pending</option>' in tasks_pending.text
    # A filter the service refuses is shown on its field (400), not as a 500.
    bad = await client.get("/history", params={"project": "not-a-project"})
    assert bad.status_code == 400 and 'id="err-project"' in bad.text
    bad_cursor = await client.get("/history", params={"cursor": "forged"})
    assert bad_cursor.status_code == 400 and 'id="err-cursor"' in bad_cursor.text


async def test_projects_page_is_paged(client: httpx2.AsyncClient, settings: Settings) -> None:
    csrf = await _sign_up_in(client, settings, "paige@example.com")
    for n in range(21):
        await _api(client, csrf, "POST", "/v1/projects", json={"name": f"P{n:02d}"})
    first = await client.get("/projects")
    assert "21 projects" in first.text
    assert len(re.findall(rf'<a href="/projects/{_UUID}">', first.text)) == 20
    assert 'href="/projects?page=2" rel="next"' in first.text
    second = await client.get("/projects?page=2")
    assert len(re.findall(rf'<a href="/projects/{_UUID}">', second.text)) == 1
    assert 'href="/projects?page=1" rel="prev"' in second.text
    assert "No more projects" in (await client.get("/projects?page=3")).text


async def test_another_workspaces_projects_and_tasks_answer_404(
    client: httpx2.AsyncClient, settings: Settings, make_user: MakeUser
) -> None:
    other = await make_user()
    theirs = (
        await client.post("/v1/projects", json={"name": "Secret"}, headers=other.key_headers)
    ).json()["data"]
    their_task = (
        await client.post("/v1/tasks", json={"name": "Hidden"}, headers=other.key_headers)
    ).json()["data"]
    # Signed out: every work page sends you to sign in first, and back.
    for path in ("/projects", f"/projects/{theirs['id']}", f"/tasks/{their_task['id']}"):
        answer = await client.get(path)
        assert answer.status_code == 303, path
        assert answer.headers["location"].startswith("/sign-in?next=%2F"), path
    out = await client.post(f"/tasks/{their_task['id']}/status", data={"status": "RUNNING"})
    assert out.status_code == 303
    filtered = await client.get("/history", params={"q": "x y"})
    assert filtered.headers["location"] == "/sign-in?next=%2Fhistory%3Fq%3Dx%2By"

    csrf = await _sign_up_in(client, settings, "eve@example.com")
    for path in (f"/projects/{theirs['id']}", f"/tasks/{their_task['id']}", "/tasks/not-an-id"):
        page = await client.get(path)
        assert page.status_code == 404 and "<h1>404" in page.text, path
        assert "Secret" not in page.text and "Hidden" not in page.text
        assert "Sign out" in page.text  # the app's look, still signed in, with the switcher
        assert re.search(r'<option value="[0-9a-f-]+" selected>Personal</option>', page.text)
    tid = their_task["id"]
    posts = {
        f"/tasks/{tid}/status": {"status": "RUNNING"},
        f"/tasks/{tid}/assign": {"coworkerId": "00000000-0000-0000-0000-000000000000"},
        f"/tasks/{tid}/comment": {"comment": "hi"},
        f"/tasks/{tid}/archive": {"archived": "true"},
        f"/projects/{theirs['id']}": {"name": "Mine now"},
        f"/projects/{theirs['id']}/tasks": {"name": "Sneaky"},
        f"/projects/{theirs['id']}/delete": {},
    }
    for path, data in posts.items():
        answer = await client.post(path, data={"csrf": csrf, **data})
        assert answer.status_code == 404, (path, answer.status_code)
        refused = await client.post(path, data=data)  # and without the token: 403 first
        assert refused.status_code == 403, path
    # Nothing changed on their side.
    seen = (await client.get(f"/v1/tasks/{tid}", headers=other.key_headers)).json()["data"]
    assert (seen["status"], seen["archived"], seen["events"][-1]["comment"]) == (
        "PENDING",
        False,
        None,
    )
    project = (await client.get(f"/v1/projects/{theirs['id']}", headers=other.key_headers)).json()[
        "data"
    ]
    assert project["name"] == "Secret"
    their_tasks = await client.get(
        "/v1/tasks", params={"scope": "workspace"}, headers=other.key_headers
    )
    assert [t["name"] for t in their_tasks.json()["data"]] == ["Hidden"]
    # Their project is not among the history page's choices either.
    assert "Secret" not in (await client.get("/history")).text


async def _me(client: httpx2.AsyncClient, csrf: str) -> TestUser:
    """The signed-in person as a factory user (ids read from a task they create)."""
    task = await _api(client, csrf, "POST", "/v1/tasks", json={"name": "Probe"})
    return TestUser(uuid.UUID(task["creatorId"]), uuid.UUID(task["workspaceId"]), "", "")


async def _project_of(client: httpx2.AsyncClient, csrf: str, kind: str, id_: str) -> Any:
    return (await _api(client, csrf, "GET", f"/v1/{kind}/{id_}"))["projectId"]


async def _place(
    client: httpx2.AsyncClient, csrf: str, path: str, project: str, **extra: str
) -> Any:
    return await client.post(path, data={"csrf": csrf, "projectId": project, **extra})


def _remove_form(html: str, id_: str) -> dict[str, str]:
    """The hidden fields of the page's "Remove from project" form for the task/job ``id_``."""
    form = re.search(rf'action="/(?:tasks|jobs)/{id_}/project"(.*?)</form>', html, re.S)
    assert form and ">Remove from project</button>" in form.group(1), id_
    return dict(re.findall(r'type="hidden" name="([^"]+)" value="([^"]*)"', form.group(1)))


async def test_existing_tasks_and_jobs_go_into_move_between_and_leave_projects(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    csrf = await _sign_up_in(client, settings, "mo@example.com")
    me = await _me(client, csrf)
    first, second = (
        await _new_project(client, csrf, "Alpha"),
        await _new_project(client, csrf, "Beta"),
    )
    task_id = (await _api(client, csrf, "POST", "/v1/tasks", json={"name": "Loose end"}))["id"]
    job_id = str(await make_job(db, me, await make_agent(db)))

    # The task page offers the workspace's projects, "No project" chosen.
    page = await client.get(f"/tasks/{task_id}")
    select = page.text.split('id="project-select"', 1)[1].split("</select>", 1)[0]
    assert '<option value="">No project</option>' in select and " selected" not in select
    assert f'<option value="{first}">Alpha</option>' in select
    # Assign, then move to the other project: one step, the API shows the new place.
    put = await _place(client, csrf, f"/tasks/{task_id}/project", first)
    assert put.status_code == 303 and put.headers["location"] == f"/tasks/{task_id}"
    assert await _project_of(client, csrf, "tasks", task_id) == first
    assert (
        f'<option value="{first}" selected>Alpha</option>'
        in (await client.get(f"/tasks/{task_id}")).text
    )
    moved = await _place(client, csrf, f"/tasks/{task_id}/project", second)
    assert moved.status_code == 303
    assert await _project_of(client, csrf, "tasks", task_id) == second
    assert f'/tasks/{task_id}"' not in (await client.get(f"/projects/{first}")).text

    # The same for a job, from its page; its project page lists it with "Remove from project".
    job_page = await client.get(f"/jobs/{job_id}")
    assert f'action="/jobs/{job_id}/project"' in job_page.text
    assert (await _place(client, csrf, f"/jobs/{job_id}/project", first)).status_code == 303
    assert await _project_of(client, csrf, "jobs", job_id) == first
    job_moved = await _place(client, csrf, f"/jobs/{job_id}/project", second)
    assert job_moved.headers["location"] == f"/jobs/{job_id}"
    assert await _project_of(client, csrf, "jobs", job_id) == second
    beta = await client.get(f"/projects/{second}")
    assert beta.text.count(">Remove from project</button>") == 2  # the task and the job
    assert f'action="/jobs/{job_id}/project"' in beta.text
    removed = await client.post(f"/jobs/{job_id}/project", data=_remove_form(beta.text, job_id))
    assert removed.headers["location"] == f"/projects/{second}"
    assert await _project_of(client, csrf, "jobs", job_id) is None
    out = await client.post(f"/tasks/{task_id}/project", data=_remove_form(beta.text, task_id))
    assert out.headers["location"] == f"/projects/{second}"
    assert await _project_of(client, csrf, "tasks", task_id) is None

    # "Add an existing task": the unassigned, unarchived ones; nothing chosen, or one put into
    # another project meanwhile, is refused on the select.
    alpha = await client.get(f"/projects/{first}")
    offered = alpha.text.split('id="existing-task"', 1)[1].split("</select>", 1)[0]
    assert f'<option value="{task_id}">Loose end</option>' in offered
    assert 'id="more-tasks"' not in alpha.text
    blank = await client.post(f"/projects/{first}/tasks/add", data={"csrf": csrf, "taskId": ""})
    assert blank.status_code == 400 and 'id="err-taskId"' in blank.text
    added = await client.post(
        f"/projects/{first}/tasks/add", data={"csrf": csrf, "taskId": task_id}
    )
    assert added.status_code == 303 and added.headers["location"] == f"/projects/{first}"
    assert await _project_of(client, csrf, "tasks", task_id) == first
    assert f'<option value="{task_id}">' not in (await client.get(f"/projects/{first}")).text
    taken = await client.post(
        f"/projects/{second}/tasks/add", data={"csrf": csrf, "taskId": task_id}
    )
    assert taken.status_code == 409 and 'id="err-taskId"' in taken.text
    assert await _project_of(client, csrf, "tasks", task_id) == first

    # An archived task cannot move into a project: the refusal is on the select, and the task
    # stays where it was (the refusal comes before taking it out of its project).
    await _api(client, csrf, "POST", f"/v1/tasks/{task_id}/archive")
    refused = await _place(client, csrf, f"/tasks/{task_id}/project", second)
    assert refused.status_code == 400 and 'id="err-projectId"' in refused.text
    assert "archived task cannot be added" in refused.text
    assert await _project_of(client, csrf, "tasks", task_id) == first
    # Taking it out is allowed.
    assert (await _place(client, csrf, f"/tasks/{task_id}/project", "")).status_code == 303
    assert await _project_of(client, csrf, "tasks", task_id) is None
    # Forms without their token: 403, nothing changes.
    for path in (f"/tasks/{task_id}/project", f"/jobs/{job_id}/project"):
        assert (await client.post(path, data={"projectId": first})).status_code == 403, path
    no_token = await client.post(f"/projects/{first}/tasks/add", data={"taskId": task_id})
    assert no_token.status_code == 403
    assert await _project_of(client, csrf, "tasks", task_id) is None
    assert await _project_of(client, csrf, "jobs", job_id) is None


async def test_add_existing_task_select_is_bounded(
    client: httpx2.AsyncClient, settings: Settings, db: Database
) -> None:
    csrf = await _sign_up_in(client, settings, "bo@example.com")
    me = await _me(client, csrf)  # one task ("Probe")
    project_id = await _new_project(client, csrf, "Big")
    async with db.transaction() as session:
        session.add_all(
            Task(workspace_id=me.workspace_id, creator_id=me.user_id, name=f"Bulk {n:03d}")
            for n in range(100)
        )
    page = await client.get(f"/projects/{project_id}")
    offered = page.text.split('id="existing-task"', 1)[1].split("</select>", 1)[0]
    assert offered.count("<option value=") == 1 + 100  # "Choose a task" and the first 100
    assert 'id="more-tasks"' in page.text and "of 101 tasks" in page.text


async def test_another_workspaces_task_job_or_project_cannot_be_placed(
    client: httpx2.AsyncClient, settings: Settings, db: Database, make_user: MakeUser
) -> None:
    other = await make_user()
    theirs = (
        await client.post("/v1/projects", json={"name": "Secret"}, headers=other.key_headers)
    ).json()["data"]["id"]
    their_task = (
        await client.post("/v1/tasks", json={"name": "Hidden"}, headers=other.key_headers)
    ).json()["data"]["id"]
    their_job = str(await make_job(db, other, await make_agent(db)))
    csrf = await _sign_up_in(client, settings, "eva@example.com")
    me = await _me(client, csrf)
    mine = await _new_project(client, csrf, "Mine")
    my_task = (await _api(client, csrf, "POST", "/v1/tasks", json={"name": "Own"}))["id"]
    my_job = str(await make_job(db, me, await make_agent(db)))
    await _place(client, csrf, f"/tasks/{my_task}/project", mine)
    await _place(client, csrf, f"/jobs/{my_job}/project", mine)

    assert "Secret" not in (await client.get(f"/tasks/{my_task}")).text
    assert "Hidden" not in (await client.get(f"/projects/{mine}")).text
    attempts = [
        (f"/tasks/{their_task}/project", {"projectId": mine}),
        (f"/tasks/{their_task}/project", {"projectId": ""}),
        (f"/tasks/{my_task}/project", {"projectId": theirs}),
        (f"/jobs/{their_job}/project", {"projectId": mine}),
        (f"/jobs/{my_job}/project", {"projectId": theirs}),
        (f"/projects/{theirs}/tasks/add", {"taskId": my_task}),
        (f"/projects/{mine}/tasks/add", {"taskId": their_task}),
    ]
    for path, data in attempts:
        answer = await client.post(path, data={"csrf": csrf, **data})
        assert answer.status_code == 404 and "<h1>404" in answer.text, (path, data)
        assert (await client.post(path, data=data)).status_code == 403, (path, data)
    # Nothing changed on either side: mine stay in my project, theirs in none.
    assert await _project_of(client, csrf, "tasks", my_task) == mine
    assert await _project_of(client, csrf, "jobs", my_job) == mine
    for kind, id_ in (("tasks", their_task), ("jobs", their_job)):
        seen = await client.get(f"/v1/{kind}/{id_}", headers=other.key_headers)
        assert seen.json()["data"]["projectId"] is None, kind
