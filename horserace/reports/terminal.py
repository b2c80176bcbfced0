"""The terminal summary of a conformance run."""

from __future__ import annotations

import json
from typing import Any

from horserace.reports import colour
from horserace.reports.badge import SHIELDS_ENDPOINT, Badge, embed_html, embed_markdown
from horserace.reports.causes import CAUSES_SHOWN, cause_text, diagnosis_of, failure_text, run_causes
from horserace.reports.escape import for_terminal
from horserace.reports.links import Links, location
from horserace.reports.summary import (
    PASSING,
    difference_text,
    implementation_name,
    per_rule,
    refusal_text,
    rule_title,
    rule_where,
    tally,
    verdict,
)

__all__ = ["SHIELDS_NOTE", "badge_lines", "badges_lines", "causes_lines", "run_line", "terminal"]

#: How to embed the endpoint file through shields.io: said once, after the badges.
SHIELDS_NOTE = (
    f"shields.io: publish badge.json at a URL and embed ![Horse Race]({SHIELDS_ENDPOINT}URL) (the URL percent-encoded)"
)


def causes_lines(results: list[dict[str, Any]], limit: int = CAUSES_SHOWN) -> list[str]:
    """The diagnosis in lines: the causes, most failures first (at most ``limit``, then
    how many more), and the implementation's failures to answer apart."""
    causes = run_causes(results)
    if not causes.lines and not causes.failures:
        return []
    failing = causes.explained + len(causes.undiagnosed)
    lines = (
        [f"causes of the {failing} failing fixture{'s' if failing != 1 else ''}, most first:"] if causes.lines else []
    )
    for n, line in enumerate(causes.lines[:limit], 1):
        lines.append(for_terminal(f"  {n}. {cause_text(line, rule_title(line.rule))}", one_line=True))
        if line.example:
            lines.append(for_terminal(f"     e.g. {line.fixtures[0]}: {_short(line.example, 150)}", one_line=True))
    if len(causes.lines) > limit:
        rest = causes.lines[limit:]
        lines.append(f"  ... and {len(rest)} more causes ({sum(c.count for c in rest)} fixtures), in the reports")
    lines.extend(
        for_terminal(f"  {failure_text(failure.status, len(failure.fixtures), failure.example)}", one_line=True)
        for failure in causes.failures
    )
    return lines


def terminal(
    header: dict[str, Any],
    results: list[dict[str, Any]],
    footer: dict[str, Any],
    *,
    verbose_limit: int = 20,
    links: Links | None = None,
) -> str:
    """The run for the terminal; rule links as ``links`` says (the report folder's, seen from here)."""
    name = for_terminal(implementation_name(header), one_line=True)
    lines = [f"horserace {header.get('suite')} conformance, protocol {header.get('protocol')}: {name}"]
    if footer.get("unusable"):
        lines.append(f"implementation unusable: {for_terminal(str(footer['unusable']), one_line=True)}")
        return "\n".join(lines)
    diagnosis = causes_lines(results)
    if diagnosis:
        lines += [*diagnosis, ""]
    failing = [r for r in results if r["status"] not in PASSING]
    for shown, r in enumerate(failing):
        if shown == verbose_limit:
            left = len(failing) - shown
            lines.append(
                f"  ... and {left} more failing fixture{'s' if left != 1 else ''} (every one in report.md, "
                "report.html and report.json)"
            )
            break
        lines += _failing_fixture(r, links)
    rows = per_rule(results)
    if results:
        lines.append("")
        lines.append(
            f"{'rule':<12} {'passed':>6} {'failed':>6} {'skipped':>7}  title (a fixture counts for every rule it cites)"
        )
        for row in rows:
            failed = colour.paint(f"{row['failed']:>6}", "red" if row["failed"] else None)
            lines.append(f"{row['rule']:<12} {row['passed']:>6} {failed} {row['skipped']:>7}  {_short(row['title'])}")
    counts = footer.get("counts", tally(results))
    lines.append("")
    lines.append(
        ", ".join(colour.outcome(f"{n} {for_terminal(str(k), one_line=True)}", k) for k, n in counts.items() if n)
        or "no fixtures"
    )
    judged = verdict(header, results, footer)
    lines.append(colour.tone(judged.text, judged.tone))
    return "\n".join(lines)


