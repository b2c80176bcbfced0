"""The replay-based perft of horserace 0.1, kept as the oracle of the perft by make and
unmake (:mod:`horserace.engine.perft`): for every node it builds the position afresh and
replays the whole path through the public actions, so it shares nothing with the new
walk but the rules themselves (no undo, no bulk count of the last ply).  Slow (some
4,000 nodes per second), so the tests give it small depths."""

from __future__ import annotations

from typing import Any, Literal

from horserace.corpus.observers import move_name, new_position, with_target
from horserace.engine.hand import Hand
from horserace.engine.ruleset import Ruleset

__all__ = ["perft_by_replay"]

#: A choice at one point of a hand: ``("place", tile, target, port)``, ``("end-turn",)`` or,
#: under a house rule that lets a player draw while holding a placement, ``("draw",)``.
_Decision = tuple[Literal["end-turn", "draw"]] | tuple[Literal["place"], int, int | None, int | None]


def _decisions(hand: Hand) -> list[_Decision]:
    """The distinct choices after forced draws and passes: the legal placements, plus
    drawing where a house rule makes it a choice, plus ending the turn where the variant
    allows it."""
    hand.play_forced()
    if hand.over:
        return []
    moves: list[_Decision] = [("place", *m) for m in hand.legal_placements()]
    if hand.may_draw():
        moves.append(("draw",))
    if hand.may_end_turn():
        moves.append(("end-turn",))
    return moves


def _apply(hand: Hand, move: _Decision) -> None:
    if move[0] == "end-turn":
        hand.end_turn(hand.to_act)
    elif move[0] == "draw":
        hand.draw(hand.to_act)
    else:
        hand.place(hand.to_act, move[1], move[2], move[3])


def _name(move: _Decision) -> str:
    return move[0] if move[0] in ("end-turn", "draw") else move_name(*move[1:])


def perft_by_replay(inp: dict[str, Any], ruleset: Ruleset, engine: type[Hand] = Hand) -> dict[str, Any]:
    """A perft fixture's observations (``nodes``, ``divide``), as observe_perft gave them
    in 0.1."""
    partnership = inp["mode"] == "partnership"
    ruleset = with_target(ruleset, inp["target"])

    def fresh() -> Hand:
        return new_position(
            inp,
            ("input",),
            partnership=partnership,
            seats=inp["seats"],
            scores=list(inp["scores"]),
            ruleset=ruleset,
            engine=engine,
        )

    def count(path: list[_Decision], depth: int) -> int:
        hand = fresh()
        hand.record = False
        for move in path:
            _decisions(hand)
            _apply(hand, move)
        moves = _decisions(hand)
        if depth == 0 or not moves:
            return 1  # a hand that ends before the depth is one leaf
        return sum(count([*path, m], depth - 1) for m in moves)

    divide = {_name(move): count([move], inp["depth"] - 1) for move in _decisions(fresh())}
    return {"nodes": sum(divide.values()) if divide else 1, "divide": dict(sorted(divide.items()))}
