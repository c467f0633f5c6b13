"""One dialect for every domain: the response ``Schema``, the typed envelopes and the principal
aliases each have one home, so a domain (accounts and organizations had their own) cannot grow a
second set again."""

from __future__ import annotations

import re
from pathlib import Path

import agora

SRC = Path(agora.__file__).parent

# pattern → the files where it may stand, and why
HOMES: dict[str, dict[str, str]] = {
    r"^class Schema\(": {"kit/schemas.py": "the base of every response schema"},
    r"Annotated\[Principal\b": {
        "auth/dependencies.py": "one alias per permission (Reader, JobsWriter …)",
        "web/shell.py": "the web's viewer: the session's principal plus the header's workspaces, "
        "kept for the error page (ViewerDep, SignedInDep)",
        "accounts/dependencies.py": "the console's operator: a signed-in person with a live "
        "admin key (OperatorDep)",
    },
    r"[\"']success[\"']\s*:\s*True": {"kit/envelopes.py": "Envelope A, typed (EnvelopeA[...])"},
    r"^def envelope_[ab]\(": {},  # dict envelopes are gone: EnvelopeA[...] / EnvelopeB[...]
}


def misplaced(source: str, relative: str) -> list[str]:
    return [
        f"{relative}: {pattern}"
        for pattern, homes in HOMES.items()
        if relative not in homes and re.search(pattern, source, re.M)
    ]


def test_each_piece_of_the_dialect_has_one_home() -> None:
    found = [
        finding
        for path in sorted(SRC.rglob("*.py"))
        for finding in misplaced(path.read_text(encoding="utf-8"), path.relative_to(SRC).as_posix())
    ]
    assert found == []


def test_the_check_flags_a_domain_with_its_own_dialect() -> None:
    source = (
        "class Schema(BaseModel):\n    pass\n"
        "Writer = Annotated[Principal, require(Permission.PROFILE_WRITE)]\n"
        'def answer(x):\n    return {"success": True, "data": x}\n'
    )
    assert misplaced(source, "organizations/endpoints.py") == [
        r"organizations/endpoints.py: ^class Schema\(",
        r"organizations/endpoints.py: Annotated\[Principal\b",
        r"organizations/endpoints.py: [\"']success[\"']\s*:\s*True",
    ]
    assert misplaced(source.split("Writer")[0], "kit/schemas.py") == []


def test_the_homes_exist() -> None:
    for homes in HOMES.values():
        for home in homes:
            assert (SRC / home).exists(), home
