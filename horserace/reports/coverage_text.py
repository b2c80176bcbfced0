"""``horserace coverage`` as text: per rule the fixtures that cite it and those that
distinguish it, per reading those that distinguish it, and the gaps."""

from __future__ import annotations

from typing import Any

from horserace.corpus.rule_coverage import MIN_FIXTURES_PER_READING, MIN_FIXTURES_PER_RULE

__all__ = ["format_text"]


def format_text(report: dict[str, Any]) -> str:
    """The report of ``horserace coverage`` (its JSON form, ``report``) as text."""
    lines = [f"{report['fixtures']} fixtures: " + ", ".join(f"{n} {k}" for k, n in sorted(report["kinds"].items())), ""]
    dist = report.get("distinguishing")
    if dist is not None:
        lines += ["counted: " + report["counted"], ""]
    lines += _rule_rows(report, dist)
    lines += _distinguished_readings(dist) if dist is not None else _named_readings(report)
    lines += _twins_and_cache(report)
    lines += _gaps(report, dist)
    return "\n".join(lines)


def _rule_rows(report: dict[str, Any], dist: dict[str, Any] | None) -> list[str]:
    """A row per rule: the fixtures citing it, its primary ones, those distinguishing it."""
    lines = [f"{'rule':<14} {'cited':>6} {'primary':>8} {'distinguished':>13}  title"]
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
    return lines


def _distinguished_readings(dist: dict[str, Any]) -> list[str]:
    """Per reading, the fixtures that name it and those of them that fail under the
    field's other readings; then what is listed apart."""
    lines = ["register readings: fixtures that name the reading / those of them that fail under the other"]
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
        lines += [f"  {a['variant']}: {a['reason']}" for a in dist["apart"] if "variant" in a]
        lines.append("")
    return lines


def _named_readings(report: dict[str, Any]) -> list[str]:
    """Per reading, the fixtures that name it (the count without the distinguishing one)."""
    lines = ["register readings:"]
    for name, readings in report["readings"].items():
        shown = ", ".join(
            f"{r} ({len(ids)}{', needs more' if len(ids) < MIN_FIXTURES_PER_READING else ''})"
            for r, ids in readings.items()
        )
        lines.append(f"  {name}: {shown}")
    lines.append("")
    return lines


def _twins_and_cache(report: dict[str, Any]) -> list[str]:
    without = report.get("without_twin") or []
    illegal = report["kinds"].get("illegal", 0)
    if without:
        names = " ".join(f"{w['fixture']} ({w['origin']})" for w in without)
        lines = [f"illegal fixtures without a legal twin ({len(without)} of {illegal}): {names}"]
    else:
        lines = [f"every illegal fixture has its legal twin ({illegal})"]
    lines.append("")
    cache = report.get("cache")
    if cache is not None:
        lines += [f"cache {cache['file']}: {cache['judged']} judgement(s) made in this run, the rest kept from it", ""]
    return lines


def _gaps(report: dict[str, Any], dist: dict[str, Any] | None) -> list[str]:
    if report["gaps"]:
        return [f"{len(report['gaps'])} gap(s):"] + [
            f"  {gap.get('rule') or gap.get('variant')}: {gap['problem']}" for gap in report["gaps"]
        ]
    told = (
        f"every reading and every rule a deviation names is distinguished by at least {MIN_FIXTURES_PER_READING}"
        if dist is not None
        else f"every reading is named by at least {MIN_FIXTURES_PER_READING}"
    )
    return [
        (
            f"no gaps: every rule is cited by at least {MIN_FIXTURES_PER_RULE} fixtures, {told}, "
            "and every illegal fixture of the rule-text corpus has its twin"
        )
    ]
