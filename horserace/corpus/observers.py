"""Run a fixture's input through the reference engine and return its observations, in
the canonical encoding of spec/fixture-format.md.

This is the reference implementation's side of every fixture kind: the same function
serves replay (compared with ``expected``), the loader's semantic checks (a fixture whose
own input breaks a rule is refused) and the protocol server.  Only the fixture's
``input`` and ``variants`` are read here, never its ``expected``.

A :class:`~horserace.errors.ScenarioError` says where the offending value is twice: in
its message for people (``input.hands[0].boneyard[3]``) and as a structured path
(:attr:`~horserace.errors.ScenarioError.path`, keys and indices inside the fixture), which
the loader turns into ``line:column``.  A path is a small tuple, its text made only
when a check fails (the f-strings it replaces cost more per placement).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, cast

from horserace.corpus.compare import PathStep, format_path
from horserace.corpus.encoding import event_record, layout_snapshot
from horserace.corpus.fixture import Fixture
from horserace.engine.hand import DEAL_SIZE, Hand, Move
from horserace.engine.layout import PORT_NAMES, Layout, parse_port
from horserace.engine.perft import Decision, Progress, divide
from horserace.engine.ruleset import BranchUse, Ruleset
from horserace.engine.tiles import MAX_PIPS, NAMES, TILE_COUNT, mask_of, parse_tile, tile
from horserace.engine.types import Port, Tile
from horserace.errors import IllegalAction, RuleError, ScenarioError

# Layout and settle are looked up here when a fixture is observed: horserace.quality.mutants swaps them.
__all__ = [
    "OBSERVERS",
    "Where",
    "act",
    "check_scenario",
    "decision_name",
    "move_name",
    "new_position",
    "observe",
    "observe_illegal",
    "observe_layout",
    "observe_perft",
    "observe_play",
    "observe_settlement",
    "perft_observations",
    "perft_position",
    "with_target",
]


#: A place inside a fixture: keys and list indices from the fixture's top, ``("input", "hands", 0)``.
Where = tuple[PathStep, ...]


def _refused(where: Where, message: str, rule: str | None = None, at: int | None = None) -> ScenarioError:
    """A :class:`ScenarioError` about the value at ``where``, its message led by the path."""
    return ScenarioError(f"{format_path(where)}: {message}", rule, at, path=where)


#: Every tile written without spaces, either half first: a dictionary look-up in place of
#: :func:`~horserace.engine.tiles.parse_tile`'s pattern (the server reads some 60 tiles
#: per hand); anything else is parsed, and refused, as before.
_WRITTEN: dict[str, Tile] = {f"[{a}|{b}]": tile(a, b) for a in range(MAX_PIPS + 1) for b in range(MAX_PIPS + 1)}


def _parse_tile(text: str) -> Tile:
    try:
        return _WRITTEN[text]
    except (KeyError, TypeError):  # another spelling, or not a string (a list is unhashable)
        return parse_tile(text)


def _tile(text: str, where: Where) -> Tile:
    try:
        return _parse_tile(text)
    except RuleError as exc:
        raise _refused(where, exc.message, exc.rule) from None


def _tiles(items: list[str], where: Where) -> list[Tile]:
    try:
        return [_parse_tile(t) for t in items]
    except RuleError:
        for i, t in enumerate(items):  # which one: the path is made only now
            _tile(t, (*where, i))
        raise


def _placement(entry: dict[str, Any], where: Where) -> Move:
    try:
        tile = _parse_tile(entry["tile"])
        target = _parse_tile(entry["target"]) if "target" in entry else None
    except RuleError:  # which one: the path is made only now
        _tile(entry["tile"], (*where, "tile"))
        _tile(entry["target"], (*where, "target"))
        raise
    port = parse_port(entry["port"]) if "port" in entry else None
    return tile, target, port


def move_name(tile: Tile, target: Tile | None, port: Port | None) -> str:
    """A move in text: ``"[1|4]"`` for the opening, ``"[1|1] [1|4] low"`` otherwise."""
    # The cast: a move with a target has a port (the schema requires them together).
    return NAMES[tile] if target is None else f"{NAMES[tile]} {NAMES[target]} {PORT_NAMES[cast('Port', port)]}"


def with_target(ruleset: Ruleset, target: int) -> Ruleset:
    """The fixture's own target (HR-MATCH-1) under the fixture's readings."""
    if target.__class__ is int:  # the usual case: made once per ruleset and target
        return _with_target(ruleset, target)
    return replace(ruleset, target=target)  # refused by the ruleset, as it says


@functools.lru_cache(maxsize=512)
def _with_target(ruleset: Ruleset, target: int) -> Ruleset:
    return replace(ruleset, target=target)


@functools.lru_cache(maxsize=512)
def _ruleset_of(readings: tuple[tuple[str, str], ...]) -> Ruleset:
    return Ruleset.from_readings(dict(readings))


def _ruleset(variants: Mapping[str, str] | None) -> Ruleset:
    """The ruleset of a fixture's readings, made once per combination."""
    try:
        return _ruleset_of(tuple(variants.items()) if variants else ())
    except TypeError:  # a reading that is not a string: refused by the ruleset, as it says
        return Ruleset.from_readings(variants)


