"""``horserace conform``: the corpus against an implementation, through the protocol."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.cli._options import (
    clear_progress,
    format_option,
    impl_argv,
    jobs_option,
    load_corpus,
    paths_option,
    print_load_errors,
    progress,
    seconds,
    selected_fixtures,
    selection_options,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode, Stopped, exit_code_for
from horserace.errors import EnvironmentFailure, ImplementationUnusable, UsageError

if TYPE_CHECKING:
    from horserace.conformance.runner import Options, Outcome
    from horserace.corpus.fixture import Fixture
    from horserace.reports.stream import ResultStream

__all__ = ["NAME", "register", "run"]

NAME = "conform"
#: What a run writes into its report folder.
REPORT_FILES = ("results.jsonl", "report.json", "junit.xml", "report.md", "report.html")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Run every applicable fixture against an implementation that speaks "
        "spec/protocol.md, and write the reports (JSON Lines stream, JSON, JUnit XML, Markdown, "
        "HTML). Exit 0 when conformant, 1 when not, 3 when the implementation cannot be used.",
    )
    paths_option(p)
    p.add_argument(
        "--impl",
        metavar="COMMAND",
        help="the implementation's command line, split like a POSIX shell (default: the "
        "reference engine, 'horserace serve')",
    )
    p.add_argument("--one-shot", action="store_true", help="start the command once per message")
    p.add_argument("--timeout", type=seconds, default=10.0, metavar="S", help="seconds per fixture (default: 10)")
    p.add_argument(
        "--handshake-timeout", type=seconds, default=10.0, metavar="S", help="seconds for the handshake (default: 10)"
    )
    jobs_option(p, "implementation processes at once, never more than the fixtures to run")
    p.add_argument(
        "--strict-rule-ids",
        action="store_true",
        help="an illegal fixture passes only if the implementation names the same rule ID",
    )
    p.add_argument(
        "--expectations",
        metavar="FILE",
        help="YAML/JSON file of fixtures expected to fail (strict: one that passes is reported)",
    )
    p.add_argument("--write-expectations", metavar="FILE", help="write the current failures as an expectations file")
    p.add_argument(
        "--report-dir",
        default="horserace-report",
        metavar="DIR",
        help="where the reports go (default: ./horserace-report)",
    )
    p.add_argument(
        "--require-all",
        action="store_true",
        help="a skipped fixture fails the run too (for a CI that wants every fixture run)",
    )
    selection_options(p)
    format_option(p)


def _writable_folder(folder: Path, option: str) -> None:
    """Refuse, before anything runs, a folder the reports cannot be written to."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"horserace: {option} {folder}: a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"horserace: {option} {folder}: cannot make it: {exc.strerror}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"horserace: {option} {folder}: not writable")


