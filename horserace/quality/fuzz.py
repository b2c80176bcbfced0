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
from horserace.corpus.fixture import Fixture
from horserace.corpus.generate import random_play_fixture
from horserace.corpus.ids import generated_id
from horserace.corpus.observers import observe
from horserace.corpus.status import Status
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.engine.seating import SEATINGS
from horserace.errors import ImplementationUnusable

__all__ = ["Finding", "FuzzResult", "finding_fixture", "fuzz", "fuzz_range", "scenario", "shrink", "truncated"]

BATCH = 64

# The rule a disagreement in an event field is reported against.
_FIELD_RULES = {
    "count": "HR-COUNT-1",
    "credit": "HR-CREDIT-1",
    "credit_raw": "HR-CREDIT-1",
    "continues": "HR-TURN-1",
    "drawn": "HR-TURN-3",
    "winners": "HR-END-2",
    "credits": "HR-SETTLE-1",
    "pips": "HR-SET-2",
    "next_opener": "HR-OPEN-3",
    "reason": "HR-END-1",
    "scores": "HR-SETTLE-1",
    "event": "HR-TURN-1",
    "tile": "HR-DRAW-2",
    "seat": "HR-SEAT-3",
    "match_winners": "HR-MATCH-2",
}


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
class Finding:
    seed: int
    placements: int  #: after shrinking
    original_placements: int
    outcome: str
    message: str
    differences: list = field(default_factory=list)
    path: str = ""
    rule: str = ""


@dataclass
class FuzzResult:
    seeds: tuple[int, int]  #: first and last seed tried
    hands: int
    seconds: float
    findings: list[Finding]

    def to_dict(self) -> dict:
        return {
            "seeds": list(self.seeds),
            "hands": self.hands,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds) if self.seconds else None,
            "findings": [vars(f) | {"differences": [d.to_dict() for d in f.differences]} for f in self.findings],
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


def _rule_for(differences) -> str:
    for d in differences:
        if d.field in _FIELD_RULES:
            return _FIELD_RULES[d.field]
    return "HR-TURN-1"


def fuzz_range(
    argv: Sequence[str],
    first: int,
    count: int,
    *,
    options: Options | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[int], None] | None = None,
    ruleset: Ruleset = CANONICAL,
) -> tuple[int, Finding | None, Fixture | None]:
    """Fuzz seeds ``first .. first+count-1`` with one implementation process; returns
    the hands run and the first (shrunk) finding."""
    worker = Worker(argv, options or Options())
    _, followed = worker.ready()
    if followed.readings != ruleset.readings:
        worker.close()
        theirs = ", ".join(f"{k}={v}" for k, v in followed.variants.items()) or "the canonical readings"
        ours = ", ".join(f"{k}={v}" for k, v in ruleset.variants.items()) or "the canonical readings"
        raise ImplementationUnusable(
            f"the implementation follows {theirs}; this fuzzing run is under {ours} "
            "(choose it with --rules or --variant)"
        )
    done = 0
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
                    small, small_outcome = shrink(worker, fx)
                    finding = Finding(
                        seed=s,
                        placements=len(small.input["hands"][0]["placements"]),
                        original_placements=len(fx.input["hands"][0]["placements"]),
                        outcome=small_outcome.status,
                        message=small_outcome.message,
                        differences=small_outcome.differences,
                        rule=_rule_for(small_outcome.differences),
                    )
                    if stop is not None:
                        stop.set()
                    return done, finding, small
            if progress:
                progress(len(batch))
            seed += len(batch_seeds)
        return done, None, None
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
    results: list[tuple[int, Finding | None, Fixture | None]] = [(0, None, None)] * len(shards)
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
    for _, finding, small in results:
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
    return FuzzResult((seed, seed + budget - 1), sum(r[0] for r in results), elapsed, findings)
