"""``horserace perft POSITION --depth N --divide --cluster``: a task per root move.

The client finds the root moves of the position (forced draws and passes made first, as
:func:`horserace.engine.perft.divide` makes them); each task rebuilds the position on a
worker, makes its root move and counts perft to depth ``N - 1`` below it, by make and
unmake (:func:`horserace.engine.perft.perft`).  The divide table is merged by root move,
so it and its total are those of a count in one process.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from distributed import Client

from horserace.cluster.tasks import Done, Ran, run_until_stopped
from horserace.corpus.observers import decision_name, perft_position
from horserace.corpus.positions import Count, Position
from horserace.engine.hand import Hand
from horserace.engine.perft import Decision, decisions, make_decision, perft
from horserace.engine.ruleset import Ruleset
from horserace.quality.mutants import named

__all__ = ["count_below", "count_on", "root_moves"]


def _engine(mutant: str | None) -> type[Hand]:
    return named(mutant).engine if mutant else Hand


def root_moves(position: Position, ruleset: Ruleset, mutant: str | None = None) -> tuple[Hand, list[Decision]]:
    """The position as a hand, its forced draws and passes made, and its first moves (none
    once the hand is over)."""
    hand = perft_position(position.input, ruleset, _engine(mutant))
    hand.play_forced()
    return hand, [] if hand.over else decisions(hand)


def count_below(position: Position, ruleset: Ruleset, mutant: str | None, root: int, depth: int) -> tuple[str, int]:
    """Run on a worker: the name of root move ``root`` of the position and its share of
    perft at ``depth`` (its leaves ``depth - 1`` moves below it)."""
    hand, moves = root_moves(position, ruleset, mutant)
    move = moves[root]
    make_decision(hand, move)
    return decision_name(move), 1 if depth == 1 else perft(hand, depth - 1)


def count_on(
    client: Client,
    cluster: str,
    position: Position,
    depth: int,
    ruleset: Ruleset | None = None,
    *,
    mutant: str | None = None,
    progress: Callable[[int, float], None] | None = None,
    timeout: float | None = None,
) -> tuple[Count, Ran, BaseException | None]:
    """Perft of ``position`` at ``depth`` and its divide, a task per root move;
    ``progress`` is told of the nodes counted and the share of root moves done.  Also
    what ran, and the signal that stopped the count (``None``: none did): the count is
    then that of the root moves counted before it (``ran.finished`` of ``ran.tasks``)."""
    ruleset = position.ruleset if ruleset is None else ruleset
    _, moves = root_moves(position, ruleset, mutant)
    counted = [0, 0]

    def done(task: Done[tuple[str, int]]) -> None:
        counted[0] += task.result[1]
        counted[1] += 1
        if progress is not None:
            progress(counted[0], counted[1] / len(moves))

    began = time.perf_counter()
    results, ran, stopped = run_until_stopped(
        client,
        cluster,
        count_below,
        [(position, ruleset, mutant, i, depth) for i in range(len(moves))],
        name="perft",
        units=lambda result: result[1],
        unit="nodes",
        done=done,
        timeout=timeout,
    )
    seconds = time.perf_counter() - began
    divide = dict(sorted(results.values()))
    nodes = sum(divide.values()) if moves else 1
    return Count(position, depth, ruleset, nodes, divide, seconds), ran, stopped
