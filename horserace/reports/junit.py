"""``junit.xml``: one test case per fixture, for CI systems."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape as _escape
from xml.sax.saxutils import quoteattr as _quoteattr

from horserace.corpus.status import IMPLEMENTATION_ERRORS, Status
from horserace.reports.escape import for_xml
from horserace.reports.links import Links, location
from horserace.reports.summary import (
    PASSING,
    difference_text,
    first_difference,
    implementation_name,
    rule_title,
    rule_where,
    verdict,
)

__all__ = ["RUN_PROPERTIES", "junit_xml"]


def escape(text: str) -> str:
    return _escape(for_xml(text))


def quoteattr(text: str) -> str:
    return _quoteattr(for_xml(text))


#: The properties of the ``<testsuite>`` (JUnit has no properties on a test case): the
#: run's, then one ``fixture:ID`` per fixture, its location (``scenarios/rule-text/layout.yaml:43``).
RUN_PROPERTIES = ("suite", "protocol", "implementation", "command", "verdict")


def junit_xml(
    header: dict[str, Any], results: list[dict[str, Any]], footer: dict[str, Any], *, links: Links | None = None
) -> str:
    """One test case per fixture, named by ID and grouped by primary rule; valid against
    the Jenkins JUnit schema (xunit-plugin's ``junit-10.xsd``): no ``file`` or ``line``
    attribute on a test case, the fixtures' locations in the suite's ``<properties>``
    (``fixture:ID``) and in each failure's text (``at: FILE:LINE``)."""
    failures = sum(1 for r in results if r["status"] not in PASSING and r["status"] not in IMPLEMENTATION_ERRORS)
    errors = sum(1 for r in results if r["status"] in IMPLEMENTATION_ERRORS)
    skipped = sum(1 for r in results if r["status"] == Status.SKIP)
    total_time = sum(r.get("seconds", 0) for r in results)
    run = {
        "suite": str(header.get("suite", "")),
        "protocol": str(header.get("protocol", "")),
        "implementation": implementation_name(header),
        "command": str(header.get("command", "")),
        "verdict": verdict(header, results, footer).text,
    }
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        (
            f'<testsuites name={quoteattr("horserace " + str(header.get("suite")))} tests="{len(results)}" '
            f'failures="{failures}" errors="{errors}" time="{total_time:.3f}">'
        ),
        (
            f'  <testsuite name={quoteattr(implementation_name(header))} tests="{len(results)}" failures="{failures}" '
            f'errors="{errors}" skipped="{skipped}" time="{total_time:.3f}">'
        ),
        "    <properties>",
        *(f"      <property name={quoteattr(k)} value={quoteattr(run[k])}/>" for k in RUN_PROPERTIES),
        *(f"      <property name={quoteattr('fixture:' + r['id'])} value={quoteattr(location(r))}/>" for r in results),
        "    </properties>",
    ]
    out += [_testcase(r, links) for r in results]
    out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def _testcase(r: dict[str, Any], links: Links | None) -> str:
    """One fixture's test case: passed, skipped, an error (the implementation failed to
    answer, with its standard error) or a failure, with every difference in its text."""
    attrs = f'classname={quoteattr(r["rule"])} name={quoteattr(r["id"] + " " + r.get("description", ""))} time="{r.get("seconds", 0):.4f}"'
    status = r["status"]
    rule = f"{r['rule']}: {rule_title(r['rule'])}"
    first = first_difference(r) or r["message"] or status
    message = f"{first} [{rule}]"
    body = "\n".join(
        [
            *(difference_text(d) for d in r.get("differences", [])),
            *([r["message"]] if r["message"] and r.get("differences") else []),
            "",
            f"at: {location(r)}",
            f"rule {rule}",
            f"text: {rule_where(r['rule'], links=links)}",
            *([f"why: {r['why']}"] if r.get("why") else []),
        ]
    ).strip()
    if status in (Status.PASS, Status.XFAIL):
        return f"    <testcase {attrs}/>"
    if status == Status.SKIP:
        return f"    <testcase {attrs}><skipped message={quoteattr(r['message'])}/></testcase>"
    if status in IMPLEMENTATION_ERRORS:
        stderr = f"\n\nstandard error (tail):\n{r['stderr']}" if r.get("stderr") else ""
        return (
            f"    <testcase {attrs}><error type={quoteattr(status)} message={quoteattr(message)}>"
            f"{escape(body + stderr)}</error></testcase>"
        )
    return (
        f"    <testcase {attrs}><failure type={quoteattr(status)} message={quoteattr(message)}>"
        f"{escape(body)}</failure></testcase>"
    )
