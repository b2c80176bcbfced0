"""``horserace coverage``: which fixtures exercise which rule, and which readings.

A rule of spec/rules.md needs at least three fixtures citing it, and every reading of
every register variant (canonical readings included) at least three fixtures that name
it: one fixture shows a rule once, three from different positions show it is read the
same way wherever it applies.  And every ``illegal`` fixture of the rule-text corpus needs
its legal twin (spec/fixture-format.md, "illegal"): without one, an implementation's
refusal that does not name the rule cannot be shown to be for it.  The report lists every
illegal fixture without a twin (``without_twin``, generated ones included); those of
origin ``rule-text`` are gaps.
"""

from __future__ import annotations

from typing import Any

from horserace.corpus.fixture import Fixture
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.resources.documents import load_rules

__all__ = ["MIN_FIXTURES_PER_READING", "MIN_FIXTURES_PER_RULE", "coverage_report"]

MIN_FIXTURES_PER_RULE = 3
MIN_FIXTURES_PER_READING = 3


def coverage_report(fixtures: list[Fixture]) -> dict[str, Any]:
    fixtures = [fx for fx in fixtures if not fx.deprecated]  # withdrawn fixtures cover nothing
    rules = load_rules()
    by_rule: dict[str, list[str]] = {rule_id: [] for rule_id in rules}
    primary: dict[str, int] = dict.fromkeys(rules, 0)
    for fx in fixtures:
        for i, rule_id in enumerate(fx.rules):
            by_rule.setdefault(rule_id, []).append(fx.id)
            if i == 0:
                primary[rule_id] = primary.get(rule_id, 0) + 1
    readings: dict[str, dict[str, list[str]]] = {f: {r: [] for r in rs} for f, rs in VARIANT_FIELDS.items()}
    for fx in fixtures:
        for name, reading in fx.variants.items():
            readings.setdefault(name, {}).setdefault(reading, []).append(fx.id)
    without_twin = [fx for fx in fixtures if fx.kind == "illegal" and fx.twin is None]
    gaps = _coverage_gaps(by_rule, readings, without_twin)
    kinds: dict[str, int] = {}
    for fx in fixtures:
        kinds[fx.kind] = kinds.get(fx.kind, 0) + 1
    return {
        "fixtures": len(fixtures),
        "kinds": kinds,
        "rules": [
            {"rule": r, "title": rules[r].title if r in rules else "", "fixtures": ids, "primary": primary.get(r, 0)}
            for r, ids in by_rule.items()
        ],
        "readings": {name: dict(rs) for name, rs in readings.items()},
        "without_twin": [
            {"fixture": fx.id, "origin": fx.origin, "file": fx.file, "line": fx.line} for fx in without_twin
        ],
        "gaps": gaps,
    }


def _coverage_gaps(
    by_rule: dict[str, list[str]], readings: dict[str, dict[str, list[str]]], without_twin: list[Fixture]
) -> list[dict[str, Any]]:
    """The rules and readings with too few fixtures, and the rule-text illegal fixtures without a legal twin."""
    gaps: list[dict[str, Any]] = []
    for rule_id, ids in by_rule.items():
        if len(ids) < MIN_FIXTURES_PER_RULE:
            gaps.append(
                {"rule": rule_id, "fixtures": len(ids), "problem": f"fewer than {MIN_FIXTURES_PER_RULE} fixtures"}
            )
    for name, by_reading in readings.items():
        for reading, ids in by_reading.items():
            if len(ids) < MIN_FIXTURES_PER_READING:
                gaps.append(
                    {
                        "variant": f"{name}={reading}",
                        "fixtures": len(ids),
                        "problem": f"fewer than {MIN_FIXTURES_PER_READING} fixtures name this reading",
                    }
                )
    gaps.extend(
        {
            "rule": fx.primary_rule,
            "fixture": fx.id,
            "problem": f"illegal fixture {fx.id} ({fx.file}:{fx.line}) has no legal twin",
        }
        for fx in without_twin
        if fx.origin == "rule-text"
    )
    return gaps
