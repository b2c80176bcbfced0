"""The ``horserace`` command line.

Every subcommand exits with a code from :class:`horserace.exitcodes.ExitCode`; no
traceback reaches a user unless ``--debug`` asks for it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Sequence

from horserace import __version__
from horserace.errors import HorseRaceError
from horserace.exitcodes import ExitCode
from horserace.match import Match
from horserace.observe import event_record
from horserace.playout import play_random_hand
from horserace.render import event_line
from horserace.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.tiles import NAMES


class UsageError(Exception):
    """The command line is wrong (exit code 4)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 by default; our table says 4
        raise UsageError(f"{self.prog}: {message}\n{self.format_usage().rstrip()}")


def _variant(text: str) -> tuple[str, str]:
    field, sep, reading = text.partition("=")
    field = field.strip().replace("-", "_")
    if not sep or field not in VARIANT_FIELDS or reading not in VARIANT_FIELDS[field]:
        known = "; ".join(f"{f}={'|'.join(r)}" for f, r in VARIANT_FIELDS.items())
        raise argparse.ArgumentTypeError(f"{text!r} is not a register variant; known: {known}")
    return field, reading


def _ruleset(args: argparse.Namespace) -> Ruleset:
    ruleset = CANONICAL
    for field, reading in args.variant or ():
        ruleset = ruleset.with_variant(field, reading)
    if args.target is not None:
        if args.target < 1:
            raise UsageError("--target must be a positive whole number")
        from dataclasses import replace

        ruleset = replace(ruleset, target=args.target)
    return ruleset


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="horserace",
        description="Horse Race (Fives family dominoes): reference engine, specification tools "
        "and benchmarks.",
        epilog="Exit codes: 0 success; 1 failures or differences found; 2 invalid input data; "
        "3 implementation under test unusable; 4 usage error; 5 internal error.",
    )
    parser.add_argument("--version", action="version", version=f"horserace {__version__}")
    parser.add_argument("--debug", action="store_true", help="show a traceback on internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    play = sub.add_parser(
        "play",
        help="play and print a seeded sample hand (or match) with random legal placements",
        description="Play a seeded sample hand with uniformly random legal placements and print "
        "every event. The same seed always gives the same game.",
    )
    play.add_argument("--seed", type=int, default=1, help="random seed (default: 1)")
    play.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="number of players (default: 2)")
    play.add_argument("--partnership", action="store_true", help="four players in two fixed pairs")
    play.add_argument("--match", action="store_true", help="play a whole match to the target, not one hand")
    play.add_argument("--target", type=int, help="target score in displayed points (default: 61)")
    play.add_argument(
        "--variant",
        action="append",
        type=_variant,
        metavar="FIELD=READING",
        help="select a reading of the interpretations register, e.g. block_detection=round-of-passes "
        "(repeatable)",
    )
    play.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")

    bench = sub.add_parser(
        "bench",
        help="measure random hands per second and memory",
        description="Measure random hands per second (uniform random legal placements, seeded) for "
        "2, 3 and 4 players and partnerships, with events on and off, and peak memory. "
        "Prints medians over repeats.",
    )
    bench.add_argument("--hands", type=int, default=10_000, help="hands per run (default: 10000)")
    bench.add_argument("--repeat", type=int, default=5, help="runs per configuration; the median is shown (default: 5)")
    bench.add_argument("--seed", type=int, default=1, help="random seed of the first run (default: 1)")
    bench.add_argument(
        "--soak", type=int, default=0, metavar="N",
        help="also play N two-player hands and sample resident memory to show it stays flat",
    )
    bench.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    bench.add_argument("--corpus", action="store_true",
                       help="also measure fixture loading (against a bare CSafeLoader parse) and replay throughput")
    bench.add_argument("--corpus-fixtures", type=int, default=10_000, metavar="N",
                       help="generated fixtures for --corpus (default: 10000)")

    replay = sub.add_parser(
        "replay",
        help="validate and replay scenario fixtures against the reference engine",
        description="Load fixtures strictly (YAML, schema, meaning) and replay each against the "
        "reference engine, comparing expected and actual observations field by field.",
    )
    replay.add_argument("paths", nargs="*", metavar="PATH", help="fixture files or folders (default: the bundled corpus)")
    _selection_options(replay)
    replay.add_argument(
        "--variant", action="append", type=_variant, metavar="FIELD=READING",
        help="replay under a ruleset with this reading of the register; fixtures for other readings "
        "are skipped (repeatable; default: each fixture under its own readings)",
    )
    replay.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")

    coverage = sub.add_parser(
        "coverage",
        help="rule IDs against fixtures; fails on rules or readings without fixtures",
        description="Print the matrix of rule IDs against the fixtures that cite them. Fails (exit 1) "
        "when a rule has fewer than two fixtures or a register reading has no fixture.",
    )
    coverage.add_argument("paths", nargs="*", metavar="PATH", help="fixture files or folders (default: the bundled corpus)")
    coverage.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    return parser


