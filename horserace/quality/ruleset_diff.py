"""``horserace diff``: which outcomes change between two rulesets.

Every fixture's input is observed under both rulesets (the fixture's own scores and
target stay as they are: a ruleset selects readings), and, with ``--play N``, N seeded
random matches are played from the first deal to the target under both.  Whatever
differs is listed field by field, grouped by the fixture's primary rule, with the first
point where the two diverge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from horserace.corpus.attribution import cause_of
from horserace.corpus.compare import Difference, diff
from horserace.corpus.encoding import event_record
from horserace.corpus.fixture import Fixture
from horserace.corpus.observers import observe
from horserace.engine.match import Match
from horserace.engine.playout import play_random_hand
from horserace.engine.seating import SEATINGS
from horserace.engine.types import Side
from horserace.errors import HorseRaceError, ScenarioError
from horserace.quality.diagnosis import _records, _same_first
from horserace.resources.rulesets import NamedRuleset

__all__ = [
    "Attribution",
    "DiffReport",
    "FixtureChange",
    "MatchChange",
    "ab",
    "ab_text",
    "attribute",
    "diff_fixtures",
    "diff_matches",
    "run_diff",
]


@dataclass(frozen=True)
class Attribution:
    """Which changed field causes a fixture's difference: each field's reading of B set
    alone on A, its observations compared with B's as the diagnosis compares a deviation's
    with an implementation's answer.

    - ``alone``: the fields whose change alone gives B's observations exactly;
    - ``first``: those whose change alone departs from A where B does, and as B does (the
      same first difference, in dependency order), but not in everything;
    - neither: the difference comes only from the fields together;
    - ``rule``: the rule the first difference concerns (the diagnosis's attribution)."""

    alone: tuple[str, ...]
    first: tuple[str, ...]
    rule: str | None

    def text(self, fields: int) -> str:
        if self.alone:
            found = f"caused by {' and by '.join(self.alone)} alone"
        elif self.first:
            found = f"first difference caused by {' and by '.join(self.first)} alone (not all of it)"
        else:
            found = f"caused only by the {fields} fields together"
        return found + (f"; rule {self.rule}" if self.rule else "")

    def to_dict(self) -> dict[str, Any]:
        return {"alone": list(self.alone), "first": list(self.first), "rule": self.rule}


@dataclass
class FixtureChange:
    fixture: Fixture
    differences: list[Difference]
    attribution: Attribution | None = None

    def to_dict(self) -> dict[str, Any]:
        fx = self.fixture
        return {
            "attribution": self.attribution.to_dict() if self.attribution is not None else None,
            "id": fx.id,
            "file": fx.file,
            "line": fx.line,
            "rule": fx.primary_rule,
            "kind": fx.kind,
            "description": fx.description,
            "first": ab(self.differences[0]),
            "differences": [ab(d) for d in self.differences],
        }


def ab(d: Difference) -> dict[str, Any]:
    """A difference between the two rulesets' observations: ``a`` and ``b``, not
    ``expected`` and ``actual`` (neither side is the truth here)."""
    out: dict[str, Any] = {"path": d.path, "a": d.expected, "b": d.actual, "text": ab_text(d)}
    if d.item:
        out["only_in"] = "a" if d.item == "missing" else "b"
        out["count"] = d.count
    return out


def ab_text(d: Difference) -> str:
    """One difference in one line, with the sides called A and B."""
    return d.text(("A", "B", "only under A", "only under B"))


@dataclass
class MatchChange:
    index: int
    seed: int
    players: int
    partnership: bool
    hand: int  #: first hand (0-based) whose events differ
    event: int  #: first differing event in that hand
    a: Any
    b: Any
    scores: tuple[list[int], list[int]]
    winners: tuple[list[int], list[int]]

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))


