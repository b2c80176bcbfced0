"""``horserace diff``: which outcomes change between two rulesets."""

from __future__ import annotations

import argparse
import json

from horserace.cli._options import (
    load_corpus,
    paths_option,
    print_load_errors,
    selected_fixtures,
    selection_options,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError

__all__ = ["NAME", "register", "run"]

NAME = "diff"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Observe every fixture's input under ruleset A and ruleset B (the fixture's own "
        "scores and target stay), and with --play N play N seeded random matches to the target under "
        "both; list what differs, field by field, grouped by rule ID, with the first divergence. "
        "Where A and B differ in several readings, each fixture's difference is put down to the reading "
        "whose change alone on A gives B's observations ('caused by X alone'), or B's first difference only "
        "('first difference caused by X alone'), or to the readings together, with the rule of its first "
        "difference, as conform's diagnosis finds it. For what a change does to whole games, with "
        "confidence intervals, see 'horserace impact'. Exit 0 when nothing differs, 1 when something does.",
    )
    p.add_argument(
        "--rules",
        action="append",
        required=True,
        metavar="FILE",
        help="a ruleset file or bundled name; give it twice: A then B",
    )
    p.add_argument("--play", type=int, default=0, metavar="N", help="also compare N seeded random matches")
    p.add_argument("--seed", type=int, default=0, help="first seed for --play (default: 0)")
    p.add_argument(
        "--verbose", action="store_true", help="list every differing match, with the raw events where they diverge"
    )
    paths_option(p)
    selection_options(p)
    p.add_argument(
        "--format", choices=("text", "json", "markdown"), default="text", help="output format (default: text)"
    )


def run(args: argparse.Namespace) -> int:
    from horserace.quality.ruleset_diff import run_diff
    from horserace.reports.diff_text import format_markdown, format_text
    from horserace.resources.rulesets import resolve

    if len(args.rules) != 2:
        raise UsageError("horserace diff: give --rules exactly twice (A, then B)")
    if args.play < 0:
        raise UsageError("--play must be at least 0")
    a, b = resolve(args.rules[0]), resolve(args.rules[1])
    corpus = load_corpus(args.paths)
    if corpus.errors:
        return print_load_errors(corpus, "text" if args.format == "markdown" else args.format)
    report = run_diff(selected_fixtures(corpus.fixtures, args), a, b, play=args.play, seed=args.seed)
    if args.format == "json":
        write_out(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        write_out(format_markdown(report, verbose=args.verbose), end="")
    else:
        write_out(format_text(report, verbose=args.verbose))
    return ExitCode.OK if report.empty else ExitCode.FAILURES
