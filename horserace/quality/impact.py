"""``horserace impact``: what a change of the rules does to the game, measured.

Both rulesets play the same matches: hand ``h`` of match ``i`` of a seating is dealt
from a stream seeded by the study's seed, the seating, ``i`` and ``h`` (the deal always
takes the same 27 numbers of it), and every placement is chosen by the stream's next
number mapped onto the legal placements in sorted order; the lots for the opener, and
the give-ups of ``continuation=optional``, have streams of their own (**common random
numbers**).  Where the two rulesets offer the
same legal placements the two games make the same choice; where they part, the next hand
is dealt alike again.  So the difference of a match's figures under A and under B is the
rule change's, not chance's, and the two are compared pairwise (``streams="common"``).
With ``streams="independent"`` the two sides draw from streams of their own (a check of
the statistics: the same ruleset twice must then differ only by chance).

Each match gives one value per metric (:data:`METRICS`) under each ruleset; a study keeps,
per seating and metric, the exact sums of the values, of their squares and of the paired
differences and their squares (:class:`Exact`: every float added without rounding), and
the distributions of continuation chains and of hands per match.  So shards merge into
exactly the figures one run would give, in any order (:meth:`Tally.merge`), whether they
ran in one process, in ``--jobs`` processes or on a cluster.  The statistics are
:mod:`horserace.quality.impact_stats`'s.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from horserace.engine.events import Draw, EndTurn, HandEnd, HandEndReason, Pass, Place
from horserace.engine.hand import Hand, Move
from horserace.engine.match import Match
from horserace.engine.ruleset import Continuation, Ruleset
from horserace.engine.seating import SEATINGS, Seating
from horserace.errors import UsageError
from horserace.quality.processes import in_processes
from horserace.resources.rulesets import NamedRuleset

__all__ = [
    "CHAIN_CAP",
    "MAX_HANDS",
    "METRICS",
    "SHARD_MATCHES",
    "STREAMS",
    "Exact",
    "ImpactStudy",
    "Metric",
    "Shard",
    "Tally",
    "assemble",
    "match_values",
    "merge",
    "run_local",
    "shard_tasks",
    "study",
]

#: Matches per shard: the unit of ``--jobs`` and of a cluster's tasks (results do not
#: depend on it: the sums are exact).
SHARD_MATCHES = 50
#: A match that has not ended after this many hands is cut there (none does at target 61).
MAX_HANDS = 500
#: Chains of this many placements or more share the last bar of the distribution.
CHAIN_CAP = 8
#: Where the two sides' random choices come from.
STREAMS = ("common", "independent")


@dataclass(frozen=True)
class Metric:
    """A figure each match gives: its key, its name in a report, what it measures."""

    key: str
    name: str
    about: str


#: The metrics of a study, in the order of the reports.
METRICS: tuple[Metric, ...] = (
    Metric("points_per_hand", "points per hand", "credit of placements and settlements, all sides, per hand"),
    Metric("hands_per_match", "hands per match", "hands dealt until a side reaches the target"),
    Metric("placements_per_hand", "placements per hand", "tiles placed per hand"),
    Metric("blocked_share", "blocked hands", "share of hands that end blocked (HR-BLOCK-1)"),
    Metric("draws_per_hand", "draws per hand", "tiles drawn from the boneyard per hand (HR-DRAW-2)"),
    Metric("passes_per_hand", "passes per hand", "passes per hand (HR-PASS-1)"),
    Metric(
        "options_per_choice",
        "legal placements per choice",
        "distinct legal placements offered when one is chosen (attachment points in use)",
    ),
    Metric("chain_length", "continuation chain length", "placements per turn that places (HR-TURN-1)"),
    Metric("credit_per_placement", "credit per placement", "points scored per placement (HR-CREDIT-1)"),
    Metric("hand_end_credit", "hand-end credit per hand", "settlement credit per hand (HR-SETTLE-1)"),
    Metric("opener_win", "opener's win rate", "share of the win of the side of the first hand's opener"),
    Metric("first_seat_win", "first seat's win rate", "share of the win of seat 0's side"),
    Metric("match_length", "match length", "placements in the match"),
)
_KEYS = tuple(m.key for m in METRICS)


class Exact:
    """A sum of floats kept without rounding: non-overlapping partials (Shewchuk's
    algorithm, as :func:`math.fsum` sums), so that sums merged in any order are equal."""

    __slots__ = ("partials",)

    def __init__(self, partials: Iterable[float] = ()) -> None:
        self.partials: list[float] = []
        for x in partials:
            self.add(x)

    def add(self, x: float) -> None:
        partials = self.partials
        i = 0
        for y in partials:
            if abs(x) < abs(y):
                x, y = y, x  # noqa: PLW2901  (Shewchuk's exact sum, as the algorithm is written)
            hi = x + y
            lo = y - (hi - x)
            if lo:
                partials[i] = lo
                i += 1
            x = hi
        partials[i:] = [x]

    def merge(self, other: Exact) -> None:
        for x in other.partials:
            self.add(x)

    @property
    def value(self) -> float:
        """The exact sum, rounded once."""
        return math.fsum(self.partials)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Exact, (list(self.partials),))


#: The sums kept per metric: of A's values, B's, their squares, B - A and its square.
_SUMS = ("a", "b", "aa", "bb", "d", "dd")


@dataclass
class Tally:
    """One seating's sufficient statistics: matches, the exact sums per metric, and the
    distributions of chain lengths and hands per match under A and B."""

    matches: int = 0
    sums: dict[str, dict[str, Exact]] = field(default_factory=lambda: {k: {s: Exact() for s in _SUMS} for k in _KEYS})
    chains: tuple[Counter[int], Counter[int]] = field(default_factory=lambda: (Counter(), Counter()))
    hands: tuple[Counter[int], Counter[int]] = field(default_factory=lambda: (Counter(), Counter()))

    def add(self, a: dict[str, float], b: dict[str, float], chains: tuple[Counter[int], Counter[int]]) -> None:
        """One match: its values under A and under B."""
        self.matches += 1
        for key in _KEYS:
            x, y = a[key], b[key]
            s = self.sums[key]
            s["a"].add(x)
            s["b"].add(y)
            s["aa"].add(x * x)
            s["bb"].add(y * y)
            d = y - x
            s["d"].add(d)
            s["dd"].add(d * d)
        for side in (0, 1):
            self.chains[side].update(chains[side])
        self.hands[0][int(a["hands_per_match"])] += 1
        self.hands[1][int(b["hands_per_match"])] += 1

    def merge(self, other: Tally) -> None:
        self.matches += other.matches
        for key in _KEYS:
            for s in _SUMS:
                self.sums[key][s].merge(other.sums[key][s])
        for side in (0, 1):
            self.chains[side].update(other.chains[side])
            self.hands[side].update(other.hands[side])

    def totals(self, key: str) -> dict[str, float]:
        """The sums of ``key``, each rounded once."""
        return {s: e.value for s, e in self.sums[key].items()}

    def same_as(self, other: Tally) -> bool:
        """The same figures (every sum equal to the last bit, the same distributions)."""
        return (
            self.matches == other.matches
            and all(self.totals(k) == other.totals(k) for k in _KEYS)
            and self.chains == other.chains
            and self.hands == other.hands
        )


def _chooser(uniform: Callable[[], float], offered: list[int]) -> Callable[[list[Move]], Move]:
    """A choice as a uniform number mapped onto the legal placements in sorted order, so
    that the same number picks the same placement from the same legal set; ``offered``
    counts the choices and the placements offered."""

    def choose(moves: list[Move]) -> Move:
        n = len(moves)
        offered[0] += 1
        offered[1] += n
        if n == 1:  # the number is drawn all the same: the stream stays in step
            uniform()
            return moves[0]
        # Tuples in their natural order: the tiles of an opening (no target, no port) are
        # distinct, and every other placement has a target and a port, so no None is
        # compared with a number; a third of the cost of sorting by a key.
        return sorted(moves)[math.floor(uniform() * n)]

    return choose


def _giving_up(uniform: Callable[[], float]) -> Callable[[], bool]:
    """Under ``continuation=optional``: a continuation given up with probability one half,
    from a stream of its own (the choices' stream stays in step)."""
    return lambda: uniform() < 0.5


@dataclass
class _Counts:
    """What the events of a match's hands add up to."""

    placements: int = 0
    draws: int = 0
    passes: int = 0
    blocked: int = 0
    placed_credit: int = 0
    settled_credit: int = 0
    chains: Counter[int] = field(default_factory=Counter)  #: turns by their placements, capped

    def add(self, events: Sequence[object]) -> None:
        """One hand's events: a chain is a turn's run of placements, ended by a placement
        that does not continue, a pass, an end of turn or the end of the hand."""
        chain = 0
        for event in events:
            kind = type(event)
            if kind is Place:
                self.placements += 1
                self.placed_credit += event.credit  # type: ignore[attr-defined]  # kind is Place: `type() is` does not narrow
                chain += 1
                if not event.continues:  # type: ignore[attr-defined]  # as above
                    chain = self._chain_ends(chain)
            elif kind is Draw:
                self.draws += 1
            elif kind is Pass or kind is EndTurn:
                self.passes += kind is Pass
                chain = self._chain_ends(chain)
            elif kind is HandEnd:  # the hand may end on a placement that would have continued
                chain = self._chain_ends(chain)
                self.blocked += event.reason is HandEndReason.BLOCKED  # type: ignore[attr-defined]  # kind is HandEnd, as above
                self.settled_credit += sum(event.credits)  # type: ignore[attr-defined]  # as above

    def _chain_ends(self, chain: int) -> int:
        if chain:
            self.chains[min(chain, CHAIN_CAP)] += 1
        return 0


def _play_hand(match: Match, key: str, offered: list[int], optional: bool) -> Hand:
    """The next hand of ``match``, dealt and played from the streams of ``key``."""
    h = match.hands_played
    # The hand's stream: its deal (always 27 numbers, so the choices start alike under
    # both rulesets), then one number per choice.
    stream = random.Random(f"{key}/{h}")
    match.rng = stream
    hand = match.deal()
    hand.run(
        _chooser(stream.random, offered),
        _giving_up(random.Random(f"{key}/{h}/give-up").random) if optional else None,
    )
    if hand.next_opener is None and not hand.match_over:
        # A new lot (after a block): from a stream of its own, not from wherever the
        # choices left the hand's.
        match.rng = random.Random(f"{key}/{h}/lot")
    match.finish(hand)
    return hand


def match_values(ruleset: Ruleset, seating: Seating, key: str) -> tuple[dict[str, float], Counter[int]]:
    """Play one match under ``ruleset`` from the streams named by ``key``; its value of
    every metric and its chain lengths."""
    match = Match(
        seating.players, partnership=seating.partnership, ruleset=ruleset, rng=random.Random(f"{key}/lot"), record=True
    )
    opener_side = seating.side_of(match.opener)
    optional = ruleset.continuation is Continuation.OPTIONAL
    offered = [0, 0]  # choices made, legal placements offered in them
    counts = _Counts()
    while not match.over and match.hands_played < MAX_HANDS:
        counts.add(_play_hand(match, key, offered, optional).events)
    hands = match.hands_played
    winners = match.winners
    share = 1 / len(winners) if winners else 0.0
    turns = sum(counts.chains.values())
    placements = counts.placements
    values = {
        "points_per_hand": (counts.placed_credit + counts.settled_credit) / hands,
        "hands_per_match": float(hands),
        "placements_per_hand": placements / hands,
        "blocked_share": counts.blocked / hands,
        "draws_per_hand": counts.draws / hands,
        "passes_per_hand": counts.passes / hands,
        "options_per_choice": offered[1] / offered[0] if offered[0] else 0.0,
        "chain_length": placements / turns if turns else 0.0,
        "credit_per_placement": counts.placed_credit / placements if placements else 0.0,
        "hand_end_credit": counts.settled_credit / hands,
        "opener_win": share if opener_side in winners else 0.0,
        "first_seat_win": share if seating.side_of(0) in winners else 0.0,
        "match_length": float(placements),
    }
    return values, counts.chains


def _key(seed: int, seating: Seating, index: int, side: str) -> str:
    return f"{seed}/{seating.label}/{index}" + ("" if side == "common" else f"/{side}")


@dataclass(frozen=True)
class Shard:
    """Matches ``first .. first+count-1`` of one seating, played under both rulesets."""

    seating: Seating
    first: int
    count: int

    def run(self, a: Ruleset, b: Ruleset, seed: int, streams: str) -> Tally:
        tally = Tally()
        for i in range(self.first, self.first + self.count):
            key_a = _key(seed, self.seating, i, "common" if streams == "common" else "a")
            key_b = _key(seed, self.seating, i, "common" if streams == "common" else "b")
            values_a, chains_a = match_values(a, self.seating, key_a)
            values_b, chains_b = match_values(b, self.seating, key_b)
            tally.add(values_a, values_b, (chains_a, chains_b))
        return tally


def shard_tasks(seatings: Sequence[Seating], matches: int, size: int = SHARD_MATCHES) -> list[Shard]:
    """The shards of a study: fixed by the seatings and ``matches`` alone, never by the
    number of workers."""
    return [Shard(s, first, min(size, matches - first)) for s in seatings for first in range(0, matches, size)]


def merge(shards: Sequence[Shard], tallies: Sequence[Tally]) -> dict[Seating, Tally]:
    """The shards' tallies merged per seating (exactly: in any order, the same sums)."""
    out: dict[Seating, Tally] = {}
    for shard, tally in zip(shards, tallies, strict=True):
        out.setdefault(shard.seating, Tally()).merge(tally)
    return out


def _run_shard(args: tuple[Shard, Ruleset, Ruleset, int, str]) -> Tally:
    shard, a, b, seed, streams = args
    return shard.run(a, b, seed, streams)


def run_local(
    shards: Sequence[Shard],
    a: Ruleset,
    b: Ruleset,
    seed: int,
    streams: str,
    *,
    jobs: int = 1,
    done: Callable[[int, Tally], None] | None = None,
) -> list[Tally | None]:
    """Each shard's tally, in the order of ``shards`` (``None`` for a shard not run
    when a signal stopped the run: the exception goes on once the workers are ended).
    ``jobs`` > 1: that many worker processes (spawned, so the same on every platform:
    :func:`horserace.quality.processes.in_processes`)."""
    return in_processes(_run_shard, [(shard, a, b, seed, streams) for shard in shards], jobs, done=done)


@dataclass
class ImpactStudy:
    """A study's design and its tallies per seating (:func:`horserace.quality.impact_stats.analyse`
    makes its statistics)."""

    a: NamedRuleset
    b: NamedRuleset
    matches: int
    seed: int
    streams: str
    seatings: tuple[Seating, ...]
    tallies: dict[Seating, Tally]
    level: float = 0.05
    #: What stopped the run before every shard had run (then the tallies hold those that did).
    stopped_by: BaseException | None = None
    shards: int = 0
    shards_run: int = 0

    @property
    def paired(self) -> bool:
        return self.streams == "common"


def study(
    a: NamedRuleset,
    b: NamedRuleset,
    *,
    matches: int,
    seed: int = 0,
    seatings: Sequence[Seating] = SEATINGS,
    streams: str = "common",
    jobs: int = 1,
    level: float = 0.05,
    shard_size: int = SHARD_MATCHES,
    progress: Callable[[int], None] | None = None,
) -> ImpactStudy:
    """Play ``matches`` matches per seating under ``a`` and ``b`` and tally them.  A
    signal (Ctrl-C, or the command line's SIGTERM) stops it: the study then holds the
    shards that finished, and says what stopped it."""
    if matches < 2:
        raise UsageError("an impact study needs at least 2 matches per seating (--matches)")
    if streams not in STREAMS:
        raise UsageError(f"streams must be one of {', '.join(STREAMS)}, not {streams!r}")
    shards = shard_tasks(seatings, matches, shard_size)
    finished: dict[int, Tally] = {}

    def done(i: int, tally: Tally) -> None:
        finished[i] = tally
        if progress is not None:
            progress(shards[i].count)

    stopped: BaseException | None = None
    try:
        run_local(shards, a.ruleset, b.ruleset, seed, streams, jobs=jobs, done=done)
    except Exception:
        raise
    except BaseException as exc:  # noqa: BLE001  (errors re-raised above; Ctrl-C, or the command line's Stopped (SIGTERM, SIGHUP))
        stopped = exc
    return assemble(a, b, matches, seed, seatings, streams, level, shards, finished, stopped)


def assemble(
    a: NamedRuleset,
    b: NamedRuleset,
    matches: int,
    seed: int,
    seatings: Sequence[Seating],
    streams: str,
    level: float,
    shards: Sequence[Shard],
    finished: dict[int, Tally],
    stopped: BaseException | None,
) -> ImpactStudy:
    """The study of the shards that ``finished`` (by their index in ``shards``)."""
    order = sorted(finished)
    return ImpactStudy(
        a,
        b,
        matches,
        seed,
        streams,
        tuple(seatings),
        merge([shards[i] for i in order], [finished[i] for i in order]),
        level,
        stopped,
        len(shards),
        len(finished),
    )
