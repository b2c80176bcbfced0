"""``horserace perft``: count the move sequences of a given depth from a position."""

from __future__ import annotations

import argparse
import json
import sys
import time

from horserace.cli._options import (
    clear_progress,
    cluster_option,
    count,
    format_option,
    load_corpus,
    print_load_errors,
    progress,
    ruleset_from,
    unwound_by_signals,
    variant_options,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError

__all__ = ["NAME", "register", "run"]

NAME = "perft"

#: The deepest count the command line takes: no hand has this many moves.
MAX_DEPTH = 100
#: A count shows its progress on a terminal once it has run this long (seconds).
_QUIET_FOR = 0.5

_EPILOG = """\
positions:
  ID                      a perft fixture of the bundled corpus, e.g. K5N2P7
  FILE#ID                 a perft fixture of a fixture file,
                          e.g. scenarios/rule-text/perft.yaml#H4NZXF
  seed:N[:players=P][:partnership]
                          the deal of 'horserace play --seed N --players P' (P = 2, 3 or 4),
                          e.g. seed:7:players=3 or seed:1:players=4:partnership

A move is a distinct legal placement (mirror-image ports are one move, HR-MOVE-2) or,
under continuation=optional, ending a continuation ("end-turn"); forced draws and passes
are made between moves and are not moves; a hand that ends before the depth is one leaf
(spec/fixture-format.md, "perft"). Nodes are those leaves. --divide splits them by first
move, as chess perft tools do, to find where two engines part: count the same position
on both, then follow the first move whose counts differ one ply deeper.

examples:
  horserace perft K5N2P7 --depth 8
  horserace perft scenarios/rule-text/perft.yaml#0FSP7G --divide
  horserace perft seed:7:players=3 --depth 6 --format json
  horserace perft seed:1 --depth 5 --variant continuation=optional --divide
  horserace perft seed:1:players=4 --depth 12 --divide --cluster local:2

With --cluster (and --divide), each first move is a task on a Dask cluster, counted to
depth N-1 below it on a worker; the table and the total are those of a count here.

Exit codes: 0 counted; 2 the fixture file is invalid; 4 the position, the depth or an
option is wrong (a fixture that does not exist or is not a perft fixture); 130 Ctrl-C.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Count the move sequences of a given depth from a position (perft), by make and\n"
        "unmake on the reference engine, and say how long it took.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("position", metavar="POSITION", help="a perft fixture (ID or FILE#ID) or a seeded deal (seed:N...)")
    p.add_argument(
        "--depth",
        type=count(1, MAX_DEPTH),
        metavar="N",
        help="moves deep (default: the fixture's own depth; a seeded deal needs it)",
    )
    p.add_argument("--divide", action="store_true", help="also give each first move's share of the nodes")
    variant_options(
        p,
        "count under this reading of the register, on top of the fixture's own readings "
        "(repeatable), e.g. continuation=optional",
    )
    p.add_argument(
        "--mutant",
        metavar="NAME",
        help="count with a named deviation of the engine, a mutant or a house rule ('horserace mutants --list')",
    )
    cluster_option(p, "with --divide: count below each first move as a task of its own,")
    format_option(p)


def run(args: argparse.Namespace) -> int:
    from horserace.corpus import positions
    from horserace.engine.hand import Hand
    from horserace.reports.command_text import perft_text

    named = positions.parse_position(args.position)
    ruleset_given = bool(args.rules or args.variant)
    if isinstance(named, positions.SeedName):
        position = positions.from_seed(named, ruleset_from(args))
    else:
        corpus = load_corpus([named.file] if named.file else [])
        if corpus.errors:
            return print_load_errors(corpus, args.format)
        found = [fx for fx in corpus.fixtures if fx.id == named.id]
        if not found:
            where = named.file or "the bundled corpus"
            raise UsageError(f"horserace perft: no fixture {named.id} in {where}")
        position = positions.from_fixture(found[0])
    ruleset = position.ruleset
    if ruleset_given:  # the command line's readings on top of the position's
        for field, reading in ruleset_from(args).variants.items():
            ruleset = ruleset.with_variant(field, reading)
    engine: type[Hand] = Hand
    if args.mutant:
        from horserace.quality.mutants import named as mutant_named

        engine = mutant_named(args.mutant).engine
    depth = args.depth if args.depth is not None else position.depth
    if depth is None:
        raise UsageError(f"horserace perft {args.position}: a seeded deal has no depth of its own; give --depth N")
    bar = progress(sys.stderr.isatty())
    ran = None
    if args.cluster is None:
        result = positions.count(position, depth, ruleset, engine=engine, progress=_after_a_while(bar, depth))
    else:
        if not args.divide:
            raise UsageError("horserace perft: --cluster splits the count by first move: give --divide too")
        from horserace.cluster.connect import connected, parse
        from horserace.cluster.perft import count_on

        parse(args.cluster)  # a malformed address is told before anything starts
        with unwound_by_signals(), connected(args.cluster) as client:
            result, ran = count_on(
                client, args.cluster, position, depth, ruleset, mutant=args.mutant, progress=_after_a_while(bar, depth)
            )
    clear_progress(bar)
    if args.format == "json":
        doc = result.to_dict(with_divide=args.divide)
        if args.mutant:
            doc["mutant"] = args.mutant
        if ran is not None:
            doc["cluster"] = ran.to_dict()
        write_out(json.dumps(doc, indent=2))
    else:
        write_out(perft_text(result, divide=args.divide, mutant=args.mutant) + (f"\n{ran.text()}" if ran else ""))
    return ExitCode.OK


def _after_a_while(bar, depth: int):
    """What tells ``bar`` how far a count has come, once it has run for a while (a quick
    count shows nothing), else None."""
    if bar is None:
        return None
    start = time.perf_counter()
    shown = [0.0]

    def tell(nodes: int, done: float) -> None:
        now = time.perf_counter()
        if now - start >= _QUIET_FOR and now - shown[0] >= 0.1:
            shown[0] = now
            bar(f"perft depth {depth}: {nodes:,} nodes, {done:.0%} of the first moves counted")

    return tell
