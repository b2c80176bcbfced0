"""``horserace fuzz``: differential fuzzing of an implementation against the reference
engine through the conformance protocol.

Each seed makes one scenario of every kind asked for (:data:`SCENARIO_KINDS`): one hand
of play, a whole match, a settlement, an illegal action at a random point of a hand, a
perft position, a layout sequence (:mod:`horserace.corpus.generate`).  The table of a
seed is the next of the seatings in turn; its rules are the next ruleset given, or the
readings the implementation declares, drawn per seed.  Every scenario is a
:class:`~horserace.corpus.fixture.Fixture` whose ``variants`` name the readings it was
generated under, its expected values the reference engine's.

A disagreement is shrunk (:mod:`horserace.quality.shrink`), to the smallest scenario of
its kind that still disagrees *for the same cause*, and written as a ready fixture
(``origin: generated``) for a human to review: its expected values are the reference
engine's, so it is evidence only once a person has checked it against the rules.

**The cause of a finding** is found as the conformance reports find the cause of a
failing fixture (spec/protocol.md, "How a failure is diagnosed"): the rule of its first
difference in dependency order (:func:`horserace.corpus.attribution.cause_of`: a wrong
count is blamed, not the credit and the continuation that follow it; a legal action
refused, by the action and its position), and the named deviations of the reference
engine that reproduce the implementation's answer on the shrunk fixture
(:class:`horserace.quality.diagnosis.Diagnoser`).  Where one reproduces it exactly and
the first difference admits its rule, the finding is filed under the deviation's rule
and says so ("reproduced by deviation X"); of several, those that also reproduce the
scenario as it was found come first.  Crashes, timeouts and errors have no rule.

A run stops at its first finding, that of the lowest seed, unless ``keep_going``: then
every seed runs, and the findings are grouped by cause (:class:`CauseGroup`).  A
finding is shrunk once per cause and shard: a later finding whose first difference is
that of a cause already shrunk, or that a deviation of such a cause explains, is
counted and listed, not shrunk again (``shrink_all`` shrinks each one).

A local run cuts its seeds into shards fixed by ``--seed`` and ``--budget`` alone
(:func:`local_shards`), runs them on ``--jobs`` worker processes
(:mod:`horserace.quality.processes`) and merges them in shard order, so every ``--jobs``
gives the same result.

Seeds are the unit of work: ``--seed S --budget N`` covers seeds ``S .. S+N-1``, so a
long campaign shards into independent jobs whose results merge, and an interrupted run
(Ctrl-C, SIGTERM) says which seeds it covered and how to resume.
"""

from __future__ import annotations

import functools
import random
import signal
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from horserace._files import atomic_write
from horserace.conformance.runner import Options, Outcome, Worker
from horserace.conformance.scope import Scope, Targets
from horserace.conformance.supervisor import Supervisor
from horserace.corpus.attribution import OVERLAPS, Cause, cause_of, place_of
from horserace.corpus.compare import Difference
from horserace.corpus.fixture import Fixture
from horserace.corpus.generate import GENERATORS, SCENARIO_KINDS, fixture_kind
from horserace.corpus.ids import generated_id
from horserace.corpus.status import Status
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.engine.seating import SEATINGS, Seating
from horserace.errors import ImplementationError, ImplementationUnusable
from horserace.quality.diagnosis import Diagnoser
from horserace.quality.mutants import Mutant
from horserace.quality.processes import in_processes
from horserace.quality.shrink import Keep, Shrunk, disagrees, shrink, size_of, size_text
from horserace.resources.rulesets import NamedRuleset

__all__ = [
    "LISTED",
    "SCENARIO_KINDS",
    "CauseGroup",
    "Finding",
    "FuzzResult",
    "Plan",
    "Scenario",
    "Seen",
    "Shard",
    "Tried",
    "diagnose_finding",
    "finding_cause",
    "finding_fixture",
    "finding_of",
    "fuzz",
    "fuzz_range",
    "local_shards",
    "merge_shards",
    "same_cause",
    "scenarios",
    "shards_of",
    "write_finding",
]

