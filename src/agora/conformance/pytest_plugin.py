"""The conformance suite as a pytest plugin: one test per check, in a builder's own test run.

    pytest -p agora.conformance.pytest_plugin --agora-agent-url http://127.0.0.1:8000 [--agora-paid]

With no ``--agora-agent-url`` the plugin adds nothing. A test of one's own can also call
``agora.conformance.suite.run_suite`` (the generated template's tests do).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from agora.conformance.checks import CheckResult, Outcome
from agora.conformance.suite import SuiteOptions, run_suite

_RESULTS = pytest.StashKey[dict[str, CheckResult]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("agora", "Agora MIP-003 conformance")
    group.addoption("--agora-agent-url", default=None, help="the agent's base URL to check")
    group.addoption("--agora-paid", action="store_true", help="also the MIP-004 hash checks")
    group.addoption("--agora-job-seconds", type=float, default=30.0, help="a job's time limit")


class ConformanceItem(pytest.Item):
    def runtest(self) -> None:
        result = self.config.stash[_RESULTS][self.name]
        if result.outcome is Outcome.SKIPPED:
            pytest.skip(result.reason)
        if result.failed:
            raise AssertionError(f"{result.reason}\nrule: {result.check.rule}")

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"agora-conformance::{self.name}"


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    url = config.getoption("--agora-agent-url")
    if not url:
        return
    options = SuiteOptions(
        paid=bool(config.getoption("--agora-paid")),
        job_seconds=float(config.getoption("--agora-job-seconds")),
    )
    results = asyncio.run(run_suite(url, options))
    config.stash[_RESULTS] = {r.check.name: r for r in results}
    for r in results:
        items.append(ConformanceItem.from_parent(session, name=r.check.name))
