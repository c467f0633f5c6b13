"""``agora agent new`` / ``agora agent update``: render Agora's MIP-003 agent template
(``template/``, shipped in the package) with copier, and later update a generated project to a
newer template.

``copier update`` needs the template in a git repository with version tags, which an installed
package is not. So the packaged template is published into a local git repository (the
template repository, ``$XDG_DATA_HOME/agora/agent-template``), one commit tagged
``TEMPLATE_VERSION`` per template version; projects are generated from that repository (their
``.copier-answers.yml`` records its path as ``_src_path`` and the tag as ``_commit``). A newer
Agora publishes its template as the next tag on the same repository, and ``agora agent update``
runs ``copier update`` to it: copier renders the old version, diffs it with the project and
applies the template's change while keeping the developer's own (docs/developer.md).
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
from pathlib import Path

TEMPLATE = Path(__file__).parent / "template"
# Raise when anything under template/ changes: it becomes a new tag of the template repository
# (PEP 440, what copier compares), and `agora agent update` moves projects to it.
TEMPLATE_VERSION = "1.0.0"
ANSWERS = ".copier-answers.yml"
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,62}$")  # as copier.yml's validator
_GIT_SECONDS = 30


class ScaffoldError(Exception):
    pass


def template_repository() -> Path:
    """Where the packaged template is published as a tagged git repository."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "agora" / "agent-template"


def _git(repo: Path, *args: str) -> str:
    git = shutil.which("git")
    if git is None:
        raise ScaffoldError("git is not installed (copier needs it for the template versions)")
    # our own fixed arguments (a tag is TEMPLATE_VERSION or a test's), never a shell
    done = subprocess.run(  # noqa: S603
        [git, "-c", "user.name=agora", "-c", "user.email=agora@localhost",
         "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", *args],
        cwd=repo, capture_output=True, text=True, timeout=_GIT_SECONDS, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise ScaffoldError(f"git {args[0]} in {repo}: {done.stderr.strip()[:500]}")
    return done.stdout


def _has_tag(repo: Path, version: str) -> bool:
    return bool(_git(repo, "tag", "--list", version).strip())


def publish_template(template: Path = TEMPLATE, version: str = TEMPLATE_VERSION) -> Path:
    """Make the template repository hold ``template`` as the commit tagged ``version`` (once:
    a version already published is left as it is). Serialised by a file lock, so concurrent
    ``agora agent new`` runs publish it once."""
    repo = template_repository()
    repo.parent.mkdir(parents=True, exist_ok=True)
    with (repo.parent / "agent-template.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (repo / ".git").is_dir():
            repo.mkdir(exist_ok=True)
            _git(repo, "init", "-q", "-b", "main")
        if _has_tag(repo, version):
            return repo
        for child in repo.iterdir():
            if child.name != ".git":
                shutil.rmtree(child) if child.is_dir() else child.unlink()
        shutil.copytree(
            template, repo, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
        )
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "--allow-empty", "-m", f"Agora agent template {version}")
        _git(repo, "tag", version)
    return repo


def render_agent(
    name: str,
    target: Path,
    *,
    paid: bool = False,
    template: Path = TEMPLATE,
    version: str = TEMPLATE_VERSION,
) -> Path:
    """Write the agent ``name`` into ``target`` (which must not exist or be empty), from
    ``template`` published as ``version`` (the packaged one by default)."""
    from copier import run_copy  # imported here: only these commands need copier

    if not _NAME.fullmatch(name):
        raise ScaffoldError(
            f"name {name!r}: letters, digits, - and _ only, starting with a letter (at most 63)"
        )
    if target.exists() and any(target.iterdir()):
        raise ScaffoldError(f"{target} exists and is not empty")
    repo = publish_template(template, version)
    run_copy(
        str(repo),
        target,
        data={"name": name, "paid": paid},
        vcs_ref=version,
        defaults=True,
        quiet=True,
        unsafe=False,
    )
    return target


def _answers(text: str) -> dict[str, str]:
    """The top-level ``key: value`` lines of an answers file (copier writes plain scalars)."""
    found = {}
    for line in text.splitlines()[:1000]:
        key, sep, value = line.partition(":")
        if sep and key and not key[0].isspace():
            found[key.strip()] = value.strip().strip("'\"")
    return found


def update_agent(target: Path) -> tuple[str, str]:
    """``copier update`` of the project in ``target`` to the packaged template's version;
    returns (the version it had, the version it has). The project must be a git repository
    with nothing uncommitted (copier's rule: the developer reviews the update as a diff)."""
    from copier import run_update
    from copier.errors import CopierError

    answers_file = target / ANSWERS
    if not answers_file.is_file():
        raise ScaffoldError(f"{target}: no {ANSWERS} (not made by `agora agent new`)")
    answers = _answers(answers_file.read_text(errors="replace"))
    old = str(answers.get("_commit") or "")
    repo = publish_template()
    if str(answers.get("_src_path") or "") != str(repo):
        raise ScaffoldError(
            f"{ANSWERS}: _src_path {answers.get('_src_path')!r} is not this machine's template "
            f"repository {repo} (generated elsewhere: set XDG_DATA_HOME or edit _src_path)"
        )
    if not old or not _has_tag(repo, old):
        raise ScaffoldError(f"{ANSWERS}: template version {old!r} is not in {repo}")
    if old == TEMPLATE_VERSION:
        return old, old
    try:
        run_update(
            target, vcs_ref=TEMPLATE_VERSION, defaults=True, overwrite=True, quiet=True,
            unsafe=False, skip_answered=True,
        )  # fmt: skip
    except CopierError as exc:
        raise ScaffoldError(str(exc)) from exc
    return old, TEMPLATE_VERSION