@dataclass
class DiffReport:
    a: NamedRuleset
    b: NamedRuleset
    fixtures: int
    changed: list[FixtureChange] = field(default_factory=list)
    matches: int = 0
    changed_matches: list[MatchChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.changed and not self.changed_matches

    def fields(self) -> list[tuple[str, Any, Any]]:
        """The ruleset fields that differ: (field, under A, under B)."""
        a, b = self.a.ruleset, self.b.ruleset
        out: list[tuple[str, Any, Any]] = [
            (name, value, b.readings[name]) for name, value in a.readings.items() if b.readings[name] != value
        ]
        if a.target != b.target:
            out.append(("target", a.target, b.target))
        return out

    def match_summary(self) -> dict[str, Any]:
        """The seeded matches at a glance: how many differ, whose winners changed, and how
        far apart the final scores are (the largest gap between A's and B's score of a
        side, in buckets)."""
        winners = sum(1 for m in self.changed_matches if m.winners[0] != m.winners[1])
        buckets = {"0": 0, "1-10": 0, "11-30": 0, "31-60": 0, "over 60": 0}
        for m in self.changed_matches:
            gap = max((abs(x - y) for x, y in zip(*m.scores, strict=True)), default=0)
            key = (
                "0"
                if gap == 0
                else "1-10"
                if gap <= 10
                else "11-30"
                if gap <= 30
                else "31-60"
                if gap <= 60
                else "over 60"
            )
            buckets[key] += 1
        return {
            "matches": self.matches,
            "differ": len(self.changed_matches),
            "winners_changed": winners,
            "score_gap": buckets,
        }

    def by_rule(self) -> dict[str, list[FixtureChange]]:
        groups: dict[str, list[FixtureChange]] = {}
        for change in self.changed:
            groups.setdefault(change.fixture.primary_rule, []).append(change)
        return dict(sorted(groups.items()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "fields": [{"field": f, "a": x, "b": y} for f, x, y in self.fields()],
            "fixtures": self.fixtures,
            "changed_fixtures": {rule: [c.to_dict() for c in changes] for rule, changes in self.by_rule().items()},
            "matches": self.matches,
            "match_summary": self.match_summary(),
            "changed_matches": [m.to_dict() for m in self.changed_matches],
        }


def _observe(fx: Fixture, ruleset: NamedRuleset) -> dict[str, Any]:
    try:
        return observe(fx.kind, fx.input, ruleset.ruleset.readings)
    except ScenarioError as exc:
        return {"rejected": {"at": exc.at, "rule": exc.rule, "message": exc.message}}


def _refusal(observations: dict[str, Any]) -> str:
    refused = observations.get("rejected")
    if refused is None:
        return "accepted"
    at = "" if refused["at"] is None else f"action {refused['at']}: "
    return f"{at}{refused['message']} ({refused['rule']})"


def _observe_readings(fx: Fixture, readings: dict[str, str]) -> dict[str, Any]:
    try:
        return observe(fx.kind, fx.input, readings)
    except ScenarioError as exc:
        return {"rejected": {"at": exc.at, "rule": exc.rule, "message": exc.message}}


def attribute(
    fx: Fixture, a: NamedRuleset, b: NamedRuleset, obs_a: dict[str, Any], obs_b: dict[str, Any]
) -> Attribution:
    """Which of the readings that differ between ``a`` and ``b`` causes the fixture's
    difference (:class:`Attribution`)."""
    refused = obs_b.get("rejected") or obs_a.get("rejected")
    theirs = [] if refused else diff(obs_a, obs_b)
    rule: str | None = None
    if refused:  # one side refuses the input: the rule it names
        rule = refused.get("rule")
    elif theirs:
        try:
            cause = cause_of(fx, "fail", theirs)
        except HorseRaceError:  # a position the reference cannot replay: no rule to name
            cause = None
        rule = cause.rule if cause is not None else None
    alone, first = [], []
    for name, value in a.ruleset.readings.items():
        other = b.ruleset.readings[name]
        if other == value:
            continue
        obs_f = _observe_readings(fx, {**a.ruleset.readings, name: other})
        if obs_f == obs_b:
            alone.append(name)
        elif obs_f != obs_a and theirs and "rejected" not in obs_f:
            ours = diff(obs_a, obs_f)
            if _records(ours) != _records(theirs) and _same_first(fx, theirs, ours):
                first.append(name)
    return Attribution(tuple(alone), tuple(first), rule)


def diff_fixtures(fixtures: list[Fixture], a: NamedRuleset, b: NamedRuleset) -> list[FixtureChange]:
    """Every fixture observed differently under ``a`` and ``b``, each attributed to the
    reading (or readings) whose change causes it (:func:`attribute`)."""
    changes = []
    for fx in fixtures:
        obs_a, obs_b = _observe(fx, a), _observe(fx, b)
        if obs_a == obs_b:
            continue
        if "rejected" in obs_a or "rejected" in obs_b:  # one ruleset refuses the input itself
            found = [Difference(("input refused",), _refusal(obs_a), _refusal(obs_b))]
        else:
            found = diff(obs_a, obs_b) or [Difference(("(observations)",), obs_a, obs_b)]
        changes.append(FixtureChange(fx, found, attribute(fx, a, b, obs_a, obs_b)))
    return changes


def _match_trace(
    index: int, seed: int, ruleset: NamedRuleset, max_hands: int = 500
) -> tuple[int, bool, list[list[dict[str, Any]]], list[int], list[Side]]:
    seating = SEATINGS[index % len(SEATINGS)]
    players, partnership = seating.players, seating.partnership
    match = Match(players, partnership=partnership, ruleset=ruleset.ruleset, rng=random.Random(seed))
    hands: list[list[dict[str, Any]]] = []
    while not match.over and match.hands_played < max_hands:
        hand = match.deal()
        play_random_hand(hand, match.rng)
        match.finish(hand)
        hands.append([event_record(e) for e in hand.events])
    return players, partnership, hands, list(match.scores), list(match.winners)


def diff_matches(count: int, seed: int, a: NamedRuleset, b: NamedRuleset) -> list[MatchChange]:
    """Seeded random matches under both rulesets: the same seed gives the same deals and
    choices until the rules make the two games diverge."""
    changes = []
    for i in range(count):
        players, partnership, hands_a, scores_a, winners_a = _match_trace(i, seed + i, a)
        _, _, hands_b, scores_b, winners_b = _match_trace(i, seed + i, b)
        if hands_a == hands_b and scores_a == scores_b and winners_a == winners_b:
            continue
        for h in range(max(len(hands_a), len(hands_b))):
            events_a = hands_a[h] if h < len(hands_a) else []
            events_b = hands_b[h] if h < len(hands_b) else []
            if events_a != events_b:
                e = next(
                    i
                    for i in range(max(len(events_a), len(events_b)))
                    if (events_a[i] if i < len(events_a) else None) != (events_b[i] if i < len(events_b) else None)
                )
                changes.append(
                    MatchChange(
                        i,
                        seed + i,
                        players,
                        partnership,
                        h,
                        e,
                        events_a[e] if e < len(events_a) else None,
                        events_b[e] if e < len(events_b) else None,
                        (scores_a, scores_b),
                        (winners_a, winners_b),
                    )
                )
                break
    return changes


def run_diff(fixtures: list[Fixture], a: NamedRuleset, b: NamedRuleset, *, play: int = 0, seed: int = 0) -> DiffReport:
    report = DiffReport(a, b, len(fixtures), diff_fixtures(fixtures, a, b), play)
    if play:
        report.changed_matches = diff_matches(play, seed, a, b)
    return report
