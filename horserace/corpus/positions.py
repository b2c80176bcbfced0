"""Positions to count from, by name, as ``horserace perft`` takes them (chess perft tools
take a FEN or a named position): a perft fixture (``FILE#ID``, or the ID of a fixture of
the bundled corpus), a perft table (``table:NAME``, its deepest fixture), or a seeded deal (``seed:N[:players=P][:partnership]``, the deal of
``horserace play --seed N --players P``, its opener drawn by lot).

Every position is a perft fixture's ``input`` (spec/fixture-format.md: the table and the
deal, with placements already on the layout where there are), so the position of a seed
can be written as a fixture and the count of a fixture's position is the count the
fixture's ``expected`` holds.
"""

from __future__ import annotations

import difflib
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from horserace.corpus.fixture import Fixture
from horserace.corpus.observers import decision_name, perft_observations, perft_position
from horserace.engine.hand import Hand
from horserace.engine.layout import PORT_NAMES
from horserace.engine.match import Match
from horserace.engine.perft import DRAW, Decision, Progress, decisions, make_decision
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.engine.tiles import NAMES
from horserace.errors import UsageError

__all__ = [
    "Count",
    "Descent",
    "FixtureName",
    "Position",
    "SeedName",
    "TableName",
    "count",
    "descend",
    "from_fixture",
    "from_seed",
    "parse_position",
    "seeded_input",
]


@dataclass(frozen=True)
class FixtureName:
    """A perft fixture by its ID, in ``file`` or (``None``) in the bundled corpus."""

    id: str
    file: str | None = None


@dataclass(frozen=True)
class TableName:
    """A perft table by name (``table:seed-1-players-3``): the position of its fixtures,
    at its deepest depth."""

    name: str


@dataclass(frozen=True)
class SeedName:
    """The deal of a seed: ``players`` seats, in partnerships or not."""

    seed: int
    players: int = 2
    partnership: bool = False


@dataclass(frozen=True)
class Position:
    """A position to count from: what it is called, a perft fixture's ``input`` without
    ``depth``, the readings it holds under, and the fixture's own depth (``None`` for a
    seed)."""

    label: str
    input: dict[str, Any]
    variants: dict[str, str] = field(default_factory=dict)
    depth: int | None = None

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset.from_readings(self.variants)


_SEED = re.compile(r"seed:(?P<seed>\d+)(?P<options>(?::[a-z]+(?:=\d+)?)*)")
_OPTION = re.compile(r":(?P<name>[a-z]+)(?:=(?P<value>\d+))?")


def parse_position(text: str) -> FixtureName | SeedName | TableName:
    """What a POSITION of the command line names (a :class:`UsageError` if nothing)."""
    if text.startswith("table:"):
        return TableName(text.removeprefix("table:"))
    seed = _SEED.fullmatch(text)
    if seed:
        players, partnership = 2, False
        for option in _OPTION.finditer(seed["options"]):
            name, value = option["name"], option["value"]
            if name == "players" and value in ("2", "3", "4"):
                players = int(value)
            elif name == "partnership" and value is None:
                partnership = True
            else:
                raise UsageError(
                    f"{text}: {option[0][1:]!r} is not an option of a seeded deal (players=2, players=3, players=4, partnership)"
                )
        if partnership and players != 4:
            raise UsageError(f"{text}: the partnership game has four players (seed:N:players=4:partnership)")
        return SeedName(int(seed["seed"]), players, partnership)
    file, sep, fixture_id = text.rpartition("#")
    if sep and not file:
        raise UsageError(f"{text}: give the fixture file before '#' (FILE#ID)")
    if not re.fullmatch(r"[0-9A-Z]{6}", fixture_id):
        raise UsageError(
            f"{text}: not a position; give a perft fixture (FILE#ID, or the ID of a fixture of the bundled corpus), "
            "a seeded deal (seed:N[:players=P][:partnership]) or a perft table (table:NAME)"
        )
    return FixtureName(fixture_id, file or None)


