"""Positions to count from, by name, as ``horserace perft`` takes them (chess perft tools
take a FEN or a named position): a perft fixture (``FILE#ID``, or the ID of a fixture of
the bundled corpus), or a seeded deal (``seed:N[:players=P][:partnership]``, the deal of
``horserace play --seed N --players P``, its opener drawn by lot).

Every position is a perft fixture's ``input`` (spec/fixture-format.md: the table and the
deal, with placements already on the layout where there are), so the position of a seed
can be written as a fixture and the count of a fixture's position is the count the
fixture's ``expected`` holds.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from horserace.corpus.fixture import Fixture
from horserace.corpus.observers import perft_observations, perft_position
from horserace.engine.hand import Hand
from horserace.engine.match import Match
from horserace.engine.perft import Progress
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.engine.tiles import NAMES
from horserace.errors import UsageError

__all__ = [
    "Count",
    "FixtureName",
    "Position",
    "SeedName",
    "count",
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


def parse_position(text: str) -> FixtureName | SeedName:
    """What a POSITION of the command line names (a :class:`UsageError` if nothing)."""
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
            f"{text}: not a position; give a perft fixture (FILE#ID, or the ID of a fixture of the bundled corpus) "
            "or a seeded deal (seed:N[:players=P][:partnership])"
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

    @property
    def nodes_per_second(self) -> float | None:
        return self.nodes / self.seconds if self.seconds > 0 else None

    def to_dict(self, *, with_divide: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "position": self.position.label,
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
) -> Count:
    """``perft(position, depth)`` and its divide, under ``ruleset`` (default: the
    position's readings) with ``engine`` (the reference engine, a variant or a mutant)."""
    ruleset = position.ruleset if ruleset is None else ruleset
    hand = perft_position(position.input, ruleset, engine)
    start = time.perf_counter()
    observed = perft_observations(hand, depth, progress)
    seconds = time.perf_counter() - start
    return Count(position, depth, ruleset, observed["nodes"], observed["divide"], seconds)
