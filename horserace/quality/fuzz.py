"""``horserace fuzz``: differential fuzzing of an implementation against the reference
engine through the conformance protocol.

Each seed makes one scenario of every kind asked for (:data:`SCENARIO_KINDS`): one hand
of play, a whole match, a settlement, an illegal action at a random point of a hand, a
perft position, a layout sequence (:mod:`horserace.corpus.generate`).  The table of a
seed is the next of the seatings in turn; its rules are the next ruleset given, or the
readings the implementation declares, drawn per seed.  Every scenario is a
:class:`~horserace.corpus.fixture.Fixture` whose ``variants`` name the readings it was
generated under, its expected values the reference engine's.

The first disagreement is shrunk (:mod:`horserace.quality.shrink`) and written as a
ready fixture (``origin: generated``) for a human to review: its expected values are the
reference engine's, so it is evidence only once a person has checked it against the
rules.  Seeds are the unit of work: ``--seed S --budget N`` covers seeds ``S .. S+N-1``,
so a long campaign shards into independent jobs whose results merge.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from horserace.conformance.runner import Options, Outcome, Worker
from horserace.conformance.scope import Targets
from horserace.corpus.compare import Difference
from horserace.corpus.fixture import Fixture
from horserace.corpus.generate import GENERATORS, SCENARIO_KINDS, fixture_kind
from horserace.corpus.ids import generated_id
from horserace.corpus.status import IMPLEMENTATION_ERRORS
from horserace.engine.layout import BRANCH_A, PORT_NAMES
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.engine.seating import SEATINGS, Seating
from horserace.errors import ImplementationUnusable
from horserace.quality.shrink import Shrunk, disagrees, shrink, size_of, size_text
from horserace.resources.rulesets import NamedRuleset

__all__ = [
    "SCENARIO_KINDS",
    "Finding",
    "FuzzResult",
    "Plan",
    "Scenario",
    "Shard",
    "Tried",
    "finding_fixture",
    "finding_of",
    "fuzz",
    "fuzz_range",
    "merge_shards",
    "rule_of_event",
    "scenarios",
    "write_finding",
]

#: Seeds judged between two reports of progress.
BATCH = 32

# The rule a disagreement in an event field is reported against, by event kind.
_PLACE_FIELDS = {
    "count": "HR-COUNT-1",
    "credit_raw": "HR-CREDIT-1",
    "credit": "HR-CREDIT-2",
    "continues": "HR-TURN-1",
    "drawn": "HR-TURN-3",
    "target": "HR-PLACE-1",
    "port": "HR-SPIN-2",
    "tile": "HR-PLACE-1",
    "seat": "HR-SEAT-3",
}
_HAND_END_FIELDS = {
    "reason": "HR-END-1",
    "winners": "HR-END-2",
    "pips": "HR-SET-2",
    "credits": "HR-SETTLE-1",
    "scores": "HR-SETTLE-1",
    "next_opener": "HR-OPEN-3",
}
# What an event of another kind in place of the expected one most likely breaks.
_KIND_RULES = {
    ("place", "draw"): "HR-DRAW-1",  # drew while holding a playable tile
    ("draw", "place"): "HR-DRAW-1",
    ("draw", "pass"): "HR-DRAW-4",
    ("pass", "draw"): "HR-DRAW-4",
    ("place", "pass"): "HR-PASS-1",
    ("pass", "place"): "HR-PASS-1",
    ("place", "end-turn"): "HR-TURN-1",
    ("end-turn", "place"): "HR-TURN-1",
    ("place", "hand-end"): "HR-TURN-2",
    ("hand-end", "place"): "HR-TURN-2",
    ("pass", "hand-end"): "HR-BLOCK-1",
    ("hand-end", "pass"): "HR-BLOCK-1",
}
# The rule of a differing field of a layout snapshot or a settlement.
_SNAPSHOT_FIELDS = {
    "sum": "HR-COUNT-1",
    "contributions": "HR-COUNT-1",
    "credit_raw": "HR-CREDIT-1",
    "credit": "HR-CREDIT-2",
    "attachment_points": "HR-PLACE-1",
    "connections": "HR-MOVE-1",
    "tiles": "HR-PLACE-1",
    "spinners": "HR-SPIN-1",
}
_SETTLEMENT_FIELDS = {
    "winners": "HR-END-2",
    "credits": "HR-SETTLE-1",
    "scores": "HR-SETTLE-1",
    "match_winners": "HR-MATCH-2",
}


def rule_of_event(expected: object, actual: object) -> str:
    """The rule most likely broken where the implementation's event differs from the
    expected one: by the kinds of the two events, else by the first field that differs,
    read in the light of the event (a blocked hand with several winners is a tie,
    HR-SETTLE-3; a hand end for the match is HR-MATCH-1)."""
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return "HR-TURN-1"
    kinds = (expected.get("event"), actual.get("event"))
    if kinds[0] != kinds[1]:
        return _KIND_RULES.get((str(kinds[0]), str(kinds[1])), "HR-TURN-1")
    differing = [k for k in {**expected, **actual} if expected.get(k) != actual.get(k)]
    if kinds[0] == "place":
        return next((_PLACE_FIELDS[k] for k in differing if k in _PLACE_FIELDS), "HR-COUNT-1")
    if kinds[0] == "hand-end":
        if expected.get("reason") == "match" or actual.get("reason") == "match":
            return "HR-MATCH-1"
        tie = len(expected.get("winners") or []) > 1 or len(actual.get("winners") or []) > 1
        if expected.get("reason") == "blocked" and tie and set(differing) & {"winners", "credits", "scores"}:
            return "HR-SETTLE-3"
        return next((_HAND_END_FIELDS[k] for k in differing if k in _HAND_END_FIELDS), "HR-SETTLE-1")
    if kinds[0] == "match-end":
        return "HR-MATCH-2"
    if kinds[0] == "draw":
        return "HR-DRAW-2"
    return "HR-TURN-1"


# ---------------------------------------------------------------------- what a run makes
@dataclass(frozen=True)
class Plan:
    """What a fuzzing run generates.  ``rulesets`` empty: the readings the implementation
    declares (drawn per seed among them), at the canonical target."""

    kinds: tuple[str, ...] = SCENARIO_KINDS
    seatings: tuple[Seating, ...] = SEATINGS
    rulesets: tuple[NamedRuleset, ...] = ()
    #: Also require an illegal action's rule to be the reference engine's (as
    #: ``conform --strict-rule-ids``).
    strict_rule_ids: bool = False


@dataclass(frozen=True)
class Scenario:
    """One generated scenario: what it was made from, and the fixture."""

    seed: int
    kind: str  #: the scenario kind (``hand``, ``match``, ...)
    seating: Seating
    ruleset: Ruleset
    rules_name: str  #: the ruleset's name, or "" for the implementation's own readings
    fixture: Fixture


#: The readings an implementation may be sent, per register field (its hello's, read by
#: :class:`horserace.conformance.scope.Scope`: one per field under protocol 1.0, every
#: reading it declares from 1.1).
Declared = dict[str, tuple[str, ...]]


@functools.lru_cache(maxsize=256)
def _ruleset(readings: tuple[tuple[str, str], ...]) -> Ruleset:
    return Ruleset.from_readings(dict(readings))


@functools.lru_cache(maxsize=256)
def _sorted_readings(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(ruleset.readings.items()))


def _rules_of(plan: Plan, seed: int, declared: Declared) -> tuple[Ruleset, str]:
    """The ruleset of ``seed``: the next one given, in turn (changing once the seatings
    have all had their turn), or readings drawn among the declared ones."""
    if plan.rulesets:
        named = plan.rulesets[(seed // len(plan.seatings)) % len(plan.rulesets)]
        return named.ruleset, named.name
    rng = random.Random(f"readings/{seed}")
    return _ruleset(tuple((name, rng.choice(declared[name])) for name in VARIANT_FIELDS)), ""


def scenarios(seed: int, plan: Plan, declared: Declared) -> list[Scenario]:
    """The scenarios of ``seed``, one per kind of the plan, in its order."""
    seating = plan.seatings[seed % len(plan.seatings)]
    ruleset, name = _rules_of(plan, seed, declared)
    return [
        Scenario(
            seed,
            kind,
            seating,
            ruleset,
            name,
            Fixture.observed(GENERATORS[kind](seed, seating, ruleset), "(fuzz)", 0),
        )
        for kind in plan.kinds
    ]


def _check_rulesets(plan: Plan, declared: Declared, targets: Targets | None = None) -> None:
    """Every ruleset given must be one the implementation can be sent: its readings among
    those declared, and its target among the targets declared (protocol 1.1; none
    declared: any target)."""
    if targets is not None:
        wanted = {(named.name, named.ruleset.target) for named in plan.rulesets} or {("canonical", CANONICAL.target)}
        refused = sorted(f"{name} (target {target})" for name, target in wanted if target not in targets)
        if refused:
            raise ImplementationUnusable(
                f"the implementation accepts the targets {targets} only; this fuzzing run "
                f"plays {', '.join(refused)} (HRI-29; give --rules with a target it accepts)"
            )
    for named in plan.rulesets:
        foreign = {k: v for k, v in named.ruleset.readings.items() if v not in declared[k]}
        if foreign:
            theirs = ", ".join(f"{k}={'|'.join(declared[k])}" for k in foreign)
            ours = ", ".join(f"{k}={v}" for k, v in foreign.items())
            raise ImplementationUnusable(
                f"the implementation declares {theirs}; the ruleset {named.name} needs {ours} "
                "(give --rules that it declares; the reference engine declares those it is started with: "
                "--impl 'horserace serve --rules NAME')"
            )


# ---------------------------------------------------------------------- results
@dataclass
class Finding:
    seed: int
    kind: str  #: the scenario kind
    table: str  #: the seating's label
    target: int
    readings: dict[str, str]
    size: dict[str, int]  #: after shrinking
    original_size: dict[str, int]
    outcome: str
    message: str
    differences: list = field(default_factory=list)
    path: str = ""
    rule: str = ""
    #: Seconds spent shrinking (not counted in the scenarios per second).
    shrink_seconds: float = 0.0
    rules_name: str = ""

    @property
    def fixture_kind(self) -> str:
        return fixture_kind(self.kind)

    @property
    def shrunk(self) -> bool:
        return self.size != self.original_size

    @property
    def first_event(self) -> Difference | None:
        return _first_event(self.differences)

    def size_text(self) -> str:
        return size_text(self.fixture_kind, self.size)

    def original_size_text(self) -> str:
        return size_text(self.fixture_kind, self.original_size)

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in vars(self).items() if k != "differences"}
        return out | {
            "fixture_kind": self.fixture_kind,
            "differences": [d.to_dict() for d in self.differences],
            "shrunk": self.shrunk,
        }


@dataclass
class Tried:
    """What a run (or one shard of it) generated and judged."""

    kinds: Counter[str] = field(default_factory=Counter)
    #: Hands of play in the ``hand`` and ``match`` scenarios.
    hands: int = 0
    tables: set[str] = field(default_factory=set)
    rulesets: set[tuple[str, int]] = field(default_factory=set)
    readings: set[tuple[tuple[str, str], ...]] = field(default_factory=set)

    def add(self, scenario: Scenario) -> None:
        fx = scenario.fixture
        self.kinds[scenario.kind] += 1
        if fx.kind == "play":
            self.hands += len(fx.input["hands"])
        self.tables.add(scenario.seating.label)
        self.rulesets.add((scenario.rules_name, scenario.ruleset.target))
        self.readings.add(_sorted_readings(scenario.ruleset))

    def merge(self, other: Tried) -> None:
        self.kinds.update(other.kinds)
        self.hands += other.hands
        self.tables |= other.tables
        self.rulesets |= other.rulesets
        self.readings |= other.readings

    @property
    def scenarios(self) -> int:
        return sum(self.kinds.values())


@dataclass
class Shard:
    """What one implementation process did: seeds ``first .. first+seeds-1``, in
    ``seconds`` of fuzzing (shrinking left out), and its finding."""

    first: int
    seeds: int
    seconds: float
    finding: Finding | None
    fixture: Fixture | None
    tried: Tried = field(default_factory=Tried)
    #: Kinds asked for that the implementation does not support (its hello's ``kinds``).
    unsupported: tuple[str, ...] = ()


@dataclass
class FuzzResult:
    seeds: tuple[int, int]  #: the first and last seed asked for
    plan: Plan
    tried: Tried
    seconds: float
    findings: list[Finding]
    #: The seed ranges actually tried, one per shard (a shard stops at its first finding,
    #: or when another shard's finding stops the run).
    ranges: list[tuple[int, int]] = field(default_factory=list)
    #: Seconds of fuzzing, shrinking left out: the mean over the shards, which run side
    #: by side.
    fuzz_seconds: float = 0.0
    unsupported: tuple[str, ...] = ()

    @property
    def seeds_tried(self) -> int:
        return sum(b - a + 1 for a, b in self.ranges)

    @property
    def merged_ranges(self) -> list[tuple[int, int]]:
        """The seed ranges tried, those that meet joined (``0..19, 20..39`` is ``0..39``)."""
        merged: list[tuple[int, int]] = []
        for a, b in sorted(self.ranges):
            if merged and a == merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        return merged

    @property
    def hands(self) -> int:
        return self.tried.hands

    def _rate(self, n: int) -> float | None:
        return n / self.fuzz_seconds if self.fuzz_seconds > 0 else None

    @property
    def scenarios_per_second(self) -> float | None:
        """Scenarios per second of the whole run (every shard), shrinking left out."""
        return self._rate(self.tried.scenarios)

    @property
    def hands_per_second(self) -> float | None:
        """Hands of play per second of the whole run, shrinking left out."""
        return self._rate(self.tried.hands)

    @property
    def rulesets(self) -> list[str]:
        """The rulesets tried, in words."""
        return [
            f"{name} (target {target})" if name else f"target {target}, the implementation's readings"
            for name, target in sorted(self.tried.rulesets)
        ]

    @property
    def readings(self) -> dict[str, list[str]]:
        """Every reading tried, per register field, canonical first."""
        seen: dict[str, set[str]] = {name: set() for name in VARIANT_FIELDS}
        for combination in self.tried.readings:
            for name, reading in combination:
                seen[name].add(reading)
        return {name: [r for r in VARIANT_FIELDS[name] if r in seen[name]] for name in VARIANT_FIELDS}

    def to_dict(self) -> dict:
        rate, hand_rate = self.scenarios_per_second, self.hands_per_second
        return {
            "seeds": list(self.seeds),
            "tried": [list(r) for r in self.ranges],
            "scenarios": self.tried.scenarios,
            "kinds": {kind: self.tried.kinds[kind] for kind in self.plan.kinds if kind not in self.unsupported},
            "unsupported_kinds": list(self.unsupported),
            "hands": self.tried.hands,
            "tables": [s.label for s in self.plan.seatings if s.label in self.tried.tables],
            "rulesets": self.rulesets,
            "readings": self.readings,
            "readings_combinations": len(self.tried.readings),
            "strict_rule_ids": self.plan.strict_rule_ids,
            "seconds": round(self.seconds, 3),
            "scenarios_per_second": round(rate) if rate else None,
            "hands_per_second": round(hand_rate) if hand_rate else None,
            "findings": [f.to_dict() for f in self.findings],
        }


# ---------------------------------------------------------------------- the rule of a finding
def _first_event(differences: list[Difference]) -> Difference | None:
    """The first difference that is a whole event (the comparison shows each differing
    event whole: ``hands[h].events[i]``)."""
    return next((d for d in differences if len(d.at) >= 2 and d.at[-2] == "events" and not d.length), None)


def _play_rule(fx: Fixture, differences: list[Difference]) -> str:
    event = _first_event(differences)
    if event is not None:
        rule = rule_of_event(event.expected, event.actual)
        if rule == "HR-TURN-1" and isinstance(event.expected, dict) and event.expected.get("event") == "place":
            # A placement that should have ended the hand or the match and went on instead.
            hand, index = event.at[-3], event.at[-1]
            trace = fx.expected["hands"][hand]["events"] if isinstance(hand, int) else []
            after = trace[index + 1] if isinstance(index, int) and index + 1 < len(trace) else {}
            if after.get("event") == "hand-end":
                return "HR-MATCH-1" if after.get("reason") == "match" else "HR-TURN-2"
        return rule
    fields = {"scores": "HR-SETTLE-1", "match_winners": "HR-MATCH-2"}
    return next((fields[d.field] for d in differences if d.field in fields), "HR-TURN-1")


def _layout_rule(differences: list[Difference]) -> str:
    for d in differences:
        item = d.expected if d.item == "missing" else d.actual
        if d.field == "contributions" and isinstance(item, dict) and "port" not in item:
            return "HR-COUNT-2"  # a double's whole contribution
        if d.field == "attachment_points" and isinstance(item, dict):
            if item.get("port") in (PORT_NAMES[BRANCH_A], PORT_NAMES[BRANCH_A + 1]):
                return "HR-SPIN-2"
        if d.field in _SNAPSHOT_FIELDS:
            return _SNAPSHOT_FIELDS[d.field]
    return "HR-COUNT-1"


def _settlement_rule(fx: Fixture, differences: list[Difference]) -> str:
    fields = {d.field for d in differences}
    if len(fx.expected.get("winners", [])) > 1 and fields & {"credits", "scores"}:
        return "HR-SETTLE-3"
    return next((_SETTLEMENT_FIELDS[d.field] for d in differences if d.field in _SETTLEMENT_FIELDS), "HR-SETTLE-1")


def _rule_for(fx: Fixture, outcome: Outcome) -> str:
    """The rule a finding is filed under: the one the illegal action breaks, or the one
    the first difference points at."""
    if outcome.status in IMPLEMENTATION_ERRORS:
        return fx.primary_rule
    if fx.kind == "illegal":
        return str(fx.expected["rule"])
    if fx.kind == "play":
        return _play_rule(fx, outcome.differences)
    if fx.kind == "layout":
        return _layout_rule(outcome.differences)
    if fx.kind == "settlement":
        return _settlement_rule(fx, outcome.differences)
    return fx.primary_rule


def finding_fixture(fx: Fixture, finding: Finding, impl: str) -> dict:
    """The finding as a fixture document for review: ``origin: generated``, its
    expected values the reference engine's."""
    first = finding.differences[0].path if finding.differences else finding.outcome
    size = finding.size_text()
    if finding.shrunk:
        made = f"minimised from {finding.original_size_text()} to {size}: the smallest {finding.kind} scenario"
    else:
        made = f"not minimised ({size}): no smaller {finding.kind} scenario"
    rules = list(dict.fromkeys([finding.rule, fx.primary_rule]))
    return {
        "id": generated_id(finding.seed, f"fuzz{finding.kind}{sorted(finding.size.items())}"),
        "description": f"fuzz: '{impl}' disagrees with the reference engine at {first} "
        f"({finding.outcome}, {finding.kind} scenario of seed {finding.seed})",
        "kind": fx.kind,
        "rules": rules,
        "origin": "generated",
        "why": (
            f"Generated by horserace fuzz from seed {finding.seed} ({finding.kind}, {finding.table}, target "
            f"{finding.target}) and {made} found on which the implementation still disagrees. The expected "
            f"values are the reference engine's; review them against the rules before this fixture joins the "
            f"corpus. Disagreement: {finding.message or first}."
        ),
        **({"variants": fx.variants} if fx.variants else {}),
        "input": fx.input,
        "expected": fx.expected,
    }