def _selection_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--select", action="append", metavar="WHAT",
                   help="only fixtures matching a fixture ID, rule ID or kind (id:, rule:, kind: to be explicit; repeatable)")
    p.add_argument("--deselect", action="append", metavar="WHAT", help="leave out fixtures matching WHAT (repeatable)")


def _progress(enabled: bool):
    if not enabled:
        return None

    def show(message: str) -> None:
        sys.stderr.write(f"\r\033[K{message}")
        sys.stderr.flush()

    return show


def cmd_play(args: argparse.Namespace) -> int:
    ruleset = _ruleset(args)
    if args.partnership and args.players != 4:
        raise UsageError("--partnership needs --players 4")
    match = Match(args.players, partnership=args.partnership, ruleset=ruleset, seed=args.seed)
    hands_out = []
    while True:
        opener, by_lot = match.opener, match.opener_by_lot
        hand = match.deal()
        dealt = [hand.hand_tiles(s) for s in range(hand.seats)]
        boneyard = list(hand.boneyard)
        scores_before = list(match.scores)
        play_random_hand(hand, match.rng)
        match.finish(hand)
        hands_out.append((opener, by_lot, dealt, boneyard, scores_before, hand))
        if not args.match or match.over:
            break
    if args.format == "json":
        doc = {
            "seed": args.seed,
            "players": args.players,
            "mode": "partnership" if args.partnership else "individual",
            "variants": ruleset.variants,
            "target": ruleset.target,
            "hands": [
                {
                    "opener": opener,
                    "opener_by_lot": by_lot,
                    "hands": [[NAMES[t] for t in h] for h in dealt],
                    "boneyard": [NAMES[t] for t in boneyard],
                    "scores_before": scores_before,
                    "events": [event_record(e) for e in hand.events],
                }
                for opener, by_lot, dealt, boneyard, scores_before, hand in hands_out
            ],
            "scores": match.scores,
            "match_winners": list(match.winners),
        }
        print(json.dumps(doc, indent=2))
        return ExitCode.OK
    mode = "partnership (pairs: seats 0+2, 1+3)" if args.partnership else f"{args.players} players"
    variants = ", ".join(f"{k}={v}" for k, v in ruleset.variants.items()) or "canonical rules"
    print(f"Horse Race, {mode}, seed {args.seed}, {variants}, target {ruleset.target}")
    for number, (opener, by_lot, dealt, boneyard, scores_before, hand) in enumerate(hands_out, 1):
        print()
        how = "by lot" if by_lot else "placed the last tile of the previous hand"
        print(f"Hand {number}: scores {scores_before}; opener seat {opener} ({how})")
        for seat, tiles in enumerate(dealt):
            print(f"  seat {seat} holds {' '.join(NAMES[t] for t in tiles)}")
        print(f"  boneyard ({len(boneyard)}, in draw order): {' '.join(NAMES[t] for t in boneyard)}")
        for event in hand.events:
            print(f"  {event_line(event, partnership=args.partnership)}")
    if args.match and not match.over:
        print("\nthe match did not finish")
    return ExitCode.OK


