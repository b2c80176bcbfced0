"""The ``horserace`` command line.

Every subcommand exits with a code from :class:`horserace.cli.exitcodes.ExitCode`; no
traceback reaches a user unless ``--debug`` asks for it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from horserace._version import __version__
from horserace.errors import HorseRaceError
from horserace.cli.exitcodes import ExitCode
from horserace.engine.match import Match
from horserace.corpus.encoding import event_record
from horserace.engine.playout import play_random_hand
from horserace.reports.events_text import event_line
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.engine.tiles import NAMES


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
    """The ruleset of a command line: --rules (a file or a bundled name), then each
    --variant on top, then --target."""
    ruleset = CANONICAL
    if getattr(args, "rules", None):
        from horserace.resources.rulesets import resolve

        ruleset = resolve(args.rules).ruleset
    for field, reading in getattr(args, "variant", None) or ():
        ruleset = ruleset.with_variant(field, reading)
    if getattr(args, "target", None) is not None:
        if args.target < 1:
            raise UsageError("--target must be a positive whole number")
        from dataclasses import replace

        ruleset = replace(ruleset, target=args.target)
    return ruleset


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="horserace",
        description="horserace: the specification suite for Horse Race (Fives family dominoes). "
        "Start with 'horserace conform' to run the scenario corpus against the reference engine, "
        "or against your own implementation with --impl \"COMMAND\" (see spec/protocol.md).",
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
    _variant_option(play, "select a reading of the interpretations register, e.g. "
                    "block_detection=round-of-passes (repeatable)")
    _format_option(play)

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
    _format_option(bench)
    bench.add_argument("--corpus", action="store_true",
                       help="also measure fixture loading (against a bare CSafeLoader parse) and replay throughput")
    bench.add_argument("--corpus-fixtures", type=int, default=10_000, metavar="N",
                       help="generated fixtures for --corpus (default: 10000)")
    bench.add_argument("--conformance", action="store_true",
                       help="also measure the conformance path: protocol against 'horserace serve' vs in-process replay")
    _variant_option(bench, "measure random play under this reading of the register (repeatable)")

    replay = sub.add_parser(
        "replay",
        help="validate and replay scenario fixtures against the reference engine",
        description="Load fixtures strictly (YAML, schema, meaning) and replay each against the "
        "reference engine, comparing expected and actual observations field by field.",
    )
    _paths_option(replay)
    _selection_options(replay)
    _variant_option(replay, "replay under a ruleset with this reading of the register; fixtures for other "
                    "readings are skipped (repeatable; default: each fixture under its own readings)")
    _format_option(replay)

    coverage = sub.add_parser(
        "coverage",
        help="rule IDs against fixtures; fails on rules or readings without fixtures",
        description="Print the matrix of rule IDs against the fixtures that cite them. Fails (exit 1) "
        "when a rule has fewer than two fixtures or a register reading has no fixture.",
    )
    _paths_option(coverage)
    _format_option(coverage)

    serve = sub.add_parser(
        "serve",
        help="speak the conformance protocol with the reference engine on stdin/stdout",
        description="Answer conformance-protocol messages (spec/protocol.md) with the reference "
        "engine: one JSON object per line on stdin, one answer per line on stdout. Works in "
        "persistent and one-shot mode.",
    )
    _variant_option(serve, "follow this reading of the register (repeatable; default: canonical)")
    serve.add_argument("--mutant", metavar="NAME",
                       help="serve a deliberately wrong engine (see 'horserace mutants --list')")

    mutants = sub.add_parser(
        "mutants",
        help="run the corpus against every named mutant of the engine; report killed and surviving ones",
        description="Each mutant is a realistic misreading of one rule, served by 'horserace serve "
        "--mutant NAME'. The corpus is strong when every mutant is killed (exit 0); a surviving "
        "mutant exits 1.",
    )
    mutants.add_argument("--list", action="store_true", help="list the mutants and exit")
    mutants.add_argument("--only", action="append", metavar="NAME", help="run only this mutant (repeatable)")
    mutants.add_argument("--jobs", type=int, default=2, metavar="N", help="mutants run at once (default: 2)")
    _paths_option(mutants)
    _format_option(mutants)

    diff = sub.add_parser(
        "diff",
        help="which outcomes change between two rulesets",
        description="Observe every fixture's input under ruleset A and ruleset B (the fixture's own "
        "scores and target stay), and with --play N play N seeded random matches to the target under "
        "both; list what differs, field by field, grouped by rule ID, with the first divergence. "
        "Exit 0 when nothing differs, 1 when something does.",
    )
    diff.add_argument("--rules", action="append", required=True, metavar="FILE",
                      help="a ruleset file or bundled name; give it twice: A then B")
    diff.add_argument("--play", type=int, default=0, metavar="N", help="also compare N seeded random matches")
    diff.add_argument("--seed", type=int, default=0, help="first seed for --play (default: 0)")
    _paths_option(diff)
    _selection_options(diff)
    diff.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                      help="output format (default: text)")

    export = sub.add_parser(
        "export",
        help="write the corpus, rulesets and schemas as plain JSON with a version stamp",
        description="Write DIR/manifest.json (suite and protocol versions, date, file list), "
        "DIR/scenarios/**.json (each fixture file as a JSON list, paths kept), DIR/rulesets/*.json "
        "and DIR/schema/**.json, for users who never run horserace's Python code.",
    )
    export.add_argument("out", metavar="DIR", help="the folder to write into")
    export.add_argument("--format", choices=("json",), default="json", help="export format (only json)")

    synth = sub.add_parser(
        "synthesize",
        help="construct corner-case fixtures with Z3, for review (needs the [verify] extra)",
        description="Ask Z3 for scenarios that random play rarely reaches (a blocked four-player tie "
        "where two tied players cross the target, three interior spinners each with an unstarted "
        "branch, a placement worth exactly the points a side needs) and write them as fixtures "
        "(origin: generated) under OUT/generated/ for a human to review.",
    )
    synth.add_argument("--out", default="synthesized", metavar="DIR",
                       help="where the fixtures are written, under DIR/generated/ (default: ./synthesized)")

    fuzz = sub.add_parser(
        "fuzz",
        help="differential fuzzing: random play scenarios against an implementation and the reference",
        description="Send seeded random play scenarios to an implementation through the protocol and "
        "compare with the reference engine. The first disagreement is shrunk to the shortest prefix "
        "of placements that still disagrees and written as a fixture (origin: generated) under "
        "OUT/generated/ for review. Exit 0: no disagreement; 1: one was found.",
    )
    fuzz.add_argument("--impl", metavar="COMMAND",
                      help="the implementation's command line (default: the reference engine, 'horserace serve')")
    fuzz.add_argument("--seed", type=int, default=0, help="first seed (default: 0)")
    fuzz.add_argument("--budget", type=int, default=1000, metavar="N", help="seeds to try (default: 1000)")
    fuzz.add_argument("--jobs", type=int, default=1, metavar="N",
                      help="shards of the seed range run at once, one implementation process each (default: 1)")
    fuzz.add_argument("--out", default="fuzz-findings", metavar="DIR",
                      help="where findings are written, under DIR/generated/ (default: ./fuzz-findings)")
    _variant_option(fuzz, "fuzz under this reading of the register; the implementation must follow the same "
                    "readings (repeatable)")
    _format_option(fuzz)

    conform = sub.add_parser(
        "conform",
        help="run the corpus against an implementation through the conformance protocol",
        description="Run every applicable fixture against an implementation that speaks "
        "spec/protocol.md, and write the reports (JSON Lines stream, JSON, JUnit XML, Markdown, "
        "HTML). Exit 0 when conformant, 1 when not, 3 when the implementation cannot be used.",
    )
    _paths_option(conform)
    conform.add_argument("--impl", metavar="COMMAND",
                         help="the implementation's command line, split like a POSIX shell (default: the "
                         "reference engine, 'horserace serve')")
    conform.add_argument("--one-shot", action="store_true", help="start the command once per message")
    conform.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds per fixture (default: 10)")
    conform.add_argument("--handshake-timeout", type=float, default=10.0, metavar="S",
                         help="seconds for the handshake (default: 10)")
    conform.add_argument("--jobs", type=int, default=1, metavar="N", help="implementation processes at once (default: 1)")
    conform.add_argument("--strict-rule-ids", action="store_true",
                         help="an illegal fixture passes only if the implementation names the same rule ID")
    conform.add_argument("--expectations", metavar="FILE",
                         help="YAML/JSON file of fixtures expected to fail (strict: one that passes is reported)")
    conform.add_argument("--write-expectations", metavar="FILE", help="write the current failures as an expectations file")
    conform.add_argument("--report-dir", default="horserace-report", metavar="DIR",
                         help="where the reports go (default: ./horserace-report)")
    _selection_options(conform)
    _format_option(conform)
    return parser


def _format_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")


def _paths_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH", help="fixture files or folders (default: the bundled corpus)")


def _variant_option(p: argparse.ArgumentParser, help_text: str) -> None:
    p.add_argument("--rules", metavar="FILE",
                   help="a ruleset file (spec/rulesets/*.yaml format) or the name of a bundled one, "
                   "e.g. long-match or one-branch")
    p.add_argument("--variant", action="append", type=_variant, metavar="FIELD=READING", help=help_text)


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
            print(f"  {event_line(event, partnership=args.partnership, match_over=hand.match_over)}")
    if args.match and not match.over:
        print("\nthe match did not finish")
    return ExitCode.OK


def cmd_bench(args: argparse.Namespace) -> int:
    from horserace.quality import bench

    if args.hands < 1 or args.repeat < 1 or args.soak < 0:
        raise UsageError("--hands and --repeat must be at least 1, --soak at least 0")
    progress = _progress(sys.stderr.isatty())
    figures = bench.measure_play(args.hands, args.repeat, args.seed, progress, ruleset=_ruleset(args))
    soak_result = bench.soak(args.soak, seed=args.seed, progress=progress) if args.soak else None
    corpus_result = bench.measure_corpus(args.corpus_fixtures, progress=progress) if args.corpus else None
    conformance_result = bench.measure_conformance(progress=progress) if args.conformance else None
    if progress:
        sys.stderr.write("\r\033[K")
    result = bench.report(figures, soak_result, corpus_result, conformance_result)
    print(json.dumps(result, indent=2) if args.format == "json" else bench.format_text(result))
    return ExitCode.OK


def _load(paths: list[str]):
    from horserace.corpus.loader import load_paths

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

    from horserace.corpus.replay import replay_fixture
    from horserace.corpus.selection import select

    start = time.perf_counter()
    corpus = _load(args.paths)
    if corpus.errors:
        return _print_load_errors(corpus, args.format)
    ruleset = _ruleset(args) if (args.variant or args.rules) else None
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
    from horserace.corpus.rule_coverage import coverage_report, format_text

    corpus = _load(args.paths)
    if corpus.errors:
        return _print_load_errors(corpus, args.format)
    report = coverage_report(corpus.fixtures)
    print(json.dumps(report, indent=2) if args.format == "json" else format_text(report))
    return ExitCode.FAILURES if report["gaps"] else ExitCode.OK


def _impl_argv(impl: str | None) -> list[str]:
    """The implementation's argv: --impl split like a POSIX shell, or the reference engine."""
    import shlex

    if impl is None:
        return [sys.executable, "-m", "horserace", "serve"]
    try:
        argv = shlex.split(impl)
    except ValueError as exc:
        raise UsageError(f"horserace: --impl {impl!r}: {exc}") from None
    if not argv:
        raise UsageError("horserace: --impl is empty")
    return argv


