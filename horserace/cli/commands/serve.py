"""``horserace serve``: the reference engine (or a mutant of it) behind the protocol."""

from __future__ import annotations

import argparse

from horserace.cli._options import ruleset_from, variant_options
from horserace.cli.commands import HELP

__all__ = ["NAME", "register", "run"]

NAME = "serve"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Answer conformance-protocol messages (spec/protocol.md) with the reference "
        "engine: one JSON object per line on stdin, one answer per line on stdout. Works in "
        "persistent and one-shot mode.",
    )
    variant_options(p, "follow this reading of the register (repeatable; default: canonical)")
    p.add_argument(
        "--mutant", metavar="NAME", help="serve a deliberately wrong engine (see 'horserace mutants --list')"
    )


def run(args: argparse.Namespace) -> int:
    from horserace.conformance.server import main_serve
    from horserace.engine.hand import Hand

    ruleset = ruleset_from(args)
    engine = Hand
    if args.mutant:
        from horserace.quality.mutants import named  # only a mutant's server loads the mutants

        engine = named(args.mutant).engine  # the CLI hands the server its engine
    return main_serve(ruleset, engine)