#: Seeds judged between two reports of progress.
BATCH = 32
#: The findings of a cause that were not shrunk, listed by seed and kind (the rest counted).
LISTED = 100
#: A local run's budget is cut into this many shards of equal size (:func:`local_shards`),
#: each of at least :data:`MIN_SHARD_SEEDS` seeds (an implementation started per shard
#: costs about 0.3 s) and at most :data:`MAX_SHARD_SEEDS` (a stopped run loses at most a
#: shard per worker).
LOCAL_SHARDS = 8
MIN_SHARD_SEEDS = 50
MAX_SHARD_SEEDS = 400


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
    table: str  #: the seating's label, of the shrunk fixture
    target: int
    readings: dict[str, str]
    size: dict[str, int]  #: after shrinking
    original_size: dict[str, int]
    outcome: str
    message: str
    differences: list = field(default_factory=list)
    path: str = ""
    #: The rule the finding is filed under: the rule of the named deviation that
    #: reproduces it, else that of its first difference ("" for a crash, a timeout or an
    #: error: never counted against a rule).
    rule: str = ""
    #: Seconds spent shrinking (not counted in the scenarios per second).
    shrink_seconds: float = 0.0
    rules_name: str = ""
    #: The cause of its first difference (:meth:`horserace.corpus.attribution.Cause.to_record`).
    cause: dict[str, Any] | None = None
    #: The named deviations that reproduce the shrunk finding exactly, the best first
    #: (those that also reproduce the scenario as found, then the registry's order).
    deviations: list[str] = field(default_factory=list)
    #: Those that reproduce it at its first difference only.
    first_deviations: list[str] = field(default_factory=list)
    #: The run was interrupted while this finding was shrunk: it may shrink further.
    cut_short: bool = False
    #: The fixture written (the shrunk scenario).
    fixture: Fixture | None = field(default=None, repr=False, compare=False)

    @property
    def fixture_kind(self) -> str:
        return fixture_kind(self.kind)

    @property
    def shrunk(self) -> bool:
        return self.size != self.original_size

    @property
    def deviation(self) -> str:
        """The named deviation the finding is filed under ("" for none)."""
        return self.deviations[0] if self.deviations else ""

    @property
    def first_event(self) -> Difference | None:
        """The first difference that is a whole event, in dependency order (the
        comparison shows each differing event whole: ``hands[h].events[i]``)."""
        events = [d for d in self.differences if len(d.at) >= 2 and d.at[-2] == "events" and not d.length]
        return min(events, key=lambda d: place_of(self.fixture_kind, d), default=None)

    @property
    def weight(self) -> int:
        """How much there is to read: placements, steps, actions, tiles (the smallest
        finding of a cause has the least)."""
        size = self.size
        if self.fixture_kind == "settlement":
            return size.get("tiles", 0)
        return sum(size.values())

    def size_text(self) -> str:
        return size_text(self.fixture_kind, self.size)

    def original_size_text(self) -> str:
        return size_text(self.fixture_kind, self.original_size)

    def to_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in vars(self).items() if k not in ("differences", "fixture")}
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


@dataclass(frozen=True)
class Seen:
    """A finding counted, not shrunk: its cause had been shrunk already."""

    seed: int
    kind: str
    size: tuple[tuple[str, int], ...]  #: as found

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "kind": self.kind, "size": dict(self.size)}


@dataclass
class CauseGroup:
    """The findings of one cause: the rule (``""`` for a failure to answer, then
    ``outcome`` says which: crash, timeout, error) and the named deviation that
    reproduces them (``""``: none); the findings shrunk (and written), and those counted
    and listed, not shrunk (the first :data:`LISTED` of them)."""

    rule: str
    deviation: str = ""
    outcome: str = ""
    findings: list[Finding] = field(default_factory=list)
    others: list[Seen] = field(default_factory=list)
    #: Findings counted, not shrunk (listed or not).
    unshrunk: int = 0
    #: The findings counted, not shrunk, by scenario kind.
    unshrunk_kinds: Counter[str] = field(default_factory=Counter)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.rule, self.deviation, self.outcome)

    @property
    def count(self) -> int:
        return len(self.findings) + self.unshrunk

    @property
    def smallest(self) -> Finding:
        return min(self.findings, key=lambda f: (f.weight, f.seed))

    @property
    def kinds(self) -> Counter[str]:
        """Every finding of the cause, shrunk or counted, by scenario kind."""
        return Counter(f.kind for f in self.findings) + self.unshrunk_kinds

    def count_one(self, scenario: Scenario) -> None:
        self.unshrunk += 1
        self.unshrunk_kinds[scenario.kind] += 1
        if len(self.others) < LISTED:
            self.others.append(Seen(scenario.seed, scenario.kind, tuple(size_of(scenario.fixture).items())))

    def merge(self, other: CauseGroup) -> None:
        self.findings += other.findings
        self.others = (self.others + other.others)[:LISTED]
        self.unshrunk += other.unshrunk
        self.unshrunk_kinds += other.unshrunk_kinds

    def to_dict(self) -> dict[str, Any]:
        smallest = self.smallest
        return {
            "rule": self.rule or None,
            "deviation": self.deviation or None,
            "outcome": self.outcome or None,
            "count": self.count,
            "kinds": dict(sorted(self.kinds.items(), key=lambda kv: SCENARIO_KINDS.index(kv[0]))),
            "smallest": {"seed": smallest.seed, "kind": smallest.kind, "size": smallest.size, "path": smallest.path},
            "shrunk": [{"seed": f.seed, "kind": f.kind, "path": f.path} for f in self.findings],
            "not_shrunk": self.unshrunk,
            "not_shrunk_listed": [s.to_dict() for s in self.others],
        }