def from_fixture(fixture: Fixture) -> Position:
    """The position of a perft fixture, under its readings (a :class:`UsageError` for a
    fixture of another kind)."""
    if fixture.kind != "perft":
        raise UsageError(f"fixture {fixture.id} ({fixture.file}) is a {fixture.kind} fixture, not a perft fixture")
    inp = {k: v for k, v in fixture.input.items() if k != "depth"}
    return Position(f"{fixture.id} ({fixture.file})", inp, dict(fixture.variants), fixture.input["depth"])


def seeded_input(name: SeedName, ruleset: Ruleset = CANONICAL) -> dict[str, Any]:
    """The deal of ``horserace play --seed N --players P [--partnership]`` as a perft
    fixture's input (without ``depth``): the table at 0 points, the target of ``ruleset``."""
    match = Match(name.players, partnership=name.partnership, ruleset=ruleset, seed=name.seed)
    hand = match.deal()
    return {
        "mode": "partnership" if name.partnership else "individual",
        "seats": name.players,
        "scores": list(hand.scores),
        "target": ruleset.target,
        "hands": [[NAMES[t] for t in hand.hand_tiles(s)] for s in range(name.players)],
        "boneyard": [NAMES[t] for t in hand.boneyard],
        "opener": hand.to_act,
    }


def from_seed(name: SeedName, ruleset: Ruleset = CANONICAL) -> Position:
    label = f"seed:{name.seed}:players={name.players}" + (":partnership" if name.partnership else "")
    return Position(label, seeded_input(name, ruleset), ruleset.variants)


@dataclass(frozen=True)
class Count:
    """A perft count of a position: the nodes (leaves) at ``depth``, each first move's
    share, and how long it took."""

    position: Position
    depth: int
    ruleset: Ruleset
    nodes: int
    divide: dict[str, int]
    seconds: float
    #: The moves descended from the position before counting (``--moves``).
    moves: tuple[str, ...] = ()

    @property
    def nodes_per_second(self) -> float | None:
        return self.nodes / self.seconds if self.seconds > 0 else None

    def to_dict(self, *, with_divide: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "position": self.position.label,
            "moves": list(self.moves),
            "depth": self.depth,
            "variants": self.ruleset.variants,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "nodes_per_second": round(self.nodes_per_second) if self.nodes_per_second else None,
        }
        if with_divide:
            out["divide"] = self.divide
        return out


def count(
    position: Position,
    depth: int,
    ruleset: Ruleset | None = None,
    *,
    engine: type[Hand] = Hand,
    progress: Progress | None = None,
    moves: Sequence[str] = (),
) -> Count:
    """``perft(position, depth)`` and its divide, under ``ruleset`` (default: the
    position's readings) with ``engine`` (the reference engine, a variant or a mutant);
    with ``moves``, at the position those moves lead to (:func:`descend`)."""
    ruleset = position.ruleset if ruleset is None else ruleset
    hand = descend(position, moves, ruleset, engine).hand if moves else perft_position(position.input, ruleset, engine)
    start = time.perf_counter()
    observed = perft_observations(hand, depth, progress)
    seconds = time.perf_counter() - start
    return Count(position, depth, ruleset, observed["nodes"], observed["divide"], seconds, tuple(moves))


@dataclass(frozen=True)
class Descent:
    """Where a list of moves leads from a position: the hand after the last one (before
    the forced draws and passes that follow it), and that position written as a perft
    fixture's input, the way the protocol sends a position (``written``), or ``None``
    with the reason (``unwritten``) where it cannot be: in the middle of a turn that a
    position given with a layout does not start (:meth:`Hand.starts_a_turn`), or at the
    end of the hand."""

    moves: tuple[str, ...]
    hand: Hand
    written: Position | None
    unwritten: str = ""