def _failing_fixture(r: dict[str, Any], links: Links | None) -> list[str]:
    """A failing fixture's lines: its outcome and message, its first five differences,
    its cause, its refusal, its rule and why."""
    lines: list[str] = []
    said = for_terminal(f"{r['id']} [{r['kind']}] ({r['rule']}) {location(r)}: {r['message']}", one_line=True).rstrip(
        ": "
    )
    lines.append(f"{colour.outcome(for_terminal(str(r['status']).upper(), one_line=True), r['status'])} {said}")
    lines += _differences_lines(r.get("differences", []))
    found = diagnosis_of(r)
    if found is not None and found.cause is not None:
        by = f" (matches deviation {', '.join(found.exact)})" if found.exact else ""
        lines.append(for_terminal(f"    cause {found.cause.rule}: {rule_title(found.cause.rule)}{by}", one_line=True))
    if r.get("kind") == "illegal" and isinstance(r.get("refusal"), dict):
        lines.append(for_terminal(f"    {refusal_text(r)}", one_line=True))
    lines.append(
        for_terminal(
            f"    rule {r['rule']}: {rule_title(r['rule'])} ({rule_where(r['rule'], links=links)})", one_line=True
        )
    )
    if r.get("why"):
        lines.append(for_terminal(f"    why: {_short(' '.join(r['why'].split()), 100)}", one_line=True))
    return lines


def _differences_lines(differences: list[dict[str, Any]]) -> list[str]:
    """A failing fixture's first five differences, an event's fields expected and got in
    full, and how many more there are."""
    lines: list[str] = []
    for d in differences[:5]:
        lines.append(for_terminal(f"    {difference_text(d)}", one_line=True))
        if d.get("fields") and isinstance(d.get("expected"), dict) and isinstance(d.get("actual"), dict):
            lines.append(for_terminal(f"      expected {json.dumps(d['expected'], ensure_ascii=False)}", one_line=True))
            lines.append(for_terminal(f"      got      {json.dumps(d['actual'], ensure_ascii=False)}", one_line=True))
    if len(differences) > 5:
        lines.append(f"    ... and {len(differences) - 5} more differences (every one in report.json and report.html)")
    return lines


def _short(title: str, width: int = 48) -> str:
    return title if len(title) <= width else title[: width - 3] + "..."


def run_line(header: dict[str, Any], results: list[dict[str, Any]], footer: dict[str, Any], where: str) -> str:
    """One implementation's run in one line: its name, the verdict, where its report is."""
    name = implementation_name(header)
    judged = verdict(header, results, footer)
    said = judged.text + (f": {footer['unusable']}" if footer.get("unusable") else "")
    return (
        f"{for_terminal(name, one_line=True)}: {colour.tone(for_terminal(said, one_line=True), judged.tone)} "
        f"({for_terminal(where, one_line=True)})"
    )


def _badge_line(badge: Badge, svg: str, endpoint: str) -> str:
    return for_terminal(f"badge: {svg} ({badge.text}); shields.io endpoint: {endpoint}", one_line=True)


def badges_lines(badges: list[tuple[Badge, str, str]]) -> list[str]:
    """Several runs' badges: one line each (where its files are), then once how to embed
    one, shown with the first: ``(badge, svg, endpoint)`` per run."""
    if not badges:
        return []
    badge, svg, _ = badges[0]
    return [
        *(_badge_line(*each) for each in badges),
        for_terminal(
            f"  embed one as Markdown, {embed_markdown(badge, svg)}, or as HTML, {embed_html(badge, svg)} "
            "(the first shown; the others alike, with their own path and text)",
            one_line=True,
        ),
    ]


def badge_lines(badge: Badge, svg: str, endpoint: str) -> list[str]:
    """Where a run's badge files are, and the Markdown and HTML that embed the SVG one
    (its path as given: relative to where the README that embeds it is)."""
    return [
        _badge_line(badge, svg, endpoint),
        for_terminal(f"  Markdown: {embed_markdown(badge, svg)}", one_line=True),
        for_terminal(f"  HTML:     {embed_html(badge, svg)}", one_line=True),
    ]