@dataclass
class Shard:
    """What one implementation process did: seeds ``first .. first+seeds-1``, in
    ``seconds`` of fuzzing (shrinking left out), and its findings: the first one, or
    with ``keep_going`` every one, grouped by cause."""

    first: int
    seeds: int
    seconds: float
    findings: list[Finding] = field(default_factory=list)
    tried: Tried = field(default_factory=Tried)
    #: Kinds asked for that the implementation does not support (its hello's ``kinds``).
    unsupported: tuple[str, ...] = ()
    groups: list[CauseGroup] = field(default_factory=list)
    #: The shard was cut short by an interruption (Ctrl-C, a signal).
    interrupted: bool = False

    @property
    def finding(self) -> Finding | None:
        """The first finding (the only one, unless the run keeps going)."""
        return self.findings[0] if self.findings else None

    @property
    def fixture(self) -> Fixture | None:
        return self.finding.fixture if self.finding is not None else None

    @property
    def shrink_seconds(self) -> float:
        return sum(f.shrink_seconds for f in self.findings)


def _signal_name(exc: BaseException) -> str:
    """What stopped a run: ``SIGINT`` for Ctrl-C, else the signal an exception carries
    (the command line's ``Stopped``)."""
    signum = getattr(exc, "signum", signal.SIGINT)
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


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
    #: The findings by cause, the most findings first.
    causes: list[CauseGroup] = field(default_factory=list)
    keep_going: bool = False
    shrink_all: bool = False
    #: What interrupted the run (Ctrl-C's KeyboardInterrupt, a signal's exception), if
    #: anything; the command line exits with its code.
    stopped_by: BaseException | None = field(default=None, repr=False, compare=False)

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
    def untried(self) -> list[tuple[int, int]]:
        """The seed ranges asked for and not tried (a run stopped by a finding or an
        interruption), in order."""
        out, at = [], self.seeds[0]
        for a, b in self.merged_ranges:
            if a > at:
                out.append((at, a - 1))
            at = max(at, b + 1)
        if at <= self.seeds[1]:
            out.append((at, self.seeds[1]))
        return out

    @property
    def interrupted(self) -> str:
        """The signal that interrupted the run ("" for none)."""
        return _signal_name(self.stopped_by) if self.stopped_by is not None else ""

    @property
    def resume(self) -> list[tuple[int, int]]:
        """``(seed, budget)`` of each run that would fuzz the seeds not tried."""
        return [(a, b - a + 1) for a, b in self.untried]

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

    @property
    def findings_found(self) -> int:
        """Every finding, shrunk or counted."""
        return sum(group.count for group in self.causes)

    def to_dict(self) -> dict:
        rate, hand_rate = self.scenarios_per_second, self.hands_per_second
        return {
            "seeds": list(self.seeds),
            "tried": [list(r) for r in self.merged_ranges],
            "untried": [list(r) for r in self.untried],
            "scenarios": self.tried.scenarios,
            "kinds": {kind: self.tried.kinds[kind] for kind in self.plan.kinds if kind not in self.unsupported},
            "unsupported_kinds": list(self.unsupported),
            "hands": self.tried.hands,
            "tables": [s.label for s in self.plan.seatings if s.label in self.tried.tables],
            "rulesets": self.rulesets,
            "readings": self.readings,
            "readings_combinations": len(self.tried.readings),
            "strict_rule_ids": self.plan.strict_rule_ids,
            "keep_going": self.keep_going,
            "shrink_all": self.shrink_all,
            "seconds": round(self.seconds, 3),
            "scenarios_per_second": round(rate) if rate else None,
            "hands_per_second": round(hand_rate) if hand_rate else None,
            "findings": [f.to_dict() for f in self.findings],
            "findings_found": self.findings_found,
            "causes": [group.to_dict() for group in self.causes],
            "interrupted": self.interrupted or None,
            "resume": [{"seed": seed, "budget": budget} for seed, budget in self.resume] if self.stopped_by else [],
        }


# ---------------------------------------------------------------------- the cause of a finding
def finding_cause(fx: Fixture, outcome: Outcome) -> Cause | None:
    """The cause of the first difference of ``outcome``, the implementation's answer to
    ``fx``, as the conformance reports find it (:func:`~horserace.corpus.attribution.cause_of`);
    ``None`` for a crash, a timeout or an error, which no rule explains."""
    twin = outcome.twin
    twin_at = twin.at if twin is not None and twin.status == "refused" else None
    return cause_of(
        fx, str(outcome.status), outcome.differences, refused_at=outcome.refused_at, twin_refused_at=twin_at
    )


def _first_rule(cause: Cause | None, outcome: Outcome) -> str:
    """The rule of a first difference, or for a failure to answer its outcome."""
    return cause.rule if cause is not None else str(outcome.status)


def same_cause(cause: Cause | None, status: str) -> Keep:
    """Whether a shrinking candidate still shows the finding of ``cause`` (found with
    outcome ``status``): it disagrees, and its first difference has the same rule or one
    that rule overlaps (:data:`~horserace.corpus.attribution.OVERLAPS`: the opening
    tile's continuation is HR-TURN-1 and HR-OPEN-2), or, for a failure to answer, the
    same outcome.  A shrink so never slips from one bug to another.  A cause that says
    little (:attr:`~horserace.corpus.attribution.Cause.generic`: a legal action refused,
    with nothing observed before it; a count the map cannot place) keeps any candidate
    that disagrees: the smaller scenario names its cause better."""
    rules = {cause.rule, *OVERLAPS.get(cause.rule, ())} if cause is not None else set()

    def keep(fx: Fixture, outcome: Outcome) -> bool:
        if not disagrees(outcome):
            return False
        if cause is None:
            return str(outcome.status) == status
        if cause.generic:
            return True  # a refusal alone, a count the map cannot place: any disagreement says more
        found = finding_cause(fx, outcome)
        return found is not None and found.rule in rules

    return keep