def run(args: argparse.Namespace) -> int:
    from horserace.cli._program import owns_process
    from horserace.conformance.expectations import read_expectations, unknown_ids, write_expectations
    from horserace.conformance.process import kill_all
    from horserace.conformance.runner import Options
    from horserace.reports.stream import ResultStream, read_stream
    from horserace.reports.summary import per_rule
    from horserace.reports.terminal import terminal
    from horserace.reports.write import write_all

    argv = impl_argv(args.impl)
    if args.expectations and not Path(args.expectations).exists():
        raise UsageError(f"horserace: no such file: {args.expectations}")
    _writable_folder(Path(args.report_dir), "--report-dir")
    if args.write_expectations:
        target = Path(args.write_expectations)
        try:  # opened now, not after the run: appending creates it and changes nothing in it
            with open(target, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise UsageError(f"horserace: --write-expectations {target}: cannot write it: {exc.strerror}") from None
    corpus = load_corpus(args.paths)
    if corpus.errors:
        return print_load_errors(corpus, args.format)
    expected = read_expectations(args.expectations) if args.expectations else {}
    unknown_ids(expected, (fx.id for fx in corpus.fixtures), args.expectations)
    fixtures = selected_fixtures(corpus.fixtures, args)
    options = Options(
        timeout=args.timeout,
        handshake_timeout=args.handshake_timeout,
        one_shot=args.one_shot,
        strict_rule_ids=args.strict_rule_ids,
        jobs=args.jobs,
        expected_failures=expected,
        own_process=owns_process(),
    )
    out_dir = Path(args.report_dir)
    stream_path = out_dir / "results.jsonl"
    header = {
        "command": " ".join(argv),
        "mode": "one-shot" if args.one_shot else "persistent",
        "options": {
            "timeout": args.timeout,
            "jobs": args.jobs,
            "strict_rule_ids": args.strict_rule_ids,
            "expectations": args.expectations,
            "require_all": args.require_all,
        },
        "fixtures": len(fixtures),
        "implementation": None,
    }
    bar = progress(sys.stderr.isatty())
    done = [0]
    stopped: BaseException | None = None
    started = time.time()
    previous = _stop_on_signals()
    try:
        with ResultStream(stream_path, header) as stream:
            _run_into(stream, argv, fixtures, options, bar, done, args.require_all)
    except (KeyboardInterrupt, Stopped) as exc:
        # The stream was finished as interrupted on the way out; the implementations are
        # stopped, and every report is written from what the stream holds.
        kill_all()
        stopped = exc
    except EnvironmentFailure:
        kill_all()
        clear_progress(bar)
        _remove_stale(out_dir, started)
        raise
    finally:
        _restore_signals(previous)
    clear_progress(bar)
    try:
        written = write_all(stream_path, out_dir)
    except EnvironmentFailure:
        _remove_stale(out_dir, started)
        raise
    header_r, results, footer = read_stream(stream_path)
    if args.write_expectations and stopped is None:
        write_expectations(args.write_expectations, results, expected)
    if args.format == "json":
        write_out(
            json.dumps(
                {"footer": footer, "rules": per_rule(results), "reports": {k: str(v) for k, v in written.items()}},
                indent=2,
            )
        )
    else:
        header_r.setdefault("implementation", None)
        write_out(terminal(header_r, results, footer))
        where = written.get("html") or written.get("markdown")
        write_out(f"reports in {out_dir}/ (HTML: {where})")
    if stopped is not None:
        print(
            f"horserace: {'interrupted' if isinstance(stopped, KeyboardInterrupt) else stopped}; "
            f"the reports hold the {len(results)} fixture(s) that finished",
            file=sys.stderr,
        )
        return exit_code_for(stopped)
    code: int = footer.get("exit_code", ExitCode.FAILURES)
    return code


def _remove_stale(out_dir: Path, started: float) -> None:
    """After a write the machine refused: remove every report of an earlier run left in
    the folder (it would pass for this run's), keeping those this run wrote."""
    for name in REPORT_FILES:
        path = out_dir / name
        try:
            if path.stat().st_mtime < started:
                path.unlink()
        except OSError:
            pass


def _stop_on_signals() -> dict[int, Any]:
    """SIGTERM and SIGHUP unwind the run as Ctrl-C does (the main thread only)."""

    def stop(signum: int, frame: object) -> None:
        raise Stopped(signum)

    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            previous[signum] = signal.signal(signum, stop)
    return previous


def _restore_signals(previous: dict[int, Any]) -> None:
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def _run_into(
    stream: ResultStream,
    argv: list[str],
    fixtures: list[Fixture],
    options: Options,
    bar: Callable[[str], None] | None,
    done: list[int],
    require_all: bool = False,
) -> None:
    """Run the fixtures, every outcome into ``stream``, and finish it with the verdict."""
    from horserace.conformance.runner import conformant, counts
    from horserace.conformance.runner import run as run_fixtures

    def on_start(hello: dict[str, Any]) -> None:
        stream.header["implementation"] = hello

    def on_outcome(outcome: Outcome) -> None:
        stream.add(outcome.record())
        done[0] += 1
        if bar:
            width = 30
            filled = width * done[0] // max(1, len(fixtures))
            bar(f"[{'=' * filled}{' ' * (width - filled)}] {done[0]}/{len(fixtures)} fixtures")

    try:
        outcomes = run_fixtures(argv, fixtures, options, on_start=on_start, on_outcome=on_outcome)
    except ImplementationUnusable as exc:
        stream.finish(
            {
                "unusable": str(exc),
                "counts": {},
                "conformant": False,
                "exit_code": int(ExitCode.IMPLEMENTATION_UNUSABLE),
            }
        )
    else:
        ok = conformant(outcomes, require_all=require_all)
        stream.finish(
            {
                "counts": counts(outcomes),
                "conformant": ok,
                "require_all": require_all,
                "exit_code": int(ExitCode.OK if ok else ExitCode.FAILURES),
            }
        )
