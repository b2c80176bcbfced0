"""What the corpus *distinguishes*: the fixtures that tell a reading from the other
readings of its field, and a rule from its deviations (``horserace coverage``).

A fixture that names a reading proves nothing about it unless its expected values fail
under the field's other reading: then an implementation that reads the field the other
way fails it.  So, for each reading ``R`` of each register field ``F`` and each other
reading ``O``, the fixtures that name ``F=R`` are replayed with the reference engine fixed
to their own readings but ``F=O``, as tests/corpus/test_reading_combinations.py fixes
it; those that do not pass (a difference, or an input the other reading cannot play)
distinguish ``R`` from ``O``.  A fixture that names no reading of ``F`` claims to hold
under every reading of it, so it distinguishes none (that it does hold under every one
is the reading-combinations test's business).

For a rule, the fixtures that fail under a deviation of that rule (an entry of
:data:`~horserace.quality.mutants.MUTANTS` whose ``rule`` it is, a misreading or a house
rule), judged in process as :func:`~horserace.quality.mutants.judge_in_process` judges.
A rule that no deviation names cannot be distinguished this way: it is listed apart,
never counted as covered; so is a field with a single reading.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from horserace._files import atomic_write
from horserace.corpus.compare import diff
from horserace.corpus.fixture import Fixture
from horserace.corpus.observers import observe
from horserace.corpus.rule_coverage import MIN_FIXTURES_PER_READING, MIN_FIXTURES_PER_RULE, coverage_report
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.quality.mutants import MUTANTS, Mutant, judge_in_process
from horserace.resources.documents import load_rules

__all__ = [
    "COUNTED",
    "Distinguishing",
    "JudgementCache",
    "distinguishing",
    "distinguishing_coverage",
    "reading_fails_under",
]


#: What ``horserace coverage`` counts, in its own words (the text and the JSON say it).
COUNTED = (
    "a reading counts the fixtures that name it and fail when the reference engine is fixed to "
    "each other reading of its field (their other readings kept); a rule counts the fixtures that "
    "fail under a deviation of it (horserace mutants --list), judged in process; "
    f"each needs at least {MIN_FIXTURES_PER_READING}. Rules no deviation names are listed apart, "
    f"not counted as covered; every rule still needs {MIN_FIXTURES_PER_RULE} fixtures citing it."
)


@dataclass
class Distinguishing:
    """The fixtures that distinguish each reading and each rule."""

    #: ``{field: {reading: {other reading: [fixture IDs]}}}``
    readings: dict[str, dict[str, dict[str, list[str]]]] = field(default_factory=dict)
    #: ``{field: {reading: [fixture IDs that name it]}}``
    named: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: ``{rule: {deviation: [fixture IDs it fails]}}``, rules some deviation names
    rules: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: rules that no deviation names, and fields with one reading: ``{"rule"|"variant", "reason"}``
    apart: list[dict[str, str]] = field(default_factory=list)

    def rule_fixtures(self, rule: str) -> list[str]:
        """The fixtures that fail under some deviation of ``rule``, each once, in corpus order."""
        seen: dict[str, None] = {}
        for ids in self.rules.get(rule, {}).values():
            seen.update(dict.fromkeys(ids))
        return list(seen)

    def gaps(self) -> list[dict[str, Any]]:
        """Every reading and every rule distinguished by fewer than the minimum, with its count."""
        out: list[dict[str, Any]] = []
        for name, by_reading in self.readings.items():
            for reading, against in by_reading.items():
                for other, ids in against.items():
                    if len(ids) < MIN_FIXTURES_PER_READING:
                        out.append(
                            {
                                "variant": f"{name}={reading}",
                                "against": f"{name}={other}",
                                "fixtures": len(ids),
                                "problem": f"{len(ids)} fixture(s) of this reading fail under {name}={other}, "
                                f"fewer than {MIN_FIXTURES_PER_READING}",
                            }
                        )
        for rule, by_deviation in self.rules.items():
            ids = self.rule_fixtures(rule)
            if len(ids) < MIN_FIXTURES_PER_RULE:
                out.append(
                    {
                        "rule": rule,
                        "fixtures": len(ids),
                        "problem": f"{len(ids)} fixture(s) fail under its deviations ({', '.join(by_deviation)}), "
                        f"fewer than {MIN_FIXTURES_PER_RULE}",
                    }
                )
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "readings": {
                name: {
                    reading: {"named": len(self.named[name][reading]), "fail_under": dict(against)}
                    for reading, against in by_reading.items()
                }
                for name, by_reading in self.readings.items()
            },
            "rules": {
                rule: {"fixtures": self.rule_fixtures(rule), "by_deviation": dict(by_deviation)}
                for rule, by_deviation in self.rules.items()
            },
            "apart": list(self.apart),
        }


def reading_fails_under(fx: Fixture, name: str, other: str) -> bool:
    """Whether ``fx`` does not pass with the reference engine fixed to its own readings
    but ``name=other``: its expected values differ, or its input cannot be played so."""
    readings = {**fx.variants, name: other}
    try:
        observed = observe(fx.kind, fx.input, readings)
    except Exception:  # noqa: BLE001  (ScenarioError, or any crash: both tell the reading apart)
        # ScenarioError: the other reading refuses what the fixture's reading plays; a crash
        # under it tells it apart too, as judge_in_process counts a crashing mutant.
        return True
    return bool(diff(fx.canonical_expected, observed))


def _code_digest() -> str:
    """A digest of every Python file of the installed package: the engine, its deviations
    and the replay that judges them.  Any change to any of them starts the cache afresh."""
    root = Path(__file__).resolve().parents[1]  # the horserace package
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def _fixture_digest(fx: Fixture) -> str:
    """A digest of what judging a fixture depends on: its kind, input, expected values
    and readings (not its ID, file, line, rules or why)."""
    body = {"kind": fx.kind, "input": fx.input, "expected": fx.canonical_expected, "variants": fx.variants}
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


class JudgementCache:
    """Each judgement of :func:`distinguishing` (does this fixture fail under that
    deviation, or under that other reading?), kept in a JSON file by the fixture's content
    and the package's code: a later run judges only the fixtures and code that changed.
    A file that cannot be read, or was written by other code, is started afresh."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.code = _code_digest()
        self.entries: dict[str, bool] = {}
        self.judged = 0  #: judgements made in this run (not found in the file)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(data, dict) and data.get("code") == self.code and isinstance(data.get("entries"), dict):
            self.entries = {k: v for k, v in data["entries"].items() if isinstance(v, bool)}

    def save(self) -> str:
        """Write the file; the reason it could not be written, or ``""``."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps({"code": self.code, "entries": self.entries}, sort_keys=True))
        except OSError as exc:
            return exc.strerror or str(exc)
        return ""


def _judged(cache: JudgementCache | None, kind: str, fixtures: list[Fixture], judge: Any) -> list[str]:
    """The IDs of ``fixtures`` that ``judge`` (a list of fixtures -> the set of IDs that fail)
    finds failing, from ``cache`` where it holds them."""
    if cache is None:
        failing: set[str] = judge(fixtures)
        return [fx.id for fx in fixtures if fx.id in failing]
    keys = {fx.id: f"{kind}:{_fixture_digest(fx)}" for fx in fixtures}
    todo = [fx for fx in fixtures if keys[fx.id] not in cache.entries]
    if todo:
        failing = judge(todo)
        cache.judged += len(todo)
        for fx in todo:
            cache.entries[keys[fx.id]] = fx.id in failing
    return [fx.id for fx in fixtures if cache.entries[keys[fx.id]]]


def distinguishing(
    fixtures: list[Fixture], deviations: dict[str, Mutant] | None = None, cache: JudgementCache | None = None
) -> Distinguishing:
    """What ``fixtures`` (deprecated ones left out) distinguish: every reading of the
    register against each other reading of its field, and every rule of spec/rules.md
    against the deviations that name it (default: the whole registry); each judgement
    taken from ``cache`` where it holds it, and kept in it."""
    fixtures = [fx for fx in fixtures if not fx.deprecated]
    out = Distinguishing()
    _readings_told(out, fixtures, cache)
    _rules_told(out, fixtures, MUTANTS if deviations is None else deviations, cache)
    return out


def _readings_told(out: Distinguishing, fixtures: list[Fixture], cache: JudgementCache | None) -> None:
    """Per reading of each register field, the fixtures naming it that fail under each
    other reading of the field."""
    for name, readings in VARIANT_FIELDS.items():
        if len(readings) < 2:
            out.apart.append({"variant": name, "reason": "the field has one reading: no other to tell it from"})
            continue
        out.named[name] = {r: [fx.id for fx in fixtures if fx.variants.get(name) == r] for r in readings}
        out.readings[name] = {}
        for reading in readings:
            mine = [fx for fx in fixtures if fx.variants.get(name) == reading]
            out.readings[name][reading] = {
                other: _judged(
                    cache,
                    f"reading:{name}={other}",
                    mine,
                    lambda todo, n=name, o=other: {fx.id for fx in todo if reading_fails_under(fx, n, o)},
                )
                for other in readings
                if other != reading
            }


def _rules_told(
    out: Distinguishing, fixtures: list[Fixture], registry: dict[str, Mutant], cache: JudgementCache | None
) -> None:
    """Per rule, the fixtures that fail under each deviation naming it; a rule no
    deviation names is listed apart."""
    rules = load_rules()
    by_rule: dict[str, list[Mutant]] = {}
    for m in registry.values():
        by_rule.setdefault(m.rule, []).append(m)
    for rule in [*rules, *(r for r in by_rule if r not in rules)]:
        named = by_rule.get(rule)
        if not named:
            out.apart.append({"rule": rule, "reason": "no deviation names this rule"})
            continue
        out.rules[rule] = {
            m.name: _judged(
                cache,
                f"deviation:{m.name}",
                fixtures,
                lambda todo, m=m: {k.id for k in judge_in_process(m, todo).killers},
            )
            for m in named
        }


def distinguishing_coverage(
    fixtures: list[Fixture], deviations: dict[str, Mutant] | None = None, cache: JudgementCache | None = None
) -> dict[str, Any]:
    """``horserace coverage``'s report: :func:`~horserace.corpus.rule_coverage.coverage_report`
    (the fixtures that cite each rule and name each reading, the illegal fixtures without a
    twin) with what distinguishes each reading and rule; its gaps are the citing gaps of the
    rules, the twins' gaps, and every reading and rule distinguished by fewer than three
    (naming a reading is not enough, so the naming gaps of readings give way to these)."""
    report = coverage_report(fixtures)
    found = distinguishing(fixtures, deviations, cache)
    report["counted"] = COUNTED
    report["distinguishing"] = found.to_dict()
    report["gaps"] = [g for g in report["gaps"] if "variant" not in g] + found.gaps()
    return report
