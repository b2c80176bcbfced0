"""``horserace impact``: what a change of the rules does to the game, with confidence
intervals, per seating."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from horserace.cli._options import (
    clear_progress,
    cluster_client,
    cluster_option,
    count,
    format_option,
    jobs_option,
    progress,
    unwound_by_signals,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode, exit_code_for
from horserace.engine.seating import SEATINGS, Seating
from horserace.errors import UsageError

__all__ = ["NAME", "register", "run"]

NAME = "impact"

_DESCRIPTION = """\
Play N random matches per seating under ruleset A and under ruleset B from the same
deals and the same stream of random choices (common random numbers): hand h of match i
is dealt from a stream seeded by --seed, the seating, i and h under both rulesets, and
each placement is the next uniform number of that stream mapped onto the legal
placements in sorted order, so where the two rulesets allow the same placements the two
games make the same choice. The difference of each match's figures is then the rule
change's, paired by match.

For each seating and metric (points per hand, hands per match, placements, draws and
passes per hand, share of blocked hands, legal placements per choice, continuation
chain length, credit per placement, hand-end credit, the opener's and the first seat's
win rate, match length) it reports A, B, B - A with its 95% confidence interval, a
p-value corrected by Holm's method over every metric and seating of the study, and the
smallest difference the study would detect with 80% power at this N: "no significant
difference" is never "no difference". The distributions of continuation chains and of
hands per match are shown too (--html: a page with its plots drawn as SVG).

--streams independent gives the two sides random streams of their own (unpaired, Welch's
t): with the same ruleset twice, a check that the statistics find differences only as
often as the level says.

The statistics need NumPy and SciPy: pip install 'horserace[impact]'.

Results are the same for every --jobs, --shard-matches and cluster: the matches are cut
into shards fixed by the seed and --matches (never by the workers), and the shards' sums
are kept and merged exactly. Ctrl-C (or
SIGTERM, SIGHUP) stops the study: the output holds the shards that ran; exit 130 (143,
129).

Exit 0: no metric differs significantly; 1: some metric does.

examples:
  horserace impact --rules canonical --rules one-branch --matches 500
  horserace impact --rules canonical --rules continuation-end-turn --players 2 --format json
  horserace impact --rules canonical --rules my-rules.yaml --html impact-report --jobs 2
  horserace impact --rules canonical --rules canonical --streams independent
  horserace impact --rules canonical --rules long-match --matches 100000 --cluster local:2
"""

_PLAYERS = {"2": Seating(2), "3": Seating(3), "4": Seating(4), "partnership": Seating(4, partnership=True)}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME, help=HELP[NAME], description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--rules",
        action="append",
        required=True,
        metavar="FILE",
        help="a ruleset file or bundled name (e.g. canonical, one-branch); give it twice: A then B",
    )
    p.add_argument(
        "--matches",
        type=count(2, 10**9),
        default=200,
        metavar="N",
        help="matches per seating under each ruleset (default: 200)",
    )
    p.add_argument("--seed", type=int, default=0, help="the study's seed: the same seed, the same matches (default: 0)")
    p.add_argument(
        "--players",
        action="append",
        choices=tuple(_PLAYERS),
        metavar="2|3|4|partnership",
        help="a seating to study (repeatable; default: all four)",
    )
    p.add_argument(
        "--streams",
        choices=("common", "independent"),
        default="common",
        help="common: the same deals and choices where the rules allow, paired (default); "
        "independent: each side its own streams, unpaired",
    )
    p.add_argument(
        "--level",
        type=float,
        default=0.05,
        metavar="ALPHA",
        help="the family-wise significance level, over every metric and seating (default: 0.05)",
    )
    p.add_argument(
        "--shard-matches",
        type=count(1, 10**9),
        metavar="N",
        help="matches of one seating per shard, the unit of --jobs and of a cluster's tasks; the figures do "
        "not depend on it (default: 50; on a cluster, enough for 4 shards a worker, 50 to 2,000)",
    )
    p.add_argument("--html", metavar="DIR", help="also write DIR/impact.html, the study with its plots")
    jobs_option(p, "worker processes playing the shards")
    cluster_option(p, "play the shards, one task each,")
    format_option(p)


def _seatings(chosen: list[str] | None) -> tuple[Seating, ...]:
    if not chosen:
        return SEATINGS
    return tuple(_PLAYERS[c] for c in dict.fromkeys(chosen))


def run(args: argparse.Namespace) -> int:
    from horserace._files import atomic_write
    from horserace.quality.impact import SHARD_MATCHES, study
    from horserace.quality.impact_stats import analyse, require_extra
    from horserace.reports.impact import study_dict, study_html, study_text
    from horserace.resources.rulesets import resolve

    if len(args.rules) != 2:
        raise UsageError("horserace impact: give --rules exactly twice (A, then B)")
    if not 0 < args.level < 1:
        raise UsageError(f"--level {args.level}: give a level between 0 and 1, e.g. 0.05")
    require_extra()  # a missing extra is told before anything is played
    a, b = resolve(args.rules[0]), resolve(args.rules[1])
    seatings = _seatings(args.players)
    total = args.matches * len(seatings)
    bar = progress(sys.stderr.isatty())
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if bar:
            bar(f"impact: {done[0]:,}/{total:,} matches a side")

    ran = None
    if args.cluster is None:
        with unwound_by_signals():
            result = study(
                a,
                b,
                matches=args.matches,
                seed=args.seed,
                seatings=seatings,
                streams=args.streams,
                jobs=args.jobs,
                level=args.level,
                shard_size=args.shard_matches or SHARD_MATCHES,
                progress=tick,
            )
    else:
        if args.jobs != 1:
            raise UsageError("--jobs is for a local run; on a cluster the workers run the shards: leave it out")
        with cluster_client(args.cluster) as client:
            from horserace.cluster.impact import impact_on

            result, ran = impact_on(
                client,
                args.cluster,
                a,
                b,
                matches=args.matches,
                seed=args.seed,
                seatings=seatings,
                streams=args.streams,
                level=args.level,
                shard_size=args.shard_matches,
                progress=tick,
            )
    clear_progress(bar)
    analysis = analyse(result)
    if args.html:
        folder = Path(args.html)
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / "impact.html", study_html(result, analysis))
    if args.format == "json":
        data = study_dict(result, analysis) | ({"cluster": ran.to_dict()} if ran is not None else {})
        write_out(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        write_out(study_text(result, analysis) + ("\n" + ran.text() if ran is not None else ""))
    if args.html:
        print(f"horserace: the study's page: {Path(args.html) / 'impact.html'}", file=sys.stderr)
    if result.stopped_by is not None:
        stopped = result.stopped_by
        what = "interrupted" if isinstance(stopped, KeyboardInterrupt) else str(stopped)
        print(
            f"horserace: {what}; the output holds the {result.shards_run} of {result.shards} shards that ran",
            file=sys.stderr,
        )
        return exit_code_for(stopped)
    return ExitCode.FAILURES if analysis.significant else ExitCode.OK
