"""``report.md``: the run as GitHub-flavoured Markdown.

Every text that came from the stream goes through :mod:`horserace.reports.escape`:
table cells have their pipes escaped (a tile ``[3|4]`` would split a row), values are
code spans that their own backticks cannot end, and an implementation's message is a
fenced block, so that nothing it wrote is read as Markdown or HTML.
"""

from __future__ import annotations

import json
import re

from horserace.reports.escape import code_span, for_markdown
from horserace.reports.summary import PASSING, implementation_name, most_cited, per_rule, rule_title, rule_where, tally
from horserace.reports.summary import verdict as run_verdict

__all__ = ["markdown"]


def markdown(header: dict, results: list[dict], footer: dict) -> str:
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
    ranking = most_cited(rows)
    if ranking:
        lines += ["", "## Most cited by failing fixtures", "", "| rule | failing fixtures | as primary rule | title |"]
        lines.append("|---|---:|---:|---|")
        for row in ranking:
            title = for_markdown(row["title"], cell=True)
            lines.append(
                f"| [{row['rule']}]({rule_where(row['rule'])}) | {row['failed']} | {row['primary_failed']} | {title} |"
            )
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
            f"| [{row['rule']}]({rule_where(row['rule'])}) | {title} | {row['passed']} | {row['failed']} | "
            f"{row['skipped']} | {' '.join(row['failing'])} |"
        )
    failing = [r for r in results if r["status"] not in PASSING]
    if failing:
        lines += ["", "## Failures", ""]
        for r in failing:
            lines.append(f"### {r['id']} ({r['rule']}): {r['status']}")
            lines.append("")
            place = code_span(f"{r['file']}:{r['line']}")
            lines.append(f"{for_markdown(r.get('description', ''))} — {place}")
            rule = r["rule"]
            lines += ["", f"Rule [{rule}]({rule_where(rule)}): {for_markdown(rule_title(rule))}"]
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
    return "\n".join(lines) + "\n"


def _value(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _sides(d: dict) -> tuple[str, str]:
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
    return [f"{fence}text", for_markdown(text), fence]
