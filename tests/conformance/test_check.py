"""``agora agent check`` and ``agora agent new`` through the CLI: a generated agent passes every
check; deliberately broken copies fail with the named checks in the text and the JUnit output
(exit 1); the suite as a pytest plugin, in the generated project's own tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conformance.helpers import FREE_CHECKS, cli, generate, junit_cases
from tests.support.agents import serve_asgi
from tests.support.server import free_port, port_listens

ROOT = Path(__file__).resolve().parents[2]


async def test_generated_paid_agent_passes_the_paid_checks(tmp_path: Path) -> None:
    _, module = await generate(tmp_path, "paid-agent", paid=True)
    with serve_asgi(module.app, "paid-agent") as url:
        checked = await cli("agent", "check", url, "--paid", "--junit", str(tmp_path / "j.xml"))
    assert checked.exit_code == 0, checked.output
    cases = junit_cases(tmp_path / "j.xml")
    assert cases == {
        **dict.fromkeys(FREE_CHECKS, "passed"),
        "payment-fields": "passed",
        "input-hash": "passed",
        "result-hash": "passed",  # the completed /status reports it (docs/developer.md)
    }
    assert "PASS  input-hash" in checked.output
    assert "PASS  result-hash" in checked.output


async def test_paid_agent_without_a_result_hash_skips_result_hash(tmp_path: Path) -> None:
    """An agent whose /status reports no hash submits it only to its payment node: skipped,
    saying so, and the agent still passes."""
    drop = {'        answer["result_hash"] = job["result_hash"]': "        pass"}
    _, module = await generate(tmp_path, "no-hash", paid=True, edits=drop)
    with serve_asgi(module.app, "no-hash") as url:
        checked = await cli("agent", "check", url, "--paid", "--junit", str(tmp_path / "j.xml"))
    assert checked.exit_code == 0, checked.output
    assert junit_cases(tmp_path / "j.xml")["result-hash"] == "skipped"
    assert "SKIP  result-hash" in checked.output
    assert "checking it needs a payment node" in checked.output


BROKEN = {
    "bad-schema": (
        {
            '"type": "textarea"': '"type": "paragraph"',
            '"data": {"values": ["short", "bullets"]}': '"data": {}',
        },
        ["input-schema"],
        "type 'paragraph' is not one Agora renders",
    ),
    "hangs": (
        {'    return {"status": "available"': (
            '    import asyncio\n\n    await asyncio.sleep(30)\n    return {"status": "available"'
        )},
        ["availability"],
        "/availability: no answer in time",
    ),
    "never-ends": (
        {'job["status"] = "completed"': 'job["status"] = "running"'},
        ["job-completes"],
        "the status never ended within 1 s (last: running)",
    ),
    "wrong-hash": (
        {"(input_data, identifier)": '(input_data, identifier + "0")'},
        ["input-hash"],
        "MIP-004 gives",
    ),
    "wrong-result-hash": (
        {'create_masumi_output_hash(job["result"], job["identifier"])': (
            'create_masumi_output_hash(job["result"] + "!", job["identifier"])'
        )},
        ["result-hash"],
        "for the result",
    ),
}  # fmt: skip
PAID_KINDS = {"wrong-hash", "wrong-result-hash"}


@pytest.mark.parametrize("kind", sorted(BROKEN))
async def test_broken_copies_fail_the_named_checks(tmp_path: Path, kind: str) -> None:
    edits, failing, reason = BROKEN[kind]
    paid = kind in PAID_KINDS
    _, module = await generate(tmp_path, "broken", paid=paid, edits=edits)
    junit = tmp_path / "j.xml"
    args = ["--job-seconds", "1", "--call-seconds", "1", "--junit", str(junit)] + (
        ["--paid"] if paid else []
    )
    with serve_asgi(module.app, "broken-agent") as url:
        checked = await cli("agent", "check", url, *args)
    assert checked.exit_code == 1, checked.output
    cases = junit_cases(junit)
    assert sorted(name for name, outcome in cases.items() if outcome == "failed") == failing
    for name in failing:
        assert f"FAIL  {name}" in checked.output
        assert f"rule: docs/developer.md#check-{name}" in checked.output
    assert reason in checked.output
    assert "NOT conformant" in checked.output


def _field(fid: str, ftype: str, **extra: Any) -> dict[str, Any]:
    return {"id": fid, "type": ftype, "name": fid.title(), **extra}


def _rule(name: str, value: str) -> dict[str, str]:
    return {"validation": name, "value": value}


# Every type Agora's hire form renders, with the validations it applies (``text`` and ``style``
# are the ids the generated agent's work() reads)
EVERY_TYPE = [
    _field("s", "string", validations=[_rule("min", "20"), _rule("max", "30")]),
    _field("t", "text", validations=[_rule("format", "nonempty")]),
    _field("text", "textarea", validations=[_rule("max", "5")]),
    _field("e", "email"), _field("pw", "password"), _field("tel", "tel"), _field("u", "url"),
    _field("se", "search", validations=[_rule("format", "integer")]),
    _field("h", "hidden", data={"value": "x"}), _field("d", "date"),
    _field("dt", "datetime-local"), _field("tm", "time"), _field("mo", "month"),
    _field("wk", "week"), _field("co", "color"),
    _field("f", "file", validations=[_rule("accept", ".txt")]),
    _field("n", "number", validations=[_rule("min", "3"), _rule("max", "9")]),
    _field("i", "number", validations=[_rule("format", "integer")]),
    _field("r", "range", data={"min": 5, "max": 50, "step": 5}),
    _field("b", "boolean"), _field("cb", "checkbox"),
    _field("cbs", "checkbox", data={"values": ["a", "b"]}),
    _field("style", "option", data={"values": ["short", {"value": "bullets", "label": "B"}]}),
    _field("ra", "radio", data={"values": ["p", "q"]}),
    _field("ms", "multiselect", data={"values": ["1", "2", "3"]}, validations=[_rule("min", "2")]),
    _field("opt", "tel", validations=[_rule("optional", "true"), _rule("format", "tel-pattern")]),
    _field("note", "none"),
]  # fmt: skip
BAD_SCHEMAS = {
    "unknown type": ([_field("a", "slider")], "field 'a': type 'slider' is not one Agora renders"),
    "no id": ([{"type": "string", "name": "A"}], "a field has no id"),
    "twice": ([_field("a", "string"), _field("a", "number")], "field 'a': the id is used twice"),
    "no name": ([{"id": "a", "type": "string"}], "field 'a': no name"),
    "no choices": ([_field("a", "radio")], "field 'a': type radio needs data.values"),
    "min above max": (
        [_field("a", "string", validations=[_rule("min", "9"), _rule("max", "2")])],
        "field 'a': min 9 is above max 2",
    ),
    "unknown validation": (
        [_field("a", "string", validations=[_rule("regex", ".*")])],
        "field 'a': unknown validation 'regex'",
    ),
    "unknown format": (
        [_field("a", "string", validations=[_rule("format", "zip")])],
        "field 'a': unknown format 'zip'",
    ),
    "min not a number": (
        [_field("a", "number", validations=[_rule("min", "low")])],
        "field 'a': validation min needs a number, not 'low'",
    ),
    "range step": (
        [_field("a", "range", data={"step": "x"})],
        "field 'a': data.step must be a number",
    ),
    "unsatisfiable": (
        [_field("a", "email", validations=[_rule("format", "integer")])],
        "no input satisfies the schema's validations: a: must be an email address",
    ),
}  # fmt: skip


async def test_every_field_type_agora_renders_passes(tmp_path: Path) -> None:
    _, module = await generate(tmp_path, "every-type")
    module.INPUT_SCHEMA = {"input_groups": [{"id": "g", "title": "All", "input_data": EVERY_TYPE}]}
    with serve_asgi(module.app, "every-type") as url:
        checked = await cli("agent", "check", url)
    assert checked.exit_code == 0, checked.output
    assert "PASS  input-schema" in checked.output
    assert "PASS  job-completes" in checked.output


@pytest.mark.parametrize("kind", sorted(BAD_SCHEMAS))
async def test_schemas_agora_cannot_render_fail_input_schema(tmp_path: Path, kind: str) -> None:
    fields, reason = BAD_SCHEMAS[kind]
    _, module = await generate(tmp_path, "bad")
    module.INPUT_SCHEMA = {"input_data": fields}
    with serve_asgi(module.app, "bad-schema") as url:
        checked = await cli("agent", "check", url)
    assert checked.exit_code == 1, checked.output
    assert "FAIL  input-schema" in checked.output
    assert reason in checked.output
    assert "SKIP  start-job" in checked.output  # nothing to send: the later checks say why


async def test_new_refuses_a_bad_name_and_a_used_directory(tmp_path: Path) -> None:
    bad = await cli("agent", "new", "../evil", "--dir", str(tmp_path / "x"))
    assert bad.exit_code == 2
    assert "name '../evil'" in bad.output
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "file").write_text("mine")
    used = await cli("agent", "new", "used", "--dir", str(tmp_path / "used"))
    assert used.exit_code == 2
    assert "exists and is not empty" in used.output
    assert (tmp_path / "used" / "file").read_text() == "mine"


async def test_check_refuses_a_url_that_is_not_http() -> None:
    checked = await cli("agent", "check", "ftp://127.0.0.1/agent")
    assert checked.exit_code == 2
    assert "URL must be an absolute http(s) URL" in checked.output


async def test_check_of_an_unreachable_url_fails_fast(tmp_path: Path) -> None:
    checked = await cli("agent", "check", "http://127.0.0.1:9", "--call-seconds", "1")
    assert checked.exit_code == 1
    assert "FAIL  availability" in checked.output
    assert "/availability: unreachable" in checked.output


@pytest.mark.process  # real processes: the agent and a pytest run (make prove)
def test_generated_agent_runs_with_one_command_and_the_pytest_plugin_passes(
    tmp_path: Path,
) -> None:
    """``python agent.py`` (the README's one command) serves it; the generated project's own
    tests (which run the suite) and the plugin's one test per check against that process pass
    in one pytest run."""
    import asyncio

    target, _ = asyncio.run(generate(tmp_path, "plugged"))
    port = free_port()
    # no autoloaded plugins (schemathesis, playwright …): a builder's project has none of them
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    agent = subprocess.Popen(
        [sys.executable, "agent.py"], cwd=target, env={**env, "PORT": str(port)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_for_port(port, agent)
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
             "-p", "agora.conformance.pytest_plugin", "--agora-agent-url", url],
            cwd=target, env=env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    finally:
        agent.terminate()
        agent.wait(timeout=10)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "10 passed" in run.stdout, run.stdout


def _wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        assert process.poll() is None, "python agent.py exited"
        if port_listens(port):
            return
        time.sleep(0.05)
    raise AssertionError("python agent.py did not listen within 10 s")
