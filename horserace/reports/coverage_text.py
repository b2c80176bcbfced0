"""``horserace coverage`` as text: the matrix of rule IDs against fixtures."""

from __future__ import annotations

from typing import Any

from horserace.corpus.rule_coverage import MIN_FIXTURES_PER_READING, MIN_FIXTURES_PER_RULE

__all__ = ["format_text"]


def format_text(report: dict[str, Any]) -> str:
    lines = [f"{report['fixtures']} fixtures: " + ", ".join(f"{n} {k}" for k, n in sorted(report["kinds"].items())), ""]
    lines.append(f"{'rule':<14} {'fixtures':>8} {'primary':>8}  title")
    for row in report["rules"]:
        mark = "  <-- needs more" if len(row["fixtures"]) < MIN_FIXTURES_PER_RULE else ""
        lines.append(f"{row['rule']:<14} {len(row['fixtures']):>8} {row['primary']:>8}  {row['title']}{mark}")
    lines.append("")
    lines.append("register readings:")
    for name, readings in report["readings"].items():
        lines.append(
            "  "
            + name
            + ": "
            + ", ".join(
                f"{r} ({len(ids)}{', needs more' if len(ids) < MIN_FIXTURES_PER_READING else ''})"
                for r, ids in readings.items()
            )
        )
    lines.append("")
    without = report.get("without_twin") or []
    illegal = report["kinds"].get("illegal", 0)
    if without:
        names = " ".join(f"{w['fixture']} ({w['origin']})" for w in without)
        lines.append(f"illegal fixtures without a legal twin ({len(without)} of {illegal}): {names}")
    else:
        lines.append(f"every illegal fixture has its legal twin ({illegal})")
    lines.append("")
    if report["gaps"]:
        lines.append(f"{len(report['gaps'])} gap(s):")
        for gap in report["gaps"]:
            lines.append(f"  {gap.get('rule') or gap.get('variant')}: {gap['problem']}")
    else:
        lines.append(
            f"no gaps: every rule has at least {MIN_FIXTURES_PER_RULE} fixtures, every reading is named by "
            f"at least {MIN_FIXTURES_PER_READING}, and every illegal fixture of the rule-text corpus has its twin"
        )
    return "\n".join(lines)