def cmd_bench(args: argparse.Namespace) -> int:
    from horserace import bench

    if args.hands < 1 or args.repeat < 1 or args.soak < 0:
        raise UsageError("--hands and --repeat must be at least 1, --soak at least 0")
    progress = _progress(sys.stderr.isatty())
    figures = bench.measure_play(args.hands, args.repeat, args.seed, progress)
    soak_result = bench.soak(args.soak, seed=args.seed, progress=progress) if args.soak else None
    corpus_result = bench.measure_corpus(args.corpus_fixtures, progress=progress) if args.corpus else None
    if progress:
        sys.stderr.write("\r\033[K")
    result = bench.report(figures, soak_result, corpus_result)
    print(json.dumps(result, indent=2) if args.format == "json" else bench.format_text(result))
    return ExitCode.OK


def _load(paths: list[str]):
    from horserace.fixtures import load_paths

    for p in paths:
        from pathlib import Path

        if not Path(p).exists():
            raise UsageError(f"horserace: no such file or folder: {p}")
    return load_paths(paths or None)


def _print_load_errors(corpus, fmt: str) -> int:
    if fmt == "json":
        print(json.dumps({"errors": [e.to_dict() for e in corpus.errors]}, indent=2))
    else:
        for e in corpus.errors:
            print(e.render(), file=sys.stderr)
        print(f"{len(corpus.errors)} invalid fixture input(s) in {corpus.files} file(s); nothing was replayed",
              file=sys.stderr)
    return ExitCode.INVALID_INPUT


def cmd_replay(args: argparse.Namespace) -> int:
    import time

    from horserace.replay import replay_fixture, select

    start = time.perf_counter()
    corpus = _load(args.paths)
    if corpus.errors:
        return _print_load_errors(corpus, args.format)
    ruleset = _ruleset(argparse.Namespace(variant=args.variant, target=None)) if args.variant else None
    fixtures = select(corpus.fixtures, args.select, args.deselect)
    results = [replay_fixture(fx, ruleset) for fx in fixtures]
    elapsed = time.perf_counter() - start
    counts = {s: sum(1 for r in results if r.status == s) for s in ("pass", "fail", "error", "skip")}
    bad = counts["fail"] + counts["error"]
    if args.format == "json":
        print(json.dumps({"summary": {"fixtures": len(results), **counts, "seconds": round(elapsed, 3),
                                      "variants": ruleset.variants if ruleset else "each fixture's own"},
                          "results": [r.to_dict() for r in results]}, indent=2))
    else:
        for r in results:
            if r.status in ("fail", "error"):
                fx = r.fixture
                print(f"{r.status.upper()} {fx.id} [{fx.kind}] ({fx.primary_rule}) {fx.file}:{fx.line}: {fx.description}")
                if r.message:
                    print(f"  {r.message}")
                for d in r.differences[:20]:
                    print(f"  {d.path}: expected {json.dumps(d.expected)}, got {json.dumps(d.actual)}")
                if len(r.differences) > 20:
                    print(f"  ... and {len(r.differences) - 20} more differences")
        print(f"replayed {len(results)} fixture(s) from {corpus.files} file(s): {counts['pass']} passed, "
              f"{counts['fail']} failed, {counts['error']} error(s), {counts['skip']} skipped ({elapsed:.2f} s)")
    return ExitCode.FAILURES if bad else ExitCode.OK


def cmd_coverage(args: argparse.Namespace) -> int:
    from horserace.coverage import coverage_report, format_text

    corpus = _load(args.paths)
    if corpus.errors:
        return _print_load_errors(corpus, args.format)
    report = coverage_report(corpus.fixtures)
    print(json.dumps(report, indent=2) if args.format == "json" else format_text(report))
    return ExitCode.FAILURES if report["gaps"] else ExitCode.OK


COMMANDS = {"play": cmd_play, "bench": cmd_bench, "replay": cmd_replay, "coverage": cmd_coverage}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    debug = "--debug" in (sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return ExitCode.USAGE
        return COMMANDS[args.command](args)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return ExitCode.USAGE
    except HorseRaceError as exc:
        print(f"horserace: {exc}", file=sys.stderr)
        return ExitCode.INVALID_INPUT
    except KeyboardInterrupt:
        print("horserace: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return ExitCode.OK
    except Exception as exc:  # a defect of ours: one line, not a traceback
        if debug:
            raise
        print(f"horserace: internal error: {type(exc).__name__}: {exc} (rerun with --debug for details)", file=sys.stderr)
        return ExitCode.INTERNAL


def entry_point() -> None:
    sys.exit(main())
