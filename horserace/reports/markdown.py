"""``report.md``: the run as GitHub-flavoured Markdown."""

from __future__ import annotations

import json

from horserace.reports.summary import PASSING, implementation_name, per_rule, tally

__all__ = ["markdown"]


def markdown(header: dict, results: list[dict], footer: dict) -> str:
    counts = footer.get("counts", tally(results))
    verdict = "conformant" if footer.get("conformant") else "not conformant"
    lines = [
        f"# Horse Race conformance: {implementation_name(header)}",
        "",
        f"Suite {header.get('suite')}, protocol {header.get('protocol')}, {header.get('started')}: **{verdict}**.",
        "",
        "| outcome | fixtures |",
        "|---|---:|",
    ]
    lines += [f"| {k} | {n} |" for k, n in counts.items() if n]
    if footer.get("unusable"):
        lines += ["", f"The implementation could not be used: {footer['unusable']}"]
    lines += [
        "",
        "## Per rule",
        "",
        "| rule | passed | failed | skipped | failing fixtures |",
        "|---|---:|---:|---:|---|",
    ]
    for row in per_rule(results):
        lines.append(
            f"| {row['rule']} | {row['passed']} | {row['failed']} | {row['skipped']} | {' '.join(row['failing'])} |"
        )
    failing = [r for r in results if r["status"] not in PASSING]
    if failing:
        lines += ["", "## Failures", ""]
        for r in failing:
            lines.append(f"### {r['id']} ({r['rule']}): {r['status']}")
            lines.append("")
            lines.append(f"{r.get('description', '')} — `{r['file']}:{r['line']}`")
            if r["message"]:
                lines += ["", r["message"].replace("|", "\\|")]
            if r.get("differences"):
                lines += ["", "| field | expected | actual |", "|---|---|---|"]
                for d in r["differences"]:
                    lines.append(f"| `{d['path']}` | `{json.dumps(d['expected'])}` | `{json.dumps(d['actual'])}` |")
            lines.append("")
    return "\n".join(lines) + "\n"
