"""Shrinking a fuzz finding: the smallest scenario of the same kind on which the
implementation still disagrees with the reference engine.

Each scenario kind shrinks along its own sizes, every candidate a valid fixture whose
expected values are recomputed by the reference engine:

- ``play`` (``hand`` and ``match``): the fewest hands (the hands up to the first that
  disagrees, then without the hands before it, the scores they left becoming the table's),
  then the shortest prefix of the last hand's placements;
- ``illegal``: the fewest legal actions before the illegal one (the same action, still
  rejected under the same rule by the reference engine);
- ``layout``: the shortest prefix of steps, then as many of them as possible moved into
  ``setup``, so that the steps left are those whose snapshots differ;
- ``perft``: the smallest depth, then the earliest position of the same random hand;
- ``settlement``: tiles taken out of the hands one at a time.

A shrinker asks ``run`` to judge a list of candidates at once (the runner sends them
ahead of their answers), and keeps the first that still disagrees.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from horserace.conformance.runner import Outcome
from horserace.corpus.fixture import Fixture
from horserace.corpus.generate import PerftCase
from horserace.corpus.observers import observe
from horserace.corpus.status import Status
from horserace.engine.ruleset import Ruleset
from horserace.engine.seating import Seating

__all__ = ["Judge", "Shrunk", "disagrees", "shrink", "size_of", "size_text", "with_input"]

#: Judges fixtures against the implementation, in one batch, one outcome each in order.
Judge = Callable[[list[Fixture]], list[Outcome]]


def disagrees(outcome: Outcome) -> bool:
    """The implementation does not agree with the expected values (a skip is no finding)."""
    return outcome.status not in (Status.PASS, Status.SKIP)


@dataclass
class Shrunk:
    fixture: Fixture
    outcome: Outcome


def with_input(fx: Fixture, inp: dict[str, Any]) -> Fixture:
    """``fx`` with another input, its expected values the reference engine's."""
    out = copy.copy(fx)
    out.input = inp
    out.expected = out._canonical = observe(fx.kind, inp, fx.variants)  # canonical, as observations are
    return out


def _first_disagreeing(candidates: list[Fixture], run: Judge) -> Shrunk | None:
    """The first candidate (they come smallest first) that still disagrees."""
    if not candidates:
        return None
    for fx, outcome in zip(candidates, run(candidates)):
        if disagrees(outcome):
            return Shrunk(fx, outcome)
    return None


def _least(low: int, high: int, make: Callable[[int], Fixture], run: Judge, known: Shrunk) -> tuple[int, Shrunk]:
    """The least ``n`` in ``low .. high`` for which ``make(n)`` disagrees, known to
    disagree at ``high`` (``known``): a binary search, then a walk down to be sure, since
    a disagreement need not persist in every larger candidate."""
    best, floor = known, low
    while low < high:
        mid = (low + high) // 2
        found = _first_disagreeing([make(mid)], run)
        if found is not None:
            high, best = mid, found
        else:
            low = mid + 1
    while high > floor:
        found = _first_disagreeing([make(high - 1)], run)
        if found is None:
            break
        high, best = high - 1, found
    return high, best


# ---------------------------------------------------------------------- play
def _scores_before(fx: Fixture, hand: int) -> list[int]:
    """The scores at the start of hand ``hand`` of a play fixture: the table's, or the
    previous hand's end (its last event, a hand-end)."""
    if hand == 0:
        return list(fx.input["scores"])
    return list(fx.expected["hands"][hand - 1]["events"][-1]["scores"])


def _play_cut(fx: Fixture, first: int, end: int, placements: int | None) -> Fixture:
    """Hands ``first .. end-1`` of ``fx``, from the scores they started with, the last one
    cut to its first ``placements`` placements (all: ``None``)."""
    inp = dict(fx.input)
    hands = [dict(h) for h in fx.input["hands"][first:end]]
    if placements is not None:
        hands[-1]["placements"] = hands[-1]["placements"][:placements]
    inp["hands"] = hands
    inp["scores"] = _scores_before(fx, first)
    return with_input(fx, inp)


def _shrink_play(found: Shrunk, run: Judge) -> Shrunk:
    fx = found.fixture
    count = len(fx.input["hands"])
    end, found = _least(1, count, lambda n: _play_cut(fx, 0, n, None), run, found)
    # The fewest hands before ``end`` that still disagree: hands ``end - 1 - n .. end - 1``.
    _, found = _least(0, end - 1, lambda n: _play_cut(fx, end - 1 - n, end, None), run, found)
    fx = found.fixture
    total = len(fx.input["hands"][-1]["placements"])
    _, found = _least(0, total, lambda n: _play_cut(fx, 0, len(fx.input["hands"]), n), run, found)
    return found


