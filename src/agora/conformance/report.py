"""The suite's results for people (one line per check) and for CI (JUnit XML)."""

from __future__ import annotations

import xml.etree.ElementTree as ET  # writes only; nothing untrusted is parsed
from collections.abc import Sequence

from agora.conformance.checks import CheckResult, Outcome

SUITE_NAME = "agora-conformance"
_MARK = {Outcome.PASSED: "PASS", Outcome.FAILED: "FAIL", Outcome.SKIPPED: "SKIP"}


def text(base_url: str, results: Sequence[CheckResult]) -> str:
    width = max(len(r.check.name) for r in results)
    lines = [f"MIP-003 conformance of {base_url}"]
    for r in results:
        line = f"  {_MARK[r.outcome]}  {r.check.name:<{width}}  {r.check.title}"
        if r.reason:
            line += f"\n        {r.reason}"
        if r.failed:
            line += f"\n        rule: {r.check.rule}"
        lines.append(line)
    failed = sum(r.failed for r in results)
    passed = sum(r.outcome is Outcome.PASSED for r in results)
    lines.append(
        f"{passed} passed, {failed} failed, {len(results) - passed - failed} skipped"
        + (": conformant" if not failed else ": NOT conformant")
    )
    return "\n".join(lines)


def junit(base_url: str, results: Sequence[CheckResult]) -> bytes:
    """One ``testsuite``; a ``testcase`` per check (``classname`` the suite, ``name`` the
    check's), ``failure`` with the reason and the rule, ``skipped`` with the reason."""
    suites = ET.Element("testsuites")
    suite = ET.SubElement(
        suites,
        "testsuite",
        name=SUITE_NAME,
        tests=str(len(results)),
        failures=str(sum(r.failed for r in results)),
        errors="0",
        skipped=str(sum(r.outcome is Outcome.SKIPPED for r in results)),
        time=f"{sum(r.seconds for r in results):.3f}",
    )
    ET.SubElement(ET.SubElement(suite, "properties"), "property", name="url", value=base_url)
    for r in results:
        case = ET.SubElement(
            suite, "testcase", classname=SUITE_NAME, name=r.check.name, time=f"{r.seconds:.3f}"
        )
        if r.outcome is Outcome.FAILED:
            failure = ET.SubElement(case, "failure", message=r.reason)
            failure.text = f"{r.check.title}\n{r.reason}\nrule: {r.check.rule}"
        elif r.outcome is Outcome.SKIPPED:
            ET.SubElement(case, "skipped", message=r.reason)
    written: bytes = ET.tostring(suites, encoding="utf-8", xml_declaration=True)
    return written