# ---------------------------------------------------------------------- layout
def _apply_to_layout(layout: Layout, entry: dict[str, Any], where: Where) -> None:
    """Place one listed entry (at ``where``) on the layout."""
    tile, target, port = _placement(entry, where)
    if tile in layout:
        raise _refused((*where, "tile"), f"{NAMES[tile]} is already on the layout", "HR-SET-1")
    try:
        target, port = layout.normalise(tile, target, port)
    except IllegalAction as exc:
        raise _refused(where, f"placing {NAMES[tile]} is illegal: {exc.message}", exc.rule) from None
    layout.place(tile, target, port)


def observe_layout(inp: dict[str, Any], ruleset: Ruleset, engine: type[Hand] = Hand) -> dict[str, Any]:
    layout = engine.layout_class(branch_use_one=ruleset.branch_use is BranchUse.ONE)
    for i, entry in enumerate(inp.get("setup", [])):
        _apply_to_layout(layout, entry, ("input", "setup", i))
    steps = []
    for i, entry in enumerate(inp["steps"]):
        try:
            _apply_to_layout(layout, entry, ("input", "steps", i))
        except ScenarioError as exc:
            exc.at = i
            raise
        steps.append(layout_snapshot(layout))
    return {"steps": steps}


# ---------------------------------------------------------------------- positions
def _table(inp: dict[str, Any]) -> tuple[bool, int, list[int]]:
    partnership = inp["mode"] == "partnership"
    seats = inp["seats"]
    if partnership and seats != 4:
        raise _refused(("input", "seats"), "the partnership game has four seats", "HR-SEAT-1")
    sides = 2 if partnership else seats
    scores = list(inp["scores"])
    if len(scores) != sides:
        raise _refused(("input", "scores"), f"{sides} sides need {sides} scores, not {len(scores)}", "HR-SEAT-1")
    for i, s in enumerate(scores):
        if s >= inp["target"]:
            raise _refused(
                ("input", "scores", i), f"a side at or over the target {inp['target']} has already won", "HR-MATCH-1"
            )
    return partnership, seats, scores