# ---------------------------------------------------------------------- running
def _judge(worker: Worker) -> Callable[[list[Fixture]], list[Outcome]]:
    def run(fixtures: list[Fixture]) -> list[Outcome]:
        outcomes: list[Outcome] = []
        worker.run_many([(fx, f"{fx.id}/{i}") for i, fx in enumerate(fixtures)], outcomes.append)
        return outcomes

    return run


def finding_of(scenario: Scenario, small: Shrunk, seconds: float = 0.0) -> Finding:
    """The finding of ``scenario``, shrunk to ``small``."""
    outcome = small.outcome
    return Finding(
        seed=scenario.seed,
        kind=scenario.kind,
        table=scenario.seating.label,
        target=scenario.ruleset.target,
        readings=scenario.ruleset.readings,
        size=size_of(small.fixture),
        original_size=size_of(scenario.fixture),
        outcome=outcome.status,
        message=outcome.message,
        differences=outcome.differences,
        rule=_rule_for(small.fixture, outcome),
        shrink_seconds=seconds,
        rules_name=scenario.rules_name,
    )


def _seating_name(seating: Seating) -> str:
    """A seating as a hello names it (protocol 1.2)."""
    return "partnership" if seating.partnership else f"{seating.players}-players"


def fuzz_range(
    argv: Sequence[str],
    first: int,
    count: int,
    *,
    plan: Plan | None = None,
    options: Options | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[int], None] | None = None,
) -> Shard:
    """Fuzz seeds ``first .. first+count-1`` with one implementation process, up to the
    first (shrunk) finding."""
    plan = plan or Plan()
    options = options or Options(strict_rule_ids=plan.strict_rule_ids)
    worker = Worker(argv, options)
    try:
        hello, scope = worker.declared()
        declared = dict(scope.readings)
        _check_rulesets(plan, declared, scope.targets)
        supported = set(hello.get("kinds", []))
        kinds = tuple(k for k in plan.kinds if fixture_kind(k) in supported)
        unsupported = tuple(k for k in plan.kinds if k not in kinds)
        if not kinds:
            raise ImplementationUnusable(
                f"the implementation supports none of the kinds asked for ({', '.join(plan.kinds)}); "
                f"its hello lists {', '.join(sorted(supported)) or 'no kind'}"
            )
        seatings = plan.seatings
        if scope.seatings is not None:  # protocol 1.2: only the tables the implementation plays
            seatings = tuple(s for s in seatings if _seating_name(s) in scope.seatings)
            if not seatings:
                raise ImplementationUnusable(
                    f"the implementation plays {scope.seatings_text()}, none of the tables asked for "
                    f"({', '.join(s.label for s in plan.seatings)})"
                )
        plan = Plan(kinds, seatings, plan.rulesets, plan.strict_rule_ids)
        tried = Tried()
        began = time.perf_counter()
        made: deque[Scenario] = deque()  # sent (or about to be), in order, awaiting their outcomes
        found: list[tuple[Scenario, Outcome]] = []
        done = 0  # seeds whose every scenario was judged
        ticked = 0  # of which progress was told

        def requests() -> Iterator[tuple[Fixture, str]]:
            """The scenarios, made one seed at a time as the window asks for them: the
            implementation answers the last ones while the next are made.  Nothing is
            made after a disagreement, or once another shard has stopped the run."""
            n = 0
            for seed in range(first, first + count):
                if found or (stop is not None and stop.is_set()):
                    return
                for scenario in scenarios(seed, plan, declared):
                    made.append(scenario)
                    n += 1
                    yield scenario.fixture, f"{scenario.fixture.id}/{n}"

        def judged(outcome: Outcome) -> None:
            nonlocal done, ticked
            scenario = made.popleft()
            if found:
                return  # sent ahead of the first disagreement: not tried
            tried.add(scenario)
            if disagrees(outcome):
                found.append((scenario, outcome))
            elif scenario.kind == plan.kinds[-1]:
                done += 1  # that seed's last scenario (a seed makes one per kind, in order)
                if progress and done - ticked >= BATCH:
                    progress(done - ticked)
                    ticked = done

        worker.run_many(requests(), judged)
        if found:
            scenario, outcome = found[0]
            fuzzing = time.perf_counter() - began
            small = shrink(
                Shrunk(scenario.fixture, outcome),
                _judge(worker),
                seed=scenario.seed,
                seating=scenario.seating,
                ruleset=scenario.ruleset,
            )
            finding = finding_of(scenario, small, time.perf_counter() - began - fuzzing)
            if stop is not None:
                stop.set()
            seeds = scenario.seed - first + 1
            return Shard(first, seeds, fuzzing, finding, small.fixture, tried, unsupported)
        if progress and done > ticked:
            progress(done - ticked)
        return Shard(first, done, time.perf_counter() - began, None, None, tried, unsupported)
    finally:
        worker.close()


