"""``agora agent update``: a project generated from an older template (published as an older
version tag of the local template repository) is moved to the packaged template's version by
``copier update``: the template's change is applied, the developer's own edit kept."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agora.developer.scaffold import TEMPLATE, TEMPLATE_VERSION, render_agent
from tests.conformance.helpers import cli, template_home

OLD_VERSION = "0.9.0"
MINE = '"""The job itself: mine now, it counts words."""'


def _git(project: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=dev", "-c", "user.email=dev@example.com", *args],
        cwd=project, check=True, capture_output=True, timeout=30,
    )  # fmt: skip


@pytest.fixture
def old_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project made from template 0.9.0 (the packaged one with another availability
    message), committed, then edited by its developer and committed again."""
    for key, value in template_home(tmp_path).items():
        monkeypatch.setenv(key, value)
    old = tmp_path / "old-template"
    shutil.copytree(TEMPLATE, old)
    agent = old / "agent.py.jinja"
    text = agent.read_text()
    assert "{{ name }} is ready" in text
    agent.write_text(text.replace("{{ name }} is ready", "{{ name }} is up"))
    project = render_agent("upd", tmp_path / "upd", template=old, version=OLD_VERSION)
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "-A")
    _git(project, "commit", "-q", "-m", "generated")
    source = project / "agent.py"
    text = source.read_text()
    assert "upd is up" in text
    source.write_text(text.replace('"""The job itself: replace it with yours."""', MINE))
    _git(project, "commit", "-q", "-am", "my work")
    return project


async def test_update_applies_the_new_template_and_keeps_the_developers_edit(
    tmp_path: Path, old_project: Path
) -> None:
    env = template_home(tmp_path)
    answers = (old_project / ".copier-answers.yml").read_text()
    assert f"_commit: {OLD_VERSION}" in answers
    assert f"_src_path: {tmp_path / 'xdg' / 'agora' / 'agent-template'}" in answers

    updated = await cli("agent", "update", "--dir", str(old_project), env=env)
    assert updated.exit_code == 0, updated.output
    assert f"from template version {OLD_VERSION} to {TEMPLATE_VERSION}" in updated.output
    text = (old_project / "agent.py").read_text()
    assert '"message": "upd is ready"' in text  # the template's change
    assert "upd is up" not in text
    assert MINE in text  # the developer's edit
    assert "<<<<<<<" not in text  # no conflict
    assert f"_commit: {TEMPLATE_VERSION}" in (old_project / ".copier-answers.yml").read_text()

    _git(old_project, "commit", "-q", "-am", "template update")
    again = await cli("agent", "update", "--dir", str(old_project), env=env)
    assert again.exit_code == 0, again.output
    assert f"already on template version {TEMPLATE_VERSION}" in again.output


async def test_update_refuses_uncommitted_work_and_a_project_it_did_not_make(
    tmp_path: Path, old_project: Path
) -> None:
    env = template_home(tmp_path)
    (old_project / "agent.py").write_text("# unsaved work\n")
    dirty = await cli("agent", "update", "--dir", str(old_project), env=env)
    assert dirty.exit_code == 1
    assert "dirty" in dirty.output
    assert (old_project / "agent.py").read_text() == "# unsaved work\n"

    (tmp_path / "other").mkdir()
    other = await cli("agent", "update", "--dir", str(tmp_path / "other"), env=env)
    assert other.exit_code == 1
    assert "no .copier-answers.yml" in other.output