def new_position(
    deal: dict[str, Any],
    where: Where,
    *,
    partnership: bool,
    seats: int,
    scores: list[int],
    ruleset: Ruleset,
    engine: type[Hand] = Hand,
    undoable: bool = False,
) -> Hand:
    """A hand at its starting position: a fresh deal, or a deal with placements already on
    the layout.  Every tile once (HR-SET-1), all 28 accounted for (HR-DEAL-2), deal sizes
    for a fresh deal (HR-DEAL-1).  ``where`` is the deal's place in the fixture
    (``("input", "hands", 0)``, or ``("input",)`` for an illegal or perft fixture)."""
    if len(deal["hands"]) != seats:
        raise _refused((*where, "hands"), f"{seats} seats need {seats} hands, not {len(deal['hands'])}", "HR-SEAT-1")
    if not 0 <= deal["opener"] < seats:
        raise _refused((*where, "opener"), f"there is no seat {deal['opener']}", "HR-SEAT-3")
    hands = [_tiles(h, (*where, "hands", s)) for s, h in enumerate(deal["hands"])]
    boneyard = _tiles(deal["boneyard"], (*where, "boneyard"))
    layout_entries = deal.get("layout", [])
    layout_tiles = [_tile(e["tile"], (*where, "layout", i, "tile")) for i, e in enumerate(layout_entries)]
    # Each tile's group (a hand's index, then the boneyard, then the layout) and index in it.
    groups = [*hands, boneyard, layout_tiles]
    seen: dict[int, tuple[int, int]] = {}
    for g, group in enumerate(groups):
        for i, t in enumerate(group):
            if t in seen:
                first, second = _tile_place(where, seats, *seen[t]), _tile_place(where, seats, g, i)
                raise ScenarioError(
                    f"{NAMES[t]} appears twice ({format_path(first[:-1])} and {format_path(second[:-1])})",
                    "HR-SET-1",
                    path=second if g <= seats else (*second, "tile"),
                )
            seen[t] = (g, i)
    if len(seen) != TILE_COUNT:
        missing = sorted(set(range(TILE_COUNT)) - set(seen))
        raise _refused(
            where,
            f"hands, boneyard and layout hold {len(seen)} tiles, not 28; missing "
            + " ".join(NAMES[t] for t in missing),
            "HR-DEAL-2",
        )
    if not layout_entries:
        size = DEAL_SIZE[seats]
        for s, h in enumerate(hands):
            if len(h) != size:
                raise _refused(
                    (*where, "hands", s),
                    f"a fresh deal gives {size} tiles to each of {seats} players, not {len(h)}",
                    "HR-DEAL-1",
                )
        if len(boneyard) != TILE_COUNT - size * seats:
            raise _refused((*where, "boneyard"), f"{TILE_COUNT - size * seats} tiles, not {len(boneyard)}", "HR-DEAL-2")
    hand = engine(
        hands,
        boneyard,
        deal["opener"],
        partnership=partnership,
        scores=scores,
        ruleset=ruleset,
        validate=False,
        fresh_deal=False,
        undoable=undoable,
    )
    for i, entry in enumerate(layout_entries):
        _apply_to_layout(hand.layout, entry, (*where, "layout", i))
    for s, h in enumerate(hands):
        if not h:  # a fresh deal gives every seat tiles; only a position can hold none
            raise _refused(
                (*where, "hands", s),
                f"seat {s} holds no tile: its hand ended with its last tile, and a position "
                "is given before the end of its hand",
                "HR-END-1",
            )
    hand.check_position()
    return hand


def _tile_place(where: Where, seats: int, group: int, index: int) -> Where:
    """The path of a tile of :func:`new_position`'s groups: a hand, the boneyard, the layout."""
    if group < seats:
        return (*where, "hands", group, index)
    if group == seats:
        return (*where, "boneyard", index)
    return (*where, "layout", index)


# ---------------------------------------------------------------------- play
def observe_play(inp: dict[str, Any], ruleset: Ruleset, engine: type[Hand] = Hand) -> dict[str, Any]:
    partnership, seats, scores = _table(inp)
    ruleset = with_target(ruleset, inp["target"])
    out: list[dict[str, Any]] = []
    hand: Hand | None = None
    offset = 0  # placements of earlier hands, for the index of a refused one
    for n, hand_input in enumerate(inp["hands"]):
        where: Where = ("input", "hands", n)
        if hand is not None:
            if hand.match_over:
                raise _refused(where, "the match ended in the previous hand", "HR-MATCH-3")
            if hand.next_opener is not None and hand_input["opener"] != hand.next_opener:
                raise _refused(
                    (*where, "opener"),
                    f"seat {hand.next_opener} placed the last tile and opens, not seat {hand_input['opener']}",
                    "HR-OPEN-3",
                )
        hand = new_position(
            hand_input, where, partnership=partnership, seats=seats, scores=scores, ruleset=ruleset, engine=engine
        )
        try:
            _play_listed(hand, hand_input["placements"], (*where, "placements"))
        except ScenarioError as exc:
            if exc.at is not None:
                exc.at += offset
            raise
        offset += len(hand_input["placements"])
        out.append({"events": [event_record(e) for e in hand.events]})
        scores = list(hand.scores)
    return {"hands": out, "scores": scores, "match_winners": list(hand.match_winners) if hand else []}


