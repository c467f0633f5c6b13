"""``agora agent new``: render Agora's MIP-003 agent template (``template/``, shipped in the
package) with copier, so the generated project records its answers for ``copier update``."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATE = Path(__file__).parent / "template"
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,62}$")  # as copier.yml's validator


class ScaffoldError(Exception):
    pass


def render_agent(name: str, target: Path, *, paid: bool = False) -> Path:
    """Write the agent ``name`` into ``target`` (which must not exist or be empty)."""
    from copier import run_copy  # imported here: only this command needs copier

    if not _NAME.fullmatch(name):
        raise ScaffoldError(
            f"name {name!r}: letters, digits, - and _ only, starting with a letter (at most 63)"
        )
    if target.exists() and any(target.iterdir()):
        raise ScaffoldError(f"{target} exists and is not empty")
    run_copy(
        str(TEMPLATE),
        target,
        data={"name": name, "paid": paid},
        defaults=True,
        quiet=True,
        unsafe=False,
    )
    return target
