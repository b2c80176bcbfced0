"""``horserace play``: a seeded sample hand or match with random legal placements."""

from __future__ import annotations

import argparse
import json

from horserace.cli._options import format_option, ruleset_from, variant_options
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError

__all__ = ["NAME", "register", "run"]

NAME = "play"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Play a seeded sample hand with uniformly random legal placements and print "
        "every event. The same seed always gives the same game.",
    )
    p.add_argument("--seed", type=int, default=1, help="random seed (default: 1)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="number of players (default: 2)")
    p.add_argument("--partnership", action="store_true", help="four players in two fixed pairs")
    p.add_argument("--match", action="store_true", help="play a whole match to the target, not one hand")
    p.add_argument("--target", type=int, help="target score in displayed points (default: 61)")
    variant_options(
        p, "select a reading of the interpretations register, e.g. block_detection=round-of-passes (repeatable)"
    )
    format_option(p)


def run(args: argparse.Namespace) -> int:
    from horserace.corpus.encoding import play_document
    from horserace.engine.match import Match
    from horserace.engine.sample import play_sample
    from horserace.reports.events_text import play_text

    ruleset = ruleset_from(args)
    if args.partnership and args.players != 4:
        raise UsageError("--partnership needs --players 4")
    match = Match(args.players, partnership=args.partnership, ruleset=ruleset, seed=args.seed)
    played = play_sample(match, whole_match=args.match)
    if args.format == "json":
        print(json.dumps(play_document(played, match, seed=args.seed), indent=2))
    else:
        print(play_text(played, match, seed=args.seed, whole_match=args.match))
    return ExitCode.OK