def _play_listed(hand: Hand, entries: list[dict[str, Any]], where: Where) -> None:
    """Play the listed placements in order, making forced draws and passes between them;
    stop when the hand ends or the list runs out."""
    i = 0
    while not hand.over:
        seat = hand.to_act
        if i < len(entries) and "end_turn" in entries[i]:
            if not hand.may_end_turn():
                raise _refused((*where, i), f"seat {seat} may not end the turn here", "HR-DRAW-1", i)
            hand.end_turn(seat)
            i += 1
            continue
        if hand.pending_drawn is None and not hand.can_place(seat):
            hand.play_forced()  # draws and passes follow from the boneyard
            continue
        if i >= len(entries):
            return  # the fixture stops here, before the hand ends
        tile, target, port = _placement(entries[i], (*where, i))
        try:
            hand.place(seat, tile, target, port)
        except IllegalAction as exc:
            raise _refused(
                (*where, i),
                f"seat {seat} placing {move_name(tile, target, port)} is illegal: {exc.message}",
                exc.rule,
                i,
            ) from None
        i += 1
    if i < len(entries):
        raise _refused((*where, i), f"the hand is over; {len(entries) - i} placement(s) left over", "HR-END-3", i)


# ---------------------------------------------------------------------- settlement
def observe_settlement(inp: dict[str, Any], ruleset: Ruleset, engine: type[Hand] = Hand) -> dict[str, Any]:
    partnership, seats, scores = _table(inp)
    if len(inp["hands"]) != seats:
        raise _refused(("input", "hands"), f"{seats} seats need {seats} hands", "HR-SEAT-1")
    hands = [_tiles(h, ("input", "hands", s)) for s, h in enumerate(inp["hands"])]
    seen: dict[int, int] = {}
    for s, h in enumerate(hands):
        for i, t in enumerate(h):
            if t in seen:
                raise ScenarioError(
                    f"{NAMES[t]} appears twice (input.hands[{seen[t]}] and input.hands[{s}])",
                    "HR-SET-1",
                    path=("input", "hands", s, i),
                )
            seen[t] = s
    ended_by = inp["ended_by"]
    domino = None if ended_by == "blocked" else ended_by
    if domino is not None:
        if domino >= seats:
            raise _refused(("input", "ended_by"), f"there is no seat {domino}", "HR-SEAT-3")
        if hands[domino]:
            raise _refused(("input", "ended_by"), f"seat {domino} ended the hand but still holds tiles", "HR-END-1")
    result = engine.settle(
        [engine.pip_count(mask_of(h)) for h in hands],  # the engine's pips (HR-SET-2, a seam)
        partnership=partnership,
        domino_seat=domino,
        scores=scores,
        target=engine.target_type(inp["target"]),
    )
    return {
        "winners": list(result.winners),
        "credits": list(result.credits),
        "scores": list(result.scores),
        "match_winners": list(result.match_winners),
    }


# ---------------------------------------------------------------------- illegal
def observe_illegal(inp: dict[str, Any], ruleset: Ruleset, engine: type[Hand] = Hand) -> dict[str, Any]:
    partnership, seats, scores = _table(inp)
    ruleset = with_target(ruleset, inp["target"])
    hand = new_position(
        inp, ("input",), partnership=partnership, seats=seats, scores=scores, ruleset=ruleset, engine=engine
    )
    for i, action in enumerate(inp["actions"]):
        try:
            act(hand, action, ("input", "actions", i))
        except IllegalAction as exc:
            return {"rejected_at": i, "rule": exc.rule}
    return {"rejected_at": None, "rule": None}