def diagnose_finding(
    small: Shrunk, found: Shrunk | None = None, deviations: Sequence[Mutant] | None = None
) -> tuple[Cause | None, list[str], list[str]]:
    """The cause of a shrunk finding and the named deviations (default: every one) that
    reproduce it exactly, and at its first difference only, each one whose rule the
    cause admits (:meth:`~horserace.corpus.attribution.Cause.admits`): the best first.
    Of several that reproduce it exactly, those that also reproduce the scenario as it
    was ``found`` come first, then those of the rule of its first difference (a small
    fixture may be reproduced by several misreadings that the whole scenario tells
    apart)."""
    cause = finding_cause(small.fixture, small.outcome)
    if cause is None:
        return None, [], []
    diagnoser = Diagnoser(deviations)
    rules = {d.name: d.rule for d in diagnoser.deviations}
    diagnosis = diagnoser.diagnose(small.fixture, small.outcome.record())
    if diagnosis is None:
        return cause, [], []
    exact = [n for n in diagnosis.exact if cause.admits(rules[n])]
    first = [n for n in diagnosis.first if cause.admits(rules[n])]
    if len(exact) > 1 and found is not None:
        chosen = [d for d in diagnoser.deviations if d.name in exact]
        as_found = Diagnoser(chosen).diagnose(found.fixture, found.outcome.record())
        first_rule = _first_rule(finding_cause(found.fixture, found.outcome), found.outcome)
        again = as_found.exact if as_found is not None else ()
        exact.sort(key=lambda n: (n not in again, rules[n] != first_rule))
    return cause, exact, first


def finding_fixture(fx: Fixture, finding: Finding, impl: str) -> dict:
    """The finding as a fixture document for review: ``origin: generated``, its
    expected values the reference engine's."""
    first = finding.differences[0].path if finding.differences else finding.outcome
    size = finding.size_text()
    if finding.shrunk:
        made = f"minimised from {finding.original_size_text()} to {size}: the smallest {finding.kind} scenario"
    else:
        made = f"not minimised ({size}): no smaller {finding.kind} scenario"
    if finding.cut_short:
        made += " that shrinking reached before the run was interrupted"
    rules = list(dict.fromkeys([r for r in (finding.rule, fx.primary_rule) if r]))
    cause = ""
    if finding.cause is not None:
        cause = f" Cause: {finding.cause['rule']}, {finding.cause['basis']}."
    if finding.deviation:
        cause += f" Reproduced exactly by the named deviation {finding.deviation} of the reference engine."
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
            f"corpus. Disagreement: {finding.message or first}.{cause}"
        ),
        **({"variants": fx.variants} if fx.variants else {}),
        "input": fx.input,
        "expected": fx.expected,
    }


# ---------------------------------------------------------------------- running
def _judge(worker: Worker, halt: threading.Event | None = None) -> Callable[[list[Fixture]], list[Outcome]]:
    """Judge fixtures with ``worker``; nothing once the run is halted (the shrinker then
    keeps what it has)."""

    def run(fixtures: list[Fixture]) -> list[Outcome]:
        if halt is not None and halt.is_set():
            return []
        outcomes: list[Outcome] = []
        worker.run_many([(fx, f"{fx.id}/{i}") for i, fx in enumerate(fixtures)], outcomes.append)
        return outcomes

    return run


def finding_of(
    scenario: Scenario,
    small: Shrunk,
    seconds: float = 0.0,
    *,
    found: Shrunk | None = None,
    cut_short: bool = False,
) -> Finding:
    """The finding of ``scenario``, shrunk to ``small`` (from ``found``, the scenario's
    own outcome, where known), its cause and the named deviations that reproduce it
    (:func:`diagnose_finding`)."""
    outcome = small.outcome
    cause, exact, first = diagnose_finding(small, found)
    deviations = {d.name: d for d in Diagnoser().deviations}
    rule = deviations[exact[0]].rule if exact else cause.rule if cause is not None else ""
    fx = small.fixture
    table = scenario.seating.label
    if fx.kind == "settlement":  # shrinking may leave out seats
        seats = fx.input["seats"]
        table = "partnership" if fx.input["mode"] == "partnership" else f"{seats} player{'s' if seats != 1 else ''}"
    return Finding(
        seed=scenario.seed,
        kind=scenario.kind,
        table=table,
        target=scenario.ruleset.target,
        readings=scenario.ruleset.readings,
        size=size_of(fx),
        original_size=size_of(scenario.fixture),
        outcome=outcome.status,
        message=outcome.message,
        differences=outcome.differences,
        rule=rule,
        shrink_seconds=seconds,
        rules_name=scenario.rules_name,
        cause=cause.to_record() if cause is not None else None,
        deviations=exact,
        first_deviations=first,
        cut_short=cut_short,
        fixture=fx,
    )


