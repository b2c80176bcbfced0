"""``report.md``: the run as GitHub-flavoured Markdown.

Every text that came from the stream goes through :mod:`horserace.reports.escape`:
table cells have their pipes escaped (a tile ``[3|4]`` would split a row), values are
code spans that their own backticks cannot end, and an implementation's message is a
fenced block, so that nothing it wrote is read as Markdown or HTML.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from horserace.corpus.status import Status
from horserace.quality.diagnosis import Causes
from horserace.reports.causes import failure_text, fixture_cause, run_causes
from horserace.reports.escape import code_span, for_code, for_markdown
from horserace.reports.links import Links, location
from horserace.reports.summary import (
    PASSING,
    implementation_name,
    per_rule,
    refusal_text,
    rule_title,
    rule_where,
    tally,
)
from horserace.reports.summary import verdict as run_verdict

__all__ = ["markdown"]


def markdown(
    header: dict[str, Any], results: list[dict[str, Any]], footer: dict[str, Any], *, links: Links | None = None
) -> str:
    """The run in Markdown; its rule links go where ``links`` says (default: ``spec/rules.md``)."""
    counts = footer.get("counts", tally(results))
    verdict = run_verdict(header, results, footer).text
    lines = [
        f"# Horse Race conformance: {for_markdown(implementation_name(header), cell=True)}",
        "",
        f"Suite {header.get('suite')}, protocol {header.get('protocol')}, {header.get('started')}: **{verdict}**.",
        "",
        "| outcome | fixtures |",
        "|---|---:|",
    ]
    lines += [f"| {k} | {n} |" for k, n in counts.items() if n]
    if footer.get("unusable"):
        lines += ["", "The implementation could not be used:", "", *_fenced(str(footer["unusable"]))]
    rows = per_rule(results)
    causes = run_causes(results)
    lines += _diagnosis(results, causes, links)
    lines += [
        "",
        "## Per rule",
        "",
        "Every rule of the specification, in its order; a fixture counts in the row of every rule it cites.",
        "",
        "| rule | title | passed | failed | skipped | failing fixtures |",
        "|---|---|---:|---:|---:|---|",
    ]
    for row in rows:
        title = for_markdown(row["title"], cell=True)
        lines.append(
            f"| {_rule_link(row['rule'], links)} | {title} | {row['passed']} | {row['failed']} | "
            f"{row['skipped']} | {_cell(' '.join(row['failing']))} |"
        )
    failing = [r for r in results if r["status"] not in PASSING]
    if failing:
        lines += ["", "## Failures", ""]
        for r in failing:
            lines.append(f"### {for_markdown(r['id'])} ({for_markdown(r['rule'])}): {r['status']}")
            lines.append("")
            place = code_span(location(r))
            lines.append(f"{for_markdown(r.get('description', ''))} — {place}")
            rule = r["rule"]
            found = fixture_cause(r, causes)
            if found is not None:
                cause = found.rule
                by = f" (deviation {found.deviation})" if found.deviation else ""
                lines += [
                    "",
                    (
                        f"Cause {_rule_link(cause, links)}: {for_markdown(rule_title(cause))}{for_markdown(by)}; "
                        f"{for_markdown(found.basis)}"
                    ),
                ]
            if r.get("kind") == "illegal":
                lines += ["", for_markdown(refusal_text(r))]
            lines += ["", f"Rule {_rule_link(rule, links)}: {for_markdown(rule_title(rule))}"]
            if r["message"]:
                lines += ["", *_fenced(r["message"])]
            if r.get("why"):
                lines += ["", "Why these are the expected values:", "", *_fenced(r["why"])]
            if r.get("differences"):
                lines += ["", "| field | expected | actual |", "|---|---|---|"]
                for d in r["differences"]:
                    cells = (d["path"], *_sides(d))
                    lines.append("| " + " | ".join(code_span(c, cell=True) for c in cells) + " |")
            lines.append("")
    lines += _skipped(results)
    return "\n".join(lines) + "\n"


def _skipped(results: list[dict[str, Any]]) -> list[str]:
    """The fixtures that did not run, each with the reason (as the HTML report's "Skipped")."""
    skipped = [r for r in results if r.get("status") == Status.SKIP]
    out = ["", "## Skipped", ""]
    if not skipped:
        return [*out, "None: every fixture ran."]
    out += [
        (
            f"{len(skipped)} fixture(s) did not run, each with the reason (a kind the implementation does not "
            "declare, a reading it does not follow, a withdrawn fixture)."
        ),
        "",
        "| fixture | kind | rule | reason |",
        "|---|---|---|---|",
    ]
    for r in skipped:
        cells = [str(r.get("id", "?")), str(r.get("kind", "?")), str(r.get("rule", "?"))]
        out.append(
            "| "
            + " | ".join(code_span(c, cell=True) if n != 1 else for_markdown(c, cell=True) for n, c in enumerate(cells))
            + f" | {for_markdown(str(r.get('message', '')), cell=True)} |"
        )
    return out


def _diagnosis(results: list[dict[str, Any]], causes: Causes, links: Links | None) -> list[str]:
    """The causes of the failures, most first, and the failures to answer apart."""
    out: list[str] = _causes_table(causes, links)
    if causes.failures:
        out += ["", "Not counted against any rule:", ""]
        out += [f"- {for_markdown(failure_text(f.status, len(f.fixtures), f.example))}" for f in causes.failures]
    out += _refusals_table(results)
    return out


def _causes_table(causes: Causes, links: Links | None) -> list[str]:
    """The table of the causes, most failures first: each rule, its fixtures and how they were attributed."""
    out: list[str] = []
    if causes.lines:
        out += [
            "",
            "## Diagnosis: the causes, most failures first",
            "",
            (
                "Each failing fixture is attributed to the rule its first difference concerns, or to the named "
                "deviation of the reference engine that reproduces its answer (spec/protocol.md, "
                '"How a failure is diagnosed").'
            ),
            "",
            "| # | rule | failing fixtures | how | fixtures |",
            "|---:|---|---:|---|---|",
        ]
        for n, line in enumerate(causes.lines, 1):
            how = [f"deviation `{name}` on {count} ({exactly} exactly)" for name, count, exactly in line.deviations]
            if line.by_difference:
                how.append(f"{line.by_difference} by the first difference")
            title = for_markdown(rule_title(line.rule), cell=True)
            lines_ids = " ".join(line.fixtures[:20]) + (f" (+{line.count - 20})" if line.count > 20 else "")
            out.append(
                f"| {n} | {_rule_link(line.rule, links)} {title} | {line.count} | "
                f"{for_markdown('; '.join(how), cell=True)} | {_cell(lines_ids)} |"
            )
    return out


def _refusals_table(results: list[dict[str, Any]]) -> list[str]:
    """Every illegal fixture that ran: the rule its action breaks, the implementation's
    refusal, its answer to the legal twin."""
    out: list[str] = []
    illegal = [r for r in results if r.get("kind") == "illegal" and r.get("status") != Status.SKIP]
    if illegal:
        out += [
            "",
            "## Refusals of illegal actions",
            "",
            (
                "Every illegal fixture that ran, passing ones included: the rule its action breaks, what the "
                "implementation said, and its answer to the legal twin."
            ),
            "",
            "| fixture | outcome | breaks | refused | rule given | message | legal twin |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in illegal:
            refusal: dict[str, Any] = r["refusal"] if isinstance(r.get("refusal"), dict) else {}
            twin: dict[str, Any] = r["twin"] if isinstance(r.get("twin"), dict) else {}
            twin_text = (
                f"refused action {twin.get('at')}" if twin.get("status") == "refused" else str(twin.get("status", ""))
            )
            cells = [
                str(r.get("id")),
                str(r.get("status")),
                str(r.get("breaks") or ""),
                "" if not refusal else f"action {refusal.get('at')}",
                str(refusal.get("rule") or ""),
                str(refusal.get("message") or "")[:200],
                twin_text,
            ]
            out.append("| " + " | ".join(for_markdown(c, cell=True) for c in cells) + " |")
    return out


def _value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _sides(d: dict[str, Any]) -> tuple[str, str]:
    """The expected and actual cells of a difference (an unordered collection's missing or
    extra item: the item on its side, and what is on the other)."""
    times = f" x{d.get('count', 1)}" if d.get("count", 1) > 1 else ""
    if d.get("item") == "missing":
        return _value(d["expected"]) + times, "(missing)"
    if d.get("item") == "extra":
        return "(not expected)", _value(d["actual"]) + times
    return _value(d["expected"]), _value(d["actual"])


def _fenced(text: str) -> list[str]:
    """``text`` as a fenced code block that no run of backticks inside it can close."""
    longest = max((len(run) for run in re.findall("`{3,}", text)), default=2)
    fence = "`" * (longest + 1)
    return [f"{fence}text", for_code(text), fence]  # no markup is read in a code block


def _cell(text: str) -> str:
    return for_markdown(text, cell=True)


def _rule_link(rule: str, links: Links | None) -> str:
    """A rule's ID linked to its text: the ID escaped as text, the address with what
    would end a Markdown link destination (a rule ID of a stream is its text) percent-encoded."""
    where = quote(rule_where(rule, links=links), safe="/:#?&=%~+@!$,;*'")
    return f"[{_cell(rule)}]({where})"
