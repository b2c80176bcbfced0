"""Shrinking a fuzz finding: the smallest scenario of the same kind on which the
implementation still disagrees with the reference engine.

Each scenario kind shrinks along its own sizes (:func:`size_of`), every candidate a valid
fixture whose expected values are recomputed by the reference engine:

- ``play`` (``hand`` and ``match``): the fewest hands (the hands up to the first that
  disagrees, then without the hands before it, the scores they left becoming the table's),
  then the shortest prefix of the last hand's placements;
- ``illegal``: the fewest legal actions before the illegal one (the same action, still
  rejected under the same rule by the reference engine);
- ``layout``: the shortest prefix of steps, then as many of them as possible moved into
  ``setup``, so that the steps left are those whose snapshots differ; then the fewest
  setup placements: each one that the placements left do not need is dropped (a
  candidate is a valid layout: every placement left legal where it is made, the next one
  becoming the opening tile when the opening is dropped), one at a time, while it still
  disagrees;
- ``perft``: the smallest depth, then the earliest position of the same random hand;
- ``settlement``: the fewest seats (a seat of an individual game left out with its
  score, or two seats made one, the second's tiles given to the first; the partnership
  game keeps its four), the fewest tiles in hand (hands of the same pips in fewer
  tiles, tied hands given fewer pips together, then a tile taken out, or two of the same
  pips from two hands; each seat that held tiles keeps one: an empty hand is the seat
  that dominoed), the fewest pips (a tile replaced by one of fewer pips in no hand, or
  two of the same pips by two of fewer), and the scores moved away from the target (all
  to zero, one side's to zero, one side's halved), where the target does not matter;
  the passes again while any of them shrinks it.

:func:`size_of` gives the sizes of each kind: ``hands`` and ``placements``; ``actions``;
``steps`` and ``setup``; ``depth`` and ``placements``; ``seats``, ``tiles``, ``pips`` and
``score`` (the highest).

A shrinker asks ``run`` to judge a list of candidates at once (the runner sends them
ahead of their answers), and keeps the first that ``keep`` accepts (by default, any that
still disagrees; the fuzzer asks for the same cause, so that a shrink does not slip from
one bug to another).
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
from horserace.engine.tiles import NAMES, PIPS, TILE_COUNT, parse_tile
from horserace.errors import InputError, RuleError

__all__ = ["Judge", "Keep", "Shrunk", "disagrees", "shrink", "size_of", "size_text", "with_input"]

#: Judges fixtures against the implementation, in one batch, one outcome each in order.
Judge = Callable[[list[Fixture]], list[Outcome]]
#: Whether a candidate and its outcome still show the finding.
Keep = Callable[[Fixture, Outcome], bool]


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
    out.expected = out._canonical = observe(fx.kind, inp, fx.variants)  # noqa: SLF001  (the fixture's cache, set with the value it caches); canonical, as observations are
    return out


def _valid(fx: Fixture, inp: dict[str, Any]) -> Fixture | None:
    """:func:`with_input`, or ``None`` where the reference engine refuses the input (a
    placement that is illegal once another is dropped, a tile twice)."""
    try:
        return with_input(fx, inp)
    except (InputError, RuleError):
        return None


#: Judges candidates (smallest first) and gives the first kept, or ``None``.
_Try = Callable[[list[Fixture]], "Shrunk | None"]


def _trier(run: Judge, keep: Keep) -> _Try:
    """The first candidate kept, of a batch.  Once a candidate has not been answered in
    time, it is not kept and no more are judged (each would wait out the time limit
    again): the shrink keeps what it has."""
    stuck = [False]

    def first_kept(candidates: list[Fixture]) -> Shrunk | None:
        if not candidates or stuck[0]:
            return None
        for fx, outcome in zip(candidates, run(candidates), strict=True):
            if outcome.status == Status.TIMEOUT:
                stuck[0] = True
                return None
            if keep(fx, outcome):
                return Shrunk(fx, outcome)
        return None

    return first_kept


def _least(low: int, high: int, make: Callable[[int], Fixture], attempt: _Try, known: Shrunk) -> tuple[int, Shrunk]:
    """The least ``n`` in ``low .. high`` for which ``make(n)`` is kept, known to be kept
    at ``high`` (``known``): a binary search, then a walk down to be sure, since a
    disagreement need not persist in every larger candidate."""
    best, floor = known, low
    while low < high:
        mid = (low + high) // 2
        found = attempt([make(mid)])
        if found is not None:
            high, best = mid, found
        else:
            low = mid + 1
    while high > floor:
        found = attempt([make(high - 1)])
        if found is None:
            break
        high, best = high - 1, found
    return high, best


def _while_smaller(found: Shrunk, attempt: _Try, candidates: Callable[[Fixture], list[Fixture]]) -> Shrunk:
    """Take the first kept of ``candidates(fixture)`` (each one step smaller) until none is."""
    while True:
        smaller = attempt(candidates(found.fixture))
        if smaller is None:
            return found
        found = smaller


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


def _shrink_play(found: Shrunk, attempt: _Try) -> Shrunk:
    fx = found.fixture
    count = len(fx.input["hands"])
    end, found = _least(1, count, lambda n: _play_cut(fx, 0, n, None), attempt, found)
    # The fewest hands before ``end`` that still disagree: hands ``end - 1 - n .. end - 1``.
    _, found = _least(0, end - 1, lambda n: _play_cut(fx, end - 1 - n, end, None), attempt, found)
    fx = found.fixture
    total = len(fx.input["hands"][-1]["placements"])
    _, found = _least(0, total, lambda n: _play_cut(fx, 0, len(fx.input["hands"]), n), attempt, found)
    return found


# ---------------------------------------------------------------------- illegal
def _shrink_illegal(found: Shrunk, attempt: _Try) -> Shrunk:
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
    return attempt(candidates) or found


# ---------------------------------------------------------------------- layout
def _without_placement(fx: Fixture, i: int) -> Fixture | None:
    """``fx`` without setup placement ``i``: ``None`` where a placement left would be
    illegal (it was placed on that tile, or needs it).  Without the opening tile, the
    next placement becomes the opening tile (its target and port dropped)."""
    setup = [dict(entry) for entry in fx.input["setup"]]
    del setup[i]
    if i == 0 and setup:
        setup[0] = {"tile": setup[0]["tile"]}
    inp = {**fx.input, "setup": setup}
    if not setup:
        del inp["setup"]
    return _valid(fx, inp)


def _shrink_layout(found: Shrunk, attempt: _Try) -> Shrunk:
    fx = found.fixture
    steps = fx.input["steps"]

    def prefix(n: int) -> Fixture:
        return with_input(fx, {**fx.input, "steps": steps[:n]})

    length, found = _least(1, len(steps), prefix, attempt, found)

    def set_up(n: int) -> Fixture:  # the first ``length - 1 - n`` steps become setup
        cut = length - 1 - n
        return with_input(
            fx, {**fx.input, "setup": [*fx.input.get("setup", []), *steps[:cut]], "steps": steps[cut:length]}
        )

    _, found = _least(0, length - 1, set_up, attempt, found)

    def fewer(fx: Fixture) -> list[Fixture]:
        # The last placements first: they are the leaves of the layout more often.
        made = (_without_placement(fx, i) for i in reversed(range(len(fx.input.get("setup", [])))))
        return [candidate for candidate in made if candidate is not None]

    return _while_smaller(found, attempt, fewer)


# ---------------------------------------------------------------------- perft
def _shrink_perft(found: Shrunk, attempt: _Try, case: PerftCase) -> Shrunk:
    def fixture(c: PerftCase) -> Fixture:
        return Fixture.observed(c.document(), found.fixture.file, found.fixture.line)

    shallower = attempt([fixture(replace(case, depth=d)) for d in range(1, case.depth)])
    if shallower is not None:
        found, case = shallower, replace(case, depth=shallower.fixture.input["depth"])
    earlier = attempt([fixture(replace(case, placements=p)) for p in range(case.placements)])
    return earlier or found


# ---------------------------------------------------------------------- settlement
def _fewer_seats(fx: Fixture) -> list[Fixture]:
    """Each seat of an individual game but the one that dominoed left out, with its
    score (the partnership game has four seats)."""
    inp = fx.input
    if inp["mode"] != "individual" or inp["seats"] <= 2:
        return []
    out = []
    for seat in range(inp["seats"]):
        if seat == inp["ended_by"]:
            continue
        ended_by = inp["ended_by"]
        if isinstance(ended_by, int) and ended_by > seat:
            ended_by -= 1
        candidate = _valid(
            fx,
            {
                **inp,
                "seats": inp["seats"] - 1,
                "scores": [s for side, s in enumerate(inp["scores"]) if side != seat],
                "hands": [list(h) for s, h in enumerate(inp["hands"]) if s != seat],
                "ended_by": ended_by,
            },
        )
        if candidate is not None:
            out.append(candidate)
    return out


def _merged_seats(fx: Fixture) -> list[Fixture]:
    """Two seats of an individual game that hold tiles made one: the second one's tiles
    given to the first, its seat and score left out (the pips the others hold, and so
    the winner's credit, unchanged)."""
    inp = fx.input
    if inp["mode"] != "individual" or inp["seats"] <= 2:
        return []
    out = []
    holding = [seat for seat in range(inp["seats"]) if seat != inp["ended_by"]]
    for gone in holding:
        for kept in holding:
            if kept == gone:
                continue
            ended_by = inp["ended_by"]
            if isinstance(ended_by, int) and ended_by > gone:
                ended_by -= 1
            hands = [list(h) for h in inp["hands"]]
            hands[kept] += hands[gone]
            candidate = _valid(
                fx,
                {
                    **inp,
                    "seats": inp["seats"] - 1,
                    "scores": [s for side, s in enumerate(inp["scores"]) if side != gone],
                    "hands": [h for s, h in enumerate(hands) if s != gone],
                    "ended_by": ended_by,
                },
            )
            if candidate is not None:
                out.append(candidate)
    return out


def _fewest_tiles_of(pips: int, free: set[int]) -> list[int] | None:
    """The fewest tiles of ``free`` whose pips add up to ``pips`` (one at least; the
    largest first), or ``None``."""
    if pips == 0:
        blank = parse_tile("[0|0]")
        return [blank] if blank in free else None
    chosen: list[int] = []
    left = pips
    for t in sorted(free, key=lambda t: -PIPS[t]):
        if 0 < PIPS[t] <= left:
            chosen.append(t)
            left -= PIPS[t]
            if left == 0:
                return chosen
    return None


def _same_pips(fx: Fixture) -> list[Fixture]:
    """Hands of the same pips in fewer tiles: all of them at once, then each in turn (a
    settlement reads a hand's pips only)."""
    hands = [[parse_tile(t) for t in h] for h in fx.input["hands"]]
    out = []
    for seats in [range(len(hands)), *([seat] for seat in range(len(hands)))]:
        new = [list(h) for h in hands]
        free = set(range(TILE_COUNT)) - {t for seat, h in enumerate(hands) if seat not in seats for t in h}
        for seat in seats:
            if not hands[seat]:
                continue
            tiles = _fewest_tiles_of(sum(PIPS[t] for t in hands[seat]), free)
            if tiles is None:
                break
            new[seat] = tiles
            free -= set(tiles)
        else:
            if sum(map(len, new)) < sum(map(len, hands)):
                inp = {**fx.input, "hands": [[NAMES[t] for t in h] for h in new]}
                candidate = _valid(fx, inp)
                if candidate is not None:
                    out.append(candidate)
    return out


def _lower_ties(fx: Fixture) -> list[Fixture]:
    """Hands that hold the same pips (a tie) given fewer pips, the same for each, in the
    fewest tiles: the fewest pips first."""
    hands = [[parse_tile(t) for t in h] for h in fx.input["hands"]]
    totals: dict[int, list[int]] = {}
    for seat, h in enumerate(hands):
        if h:
            totals.setdefault(sum(PIPS[t] for t in h), []).append(seat)
    out = []
    for total, seats in totals.items():
        if len(seats) < 2:
            continue
        for pips in range(total):
            new = [list(h) for h in hands]
            free = set(range(TILE_COUNT)) - {t for seat, h in enumerate(hands) if seat not in seats for t in h}
            for seat in seats:
                tiles = _fewest_tiles_of(pips, free)
                if tiles is None:
                    break
                new[seat] = tiles
                free -= set(tiles)
            else:
                candidate = _valid(fx, {**fx.input, "hands": [[NAMES[t] for t in h] for h in new]})
                if candidate is not None:
                    out.append(candidate)
    return out


def _fewer_tiles(fx: Fixture) -> list[Fixture]:
    """A tile taken out of a hand that holds two or more."""
    out = []
    for seat, tiles in enumerate(fx.input["hands"]):
        if len(tiles) < 2:
            continue
        for i in range(len(tiles)):
            hands = [list(h) for h in fx.input["hands"]]
            del hands[seat][i]
            out.append(with_input(fx, {**fx.input, "hands": hands}))
    return out


def _held(fx: Fixture) -> list[tuple[int, int, int]]:
    """Every tile in hand: ``(seat, index, tile)``."""
    return [(seat, i, parse_tile(t)) for seat, h in enumerate(fx.input["hands"]) for i, t in enumerate(h)]


def _even_pairs(fx: Fixture) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Pairs of tiles of the same pips in two hands (what a tie is made of)."""
    held = _held(fx)
    return [(a, b) for n, a in enumerate(held) for b in held[n + 1 :] if a[0] != b[0] and PIPS[a[2]] == PIPS[b[2]]]


def _fewer_tile_pairs(fx: Fixture) -> list[Fixture]:
    """Two tiles of the same pips taken out of two hands at once (a tie kept a tie),
    each hand keeping one."""
    out = []
    for (seat, i, _), (other, j, _) in _even_pairs(fx):
        if len(fx.input["hands"][seat]) < 2 or len(fx.input["hands"][other]) < 2:
            continue
        hands = [list(h) for h in fx.input["hands"]]
        del hands[seat][i], hands[other][j]
        out.append(with_input(fx, {**fx.input, "hands": hands}))
    return out


def _fewer_pair_pips(fx: Fixture) -> list[Fixture]:
    """Two tiles of the same pips in two hands replaced by two of fewer pips, the same
    for both, that are in no hand."""
    used = {t for _, _, t in _held(fx)}
    free: dict[int, list[int]] = {}
    for t in range(TILE_COUNT):
        if t not in used:
            free.setdefault(PIPS[t], []).append(t)
    out = []
    for (seat, i, tile), (other, j, _) in _even_pairs(fx):
        for pips in range(PIPS[tile]):
            if len(free.get(pips, [])) >= 2:
                hands = [list(h) for h in fx.input["hands"]]
                hands[seat][i], hands[other][j] = NAMES[free[pips][0]], NAMES[free[pips][1]]
                out.append(with_input(fx, {**fx.input, "hands": hands}))
    return out


def _fewer_pips(found: Shrunk, attempt: _Try) -> Shrunk:
    """Each tile in turn replaced by one of fewer pips that is in no hand: the fewest
    pips first, the first kept."""
    for seat, count in enumerate(len(h) for h in found.fixture.input["hands"]):
        for i in range(count):
            fx = found.fixture
            used = {parse_tile(t) for h in fx.input["hands"] for t in h}
            tile = parse_tile(fx.input["hands"][seat][i])
            fewer = sorted(
                (t for t in range(TILE_COUNT) if t not in used and PIPS[t] < PIPS[tile]), key=PIPS.__getitem__
            )
            candidates = []
            for other in fewer:
                hands = [list(h) for h in fx.input["hands"]]
                hands[seat][i] = NAMES[other]
                candidates.append(with_input(fx, {**fx.input, "hands": hands}))
            found = attempt(candidates) or found
    return found


def _lower_scores(fx: Fixture) -> list[Fixture]:
    """The scores moved away from the target: all to zero, else one side's to zero,
    else one side's halved."""
    scores = list(fx.input["scores"])
    moved = [[0] * len(scores)] if sum(1 for s in scores if s) > 1 else []
    moved += [[*scores[:side], 0, *scores[side + 1 :]] for side, s in enumerate(scores) if s]
    moved += [[*scores[:side], s // 2, *scores[side + 1 :]] for side, s in enumerate(scores) if s > 1]
    return [with_input(fx, {**fx.input, "scores": m}) for m in moved]


def _shrink_settlement(found: Shrunk, attempt: _Try) -> Shrunk:
    """Seats, tiles, pips, scores, in that order, each pass while it shrinks; again while
    the size goes down (a pass may open the way to an earlier one)."""
    while True:
        before = size_of(found.fixture)
        found = _while_smaller(found, attempt, _fewer_seats)
        found = _while_smaller(found, attempt, _merged_seats)
        found = _while_smaller(found, attempt, _same_pips)
        found = _while_smaller(found, attempt, _lower_ties)
        found = _while_smaller(found, attempt, _fewer_tiles)
        found = _while_smaller(found, attempt, _fewer_tile_pairs)
        found = _fewer_pips(found, attempt)
        found = _while_smaller(found, attempt, _fewer_pair_pips)
        found = _while_smaller(found, attempt, _lower_scores)
        if size_of(found.fixture) == before:
            return found


def shrink(
    found: Shrunk, run: Judge, *, seed: int, seating: Seating, ruleset: Ruleset, keep: Keep | None = None
) -> Shrunk:
    """The smallest scenario of ``found``'s kind on which the implementation still
    disagrees (``found`` itself when none is smaller): of the candidates, those that
    ``keep`` accepts (default: any that disagrees).  ``seed``, ``seating`` and
    ``ruleset`` are those it was generated from (a perft position is regenerated).
    A finding that is a timeout is not shrunk: the implementation has shown that it does
    not answer, and every candidate would wait out the time limit for nothing."""
    if found.outcome.status == Status.TIMEOUT:
        return found
    attempt = _trier(run, keep or (lambda fx, outcome: disagrees(outcome)))
    kind = found.fixture.kind
    if kind == "play":
        return _shrink_play(found, attempt)
    if kind == "illegal":
        return _shrink_illegal(found, attempt)
    if kind == "layout":
        return _shrink_layout(found, attempt)
    if kind == "perft":
        return _shrink_perft(found, attempt, PerftCase.of_seed(seed, seating, ruleset))
    return _shrink_settlement(found, attempt)


# ---------------------------------------------------------------------- sizes
def size_of(fx: Fixture) -> dict[str, int]:
    """What shrinking makes smaller, per fixture kind, in the order it shrinks them."""
    inp = fx.input
    if fx.kind == "play":
        return {"hands": len(inp["hands"]), "placements": sum(len(h["placements"]) for h in inp["hands"])}
    if fx.kind == "illegal":
        return {"actions": len(inp["actions"]) - 1}
    if fx.kind == "layout":
        return {"steps": len(inp["steps"]), "setup": len(inp.get("setup", []))}
    if fx.kind == "perft":
        return {"depth": inp["depth"], "placements": len(inp.get("layout", []))}
    return {
        "seats": inp["seats"],
        "tiles": sum(len(h) for h in inp["hands"]),
        "pips": sum(PIPS[parse_tile(t)] for h in inp["hands"] for t in h),
        "score": max(inp["scores"], default=0),
    }


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
    text = f"{_plural(size['tiles'], 'tile')} in hand"
    if "pips" in size:  # sizes written before the pips and seats were shrunk have tiles only
        text += f" ({_plural(size['pips'], 'pip')}), {_plural(size['seats'], 'seat')}, highest score {size['score']}"
    return text