def _seating_name(seating: Seating) -> str:
    """A seating as a hello names it (protocol 1.2)."""
    return "partnership" if seating.partnership else f"{seating.players}-players"


class _Causes:
    """The causes of one shard's findings, as they come: which ones are shrunk, and the
    group each finding joins."""

    def __init__(self, shrink_all: bool = False) -> None:
        self.shrink_all = shrink_all
        self.groups: dict[tuple[str, str, str], CauseGroup] = {}
        #: The cause that the findings of a first difference's rule join unshrunk: set
        #: once such a finding shrank to a cause no deviation names, or to one already
        #: known (a new shrink of that rule would find nothing new).
        self.settled: dict[str, tuple[str, str, str]] = {}
        self.deviations = {d.name: d for d in Diagnoser().deviations}

    def known(self, scenario: Scenario, outcome: Outcome) -> CauseGroup | None:
        """The cause already shrunk that a new finding is of (``None``: shrink it): one
        whose named deviation explains it (exactly or at its first difference, its rule
        admitted by the first difference), else the cause its first difference's rule
        settled on."""
        if self.shrink_all:
            return None
        cause = finding_cause(scenario.fixture, outcome)
        if cause is not None:
            named = [g for g in self.groups.values() if g.deviation and cause.admits(self.deviations[g.deviation].rule)]
            if named:
                deviations = [self.deviations[g.deviation] for g in named]
                diagnosis = Diagnoser(deviations).diagnose(scenario.fixture, outcome.record())
                explained = diagnosis.explained_by if diagnosis is not None else ()
                group = next((g for g in named if g.deviation in explained), None)
                if group is not None:
                    return group
        key = self.settled.get(_first_rule(cause, outcome))
        return self.groups[key] if key is not None else None

    def add(self, finding: Finding, first_rule: str) -> None:
        key = (finding.rule, finding.deviation, "" if finding.cause is not None else finding.outcome)
        known = key in self.groups
        group = self.groups.setdefault(key, CauseGroup(*key))
        group.findings.append(finding)
        if known or not finding.deviation:
            self.settled.setdefault(first_rule, key)


class _Abandoned(Exception):
    """Raised from an outcome's callback: the requests still out are not wanted."""


class _Range:
    """One shard's run: seeds made as the window asks for them, judged, the findings
    shrunk (:func:`fuzz_range`)."""

    def __init__(
        self,
        worker: Worker,
        plan: Plan,
        declared: Declared,
        first: int,
        count: int,
        *,
        keep_going: bool,
        shrink_all: bool,
        stop: threading.Event | None,
        halt: threading.Event | None,
        progress: Callable[[int], None] | None,
        on_finding: Callable[[Finding], None] | None = None,
    ) -> None:
        self.worker, self.plan, self.declared = worker, plan, declared
        self.on_finding = on_finding
        self.first, self.count = first, count
        self.keep_going, self.stop, self.halt, self.progress = keep_going, stop, halt, progress
        self.tried = Tried()
        self.causes = _Causes(shrink_all)
        self.findings: list[Finding] = []
        self.made: deque[Scenario] = deque()  # sent (or about to be), in order, awaiting their outcomes
        self.pending: list[tuple[Scenario, Outcome]] = []  # findings to shrink, in order
        self.next_seed = first
        self.sent = 0
        self.done = 0  # seeds whose every scenario was judged
        self.ticked = 0  # of which progress was told
        self.began = time.perf_counter()
        self.shrinking = 0.0

    def halted(self) -> bool:
        return self.halt is not None and self.halt.is_set()

    def stopped(self) -> bool:
        """Nothing more is made: the run is halted, or (unless it keeps going) another
        shard's finding has stopped it."""
        return self.halted() or (not self.keep_going and self.stop is not None and self.stop.is_set())

    def requests(self) -> Iterator[tuple[Fixture, str]]:
        """The scenarios, made one seed at a time as the window asks for them: the
        implementation answers the last ones while the next are made.  Nothing is made
        while a finding waits to be shrunk, or once the run has stopped."""
        while self.next_seed < self.first + self.count:
            if self.pending or self.stopped():
                return
            seed = self.next_seed
            self.next_seed += 1
            for scenario in scenarios(seed, self.plan, self.declared):
                self.made.append(scenario)
                self.sent += 1
                yield scenario.fixture, f"{scenario.fixture.id}/{self.sent}"

    def judged(self, outcome: Outcome) -> None:
        scenario = self.made.popleft()
        if self.halted():
            return  # the implementation is being stopped: its answers from now on are not tried
        if self.pending and not self.keep_going:
            return  # sent ahead of the first disagreement: not tried
        self.tried.add(scenario)
        if disagrees(outcome):
            if not self.keep_going:
                self.pending.append((scenario, outcome))
                if outcome.status == Status.TIMEOUT:
                    # The scenarios sent ahead are not tried: none waits out the time
                    # limit again for an implementation that has stopped answering.
                    raise _Abandoned
                return
            group = self.causes.known(scenario, outcome)
            if group is not None:
                group.count_one(scenario)
            else:
                self.pending.append((scenario, outcome))
        if scenario.kind == self.plan.kinds[-1]:
            self.done += 1  # that seed's last scenario (a seed makes one per kind, in order)
            if self.progress and self.done - self.ticked >= BATCH:
                self.progress(self.done - self.ticked)
                self.ticked = self.done

    def shrink_pending(self) -> None:
        """Shrink the findings that wait, each unless a cause shrunk before it has it
        (a halted run shrinks nothing: each is written as found)."""
        while self.pending:
            scenario, outcome = self.pending[0]  # taken off once done: an interruption keeps it
            group = self.causes.known(scenario, outcome) if self.keep_going else None
            if group is not None:
                group.count_one(scenario)
                self.pending.pop(0)
                continue
            began = time.perf_counter()
            found = Shrunk(scenario.fixture, outcome)
            cause = finding_cause(scenario.fixture, outcome)
            small = found
            if not self.halted():
                small = shrink(
                    found,
                    _judge(self.worker, self.halt),
                    seed=scenario.seed,
                    seating=scenario.seating,
                    ruleset=scenario.ruleset,
                    keep=same_cause(cause, str(outcome.status)),
                )
            finding = finding_of(scenario, small, found=found, cut_short=self.halted())
            finding.shrink_seconds = time.perf_counter() - began
            self.shrinking += finding.shrink_seconds
            self.findings.append(finding)
            self.causes.add(finding, _first_rule(cause, outcome))
            self.pending.pop(0)
            if self.on_finding is not None:
                self.on_finding(finding)

    def run(self) -> None:
        while True:
            try:
                self.worker.run_many(self.requests(), self.judged)
            except _Abandoned:
                self.made.clear()
                self.worker.abandon()
            if not self.pending:
                return  # every seed made, or the run stopped
            self.shrink_pending()
            if not self.keep_going or self.halted():
                return

    def shard(self, unsupported: tuple[str, ...]) -> Shard:
        if self.progress and self.done > self.ticked:
            self.progress(self.done - self.ticked)
            self.ticked = self.done
        seeds = self.done
        if not self.keep_going and self.findings:
            seeds = self.findings[0].seed - self.first + 1  # up to the first finding
        seconds = time.perf_counter() - self.began - self.shrinking
        groups = list(self.causes.groups.values())
        return Shard(self.first, seeds, seconds, self.findings, self.tried, unsupported, groups, self.halted())


