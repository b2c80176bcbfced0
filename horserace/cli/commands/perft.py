"""``horserace perft``: count the move sequences of a given depth from a position."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from horserace.cli._options import (
    clear_progress,
    cluster_client,
    cluster_option,
    count,
    format_option,
    impl_argv,
    load_corpus,
    print_load_errors,
    progress,
    ruleset_from,
    said_stopped,
    seconds,
    unwound_by_signals,
    variant_options,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError, close_to, did_you_mean

if TYPE_CHECKING:
    from collections.abc import Callable

    from horserace.cluster.tasks import Ran
    from horserace.corpus.fixture import Corpus, Fixture
    from horserace.corpus.positions import Count, Position
    from horserace.engine.hand import Hand
    from horserace.engine.ruleset import Ruleset

    #: What ``progress`` gives: a function that shows a line of progress, or None.
    Bar = Callable[[str], None] | None

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
  table:NAME              a perft table's position at its deepest depth, e.g.
                          table:seed-1-players-3 ('horserace perft --tables' lists them)

A move is a distinct legal placement (mirror-image ports are one move, HR-MOVE-2) or,
under continuation=optional, ending a continuation ("end-turn"); forced draws and passes
are made between moves and are not moves; a hand that ends before the depth is one leaf
(spec/fixture-format.md, "perft"). Nodes are those leaves. --divide splits them by first
move, as chess perft tools do, to find where two engines part: count the same position
on both, then follow the first move whose counts differ one ply deeper.

--moves M1,M2 descends those moves first (the names of a divide; forced draws and passes
are made between them) and counts there, at the depth asked (default: the fixture's
depth less the moves made). --impl CMD also asks an implementation for its count and
divide of that position through the protocol (as a one-off perft fixture), and tables
both, the first move whose counts differ marked, with the command that descends it.

examples:
  horserace perft K5N2P7 --depth 8
  horserace perft scenarios/rule-text/perft.yaml#0FSP7G --divide
  horserace perft seed:7:players=3 --depth 6 --format json
  horserace perft seed:1 --depth 5 --variant continuation=optional --divide
  horserace perft seed:1:players=4 --depth 12 --divide --cluster local:2
  horserace perft seed:1 --depth 4 --moves '[0|6],[0|5] [0|6] low' --divide
  horserace perft K5N2P7 --depth 6 --divide --impl "python3 my_adapter.py"
  horserace perft --tables
  horserace perft --table seed-1-players-3

With --cluster (and --divide), each first move is a task on a Dask cluster, counted to
depth N-1 below it on a worker; the table and the total are those of a count here.

Exit codes: 0 counted (with --impl: both sides agree); 1 with --impl, the counts differ;
2 the fixture file is invalid; 3 the implementation cannot be used (no handshake, no
perft, an error, a crash or a timeout); 4 the position, a move, the depth or an option is
wrong (a fixture that does not exist or is not a perft fixture); 130 Ctrl-C.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Count the move sequences of a given depth from a position (perft), by make and\n"
        "unmake on the reference engine, and say how long it took; after named moves (--moves), and beside\n"
        "an implementation's own count and divide (--impl), the first move on which they differ marked.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "position",
        metavar="POSITION",
        nargs="?",
        help="a perft fixture (ID or FILE#ID), a seeded deal (seed:N...) or a perft table (table:NAME)",
    )
    p.add_argument(
        "--depth",
        type=count(1, MAX_DEPTH),
        metavar="N",
        help="moves deep (default: the fixture's own depth, less the --moves made; a seeded deal needs it)",
    )
    p.add_argument("--divide", action="store_true", help="also give each first move's share of the nodes")
    p.add_argument(
        "--moves",
        type=_moves,
        metavar="M1,M2,...",
        help="descend these moves first (names of a divide, comma-separated), then count there",
    )
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
    p.add_argument(
        "--impl",
        metavar="CMD",
        help="also ask this implementation (its command line, split like a POSIX shell) for its count and divide, "
        "through the protocol, and table both",
    )
    p.add_argument("--one-shot", action="store_true", help="with --impl: start the command once per message")
    p.add_argument(
        "--timeout", type=seconds, default=60.0, metavar="S", help="with --impl: seconds for its count (default: 60)"
    )
    p.add_argument(
        "--handshake-timeout",
        type=seconds,
        default=10.0,
        metavar="S",
        help="with --impl: seconds for the handshake (default: 10)",
    )
    tables = p.add_mutually_exclusive_group()
    tables.add_argument("--tables", action="store_true", help="list the perft tables this installation carries")
    tables.add_argument("--table", metavar="NAME", help="show a perft table: its position's nodes at each depth")
    cluster_option(p, "with --divide: count below each first move as a task of its own,")
    format_option(p)


def _moves(text: str) -> list[str]:
    """An argparse type: moves separated by commas (a move's name has no comma)."""
    moves = [m.strip() for m in text.split(",")]
    if not all(moves):
        raise argparse.ArgumentTypeError(f"{text!r}: an empty move; give move names separated by commas")
    return moves


def run(args: argparse.Namespace) -> int:
    from horserace.corpus import positions
    from horserace.engine.hand import Hand

    if args.tables or args.table:
        try:
            return _tables(args)
        except _InvalidFile as exc:
            return print_load_errors(exc.corpus, args.format)
    if args.position is None:
        raise UsageError(
            "horserace perft: give a POSITION (a perft fixture, seed:N... or table:NAME), or --tables to list the tables"
        )
    try:
        position = _position(args)
    except _InvalidFile as exc:
        return print_load_errors(exc.corpus, args.format)
    ruleset = position.ruleset
    if args.rules or args.variant:  # the command line's readings on top of the position's
        for field, reading in ruleset_from(args).variants.items():
            ruleset = ruleset.with_variant(field, reading)
    engine: type[Hand] = Hand
    if args.mutant:
        from horserace.quality.mutants import named as mutant_named

        engine = mutant_named(args.mutant).engine
    moves: list[str] = args.moves or []
    depth = _depth(args, position, moves)
    if args.impl is not None:
        return _against(args, position, depth, ruleset, engine, moves)
    bar = progress(sys.stderr.isatty())
    ran = stopped = None
    if args.cluster is None:
        result = positions.count(
            position, depth, ruleset, engine=engine, progress=_after_a_while(bar, depth), moves=moves
        )
    else:
        result, ran, stopped = _on_cluster(args, position, moves, depth, ruleset, engine, bar)
    clear_progress(bar)
    return _said(args, result, ran, stopped)


def _on_cluster(
    args: argparse.Namespace,
    position: Position,
    moves: list[str],
    depth: int,
    ruleset: Ruleset,
    engine: type[Hand],
    bar: Bar,
) -> tuple[Count, Ran, BaseException | None]:
    """``--cluster``: the count and its divide, a task per first move; what ran; the stop."""
    from dataclasses import replace

    if not args.divide:
        raise UsageError("horserace perft: --cluster splits the count by first move: give --divide too")
    counted = _sent(position, moves, ruleset, engine, "--cluster")
    with cluster_client(args.cluster) as client:
        from horserace.cluster.perft import count_on

        result, ran, stopped = count_on(
            client, args.cluster, counted, depth, ruleset, mutant=args.mutant, progress=_after_a_while(bar, depth)
        )
    return replace(result, position=position, moves=tuple(moves)), ran, stopped


def _said(args: argparse.Namespace, result: Count, ran: Ran | None, stopped: BaseException | None) -> int:
    """The count as text or JSON (what ran on a cluster too); the exit code."""
    from horserace.reports.command_text import perft_text

    if args.format == "json":
        doc = result.to_dict(with_divide=args.divide)
        if args.mutant:
            doc["mutant"] = args.mutant
        if ran is not None:
            doc["cluster"] = ran.to_dict()
        if stopped is not None:
            doc["complete"] = False  # the nodes and divide of the first moves counted before the stop
        write_out(json.dumps(doc, indent=2))
    else:
        of_moves = ran.tasks if stopped is not None and ran is not None else None
        text = perft_text(result, divide=args.divide, mutant=args.mutant, of_moves=of_moves)
        write_out(text + (f"\n{ran.text()}" if ran else ""))
    if stopped is not None and ran is not None:
        return said_stopped(
            stopped,
            f"the count above is of the {ran.finished} of {ran.tasks} first moves counted before, not the position's",
        )
    return ExitCode.OK


class _InvalidFile(Exception):
    """A fixture file that does not load: its errors are printed as every command prints them."""

    def __init__(self, corpus: Corpus) -> None:
        super().__init__(f"{len(corpus.errors)} invalid fixture(s)")
        self.corpus = corpus


def _position(args: argparse.Namespace) -> Position:
    """The position POSITION names: a fixture's, a table's deepest fixture's, or a seed's
    deal (dealt under the command line's readings and target)."""
    from horserace.corpus import positions
    from horserace.resources.paths import perft_tables

    named = positions.parse_position(args.position)
    if isinstance(named, positions.SeedName):
        return positions.from_seed(named, ruleset_from(args))
    if isinstance(named, positions.TableName):
        return _table_fixtures(named.name)[-1][1]
    corpus = load_corpus([named.file] if named.file else [])
    if corpus.errors:
        raise _InvalidFile(corpus)
    found = [fx for fx in corpus.fixtures if fx.id == named.id]
    if not found:
        where = named.file or "the bundled corpus"
        hint = ""
        if not named.file:  # a fixture of a perft table, outside the default corpus?
            from horserace.resources.paths import display_path

            for name, path in perft_tables().items():
                if f"id: {named.id}\n" in path.read_text(encoding="utf-8"):
                    hint = f" (it is in the perft table {name}: give {display_path(path)}#{named.id})"
                    break
        raise UsageError(f"horserace perft: no fixture {named.id} in {where}{hint}")
    return positions.from_fixture(found[0])


def _depth(args: argparse.Namespace, position: Position, moves: list[str]) -> int:
    """--depth, else the fixture's own depth less the moves descended."""
    if args.depth is not None:
        return int(args.depth)
    if position.depth is None:
        raise UsageError(f"horserace perft {args.position}: a seeded deal has no depth of its own; give --depth N")
    left = position.depth - len(moves)
    if left < 1:
        raise UsageError(
            f"horserace perft {args.position}: the fixture's depth {position.depth} leaves nothing to count below "
            f"{len(moves)} move(s); give --depth N"
        )
    return left


def _sent(position: Position, moves: list[str], ruleset: Ruleset, engine: type[Hand], option: str) -> Position:
    """The position the moves lead to, written as the protocol sends positions (a
    :class:`UsageError` saying why where it cannot be written)."""
    if not moves:
        return position
    from horserace.corpus import positions

    descent = positions.descend(position, moves, ruleset, engine)
    if descent.written is None:
        raise UsageError(f"horserace perft {option} --moves: {descent.unwritten}")
    return descent.written


def _against(
    args: argparse.Namespace, position: Position, depth: int, ruleset: Ruleset, engine: type[Hand], moves: list[str]
) -> int:
    """--impl: the implementation's count and divide beside the reference's."""
    from horserace.cli.exitcodes import Stopped
    from horserace.conformance.perft import compare
    from horserace.conformance.runner import Options
    from horserace.conformance.supervisor import Supervisor
    from horserace.reports.command_text import perft_side_by_side_text

    if args.cluster is not None:
        raise UsageError("horserace perft: --impl counts on the implementation here; give no --cluster with it")
    argv = impl_argv(args.impl)
    sent = _sent(position, moves, ruleset, engine, "--impl")
    options = Options(
        timeout=args.timeout,
        handshake_timeout=args.handshake_timeout,
        one_shot=args.one_shot,
    )
    supervisor = Supervisor(own_process=args.own_process)
    try:
        with unwound_by_signals():
            result = compare(
                argv, sent, depth, ruleset, options, engine=engine, moves=moves, shown=position, supervisor=supervisor
            )
    except (KeyboardInterrupt, Stopped):
        supervisor.kill_all()
        raise
    first = result.first_difference
    following = None
    unsendable = ""
    if first is not None and first.reference is not None and depth > 1:
        from horserace.corpus import positions

        below = positions.descend(position, [*moves, first.move], ruleset, engine)
        if below.written is not None:
            following = _descend_command(args, [*moves, first.move], depth - 1)
        else:
            unsendable = below.unwritten
    if args.format == "json":
        doc = result.to_dict()
        if args.mutant:
            doc["mutant"] = args.mutant
        doc["next"] = following
        if unsendable:
            doc["next_unsendable"] = unsendable
        write_out(json.dumps(doc, indent=2))
    else:
        text = perft_side_by_side_text(result, mutant=args.mutant, next_command=following)
        write_out(text + (f"\nnot descended: {unsendable}" if unsendable else ""))
    return ExitCode.OK if result.agree else ExitCode.FAILURES


def _descend_command(args: argparse.Namespace, moves: list[str], depth: int) -> str:
    """The command line that counts one move deeper, down the first difference."""
    import shlex

    words = ["horserace", "perft", args.position, "--moves", ",".join(moves), "--depth", str(depth), "--divide"]
    for field, reading in args.variant or []:
        words += ["--variant", f"{field}={reading}"]
    if args.rules:
        words += ["--rules", args.rules]
    if args.mutant:
        words += ["--mutant", args.mutant]
    words += ["--impl", args.impl]
    if args.one_shot:
        words.append("--one-shot")
    return shlex.join(words)


def _table_fixtures(name: str) -> list[tuple[int, Position, int, Fixture]]:
    """A perft table's fixtures, by depth: ``[(depth, position, nodes, fixture)]``."""
    from horserace.corpus import positions
    from horserace.resources.paths import perft_tables

    tables = perft_tables()
    if name not in tables:
        close = close_to(name, tables, cutoff=0.5)
        hint = f"; {did_you_mean(close)}" if close else ""
        listed = ", ".join(tables) or "none (this installation carries no perft tables)"
        raise UsageError(f"horserace perft: no perft table {name!r}{hint} (the tables: {listed})")
    corpus = load_corpus([str(tables[name])])
    if corpus.errors:
        raise _InvalidFile(corpus)
    rows = [
        (fx.input["depth"], positions.from_fixture(fx), fx.expected["nodes"], fx)
        for fx in corpus.fixtures
        if fx.kind == "perft"
    ]
    rows.sort(key=lambda row: row[0])
    return [(depth, pos, nodes, fx) for depth, pos, nodes, fx in rows]


def _tables(args: argparse.Namespace) -> int:
    """--tables (every table, in a line each) and --table NAME (a table's counts by depth)."""
    from horserace.resources.paths import display_path, perft_tables, perft_tables_dir

    if args.position is not None or args.moves or args.impl or args.cluster:
        raise UsageError(
            "horserace perft: --tables and --table show the bundled tables; give no POSITION, --moves or --impl"
        )
    names = [args.table] if args.table else list(perft_tables())
    tables = []
    for name in names:
        rows = _table_fixtures(name)
        first = rows[0][3]
        tables.append(
            {
                "name": name,
                "position": first.description.split("(", 1)[1].split(")", 1)[0] if "(" in first.description else name,
                "seats": first.input["seats"],
                "mode": first.input["mode"],
                "depths": [rows[0][0], rows[-1][0]],
                "nodes": {str(depth): nodes for depth, _, nodes, _ in rows},
                "ids": {str(depth): fx.id for depth, _, _, fx in rows},
                "file": display_path(perft_tables()[name]),
            }
        )
    if args.format == "json":
        doc = {"folder": display_path(perft_tables_dir()), "tables": tables}
        write_out(json.dumps(doc if not args.table else tables[0], indent=2))
        return ExitCode.OK
    if args.table:
        (t,) = tables
        lines = [f"perft table {t['name']} ({t['position']}, {t['seats']} seats, {t['mode']}): {t['file']}"]
        lines += [f"  depth {depth:>2}  {nodes:>12,}  {t['ids'][depth]}" for depth, nodes in t["nodes"].items()]
        lines.append(
            f"count one: horserace perft table:{t['name']} --depth N --divide; "
            f"against an implementation: horserace conform --impl CMD {t['file']}"
        )
    else:
        lines = [f"perft tables in {display_path(perft_tables_dir())}:"]
        width = max((len(t["name"]) for t in tables), default=0)
        for t in tables:
            deepest = str(t["depths"][1])
            lines.append(
                f"  {t['name']:<{width}}  {t['position']:<30}  depths {t['depths'][0]}-{deepest:<3}"
                f"  {t['nodes'][deepest]:>9,} nodes at the deepest"
            )
        lines.append("show one: horserace perft --table NAME; count one: horserace perft table:NAME --depth N --divide")
    write_out("\n".join(lines))
    return ExitCode.OK


def _after_a_while(bar: Bar, depth: int) -> Callable[[int, float], None] | None:
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
