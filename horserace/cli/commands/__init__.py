"""One module per command: ``NAME``, ``register(subparsers)`` that adds its parser and
options, and ``run(args)`` that returns an exit code.

Command modules import at their top only what the parser needs; what a command needs to
run is imported inside ``run``, so that ``horserace serve`` (started once per fixture in
one-shot mode) and ``--help`` pay only for the parser and the one command they run.
"""

from horserace.cli.commands import (
    bench,
    conform,
    coverage,
    diff,
    export,
    fuzz,
    mutants,
    play,
    replay,
    serve,
    synthesize,
)

#: In the order ``horserace --help`` lists them.
COMMANDS = (play, bench, replay, coverage, serve, mutants, diff, export, synthesize, fuzz, conform)

__all__ = ["COMMANDS"]
