"""``horserace diff`` as text and as Markdown for a review."""

from __future__ import annotations

import json
from typing import Any

from horserace.quality.ruleset_diff import DiffReport

__all__ = ["format_markdown", "format_text"]


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def format_text(report: DiffReport) -> str:
    a, b = report.a.name, report.b.name
    lines = [f"ruleset A: {a} ({report.a.description})", f"ruleset B: {b} ({report.b.description})", ""]
    groups = report.by_rule()
    lines.append(f"{len(report.changed)} of {report.fixtures} fixtures observe differently under A and B")
    for rule, changes in groups.items():
        lines.append(f"{rule} ({len(changes)})")
        for c in changes:
            fx, first = c.fixture, c.differences[0]
            more = f" (+{len(c.differences) - 1} more fields)" if len(c.differences) > 1 else ""
            lines.append(
                f"  {fx.id} [{fx.kind}] {fx.file}:{fx.line}: {first.path}: A {_value(first.expected)}, "
                f"B {_value(first.actual)}{more}"
            )
    if report.matches:
        lines.append("")
        lines.append(f"{len(report.changed_matches)} of {report.matches} seeded matches differ")
        for m in report.changed_matches:
            mode = "partnership" if m.partnership else f"{m.players} players"
            lines.append(
                f"  match {m.index} (seed {m.seed}, {mode}): first divergence at hand {m.hand}, event {m.event}:"
                f" A {_value(m.a)} / B {_value(m.b)}; final scores A {m.scores[0]}, B {m.scores[1]}"
            )
    if report.empty:
        lines.append("no outcome differs")
    return "\n".join(lines)


def format_markdown(report: DiffReport) -> str:
    a, b = report.a.name, report.b.name
    lines = [
        f"## Outcome diff: `{a}` → `{b}`",
        "",
        f"- A: **{a}**: {report.a.description}",
        f"- B: **{b}**: {report.b.description}",
        "",
        f"{len(report.changed)} of {report.fixtures} fixtures observe differently.",
    ]
    for rule, changes in report.by_rule().items():
        lines += [
            "",
            f"### {rule}",
            "",
            "| fixture | kind | first difference | A | B | fields |",
            "|---|---|---|---|---|---:|",
        ]
        for c in changes:
            first = c.differences[0]
            lines.append(
                f"| {c.fixture.id} | {c.fixture.kind} | `{first.path}` | `{_value(first.expected)}` | "
                f"`{_value(first.actual)}` | {len(c.differences)} |"
            )
    if report.matches:
        lines += ["", f"{len(report.changed_matches)} of {report.matches} seeded matches differ.", ""]
        if report.changed_matches:
            lines += [
                "| match | seed | seats | first divergence | final scores A | final scores B |",
                "|---:|---:|---|---|---|---|",
            ]
            for m in report.changed_matches:
                seats = "partnership" if m.partnership else str(m.players)
                lines.append(
                    f"| {m.index} | {m.seed} | {seats} | hand {m.hand}, event {m.event} | {m.scores[0]} | {m.scores[1]} |"
                )
    return "\n".join(lines) + "\n"
