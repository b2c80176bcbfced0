"""``horserace fuzz``: differential fuzzing of an implementation against the reference
engine through the conformance protocol.

Seeded random ``play`` scenarios (a fresh deal and the placements of a random legal
hand) go to the implementation; its observations are compared with the reference
engine's.  The first disagreement is shrunk to the shortest prefix of placements that
still disagrees and written as a ready fixture (``origin: generated``) for a human to
review: its expected values are the reference engine's, so it is evidence only once a
person has checked it against the rules.  Seeds are the unit of work: ``--seed S
--budget N`` covers seeds ``S .. S+N-1``, so a long campaign shards into independent
jobs whose results merge.
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from horserace.conformance.runner import Options, Outcome, Worker
from horserace.corpus.compare import Difference
from horserace.corpus.fixture import Fixture
from horserace.corpus.generate import random_play_fixture
from horserace.corpus.ids import generated_id
from horserace.corpus.observers import observe
from horserace.corpus.status import Status
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.engine.seating import SEATINGS
from horserace.errors import ImplementationUnusable

__all__ = [
    "Finding",
    "FuzzResult",
    "Shard",
    "finding_fixture",
    "fuzz",
    "fuzz_range",
    "rule_of_event",
    "scenario",
    "shrink",
    "truncated",
]

BATCH = 64

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


def scenario(seed: int, ruleset: Ruleset = CANONICAL) -> Fixture:
    """The random ``play`` scenario of ``seed`` (seating chosen by the seed too)."""
    seating = SEATINGS[seed % len(SEATINGS)]
    players, partnership = seating.players, seating.partnership
    return _fixture(random_play_fixture(seed, players, partnership, ruleset))


def _fixture(doc: dict) -> Fixture:
    return Fixture.from_document(doc, "(fuzz)", 0)


def truncated(fx: Fixture, placements: int) -> Fixture:
    """The same deal with only the first ``placements`` placements; expected values from
    the reference engine."""
    inp = copy.deepcopy(fx.input)
    inp["hands"][0]["placements"] = inp["hands"][0]["placements"][:placements]
    out = copy.copy(fx)
    out.input = inp
    out.expected = observe("play", inp, fx.variants)
    out._canonical = None
    return out


@dataclass
class Shard:
    """What one implementation process did: seeds ``first .. first+hands-1``, in
    ``seconds`` of fuzzing (shrinking left out), and its finding."""

    first: int
    hands: int
    seconds: float
    finding: Finding | None
    fixture: Fixture | None


@dataclass
class Finding:
    seed: int
    placements: int  #: after shrinking
    original_placements: int
    outcome: str
    message: str
    differences: list = field(default_factory=list)
    path: str = ""
    rule: str = ""
    #: Seconds spent shrinking (not counted in the hands per second).
    shrink_seconds: float = 0.0

    @property
    def shrunk(self) -> bool:
        return self.placements < self.original_placements

    @property
    def first_event(self) -> Difference | None:
        return _first_event(self.differences)


@dataclass
class FuzzResult:
    seeds: tuple[int, int]  #: the first and last seed asked for
    hands: int
    seconds: float
    findings: list[Finding]
    #: The seed ranges actually tried, one per shard (a shard stops at its first finding,
    #: or when another shard's finding stops the run).
    tried: list[tuple[int, int]] = field(default_factory=list)
    #: Seconds of fuzzing, shrinking left out: the mean over the shards, which run side
    #: by side.
    fuzz_seconds: float = 0.0

    @property
    def hands_per_second(self) -> float | None:
        """Hands per second of the whole run (every shard), shrinking left out."""
        return self.hands / self.fuzz_seconds if self.fuzz_seconds > 0 else None

    def to_dict(self) -> dict:
        rate = self.hands_per_second
        return {
            "seeds": list(self.seeds),
            "tried": [list(r) for r in self.tried],
            "hands": self.hands,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(rate) if rate else None,
            "findings": [
                vars(f) | {"differences": [d.to_dict() for d in f.differences], "shrunk": f.shrunk}
                for f in self.findings
            ],
        }


def _disagrees(outcome: Outcome) -> bool:
    return outcome.status not in (Status.PASS, Status.SKIP)


def _run(worker: Worker, fixtures: list[Fixture]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    worker.run_many([(fx, f"{fx.id}/{i}") for i, fx in enumerate(fixtures)], outcomes.append)
    return outcomes


def shrink(worker: Worker, fx: Fixture) -> tuple[Fixture, Outcome]:
    """The shortest prefix of ``fx``'s placements on which the implementation still
    disagrees (binary search, then a check that one placement fewer agrees)."""
    total = len(fx.input["hands"][0]["placements"])
    low, high = 0, total  # disagreement known at `high`
    best = _run(worker, [truncated(fx, high)])[0]
    if not _disagrees(best):  # the full trace from the engine's own fixture disagrees; keep it
        return fx, _run(worker, [fx])[0]
    best_fx = truncated(fx, high)
    while low < high:
        mid = (low + high) // 2
        candidate = truncated(fx, mid)
        outcome = _run(worker, [candidate])[0]
        if _disagrees(outcome):
            high, best, best_fx = mid, outcome, candidate
        else:
            low = mid + 1
    # Binary search assumes a disagreement persists in longer prefixes; walk down to be sure.
    while high > 0:
        candidate = truncated(fx, high - 1)
        outcome = _run(worker, [candidate])[0]
        if not _disagrees(outcome):
            break
        high, best, best_fx = high - 1, outcome, candidate
    return best_fx, best


def finding_fixture(fx: Fixture, finding: Finding, impl: str) -> dict:
    first = finding.differences[0].path if finding.differences else finding.outcome
    return {
        "id": generated_id(finding.seed, f"fuzz{finding.placements}"),
        "description": f"fuzz: '{impl}' disagrees with the reference engine at {first} "
        f"({finding.outcome}, seed {finding.seed})",
        "kind": "play",
        "rules": [finding.rule],
        "origin": "generated",
        "why": (
            f"Generated by horserace fuzz from seed {finding.seed} and minimised from "
            f"{finding.original_placements} to {finding.placements} placements: the shortest prefix of the "
            f"random hand on which the implementation still disagrees. The expected values are the "
            f"reference engine's; review them against the rules before this fixture joins the corpus. "
            f"Disagreement: {finding.message or first}."
        ),
        **({"variants": fx.variants} if fx.variants else {}),
        "input": fx.input,
        "expected": fx.expected,
    }


def _first_event(differences: list[Difference]) -> Difference | None:
    """The first difference that is a whole event (the comparison shows each differing
    event whole: ``hands[h].events[i]``)."""
    return next((d for d in differences if len(d.at) >= 2 and d.at[-2] == "events" and not d.length), None)


def _rule_for(differences: list[Difference]) -> str:
    event = _first_event(differences)
    if event is not None:
        return rule_of_event(event.expected, event.actual)
    fields = {"scores": "HR-SETTLE-1", "match_winners": "HR-MATCH-2"}
    return next((fields[d.field] for d in differences if d.field in fields), "HR-TURN-1")


def fuzz_range(
    argv: Sequence[str],
    first: int,
    count: int,
    *,
    options: Options | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[int], None] | None = None,
    ruleset: Ruleset = CANONICAL,
) -> Shard:
    """Fuzz seeds ``first .. first+count-1`` with one implementation process, up to the
    first (shrunk) finding."""
    worker = Worker(argv, options or Options())
    _, scope = worker.declared()
    if any(reading not in scope.readings[name] for name, reading in ruleset.readings.items()):
        worker.close()
        theirs = scope.describe()
        ours = ", ".join(f"{k}={v}" for k, v in ruleset.variants.items()) or "the canonical readings"
        raise ImplementationUnusable(
            f"the implementation's readings are {theirs}; this fuzzing run is under {ours} "
            "(choose it with --rules or --variant)"
        )
    done = 0
    began = time.perf_counter()
    shrinking = 0.0
    try:
        seed = first
        while seed < first + count:
            if stop is not None and stop.is_set():
                break
            batch_seeds = list(range(seed, min(seed + BATCH, first + count)))
            batch = [scenario(s, ruleset) for s in batch_seeds]
            outcomes = _run(worker, batch)
            for s, fx, outcome in zip(batch_seeds, batch, outcomes):
                done += 1
                if _disagrees(outcome):
                    shrink_began = time.perf_counter()
                    small, small_outcome = shrink(worker, fx)
                    shrinking = time.perf_counter() - shrink_began
                    finding = Finding(
                        seed=s,
                        placements=len(small.input["hands"][0]["placements"]),
                        original_placements=len(fx.input["hands"][0]["placements"]),
                        outcome=small_outcome.status,
                        message=small_outcome.message,
                        differences=small_outcome.differences,
                        rule=_rule_for(small_outcome.differences),
                        shrink_seconds=shrinking,
                    )
                    if stop is not None:
                        stop.set()
                    return Shard(first, done, time.perf_counter() - began - shrinking, finding, small)
            if progress:
                progress(len(batch))
            seed += len(batch_seeds)
        return Shard(first, done, time.perf_counter() - began, None, None)
    finally:
        worker.close()


def fuzz(
    argv: Sequence[str],
    seed: int,
    budget: int,
    *,
    jobs: int = 1,
    out_dir: Path | None = None,
    progress: Callable[[int], None] | None = None,
    ruleset: Ruleset = CANONICAL,
) -> FuzzResult:
    """Fuzz ``budget`` seeds from ``seed`` in ``jobs`` shards; write the first finding
    of each shard as a fixture under ``out_dir/generated/``."""
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
            results[i] = fuzz_range(argv, start, count, stop=stop, progress=tick, ruleset=ruleset)
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
    findings = []
    for shard in results:
        finding, small = shard.finding, shard.fixture
        if finding is None or small is None:
            continue
        if out_dir is not None:
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
        findings.append(finding)
    tried = [(r.first, r.first + r.hands - 1) for r in results if r.hands]
    return FuzzResult(
        (seed, seed + budget - 1),
        sum(r.hands for r in results),
        elapsed,
        findings,
        tried=tried,
        fuzz_seconds=sum(r.seconds for r in results) / max(1, len(results)),
    )
