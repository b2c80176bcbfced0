"""Engines as an implementation serves them, for the fuzzer's tests: in process (the
answers ``horserace serve`` would give, judged as the runner judges them), or as a
process of its own with several named deviations at once.

Run as ``python tests/quality/served.py NAME [NAME ...]``: the reference engine with
the named deviations of :mod:`horserace.quality.mutants` combined (each through its own
seam, as the mutants are built: their ``Hand`` subclasses joined, nothing patched),
under the canonical readings, through the protocol.  Two deviations of different
seams make an implementation with two independent bugs."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from horserace.conformance.messages import Hello, Rejected, RunRequest
from horserace.conformance.runner import Outcome, evaluate
from horserace.conformance.server import main_serve, reply
from horserace.corpus.fixture import Fixture
from horserace.engine.hand import Hand
from horserace.engine.ruleset import CANONICAL
from horserace.quality.mutants import MUTANTS
from horserace.quality.shrink import Judge

__all__ = ["SERVED", "combined", "served_argv", "through_protocol"]

SERVED = __file__


def combined(*names: str) -> type[Hand]:
    """The reference engine with the named deviations, each through its own seam."""
    if not names:
        return Hand
    if len(names) == 1:
        return MUTANTS[names[0]].engine
    return type("+".join(names), tuple(MUTANTS[n].engine for n in names), {"__slots__": ()})


def served_argv(*names: str) -> list[str]:
    """The command line of an implementation that plays :func:`combined` ``(*names)``."""
    return [sys.executable, SERVED, *names]


def through_protocol(engine: type[Hand]) -> Judge:
    """Judge fixtures against ``engine`` as a server of it answers them (a refusal is
    ``rejected`` at its action, as through the protocol), in this process."""

    def run(fixtures: list[Fixture]) -> list[Outcome]:
        out = []
        for fx in fixtures:
            readings = {**CANONICAL.readings, **fx.variants}
            answer = reply(RunRequest("fuzz", fx.kind, fx.input, readings).to_json(), CANONICAL, engine, True)
            assert answer is not None and not isinstance(answer, Hello)
            status, differences, message, at = evaluate(fx, answer, False)
            refusal = answer if isinstance(answer, Rejected) else None
            out.append(Outcome(fx, status, message, differences, refused_at=at, refusal=refusal))
        return out

    return run


def main(names: Sequence[str]) -> int:
    return main_serve(CANONICAL, combined(*names))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