def descend(
    position: Position, moves: Sequence[str], ruleset: Ruleset | None = None, engine: type[Hand] = Hand
) -> Descent:
    """Make ``moves`` (perft's move names, those of a divide: ``"[1|4]"``,
    ``"[1|1] [1|4] low"``, ``"end-turn"``) one after the other from the position, the
    forced draws and passes between them made as perft makes them.  A move that is not
    legal where it comes is a :class:`UsageError` naming it, its place in the list and
    the legal moves there, the closest to it first."""
    ruleset = position.ruleset if ruleset is None else ruleset
    hand = perft_position(position.input, ruleset, engine)
    layout = [dict(entry) for entry in position.input.get("layout", [])]
    done: list[str] = []
    for i, given in enumerate(moves, 1):
        hand.play_forced()
        legal: dict[str, Decision] = {decision_name(m): m for m in ([] if hand.over else decisions(hand))}
        name = _canonical_move(given)
        if name not in legal:
            raise UsageError(_not_legal(given, i, len(moves), done, hand, list(legal)))
        move = legal[name]
        make_decision(hand, move)
        if not isinstance(move, str):
            tile_, target, port = move
            entry: dict[str, Any] = {"tile": NAMES[tile_]}
            if target is not None and port is not None:
                entry |= {"target": NAMES[target], "port": PORT_NAMES[port]}
            layout.append(entry)
        done.append(name)
    after = f"{position.label} after {', '.join(done)}" if done else position.label
    if hand.over:
        return Descent(tuple(done), hand, None, f"the hand is over after {done[-1]}: one leaf, no move to count")
    if not hand.starts_a_turn():
        seat = hand.to_act
        if hand.may_end_turn():
            state = "in a continuation it may give up, HRI-2"
        elif done[-1] == DRAW:
            state = "it drew by choice and plays on"
        else:
            state = "holding a tile drawn in this hand, which HRI-4 whole-hand remembers"
        why = (
            f"after {done[-1]} seat {seat} is in the middle of its turn ({state}); a position sent through "
            "the protocol starts a fresh turn (spec/fixture-format.md, 'A position given with a layout'): "
            "descend one move more, or compare one move less deep"
        )
        return Descent(tuple(done), hand, None, why)
    inp = {key: position.input[key] for key in ("mode", "seats", "target")}
    inp |= {
        "scores": list(hand.scores),
        "hands": [[NAMES[t] for t in hand.hand_tiles(s)] for s in range(hand.seats)],
        "boneyard": [NAMES[t] for t in hand.undrawn()],
        "opener": hand.to_act,
    }
    if layout:
        inp["layout"] = layout
    return Descent(tuple(done), hand, Position(after, inp, dict(position.variants)))


def _canonical_move(text: str) -> str:
    """A move name as a divide writes it: single spaces, each tile low half first."""
    words = text.split()
    for i, word in enumerate(words):
        found = re.fullmatch(r"\[(\d)\|(\d)\]", word)
        if found and found[1] > found[2]:
            words[i] = f"[{found[2]}|{found[1]}]"
    return " ".join(words)


def _not_legal(given: str, index: int, of: int, done: list[str], hand: Hand, legal: list[str]) -> str:
    where = f"after {', '.join(done)}" if done else "at the position"
    head = f"horserace perft --moves: move {index} of {of}, {given!r}, is not a legal move {where}"
    if not legal:
        return f"{head}: the hand is over there ({hand.reason}), no move is left"
    name = _canonical_move(given)
    tile_ = name.split(" ", 1)[0]
    # The moves of the same tile first (a target or port mistyped), then by likeness.
    ordered = sorted(
        legal, key=lambda m: (m.split(" ", 1)[0] != tile_, -difflib.SequenceMatcher(None, name, m).ratio())
    )
    return f"{head} (seat {hand.to_act} to act); its {len(legal)} legal move(s), the closest first: " + ", ".join(
        repr(m) for m in ordered
    )
