"""Perft by an implementation, beside the reference engine's: its own count and divide of
a position, asked through the protocol, to bisect a disagreement as chess perft tools do
(perftree, perft-compare): count the same position on both sides, descend the first move
whose counts differ, and count again one move deeper.

The protocol sends positions only as fixture inputs (spec/protocol.md: a ``run`` request
carries a fixture's ``input``), so the position is sent as a one-off ``perft`` fixture
made in memory, whose ``expected`` is the reference engine's count, and run as the runner
runs any fixture (:func:`horserace.conformance.runner.run`): one handshake, one request,
the process stopped at the end and killed on any failure, with its descendants.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from horserace.conformance.runner import Options, run
from horserace.conformance.supervisor import Supervisor
from horserace.corpus.fixture import Fixture
from horserace.corpus.ids import generated_id
from horserace.corpus.positions import Count, Position, count
from horserace.corpus.status import Status
from horserace.engine.hand import Hand
from horserace.engine.ruleset import Ruleset
from horserace.errors import ImplementationUnusable, UsageError

__all__ = ["MAX_DEPTH", "Row", "SideBySide", "compare", "one_off_fixture"]

#: The deepest count a perft fixture holds (spec/fixture-format.md, ``perft``), and so
#: the deepest the protocol sends.
MAX_DEPTH = 20


@dataclass(frozen=True)
class Row:
    """One first move of a divide: its share on each side (``None``: that side has no such
    move)."""

    move: str
    reference: int | None
    implementation: Any

    @property
    def differs(self) -> bool:
        return bool(self.reference != self.implementation)  # the implementation's count is JSON (Any)

    @property
    def note(self) -> str:
        if self.reference is None:
            return "only the implementation has this move"
        if self.implementation is None:
            return "only the reference has this move"
        return "differs" if self.differs else ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "reference": self.reference,
            "implementation": self.implementation,
            "differs": self.differs,
        }


@dataclass(frozen=True)
class SideBySide:
    """The reference engine's count of a position and the implementation's, move by move."""

    reference: Count
    #: The implementation's hello (its name and version among it).
    hello: dict[str, Any]
    #: The ``nodes`` and ``divide`` the implementation answered (as it answered them).
    nodes: Any
    divide: Any
    #: The fixture input sent (the position and the depth).
    sent: dict[str, Any]

    @property
    def rows(self) -> list[Row]:
        """The reference's first moves in its order, then those only the implementation
        has, sorted (a divide that is no object has none)."""
        theirs = self.divide if isinstance(self.divide, dict) else {}
        rows = [Row(move, n, theirs.get(move)) for move, n in self.reference.divide.items()]
        rows += [Row(move, None, theirs[move]) for move in sorted(theirs) if move not in self.reference.divide]
        return rows

    @property
    def agree(self) -> bool:
        return self.nodes == self.reference.nodes and not any(r.differs for r in self.rows)

    @property
    def first_difference(self) -> Row | None:
        return next((r for r in self.rows if r.differs), None)

    @property
    def name(self) -> str:
        """The implementation as its hello names it."""
        name, version = self.hello.get("name"), self.hello.get("version")
        return " ".join(str(x) for x in (name, version) if x) or "the implementation"

    def to_dict(self) -> dict[str, Any]:
        first = self.first_difference
        return {
            "position": self.reference.position.label,
            "moves": list(self.reference.moves),
            "depth": self.reference.depth,
            "variants": self.reference.ruleset.variants,
            "implementation": {"name": self.hello.get("name"), "version": self.hello.get("version")},
            "agree": self.agree,
            "nodes": {"reference": self.reference.nodes, "implementation": self.nodes},
            "divide": [r.to_dict() for r in self.rows],
            "first_difference": first.move if first else None,
            "sent": self.sent,
        }


def one_off_fixture(position: Position, depth: int, ruleset: Ruleset, expected: dict[str, Any]) -> Fixture:
    """``position`` at ``depth`` as a perft fixture of its own, under ``ruleset``'s
    readings, expecting ``expected``; its ID is made from its input (the same position
    and depth, the same ID)."""
    inp = {**position.input, "depth": depth}
    key = json.dumps([inp, ruleset.variants], sort_keys=True)
    return Fixture(
        id=generated_id(0, f"perft-impl:{key}"),
        description=f"perft {position.label}, depth {depth}",
        kind="perft",
        rules=["HR-MOVE-1"],
        origin="generated",
        why="Counted by the reference engine (horserace perft --impl)",
        input=inp,
        expected=expected,
        variants=dict(ruleset.variants),
        file="(horserace perft)",
    )


def compare(
    argv: Sequence[str],
    position: Position,
    depth: int,
    ruleset: Ruleset,
    options: Options,
    *,
    engine: type[Hand] = Hand,
    moves: Sequence[str] = (),
    shown: Position | None = None,
    supervisor: Supervisor | None = None,
) -> SideBySide:
    """The reference engine's count of ``position`` (a position the protocol can send: a
    fixture's input, without its depth) and the implementation's, asked through the
    protocol.  An implementation that cannot be used for it (no handshake, no perft, a
    reading or table it does not declare, an error, a crash or a timeout on the request)
    is an :class:`ImplementationUnusable` saying why.  ``moves`` and ``shown``: the
    position is where those moves lead from ``shown``, as the result names it;
    ``supervisor``: the run's processes (to stop them from outside)."""
    if not 1 <= depth <= MAX_DEPTH:
        raise UsageError(f"horserace perft: --impl sends a perft fixture, whose depth is 1 to {MAX_DEPTH}, not {depth}")
    reference = count(position, depth, ruleset, engine=engine)
    reference = Count(
        shown or reference.position,
        reference.depth,
        reference.ruleset,
        reference.nodes,
        reference.divide,
        reference.seconds,
        tuple(moves),
    )
    fixture = one_off_fixture(position, depth, ruleset, {"nodes": reference.nodes, "divide": reference.divide})
    hellos: list[dict[str, Any]] = []
    (outcome,) = run(argv, [fixture], options, on_start=hellos.append, supervisor=supervisor)
    hello = hellos[0] if hellos else {}
    if outcome.status is Status.SKIP:
        raise ImplementationUnusable(f"it does not count this position: {outcome.message}")
    if outcome.status not in (Status.PASS, Status.FAIL):
        said = f": {outcome.message}" if outcome.message else ""
        tail = f"; stderr: {outcome.stderr[-300:]}" if outcome.stderr else ""
        raise ImplementationUnusable(f"perft of {position.label}, depth {depth}: {outcome.status}{said}{tail}")
    observed = outcome.observations if isinstance(outcome.observations, dict) else {}
    return SideBySide(reference, hello, observed.get("nodes"), observed.get("divide"), fixture.input)
