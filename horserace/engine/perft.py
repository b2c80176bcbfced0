"""Perft: how many move sequences of a given depth a position has (spec/fixture-format.md,
``perft``), counted by make and unmake on one hand, as chess perft tools count.

A *move* is a distinct legal placement ``(tile, target, port)`` (mirror-image ports are
one move, HR-MOVE-2) or, under the variant ``continuation=optional``, ending a
continuation (:data:`END_TURN`); under a house rule that lets a player draw while
holding a placement (``Hand.play_before_drawing`` false), drawing by choice
(:data:`DRAW`, :meth:`Hand.may_draw`).  Forced draws and passes are made between moves and are
not moves.  ``perft(position, d)`` is 1 if ``d = 0`` or the hand is over (a hand that ends
before the depth is one leaf), else the sum of ``perft(after m, d - 1)`` over every move
``m``.

The walk makes each move on the hand (:meth:`Hand.make`, :meth:`Hand.end_turn`), counts
below it and takes it back (:meth:`Hand.undo`), forced draws and passes included; the
last ply is counted in bulk (the moves of a position one move short of the depth are
counted, not made).  The hand must be ``undoable``; it is given back as it was, and its
events are not recorded during the walk.  Any :class:`Hand` subclass walks the same way
(a variant, a mutant), through the seams it overrides; a hand whose player may choose to
draw is walked move by move (:func:`_count_choosing`), the reference engine's walk left
as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal

from horserace.engine.hand import Hand, Move
from horserace.errors import NothingToUndo

__all__ = ["DRAW", "END_TURN", "Decision", "Progress", "decisions", "divide", "make_decision", "perft"]

#: The move that gives up a continuation (variant ``continuation=optional``, HRI-2).
END_TURN: Final = "end-turn"
#: The move that draws a tile by choice (a house rule of the Fives family: ``Hand.may_draw``).
DRAW: Final = "draw"

#: A move of perft: a placement, :data:`END_TURN` or :data:`DRAW`.
Decision = Move | Literal["end-turn", "draw"]

#: Told of the walk's progress: the nodes counted so far and the share of the tree done.
Progress = Callable[[int, float], None]


def decisions(hand: Hand) -> list[Decision]:
    """The moves of the player to act, once forced draws and passes are made: its legal
    placements, then drawing where a house rule makes it a choice, then ending the turn
    where the variant allows it."""
    moves: list[Decision] = list(hand.legal_placements())
    if hand.may_draw():
        moves.append(DRAW)
    if hand.may_end_turn():
        moves.append(END_TURN)
    return moves


def make_decision(hand: Hand, move: Decision) -> None:
    """Make a move of :func:`decisions` on the hand (kept for undo, as every action of an
    undoable hand is)."""
    if move == END_TURN:
        hand.end_turn(hand.to_act)
    elif move == DRAW:
        hand.draw(hand.to_act)
    else:
        hand.make(move)


#: Told after each move below a position: that move's count, and how many of the
#: position's moves are counted out of how many.
_Each = Callable[[int, int, int], None]


def _count(hand: Hand, depth: int, each: _Each | None = None) -> int:
    """``perft(hand, depth)`` for ``depth >= 1``, the hand given back as it was."""
    forced = hand.play_forced()
    if hand.over:
        nodes = 1
    elif depth == 1:
        nodes = hand.count_placements() + hand.may_end_turn()
    else:
        below = depth - 1
        nodes = 0
        make, undo = hand.make, hand.undo
        moves = hand.legal_placements()
        end_turn = hand.may_end_turn()
        if below == 1 and each is None:  # the last ply in bulk: one leaf per move, none made
            play_forced, count_placements, may_end_turn = hand.play_forced, hand.count_placements, hand.may_end_turn
            for move in moves:
                make(move)
                made = play_forced()
                nodes += 1 if hand.over else count_placements() + may_end_turn()
                while made:
                    undo()
                    made -= 1
                undo()
            if end_turn:
                nodes += _count_after_end_turn(hand, below)
        else:
            for done, move in enumerate(moves, 1):
                make(move)
                n = _count(hand, below)
                undo()
                nodes += n
                if each is not None:
                    each(n, done, len(moves) + end_turn)
            if end_turn:
                n = _count_after_end_turn(hand, below)
                nodes += n
                if each is not None:
                    each(n, len(moves) + 1, len(moves) + 1)
    while forced:
        hand.undo()
        forced -= 1
    return nodes


def _count_choosing(hand: Hand, depth: int, each: _Each | None = None) -> int:
    """``perft(hand, depth)`` for ``depth >= 1`` move by move, every move of
    :func:`decisions` made (a choice to draw among them); the hand given back as it was."""
    forced = hand.play_forced()
    if hand.over:
        nodes = 1
    else:
        moves = decisions(hand)
        if depth == 1:
            nodes = len(moves)
        else:
            nodes = 0
            for done, move in enumerate(moves, 1):
                make_decision(hand, move)
                n = _count_choosing(hand, depth - 1)
                hand.undo()
                nodes += n
                if each is not None:
                    each(n, done, len(moves))
    while forced:
        hand.undo()
        forced -= 1
    return nodes


def _count_after_end_turn(hand: Hand, depth: int) -> int:
    hand.end_turn(hand.to_act)
    n = _count(hand, depth)
    hand.undo()
    return n


def divide(hand: Hand, depth: int, progress: Progress | None = None) -> list[tuple[Decision, int]]:
    """Each first move from the position with its share of ``perft(hand, depth)``, in the
    order of :func:`decisions`: empty if the hand is over or ``depth`` is below 1.
    ``progress``, if given, is told of the nodes counted so far and the share of the tree
    done after each move of the first two plies."""
    if not hand.undoable:
        raise NothingToUndo("perft makes and takes back moves: give it a hand made with undoable=True")
    out: list[tuple[Decision, int]] = []
    if depth < 1:
        return out
    record = hand.record
    hand.record = False
    count = _count if hand.play_before_drawing else _count_choosing
    forced = hand.play_forced()
    try:
        roots = [] if hand.over else decisions(hand)
        counted = 0
        for i, move in enumerate(roots):
            make_decision(hand, move)
            if depth == 1:
                n = 1
            elif progress is None:
                n = count(hand, depth - 1)
            else:
                n = count(hand, depth - 1, _second_ply(progress, counted, i, len(roots)))
            hand.undo()
            out.append((move, n))
            counted += n
            if progress is not None:
                progress(counted, (i + 1) / len(roots))
        return out
    finally:
        for _ in range(forced):
            hand.undo()
        hand.record = record


def _second_ply(progress: Progress, counted: int, first: int, firsts: int) -> _Each:
    """What tells ``progress`` of each reply to the first move ``first`` of ``firsts``."""
    below = counted

    def tell(n: int, done: int, replies: int) -> None:
        nonlocal below
        below += n
        progress(below, (first + done / replies) / firsts)

    return tell


def perft(hand: Hand, depth: int, progress: Progress | None = None) -> int:
    """The number of move sequences of ``depth`` moves from the position: the leaves of
    the tree, a hand that ends before the depth being one (1 for a depth of 0)."""
    counts = divide(hand, depth, progress)
    return sum(n for _, n in counts) if counts else 1
