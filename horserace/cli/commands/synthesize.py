"""``horserace synthesize``: Z3-constructed corner-case fixtures for review."""

from __future__ import annotations

import argparse
import sys

from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode

__all__ = ["NAME", "register", "run"]

NAME = "synthesize"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Ask Z3 for scenarios that random play rarely reaches (a blocked four-player tie "
        "where two tied players cross the target, three interior spinners each with an unstarted "
        "branch, a placement worth exactly the points a side needs) and write them as fixtures "
        "(origin: generated) under OUT/generated/ for a human to review.",
    )
    p.add_argument(
        "--out",
        default="synthesized",
        metavar="DIR",
        help="where the fixtures are written, under DIR/generated/ (default: ./synthesized)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        from horserace.verify.synthesis import synthesize_all  # z3-solver is an extra
    except ImportError as exc:
        print(f"horserace: synthesize needs z3-solver: pip install 'horserace[verify]' ({exc})", file=sys.stderr)
        return ExitCode.USAGE
    for path in synthesize_all(args.out):
        print(f"wrote {path}; review it before adding anything to the corpus")
    return ExitCode.OK