def _declared_plan(plan: Plan, hello: dict[str, Any], scope: Scope) -> tuple[Plan, tuple[str, ...]]:
    """The plan cut to what the implementation's hello declares (kinds, tables; its
    rulesets checked against its readings and targets), and the kinds asked for that it
    does not take; an :class:`ImplementationUnusable` when nothing of the plan is left."""
    _check_rulesets(plan, dict(scope.readings), scope.targets)
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
    return Plan(kinds, seatings, plan.rulesets, plan.strict_rule_ids), unsupported


def fuzz_range(
    argv: Sequence[str],
    first: int,
    count: int,
    *,
    plan: Plan | None = None,
    options: Options | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[int], None] | None = None,
    keep_going: bool = False,
    shrink_all: bool = False,
    halt: threading.Event | None = None,
    on_finding: Callable[[Finding], None] | None = None,
    supervisor: Supervisor | None = None,
) -> Shard:
    """Fuzz seeds ``first .. first+count-1`` with one implementation process, up to the
    first (shrunk) finding, or with ``keep_going`` through every seed, each finding
    shrunk once per cause (``shrink_all``: every one).  ``stop`` set (by another
    shard's finding) makes no more scenarios, unless the run keeps going; ``halt`` set
    (an interruption) makes none and judges none from then on, and shrinks no further:
    the shard is what was done before it.  ``on_finding`` is told of each finding as
    soon as it is shrunk (a local run writes it then).  ``supervisor``: the run's
    processes (a new one if none is given)."""
    plan = plan or Plan()
    options = options or Options(strict_rule_ids=plan.strict_rule_ids)
    worker = Worker(argv, options, supervisor=supervisor)
    state: _Range | None = None
    unsupported: tuple[str, ...] = ()
    try:
        hello, scope = worker.declared()
        declared = dict(scope.readings)
        plan, unsupported = _declared_plan(plan, hello, scope)
        state = _Range(
            worker,
            plan,
            declared,
            first,
            count,
            keep_going=keep_going,
            shrink_all=shrink_all,
            stop=stop,
            halt=halt,
            progress=progress,
            on_finding=on_finding,
        )
        state.run()
        if not keep_going and state.findings and stop is not None:
            stop.set()
        return state.shard(unsupported)
    except (ImplementationError, OSError):
        if halt is None or not halt.is_set():
            raise
        # Interrupted: the implementation was stopped under the shard's feet (its pipes
        # closed while this thread read them).  The findings waiting are kept as found.
        if state is None:
            return Shard(first, 0, 0.0, interrupted=True)
        state.shrink_pending()
        return state.shard(unsupported)
    finally:
        worker.close()