# ---------------------------------------------------------------------- illegal
def _shrink_illegal(found: Shrunk, run: Judge) -> Shrunk:
    """Fewer legal actions before the same illegal one, where the reference engine still
    rejects it under the same rule."""
    fx = found.fixture
    *legal, last = fx.input["actions"]
    rule = fx.expected["rule"]
    candidates = []
    for n in range(len(legal)):
        inp = {**fx.input, "actions": [*legal[:n], last]}
        candidate = with_input(fx, inp)
        if candidate.expected == {"rejected_at": n, "rule": rule}:
            candidates.append(candidate)
    return _first_disagreeing(candidates, run) or found


# ---------------------------------------------------------------------- layout
def _shrink_layout(found: Shrunk, run: Judge) -> Shrunk:
    fx = found.fixture
    steps = fx.input["steps"]

    def prefix(n: int) -> Fixture:
        return with_input(fx, {**fx.input, "steps": steps[:n]})

    length, found = _least(1, len(steps), prefix, run, found)

    def set_up(n: int) -> Fixture:  # the first ``length - 1 - n`` steps become setup
        cut = length - 1 - n
        return with_input(
            fx, {**fx.input, "setup": [*fx.input.get("setup", []), *steps[:cut]], "steps": steps[cut:length]}
        )

    _, found = _least(0, length - 1, set_up, run, found)
    return found


# ---------------------------------------------------------------------- perft
def _shrink_perft(found: Shrunk, run: Judge, case: PerftCase) -> Shrunk:
    def fixture(c: PerftCase) -> Fixture:
        return Fixture.observed(c.document(), found.fixture.file, found.fixture.line)

    shallower = _first_disagreeing([fixture(replace(case, depth=d)) for d in range(1, case.depth)], run)
    if shallower is not None:
        found, case = shallower, replace(case, depth=shallower.fixture.input["depth"])
    earlier = _first_disagreeing([fixture(replace(case, placements=p)) for p in range(case.placements)], run)
    return earlier or found


# ---------------------------------------------------------------------- settlement
def _shrink_settlement(found: Shrunk, run: Judge) -> Shrunk:
    """Take tiles out of the hands while it still disagrees (each seat that held tiles
    keeps one: an empty hand is the seat that dominoed)."""
    while True:
        fx = found.fixture
        candidates = []
        for seat, tiles in enumerate(fx.input["hands"]):
            if len(tiles) < 2:
                continue
            for i in range(len(tiles)):
                hands = [list(h) for h in fx.input["hands"]]
                del hands[seat][i]
                candidates.append(with_input(fx, {**fx.input, "hands": hands}))
        smaller = _first_disagreeing(candidates, run)
        if smaller is None:
            return found
        found = smaller


def shrink(found: Shrunk, run: Judge, *, seed: int, seating: Seating, ruleset: Ruleset) -> Shrunk:
    """The smallest scenario of ``found``'s kind on which the implementation still
    disagrees (``found`` itself when none is smaller).  ``seed``, ``seating`` and
    ``ruleset`` are those it was generated from (a perft position is regenerated)."""
    kind = found.fixture.kind
    if kind == "play":
        return _shrink_play(found, run)
    if kind == "illegal":
        return _shrink_illegal(found, run)
    if kind == "layout":
        return _shrink_layout(found, run)
    if kind == "perft":
        return _shrink_perft(found, run, PerftCase.of_seed(seed, seating, ruleset))
    return _shrink_settlement(found, run)


# ---------------------------------------------------------------------- sizes
def size_of(fx: Fixture) -> dict[str, int]:
    """What shrinking makes smaller, per fixture kind."""
    inp = fx.input
    if fx.kind == "play":
        return {"hands": len(inp["hands"]), "placements": sum(len(h["placements"]) for h in inp["hands"])}
    if fx.kind == "illegal":
        return {"actions": len(inp["actions"]) - 1}
    if fx.kind == "layout":
        return {"steps": len(inp["steps"]), "setup": len(inp.get("setup", []))}
    if fx.kind == "perft":
        return {"depth": inp["depth"], "placements": len(inp.get("layout", []))}
    return {"tiles": sum(len(h) for h in inp["hands"])}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def size_text(kind: str, size: dict[str, int]) -> str:
    """A size of :func:`size_of` in words."""
    if kind == "play":
        return f"{_plural(size['hands'], 'hand')}, {_plural(size['placements'], 'placement')}"
    if kind == "illegal":
        return f"{_plural(size['actions'], 'action')} before the illegal one"
    if kind == "layout":
        setup = f" after {_plural(size['setup'], 'placement')} of setup" if size["setup"] else ""
        return f"{_plural(size['steps'], 'step')}{setup}"
    if kind == "perft":
        return f"depth {size['depth']} after {_plural(size['placements'], 'placement')}"
    return f"{_plural(size['tiles'], 'tile')} in hand"