def _read_expectations(path: str) -> dict[str, str]:
    import yaml

    try:
        from pathlib import Path

        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ExpectationsError(f"{path}: cannot read: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ExpectationsError(f"{path}: not YAML/JSON: {exc}") from None
    failures = data.get("expected_failures") if isinstance(data, dict) else None
    if not isinstance(failures, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in failures.items()):
        raise ExpectationsError(f"{path}: expected a mapping 'expected_failures: {{FIXTURE_ID: reason}}'")
    return failures


class ExpectationsError(Exception):
    """An expectations file that cannot be used (exit code 2)."""


def cmd_conform(args: argparse.Namespace) -> int:
    from pathlib import Path

    from horserace.conformance import runner as conform
    from horserace.reports.stream import ResultStream, read_stream
    from horserace.reports.summary import per_rule
    from horserace.reports.terminal import terminal
    from horserace.reports.write import write_all
    from horserace.corpus.selection import select

    if args.jobs < 1 or args.timeout <= 0 or args.handshake_timeout <= 0:
        raise UsageError("--jobs must be at least 1 and timeouts positive")
    argv = _impl_argv(args.impl)
    corpus = _load(args.paths)
    if corpus.errors:
        return _print_load_errors(corpus, args.format)
    try:
        expected = _read_expectations(args.expectations) if args.expectations else {}
    except ExpectationsError as exc:
        print(f"horserace: {exc}", file=sys.stderr)
        return ExitCode.INVALID_INPUT
    known = {fx.id for fx in corpus.fixtures}
    unknown = sorted(set(expected) - known)
    if unknown:
        print(f"horserace: {args.expectations}: unknown fixture IDs {', '.join(unknown)}", file=sys.stderr)
        return ExitCode.INVALID_INPUT
    fixtures = select(corpus.fixtures, args.select, args.deselect)
    options = conform.Options(timeout=args.timeout, handshake_timeout=args.handshake_timeout, one_shot=args.one_shot,
                              strict_rule_ids=args.strict_rule_ids, jobs=args.jobs, expected_failures=expected)
    out_dir = Path(args.report_dir)
    stream_path = out_dir / "results.jsonl"
    header = {"command": " ".join(argv), "mode": "one-shot" if args.one_shot else "persistent",
              "options": {"timeout": args.timeout, "jobs": args.jobs, "strict_rule_ids": args.strict_rule_ids,
                          "expectations": args.expectations}, "fixtures": len(fixtures), "implementation": None}
    bar = _progress(sys.stderr.isatty())
    done = [0]
    outcomes = []
    with ResultStream(stream_path, header) as stream:
        def on_start(hello: dict) -> None:
            stream.header["implementation"] = hello

        def on_outcome(outcome) -> None:
            stream.add(outcome.record())
            done[0] += 1
            if bar:
                width = 30
                filled = width * done[0] // max(1, len(fixtures))
                bar(f"[{'=' * filled}{' ' * (width - filled)}] {done[0]}/{len(fixtures)} fixtures")

        try:
            outcomes = conform.run(argv, fixtures, options, on_start=on_start, on_outcome=on_outcome)
        except conform.ImplementationUnusable as exc:
            stream.finish({"unusable": str(exc), "counts": {}, "conformant": False, "exit_code": int(ExitCode.IMPLEMENTATION_UNUSABLE)})
        else:
            ok = conform.conformant(outcomes)
            stream.finish({"counts": conform.counts(outcomes), "conformant": ok,
                           "exit_code": int(ExitCode.OK if ok else ExitCode.FAILURES)})
    if bar:
        sys.stderr.write("\r\033[K")
    written = write_all(stream_path, out_dir)
    header_r, results, footer = read_stream(stream_path)
    if args.write_expectations:
        _write_expectations(args.write_expectations, results)
    if args.format == "json":
        print(json.dumps({"footer": footer, "rules": per_rule(results),
                          "reports": {k: str(v) for k, v in written.items()}}, indent=2))
    else:
        header_r.setdefault("implementation", None)
        print(terminal(header_r, results, footer))
        where = written.get("html") or written.get("markdown")
        print(f"reports in {out_dir}/ (HTML: {where})")
    return footer.get("exit_code", ExitCode.FAILURES)


def _write_expectations(path: str, results: list[dict]) -> None:
    import yaml

    failing = {r["id"]: f"{r['status']} ({r['rule']})" for r in results if r["status"] not in ("pass", "skip")}
    text = ("# Fixtures this implementation is expected to fail (horserace conform --expectations).\n"
            "# A listed fixture that passes is reported (xpass): remove it then.\n"
            + yaml.safe_dump({"expected_failures": failing}, sort_keys=True, allow_unicode=True))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def cmd_serve(args: argparse.Namespace) -> int:
    from horserace.conformance.server import main_serve

    if args.mutant:
        from horserace.quality.mutants import MUTANTS, apply

        if args.mutant not in MUTANTS:
            raise UsageError(f"horserace: no mutant is named {args.mutant!r}; see 'horserace mutants --list'")
        apply(args.mutant)
    return main_serve(_ruleset(args))


def cmd_diff(args: argparse.Namespace) -> int:
    from horserace.quality.ruleset_diff import format_markdown, format_text, run_diff
    from horserace.errors import FixtureError
    from horserace.corpus.selection import select
    from horserace.resources.rulesets import resolve

    if len(args.rules) != 2:
        raise UsageError("horserace diff: give --rules exactly twice (A, then B)")
    if args.play < 0:
        raise UsageError("--play must be at least 0")
    try:
        a, b = resolve(args.rules[0]), resolve(args.rules[1])
    except FixtureError as exc:
        print(f"horserace: {exc.render()}", file=sys.stderr)
        return ExitCode.INVALID_INPUT
    corpus = _load(args.paths)
    if corpus.errors:
        return _print_load_errors(corpus, "text" if args.format == "markdown" else args.format)
    report = run_diff(select(corpus.fixtures, args.select, args.deselect), a, b, play=args.play, seed=args.seed)
    if args.format == "json":
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    elif args.format == "markdown":
        print(format_markdown(report), end="")
    else:
        print(format_text(report))
    return ExitCode.OK if report.empty else ExitCode.FAILURES


def cmd_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from horserace.corpus.export import export_json

    corpus = _load([])
    if corpus.errors:
        return _print_load_errors(corpus, "text")
    manifest = export_json(Path(args.out))
    print(f"exported {manifest['fixtures']} fixtures in {len(manifest['files'])} files, "
          f"{len(manifest['rulesets'])} rulesets and {len(manifest['schemas'])} schemas "
          f"(suite {manifest['suite']}, protocol {manifest['protocol']}) to {args.out}")
    return ExitCode.OK


def cmd_synthesize(args: argparse.Namespace) -> int:
    try:
        from horserace.verify.synthesis import synthesize_all
    except ImportError as exc:  # z3-solver is an extra
        print(f"horserace: synthesize needs z3-solver: pip install 'horserace[verify]' ({exc})", file=sys.stderr)
        return ExitCode.USAGE
    for path in synthesize_all(args.out):
        print(f"wrote {path}; review it before adding anything to the corpus")
    return ExitCode.OK


def cmd_fuzz(args: argparse.Namespace) -> int:
    from horserace.errors import ImplementationUnusable
    from horserace.quality.fuzz import fuzz

    if args.budget < 1 or args.jobs < 1:
        raise UsageError("--budget and --jobs must be at least 1")
    argv = _impl_argv(args.impl)
    bar = _progress(sys.stderr.isatty())
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if bar:
            bar(f"fuzz: {done[0]:,}/{args.budget:,} hands")

    try:
        result = fuzz(argv, args.seed, args.budget, jobs=args.jobs, out_dir=args.out, progress=tick,
                      ruleset=_ruleset(args))
    except ImplementationUnusable as exc:
        print(f"horserace: the implementation is unusable: {exc}", file=sys.stderr)
        return ExitCode.IMPLEMENTATION_UNUSABLE
    if bar:
        sys.stderr.write("\r\033[K")
    if args.format == "json":
        print(json.dumps(result.to_dict(), indent=2))
    else:
        rate = f"{result.hands / result.seconds:,.0f}" if result.seconds else "-"
        print(f"fuzzed {result.hands:,} hands (seeds {result.seeds[0]}..{result.seeds[1]}) in "
              f"{result.seconds:.1f} s ({rate} hands/s)")
        for f in result.findings:
            first = f.differences[0] if f.differences else None
            where = (f"{first.path}: expected {json.dumps(first.expected)}, got {json.dumps(first.actual)}"
                     if first else f.message)
            print(f"DISAGREEMENT seed {f.seed} ({f.rule}), shrunk from {f.original_placements} to {f.placements} "
                  f"placements: {where}")
            print(f"  written to {f.path}")
        if not result.findings:
            print("no disagreement")
    return ExitCode.FAILURES if result.findings else ExitCode.OK


def cmd_mutants(args: argparse.Namespace) -> int:
    from concurrent.futures import ThreadPoolExecutor

    from horserace.errors import ImplementationUnusable
    from horserace.conformance.runner import Options, run
    from horserace.quality.mutants import MUTANTS
    from horserace.engine.ruleset import CANONICAL

    if args.list:
        for m in MUTANTS.values():
            print(f"{m.name:<32} {m.rule:<12} {m.description}")
        return ExitCode.OK
    unknown = [name for name in args.only or () if name not in MUTANTS]
    if unknown or args.jobs < 1:
        raise UsageError(f"horserace: unknown mutant(s) {', '.join(unknown)}" if unknown else "--jobs must be at least 1")
    corpus = _load(args.paths)
    if corpus.errors:
        return _print_load_errors(corpus, args.format)
    fixtures = [fx for fx in corpus.fixtures if fx.applies_under(CANONICAL)]
    chosen = [MUTANTS[name] for name in (args.only or MUTANTS)]

    def judge(m):
        argv = [sys.executable, "-m", "horserace", "serve", "--mutant", m.name]
        try:
            outcomes = run(argv, fixtures, Options(timeout=20))
        except ImplementationUnusable as exc:
            return {"mutant": m.name, "rule": m.rule, "description": m.description, "killed": True,
                    "killers": [], "note": f"unusable: {exc}"}
        killers = [{"id": o.fixture.id, "rule": o.fixture.primary_rule, "status": o.status}
                   for o in outcomes if o.status not in ("pass", "skip")]
        return {"mutant": m.name, "rule": m.rule, "description": m.description, "killed": bool(killers),
                "killers": killers}

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(judge, chosen))
    survivors = [r for r in results if not r["killed"]]
    if args.format == "json":
        print(json.dumps({"fixtures": len(fixtures), "mutants": results, "survivors": [r["mutant"] for r in survivors]},
                         indent=2))
    else:
        for r in results:
            if r["killed"]:
                shown = ", ".join(f"{k['id']} ({k['rule']})" for k in r["killers"][:6])
                more = f" and {len(r['killers']) - 6} more" if len(r["killers"]) > 6 else ""
                print(f"killed    {r['mutant']:<32} [{r['rule']}] by {len(r['killers'])}: {shown}{more}{r.get('note', '')}")
            else:
                print(f"SURVIVED  {r['mutant']:<32} [{r['rule']}] {r['description']}")
        print(f"{len(results) - len(survivors)} of {len(results)} mutants killed by {len(fixtures)} fixtures")
    return ExitCode.FAILURES if survivors else ExitCode.OK


COMMANDS = {"play": cmd_play, "bench": cmd_bench, "replay": cmd_replay, "coverage": cmd_coverage, "serve": cmd_serve, "conform": cmd_conform,
            "mutants": cmd_mutants, "fuzz": cmd_fuzz, "diff": cmd_diff,
            "export": cmd_export, "synthesize": cmd_synthesize}


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
