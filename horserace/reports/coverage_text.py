"""``horserace coverage`` as text: per rule the fixtures that cite it and those that
distinguish it, per reading those that distinguish it, and the gaps."""

from __future__ import annotations

from typing import Any

from horserace.corpus.rule_coverage import MIN_FIXTURES_PER_READING, MIN_FIXTURES_PER_RULE

__all__ = ["format_text"]


def format_text(report: dict[str, Any]) -> str:
    lines = [f"{report['fixtures']} fixtures: " + ", ".join(f"{n} {k}" for k, n in sorted(report["kinds"].items())), ""]
    dist = report.get("distinguishing")
    if dist is not None:
        lines += ["counted: " + report["counted"], ""]
    lines.append(f"{'rule':<14} {'cited':>6} {'primary':>8} {'distinguished':>13}  title")
    apart = {a["rule"] for a in (dist or {}).get("apart", []) if "rule" in a}
    for row in report["rules"]:
        cited = len(row["fixtures"])
        if dist is None:
            told = "-"
        elif row["rule"] in apart:
            told = "apart"
        else:
            told = str(len(dist["rules"].get(row["rule"], {}).get("fixtures", [])))
        short = cited < MIN_FIXTURES_PER_RULE or (told.isdigit() and int(told) < MIN_FIXTURES_PER_RULE)
        mark = "  <-- needs more" if short else ""
        lines.append(f"{row['rule']:<14} {cited:>6} {row['primary']:>8} {told:>13}  {row['title']}{mark}")
    lines.append("")
    if dist is not None:
        lines.append("register readings: fixtures that name the reading / those of them that fail under the other")
        for name, readings in dist["readings"].items():
            parts = []
            for reading, row in readings.items():
                for other, ids in row["fail_under"].items():
                    need = ", needs more" if len(ids) < MIN_FIXTURES_PER_READING else ""
                    parts.append(f"{reading} {row['named']}/{len(ids)} (against {other}{need})")
            lines.append(f"  {name}: " + "; ".join(parts))
        lines.append("")
        if dist["apart"]:
            lines.append(f"listed apart, not counted as covered ({len(dist['apart'])}):")
            rules = [a["rule"] for a in dist["apart"] if "rule" in a]
            if rules:
                lines.append(f"  no deviation names these rules ({len(rules)}): " + " ".join(rules))
            for a in dist["apart"]:
                if "variant" in a:
                    lines.append(f"  {a['variant']}: {a['reason']}")
            lines.append("")
    else:
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
    cache = report.get("cache")
    if cache is not None:
        lines.append(f"cache {cache['file']}: {cache['judged']} judgement(s) made in this run, the rest kept from it")
        lines.append("")
    if report["gaps"]:
        lines.append(f"{len(report['gaps'])} gap(s):")
        for gap in report["gaps"]:
            lines.append(f"  {gap.get('rule') or gap.get('variant')}: {gap['problem']}")
    else:
        told = (
            f"every reading and every rule a deviation names is distinguished by at least {MIN_FIXTURES_PER_READING}"
            if dist is not None
            else f"every reading is named by at least {MIN_FIXTURES_PER_READING}"
        )
        lines.append(
            f"no gaps: every rule is cited by at least {MIN_FIXTURES_PER_RULE} fixtures, {told}, "
            "and every illegal fixture of the rule-text corpus has its twin"
        )
    return "\n".join(lines)