def act(hand: Hand, action: Mapping[str, Any], where: Where = ("input", "actions")) -> None:
    """One action of an ``illegal`` input (``{seat, action, ...}``) made on ``hand``: a
    placement, a draw, a pass or an end of turn, checked as the hand checks it (an
    :class:`~horserace.errors.IllegalAction` where it is refused); a malformed one is a
    :class:`ScenarioError` at ``where``."""
    seat, kind = action["seat"], action["action"]
    if kind == "place":
        if "tile" not in action:
            raise _refused(where, "a place action names its tile")
        hand.place(seat, *_placement(dict(action), where))
    elif kind == "draw":
        hand.draw(seat)
    elif kind == "pass":
        hand.pass_turn(seat)
    else:
        hand.end_turn(seat)


# ---------------------------------------------------------------------- perft
def decision_name(move: Decision) -> str:
    """A perft move in text: :func:`move_name` of a placement, ``"end-turn"``, or (a house
    rule's choice to draw, :meth:`~horserace.engine.hand.Hand.may_draw`) ``"draw"``."""
    if isinstance(move, str):  # END_TURN or DRAW
        return move
    return move_name(*move)


def perft_position(inp: dict[str, Any], ruleset: Ruleset, engine: type[Hand] = Hand) -> Hand:
    """The starting position of a perft fixture's input, as an undoable hand (events off)
    under the fixture's readings and its own target."""
    partnership, seats, scores = _table(inp)
    hand = new_position(
        inp,
        ("input",),
        partnership=partnership,
        seats=seats,
        scores=scores,
        ruleset=with_target(ruleset, inp["target"]),
        engine=engine,
        undoable=True,
    )
    hand.record = False
    return hand


def perft_observations(hand: Hand, depth: int, progress: Progress | None = None) -> dict[str, Any]:
    """``nodes`` and ``divide`` of perft from ``hand`` (an undoable hand, given back as it
    was), as a perft fixture's ``expected`` holds them."""
    names = {decision_name(move): n for move, n in divide(hand, depth, progress)}
    return {"nodes": sum(names.values()) if names else 1, "divide": dict(sorted(names.items()))}


def observe_perft(inp: dict[str, Any], ruleset: Ruleset, engine: type[Hand] = Hand) -> dict[str, Any]:
    return perft_observations(perft_position(inp, ruleset, engine), inp["depth"])


#: The observer of each fixture kind: ``(input, ruleset, engine) -> observations``.
OBSERVERS: dict[str, Callable[[dict[str, Any], Ruleset, type[Hand]], dict[str, Any]]] = {
    "layout": observe_layout,
    "play": observe_play,
    "settlement": observe_settlement,
    "illegal": observe_illegal,
    "perft": observe_perft,
}


def observe(
    kind: str, inp: dict[str, Any], variants: Mapping[str, str] | None = None, *, engine: type[Hand] = Hand
) -> dict[str, Any]:
    """An engine's observations for a fixture input: the reference engine's, or those of
    ``engine``, a :class:`Hand` subclass (a variant or a mutant, through the seams that
    :class:`Hand` documents)."""
    return OBSERVERS[kind](inp, _ruleset(variants), engine)


def check_scenario(fixture: Fixture) -> None:
    """The semantic checks of a fixture's input (raises :class:`ScenarioError`)."""
    if fixture.kind == "illegal":
        # The position must be valid (observing checks it); where the rejection falls is
        # replay's job, which compares it with expected.rejected_at.
        observe("illegal", fixture.input, fixture.variants)
        last = len(fixture.input["actions"]) - 1
        if fixture.expected.get("rejected_at") != last:
            raise ScenarioError(
                f"expected.rejected_at must be the last action ({last}): an illegal fixture ends with the action it rejects",
                path=("expected", "rejected_at"),
            )
        return
    if fixture.kind == "perft":  # the position must be valid; counting is replay's job
        perft_position(fixture.input, Ruleset.from_readings(fixture.variants))
        return
    observe(fixture.kind, fixture.input, fixture.variants)
