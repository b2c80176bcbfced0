"""``horserace fuzz``: differential fuzzing with shrinking."""

from __future__ import annotations

import argparse
import json
import sys

from horserace.cli._options import (
    clear_progress,
    cluster_client,
    cluster_option,
    count,
    format_option,
    impl_argv,
    jobs_option,
    progress,
    rulesets_from,
    said_stopped,
    seconds,
    unwound_by_signals,
    variant_options,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.generate import SCENARIO_KINDS
from horserace.engine.seating import SEATINGS, Seating
from horserace.errors import UsageError

__all__ = ["KINDS", "NAME", "register", "run"]

NAME = "fuzz"

#: The scenario kinds, for --kind (the parser needs their names).
KINDS = SCENARIO_KINDS

_DESCRIPTION = """\
Send seeded random scenarios to an implementation through the protocol and compare its
answers with the reference engine's. Each seed makes one scenario of every kind:

  hand        one hand of play from a fresh deal, scored from zero
  match       a whole match of play: hands one after another, scores carried, the next
              opener by the last tile or by lot after a block, from zero or from scores
              near the target, to the end of the match (reached by a placement, or
              crossed by a settlement)
  settlement  the tiles left in each hand at a domino or a block, often near the target
  illegal     a random hand's actions up to a random point, then one action breaking a
              rule of the order of checks (spec/rules.md); it must be rejected at that
              index (and, with --strict-rule-ids, under the same rule)
  perft       a position of a random hand, its moves counted to depth 1-3
  layout      random placements from an empty layout, written with mirror-image port
              names and tiles high half first, as input may write them

The table goes through 2, 3 and 4 players and the partnership game, seed by seed
(--players, --partnership fix it). The rules are each --rules in turn, their target
included; without --rules, the readings the implementation declares in its hello, at
target 61. Kinds the implementation does not support are left out, and the output says
so, with how many scenarios of each kind, which tables, rulesets and readings were tried.

The first disagreement is shrunk to the smallest scenario of its kind that still
disagrees for the same cause (play: fewest hands, then the shortest prefix of
placements; illegal: fewest actions before the illegal one; layout: fewest steps, then
fewest setup placements; perft: smallest depth, earliest position; settlement: fewest
seats, tiles and pips, scores furthest from the target) and written as a fixture
(origin: generated) under OUT/generated/ for review: its expected values are the
reference engine's. Replay it with 'horserace replay OUT'. Its rule is that of its first
difference, as conform's diagnosis finds it; where a named deviation of the reference
engine ('horserace mutants --list') reproduces it exactly, the finding says so and is
filed under that deviation's rule.

With --keep-going every seed runs, and the findings are grouped by cause (the rule, and
the deviation that reproduces it), each cause with its count and its smallest finding. A
finding is shrunk once per cause and shard: later findings of a cause already shrunk are
counted and listed by seed, not shrunk again (--shrink-all shrinks and writes every one).

The seeds are cut into shards fixed by --seed and --budget alone (8 of equal size, each
of 50 to 400 seeds), each with an implementation process of its own. --jobs N runs them
on N worker processes (1: in this process, one after another) and takes their results in
shard order, so every N gives the same findings, fixtures and summary (timings aside).
Without --keep-going the finding reported is the one of the lowest seed: the shards
after the first shard with a finding are dropped once every shard before it is done. A
finding is written as soon as it is shrunk with --jobs 1; with more, once its shard and
every shard before it are done.

Ctrl-C (or SIGTERM, SIGHUP) stops the run where it is: the output says which seeds were
fuzzed, the findings so far (each written), and the --seed and --budget that fuzz the
rest; exit 130 (143, 129). With --jobs N above 1 the summary holds the shards done, in
order up to the first not done (the shards the workers were running are fuzzed again by
the run that resumes), and the workers and their implementations are ended.

With --cluster ADDRESS|local:N the seeds go to a Dask cluster in shards (--shard-seeds),
one task each, and each worker starts the implementation itself ('horserace' as the
first word of --impl is the worker's own horserace; any other command must run there as
given). A finding stops the campaign at the grain of a shard: no shard starts once one
has come back, the shards running finish theirs, and the output lists exactly the seed
ranges tried (--keep-going: every shard runs every seed, as a local run does). A worker
that dies loses nothing: Dask runs its shard again elsewhere, and the shard counts once.

Exit 0: no disagreement; 1: one was found (one in a local run, one per cluster shard at
most, unless --keep-going).

examples:
  horserace fuzz --impl "python3 my_adapter.py" --budget 10000 --jobs 2
  horserace fuzz --impl "./engine --serve" --kind illegal --strict-rule-ids
  horserace fuzz --impl "./engine --serve" --players 4 --partnership --rules long-match
  horserace fuzz --impl "./engine --serve" --budget 5000 --keep-going
  horserace fuzz --impl "./engine --serve" --budget 1000000 --cluster tcp://10.0.0.5:8786
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME, help=HELP[NAME], description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--impl",
        metavar="COMMAND",
        help="the implementation's command line (default: the reference engine, 'horserace serve')",
    )
    p.add_argument("--seed", type=int, default=0, help="first seed (default: 0)")
    p.add_argument(
        "--budget",
        type=count(1, 10**9),
        default=1000,
        metavar="N",
        help="seeds to try, each making one scenario per kind (default: 1000)",
    )
    jobs_option(
        p,
        "worker processes running the shards of the seed range, one implementation process each; "
        "the results are the same for every N",
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        metavar="S",
        help="seconds per scenario, as conform's per fixture (default: 10); a scenario not answered "
        "in time is a finding, not shrunk",
    )
    p.add_argument(
        "--kind",
        action="append",
        choices=KINDS,
        metavar="KIND",
        help=f"make only scenarios of this kind (repeatable; default: all of {', '.join(KINDS)})",
    )
    p.add_argument(
        "--players", type=int, choices=(2, 3, 4), help="only tables of this many players (default: every table in turn)"
    )
    p.add_argument("--partnership", action="store_true", help="only the partnership game (four players in two pairs)")
    p.add_argument(
        "--strict-rule-ids",
        action="store_true",
        help="an illegal scenario passes only if the implementation names the reference engine's rule ID",
    )
    p.add_argument(
        "--out",
        default="fuzz-findings",
        metavar="DIR",
        help="where findings are written, under DIR/generated/ (default: ./fuzz-findings)",
    )
    cluster_option(p, "fuzz in seed-range shards, one task each,")
    p.add_argument(
        "--shard-seeds",
        type=count(1, 10**9),
        metavar="N",
        help="with --cluster: seeds per shard (default: at most 400, and at least 4 shards per worker)",
    )
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="a finding does not stop the run: every seed runs, and the findings are grouped by cause, "
        "each cause shrunk once",
    )
    p.add_argument(
        "--shrink-all",
        action="store_true",
        help="with --keep-going: shrink and write every finding, not one per cause (slower)",
    )
    variant_options(
        p,
        "apply this reading of the register on top of each --rules (repeatable); the implementation must declare it",
        rules_help="repeatable: the seeds go through them in turn (default: the implementation's readings, target 61)",
    )
    format_option(p)


def _seatings(args: argparse.Namespace) -> tuple[Seating, ...]:
    """The tables of --players and --partnership (default: every one)."""
    if args.partnership and args.players not in (None, 4):
        raise UsageError("--partnership needs four players: leave out --players or give --players 4")
    chosen = tuple(
        s
        for s in SEATINGS
        if (args.players is None or s.players == args.players) and (not args.partnership or s.partnership)
    )
    if args.players == 4 and not args.partnership:
        chosen = tuple(s for s in chosen if not s.partnership)
    return chosen


def run(args: argparse.Namespace) -> int:
    from horserace.quality.fuzz import Plan, fuzz
    from horserace.reports.command_text import fuzz_text

    argv = impl_argv(args.impl)
    plan = Plan(
        kinds=tuple(dict.fromkeys(args.kind)) if args.kind else KINDS,
        seatings=_seatings(args),
        rulesets=tuple(rulesets_from(args)),
        strict_rule_ids=args.strict_rule_ids,
    )
    bar = progress(sys.stderr.isatty())
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if bar:
            bar(f"fuzz: {done[0]:,}/{args.budget:,} seeds")

    if args.shrink_all and not args.keep_going:
        raise UsageError("--shrink-all goes with --keep-going (without it a run stops at its first finding)")
    if args.cluster is None:
        if args.shard_seeds is not None:
            raise UsageError("--shard-seeds is for a campaign on a cluster: give --cluster too")
        with unwound_by_signals():
            result = fuzz(
                argv,
                args.seed,
                args.budget,
                plan=plan,
                jobs=args.jobs,
                timeout=args.timeout,
                out_dir=args.out,
                progress=tick,
                keep_going=args.keep_going,
                shrink_all=args.shrink_all,
            )
        clear_progress(bar)
        write_out(json.dumps(result.to_dict(), indent=2) if args.format == "json" else fuzz_text(result))
        if result.stopped_by is not None:
            return said_stopped(
                result.stopped_by, f"the summary holds the {result.seeds_tried:,} seed(s) fuzzed before"
            )
        return ExitCode.FAILURES if result.findings else ExitCode.OK
    if args.timeout is not None:
        raise UsageError("--timeout is for a local run; on a cluster each scenario has 10 s: leave it out")
    if args.jobs != 1:
        raise UsageError("--jobs is for a local run; on a cluster the workers run the shards: leave it out")
    with cluster_client(args.cluster) as client:
        from horserace.cluster.fuzz import fuzz_on

        result, ran = fuzz_on(
            client,
            args.cluster,
            argv,
            args.seed,
            args.budget,
            plan=plan,
            shard_size=args.shard_seeds,
            out_dir=args.out,
            keep_going=args.keep_going,
            shrink_all=args.shrink_all,
            progress=tick,
        )
    clear_progress(bar)
    if args.format == "json":
        write_out(json.dumps(result.to_dict() | {"cluster": ran.to_dict()}, indent=2))
    else:
        write_out(fuzz_text(result) + "\n" + ran.text())
    if result.stopped_by is not None:
        return said_stopped(result.stopped_by, f"the summary holds the {result.seeds_tried:,} seed(s) fuzzed before")
    return ExitCode.FAILURES if result.findings else ExitCode.OK
