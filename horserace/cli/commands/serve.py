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
        "persistent and one-shot mode. By default the hello declares every reading of every "
        "register field (protocol 1.1), and each run is answered under the readings it carries; "
        "with --rules or --variant it follows those readings only, as a 1.0 implementation "
        "would (and a 1.0 runner always gets one reading per field: the canonical ones, or "
        "those given).",
    )
    variant_options(p, "follow only this reading of the register (repeatable; default: every reading)")
    p.add_argument(
        "--mutant",
        metavar="NAME",
        help="serve a named deviation of the engine, a mutant or a house rule (see 'horserace mutants --list')",
    )


def run(args: argparse.Namespace) -> int:
    from horserace.conformance.server import main_serve
    from horserace.engine.hand import Hand

    ruleset = ruleset_from(args)
    engine = Hand
    if args.mutant:
        from horserace.quality.mutants import named  # only a mutant's server loads the mutants

        engine = named(args.mutant).engine  # the CLI hands the server its engine
    fixed = bool(args.rules or args.variant)  # a ruleset chosen: follow it alone
    return main_serve(ruleset, engine, every_reading=not fixed)