def write_finding(finding: Finding, small: Fixture, argv: Sequence[str], out_dir: Path) -> Path:
    """Write a finding as a fixture file under ``out_dir/generated/`` (and note where)."""
    doc = finding_fixture(small, finding, " ".join(argv))
    folder = Path(out_dir) / "generated"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"fuzz-{doc['id']}.yaml"
    atomic_write(
        path,
        "# Found by horserace fuzz; review before adding to the corpus.\n"
        + yaml.safe_dump([doc], sort_keys=False, allow_unicode=True, width=100, default_flow_style=None),
    )
    finding.path = str(path)
    return path


def shards_of(seed: int, budget: int, size: int) -> list[tuple[int, int]]:
    """``(first, count)`` of each shard: seeds ``seed .. seed+budget-1``, in order."""
    return [(first, min(size, seed + budget - first)) for first in range(seed, seed + budget, size)]


def local_shards(seed: int, budget: int) -> list[tuple[int, int]]:
    """The shards of a local run: the budget cut into :data:`LOCAL_SHARDS` of equal size,
    each of :data:`MIN_SHARD_SEEDS` to :data:`MAX_SHARD_SEEDS` seeds.  Fixed by the seed
    and the budget alone (never by ``--jobs``), so every ``--jobs`` runs the same shards."""
    size = max(MIN_SHARD_SEEDS, min(MAX_SHARD_SEEDS, -(-budget // LOCAL_SHARDS)))
    return shards_of(seed, budget, size)


@dataclass(frozen=True)
class _Task:
    """One shard of a local run, as a worker process is sent it."""

    argv: tuple[str, ...]
    first: int
    count: int
    plan: Plan
    options: Options | None
    keep_going: bool
    shrink_all: bool


def _fuzz_task(task: _Task) -> Shard:
    """Run in a worker process: one shard, its own implementation process, under a
    supervisor of the worker's (the worker is a process of horserace's own)."""
    return fuzz_range(
        task.argv,
        task.first,
        task.count,
        plan=task.plan,
        options=task.options,
        keep_going=task.keep_going,
        shrink_all=task.shrink_all,
        supervisor=Supervisor(own_process=True),
    )


def fuzz(
    argv: Sequence[str],
    seed: int,
    budget: int,
    *,
    plan: Plan | None = None,
    jobs: int = 1,
    out_dir: Path | None = None,
    progress: Callable[[int], None] | None = None,
    keep_going: bool = False,
    shrink_all: bool = False,
    timeout: float | None = None,
) -> FuzzResult:
    """Fuzz ``budget`` seeds from ``seed`` in the shards of :func:`local_shards`, on
    ``jobs`` worker processes (1: in this process), and merge them in shard order, so
    that every ``jobs`` gives the same findings and summary (timings aside).  Without
    ``keep_going`` the run's finding is the first finding of the first shard that has
    one (the lowest seed's); the shards after it are not run (or their results
    dropped).  With ``keep_going`` every shard runs every seed, each finding shrunk once
    per cause and shard (``shrink_all``: each one).  The findings are written as fixtures
    under ``out_dir/generated/``: in this process each as soon as it is shrunk, from
    workers each shard's once it and every shard before it are in.  ``timeout``: seconds
    per scenario (default: the runner's, as conform's ``--timeout``).

    Whatever is raised in this thread while the shards run (Ctrl-C's
    KeyboardInterrupt, the exception a signal handler raises) interrupts the run: no
    scenario is made or judged from then on, the implementations (and workers) are
    stopped, and the result holds the shards done before, in order up to the first not
    done (in this process, that one too as far as it got), its findings written, with
    the exception in :attr:`FuzzResult.stopped_by`."""
    plan = plan or Plan()
    options = None if timeout is None else Options(strict_rule_ids=plan.strict_rule_ids, timeout=timeout)
    shards = local_shards(seed, budget)
    tasks = [_Task(tuple(argv), first, count, plan, options, keep_going, shrink_all) for first, count in shards]
    began = time.perf_counter()
    if jobs == 1 or len(tasks) == 1:
        results, stopped_by = _fuzz_here(tasks, progress, out_dir)
    else:
        results, stopped_by = _fuzz_in_processes(tasks, jobs, progress, out_dir)
    elapsed = time.perf_counter() - began
    # The rates are over the fuzzing time, shrinking left out: in this process the
    # shards' own time, one after another; on workers the wall time less each worker's
    # share of the shrinking (the workers' start included, as a user waits for it).
    if jobs == 1 or len(tasks) == 1:
        fuzz_seconds = sum(r.seconds for r in results)
    else:
        fuzz_seconds = max(elapsed - sum(r.shrink_seconds for r in results) / min(jobs, len(tasks)), 1e-9)
    result = merge_shards(
        results,
        (seed, seed + budget - 1),
        plan,
        elapsed,
        fuzz_seconds,
        argv=argv,
        out_dir=out_dir,
        keep_going=keep_going,
        shrink_all=shrink_all,
    )
    result.stopped_by = stopped_by
    return result


def _wanted_after(task: _Task, shard: Shard) -> bool:
    """Whether the shards after ``shard`` are still wanted: not after a finding of a run
    that stops at its first, nor after an interruption."""
    return not shard.interrupted and (task.keep_going or not shard.findings)


def _fuzz_here(
    tasks: Sequence[_Task], progress: Callable[[int], None] | None, out_dir: Path | None
) -> tuple[list[Shard], BaseException | None]:
    """The shards one after another in a thread of this process (the main thread waits,
    so that Ctrl-C or a signal's exception halts the shard where it is)."""
    supervisor = Supervisor()  # this run's processes: stopped together if it is cut short
    halt = threading.Event()
    results: list[Shard] = []
    errors: list[BaseException] = []
    finished = threading.Event()

    def write(finding: Finding) -> None:
        if out_dir is not None and finding.fixture is not None:
            write_finding(finding, finding.fixture, finding_argv, out_dir)

    finding_argv = tasks[0].argv if tasks else ()

    def work() -> None:
        try:
            for task in tasks:
                if halt.is_set():
                    return
                shard = fuzz_range(
                    task.argv,
                    task.first,
                    task.count,
                    plan=task.plan,
                    options=task.options,
                    halt=halt,
                    progress=progress,
                    keep_going=task.keep_going,
                    shrink_all=task.shrink_all,
                    on_finding=write,
                    supervisor=supervisor,
                )
                results.append(shard)
                if not _wanted_after(task, shard):
                    return
        except BaseException as exc:  # noqa: BLE001  (whatever ends the thread is re-raised in the caller's thread below)
            errors.append(exc)
        finally:
            finished.set()

    thread = threading.Thread(target=work, daemon=True)
    stopped_by: BaseException | None = None
    # Waited for by an event, not by Thread.join: once Ctrl-C has interrupted a join, the
    # next join of that thread may return while it still runs (seen on CPython 3.11).
    # The thread starts inside the try, so that a signal from the first tick is caught.
    try:
        thread.start()
        while not finished.wait(0.25):
            pass
    except BaseException as exc:  # noqa: BLE001  (Ctrl-C, or a signal's exception: the shard stops where it is)
        stopped_by = exc
        halt.set()
        supervisor.kill_all()
        if thread.ident is not None:  # started
            finished.wait()
    if errors and stopped_by is None:
        raise errors[0]
    return results, stopped_by


def _fuzz_in_processes(
    tasks: Sequence[_Task], jobs: int, progress: Callable[[int], None] | None, out_dir: Path | None
) -> tuple[list[Shard], BaseException | None]:
    """The shards on ``jobs`` worker processes, taken in shard order: each one's
    findings written, and its seeds told, once it and every shard before it are in."""
    results: list[Shard] = []

    def taken(i: int, shard: Shard) -> None:
        results.append(shard)
        for finding in shard.findings:
            if out_dir is not None and finding.fixture is not None:
                write_finding(finding, finding.fixture, tasks[i].argv, out_dir)
        if progress is not None and shard.seeds:
            progress(shard.seeds)

    stopped_by: BaseException | None = None
    try:
        in_processes(_fuzz_task, tasks, jobs, done=taken, until=lambda i, shard: not _wanted_after(tasks[i], shard))
    except Exception:
        raise  # a shard's error (an unusable implementation): the workers are ended
    except BaseException as exc:  # noqa: BLE001  (errors re-raised above; Ctrl-C, or a signal's exception: the workers are ended)
        stopped_by = exc
    return results, stopped_by


def merge_shards(
    shards: Sequence[Shard],
    seeds: tuple[int, int],
    plan: Plan,
    seconds: float,
    fuzz_seconds: float,
    *,
    argv: Sequence[str],
    out_dir: Path | None = None,
    keep_going: bool = False,
    shrink_all: bool = False,
) -> FuzzResult:
    """One result of ``shards``, taken in the order given (by shard, not by arrival, so a
    shard run twice counts once): what they tried, the seed ranges they covered, their
    findings, each written once under ``out_dir/generated/`` (unless written already),
    and their causes, those of
    several shards made one (the findings of each, shrunk or counted, added up).
    ``seconds`` is the run's wall time, ``fuzz_seconds`` the time its rates are taken
    over (shrinking left out)."""
    findings = []
    tried = Tried()
    causes: dict[tuple[str, str, str], CauseGroup] = {}
    for shard in shards:
        tried.merge(shard.tried)
        for finding in shard.findings:
            if out_dir is not None and finding.fixture is not None and not finding.path:
                write_finding(finding, finding.fixture, argv, out_dir)
            findings.append(finding)
        for group in shard.groups:
            causes.setdefault(group.key, CauseGroup(*group.key)).merge(group)
    return FuzzResult(
        seeds,
        plan,
        tried,
        seconds,
        findings,
        ranges=[(r.first, r.first + r.seeds - 1) for r in shards if r.seeds],
        fuzz_seconds=fuzz_seconds,
        unsupported=next((r.unsupported for r in shards if r.seeds), ()),
        causes=sorted(causes.values(), key=lambda g: (-g.count, g.smallest.seed)),
        keep_going=keep_going,
        shrink_all=shrink_all,
    )