def write_finding(finding: Finding, small: Fixture, argv: Sequence[str], out_dir: Path) -> Path:
    """Write a finding as a fixture file under ``out_dir/generated/`` (and note where)."""
    doc = finding_fixture(small, finding, " ".join(argv))
    folder = Path(out_dir) / "generated"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"fuzz-{doc['id']}.yaml"
    path.write_text(
        "# Found by horserace fuzz; review before adding to the corpus.\n"
        + yaml.safe_dump([doc], sort_keys=False, allow_unicode=True, width=100, default_flow_style=None),
        encoding="utf-8",
    )
    finding.path = str(path)
    return path


def fuzz(
    argv: Sequence[str],
    seed: int,
    budget: int,
    *,
    plan: Plan | None = None,
    jobs: int = 1,
    out_dir: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> FuzzResult:
    """Fuzz ``budget`` seeds from ``seed`` in ``jobs`` shards; write the first finding
    of each shard as a fixture under ``out_dir/generated/``."""
    plan = plan or Plan()
    stop = threading.Event()
    shards = []
    size = -(-budget // jobs)
    for j in range(jobs):
        start = seed + j * size
        count = max(0, min(size, seed + budget - start))
        if count:
            shards.append((start, count))
    results: list[Shard] = [Shard(start, 0, 0.0, None, None) for start, _ in shards]
    lock = threading.Lock()

    def tick(n: int) -> None:
        if progress:
            with lock:
                progress(n)

    errors: list[BaseException] = []

    def work(i: int, start: int, count: int) -> None:
        try:
            results[i] = fuzz_range(argv, start, count, plan=plan, stop=stop, progress=tick)
        except BaseException as exc:  # re-raised in the caller's thread below
            errors.append(exc)
            stop.set()

    began = time.perf_counter()
    threads = [threading.Thread(target=work, args=(i, s, c), daemon=True) for i, (s, c) in enumerate(shards)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    elapsed = time.perf_counter() - began
    fuzz_seconds = sum(r.seconds for r in results) / max(1, len(results))
    return merge_shards(results, (seed, seed + budget - 1), plan, elapsed, fuzz_seconds, argv=argv, out_dir=out_dir)


def merge_shards(
    shards: Sequence[Shard],
    seeds: tuple[int, int],
    plan: Plan,
    seconds: float,
    fuzz_seconds: float,
    *,
    argv: Sequence[str],
    out_dir: Path | None = None,
) -> FuzzResult:
    """One result of ``shards``, taken in the order given (by shard, not by arrival, so a
    shard run twice counts once): what they tried, the seed ranges they covered, and
    their findings, each written once under ``out_dir/generated/``.  ``seconds`` is the
    run's wall time, ``fuzz_seconds`` the time its rates are taken over (shrinking left
    out)."""
    findings = []
    tried = Tried()
    for shard in shards:
        tried.merge(shard.tried)
        if shard.finding is None or shard.fixture is None:
            continue
        if out_dir is not None:
            write_finding(shard.finding, shard.fixture, argv, out_dir)
        findings.append(shard.finding)
    return FuzzResult(
        seeds,
        plan,
        tried,
        seconds,
        findings,
        ranges=[(r.first, r.first + r.seeds - 1) for r in shards if r.seeds],
        fuzz_seconds=fuzz_seconds,
        unsupported=next((r.unsupported for r in shards if r.seeds), ()),
    )
