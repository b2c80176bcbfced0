"""``horserace fuzz``: differential fuzzing with shrinking."""

from __future__ import annotations

import argparse
import json
import sys

from horserace.cli._options import (
    clear_progress,
    count,
    format_option,
    impl_argv,
    jobs_option,
    progress,
    ruleset_from,
    variant_options,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode

__all__ = ["NAME", "register", "run"]

NAME = "fuzz"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Send seeded random play scenarios to an implementation through the protocol and "
        "compare with the reference engine. The first disagreement is shrunk to the shortest prefix "
        "of placements that still disagrees and written as a fixture (origin: generated) under "
        "OUT/generated/ for review. Exit 0: no disagreement; 1: one was found.",
    )
    p.add_argument(
        "--impl",
        metavar="COMMAND",
        help="the implementation's command line (default: the reference engine, 'horserace serve')",
    )
    p.add_argument("--seed", type=int, default=0, help="first seed (default: 0)")
    p.add_argument("--budget", type=count(1, 10**9), default=1000, metavar="N", help="seeds to try (default: 1000)")
    jobs_option(p, "shards of the seed range run at once, one implementation process each")
    p.add_argument(
        "--out",
        default="fuzz-findings",
        metavar="DIR",
        help="where findings are written, under DIR/generated/ (default: ./fuzz-findings)",
    )
    variant_options(
        p, "fuzz under this reading of the register; the implementation must follow the same readings (repeatable)"
    )
    format_option(p)


def run(args: argparse.Namespace) -> int:
    from horserace.quality.fuzz import fuzz
    from horserace.reports.command_text import fuzz_text

    argv = impl_argv(args.impl)
    ruleset = ruleset_from(args)
    bar = progress(sys.stderr.isatty())
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if bar:
            bar(f"fuzz: {done[0]:,}/{args.budget:,} hands")

    result = fuzz(argv, args.seed, args.budget, jobs=args.jobs, out_dir=args.out, progress=tick, ruleset=ruleset)
    clear_progress(bar)
    write_out(json.dumps(result.to_dict(), indent=2) if args.format == "json" else fuzz_text(result))
    return ExitCode.FAILURES if result.findings else ExitCode.OK
