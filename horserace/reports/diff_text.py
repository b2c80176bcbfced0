"""``horserace diff`` as text and as Markdown for a review: the fields that differ, the
fixtures whose outcomes change (grouped by primary rule), and the seeded matches
summarised (raw events only with ``verbose``)."""

from __future__ import annotations

import json
from typing import Any

from horserace.quality.ruleset_diff import DiffReport, FixtureChange, MatchChange, ab_text
from horserace.reports.escape import code_span, for_markdown

__all__ = ["format_markdown", "format_text"]

EXAMPLES = 3


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def _side(value: Any, absent: bool) -> str:
    """One side of a difference in a table cell: absent for an item only the other side has."""
    return "(not there)" if absent else code_span(_value(value), cell=True)


def _fields(report: DiffReport) -> str:
    changed = report.fields()
    if not changed:
        return "the two rulesets have the same readings and target"
    return "; ".join(f"{name}: {a} -> {b}" for name, a, b in changed)


def _event(e: Any) -> str:
    """An event in a few words (``place [1|4] count 10``, ``draw``, ``hand-end blocked``)."""
    if not isinstance(e, dict):
        return "no event (the hand is over)"
    kind = str(e.get("event", "?"))
    if kind == "place":
        return f"place {e.get('tile')} by seat {e.get('seat')}, count {e.get('count')}"
    if kind in ("draw", "pass", "end-turn"):
        return f"{kind} by seat {e.get('seat')}"
    if kind == "hand-end":
        return f"hand-end {e.get('reason')}, winners {e.get('winners')}, credits {e.get('credits')}"
    return f"{kind} {e.get('winners', '')}".strip()


def _contrast(a: Any, b: Any) -> str:
    """Two events that differ: the event, then the fields in which they differ."""
    if isinstance(a, dict) and isinstance(b, dict) and a.get("event") == b.get("event"):
        fields = [k for k in {**a, **b} if a.get(k) != b.get(k)]
        shown = ", ".join(f"{k} A {_value(a.get(k))} B {_value(b.get(k))}" for k in fields)
        return f"{_event(a)}: {shown}"
    return f"A {_event(a)} / B {_event(b)}"


def _divergence(m: MatchChange, verbose: bool) -> list[str]:
    mode = "partnership" if m.partnership else f"{m.players} players"
    lines = [
        (
            f"  match {m.index} (seed {m.seed}, {mode}): first divergence at hand {m.hand}, event {m.event}: "
            f"{_contrast(m.a, m.b)}; final scores A {m.scores[0]}, B {m.scores[1]}"
        )
    ]
    if verbose:
        lines += [f"    A {_value(m.a)}", f"    B {_value(m.b)}"]
    return lines


def _several(report: DiffReport) -> int:
    """How many readings differ, when several do (0 otherwise): then each fixture's
    difference is attributed to the reading or readings that cause it."""
    readings = [f for f, _, _ in report.fields() if f != "target"]
    return len(readings) if len(readings) > 1 else 0


def _caused(report: DiffReport, change: FixtureChange) -> str:
    several = _several(report)
    return change.attribution.text(several) if several and change.attribution is not None else ""


def format_text(report: DiffReport, *, verbose: bool = False) -> str:
    lines = [
        f"ruleset A: {report.a.name} ({report.a.description})",
        f"ruleset B: {report.b.name} ({report.b.description})",
        f"fields that differ: {_fields(report)}",
        "",
        f"{len(report.changed)} of {report.fixtures} fixtures observe differently under A and B",
    ]
    for rule, changes in report.by_rule().items():
        lines.append(f"{rule} ({len(changes)})")
        for c in changes:
            fx, first = c.fixture, c.differences[0]
            more = f" (+{len(c.differences) - 1} more fields)" if len(c.differences) > 1 else ""
            lines.append(f"  {fx.id} [{fx.kind}] {fx.file}:{fx.line}: {ab_text(first)}{more}")
            caused = _caused(report, c)
            if caused:
                lines.append(f"    {caused}")
    if report.matches:
        summary = report.match_summary()
        gaps = ", ".join(f"{k}: {n}" for k, n in summary["score_gap"].items() if n) or "none"
        lines += [
            "",
            (
                f"{summary['differ']} of {summary['matches']} seeded matches differ; the winners changed in "
                f"{summary['winners_changed']}; largest score gap between A and B per match: {gaps}"
            ),
        ]
        shown = report.changed_matches if verbose else report.changed_matches[:EXAMPLES]
        for m in shown:
            lines += _divergence(m, verbose)
        if len(shown) < len(report.changed_matches):
            lines.append(f"  ... and {len(report.changed_matches) - len(shown)} more (--verbose lists them all)")
    if report.empty:
        lines.append("no outcome differs")
    return "\n".join(lines)


def format_markdown(report: DiffReport, *, verbose: bool = False) -> str:
    a, b = report.a.name, report.b.name
    lines = [
        f"## Outcome diff: {code_span(a)} → {code_span(b)}",
        "",
        f"- A: **{for_markdown(a)}**: {for_markdown(report.a.description)}",
        f"- B: **{for_markdown(b)}**: {for_markdown(report.b.description)}",
        f"- fields that differ: {for_markdown(_fields(report))}",
        "",
        f"{len(report.changed)} of {report.fixtures} fixtures observe differently.",
    ]
    several = _several(report)
    for rule, changes in report.by_rule().items():
        lines += [
            "",
            f"### {rule}",
            "",
            "| fixture | kind | first difference | A | B | fields |" + (" caused by |" if several else ""),
            "|---|---|---|---|---|---:|" + ("---|" if several else ""),
        ]
        for c in changes:
            first = c.differences[0]
            cells = [
                c.fixture.id,
                c.fixture.kind,
                code_span(first.path, cell=True),
                _side(first.expected, first.item == "extra"),
                _side(first.actual, first.item == "missing"),
                str(len(c.differences)),
            ]
            if several:
                cells.append(for_markdown(_caused(report, c), cell=True))
            lines.append("| " + " | ".join(cells) + " |")
    if report.matches:
        summary = report.match_summary()
        lines += [
            "",
            (
                f"{summary['differ']} of {summary['matches']} seeded matches differ; the winners changed in "
                f"{summary['winners_changed']}."
            ),
        ]
        if report.changed_matches:
            lines += ["", "| largest score gap | matches |", "|---|---:|"]
            lines += [f"| {k} | {n} |" for k, n in summary["score_gap"].items()]
            lines += [
                "",
                "| match | seed | seats | first divergence | events (A, B) | final scores A | final scores B |",
                "|---:|---:|---|---|---|---|---|",
            ]
            shown = report.changed_matches if verbose else report.changed_matches[:EXAMPLES]
            for m in shown:
                seats = "partnership" if m.partnership else str(m.players)
                cells = [
                    str(m.index),
                    str(m.seed),
                    seats,
                    f"hand {m.hand}, event {m.event}",
                    for_markdown(_contrast(m.a, m.b), cell=True),
                    code_span(_value(m.scores[0]), cell=True),
                    code_span(_value(m.scores[1]), cell=True),
                ]
                lines.append("| " + " | ".join(cells) + " |")
            if len(shown) < len(report.changed_matches):
                lines += ["", f"... and {len(report.changed_matches) - len(shown)} more (`--verbose` lists them all)."]
    return "\n".join(lines) + "\n"
