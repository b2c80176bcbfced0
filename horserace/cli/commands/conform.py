"""``horserace conform``: the corpus against an implementation, through the protocol."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.cli._options import (
    REPORT_DIR,
    clear_progress,
    format_option,
    impl_argv,
    jobs_option,
    link_base_option,
    load_corpus,
    paths_option,
    print_load_errors,
    progress,
    seconds,
    selected_fixtures,
    selection_options,
    unwound_by_signals,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode, Stopped, exit_code_for
from horserace.errors import EnvironmentFailure, ImplementationUnusable, UsageError

if TYPE_CHECKING:
    from horserace.conformance.runner import Options, Outcome
    from horserace.corpus.fixture import Fixture
    from horserace.reports.runs import Run
    from horserace.reports.stream import ResultStream

__all__ = ["NAME", "register", "run", "shown_command"]

NAME = "conform"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Run every applicable fixture against an implementation that speaks "
        "spec/protocol.md, and write the reports (JSON Lines stream, JSON, JUnit XML, Markdown, "
        "HTML, and a badge as SVG and as a shields.io endpoint). Exit 0 when conformant, 1 when not, "
        "3 when the implementation cannot be used. With several --impl, each runs in turn, with its "
        "reports in DIR/NAME-VERSION/ (from its hello), and DIR/index.html compares them; the exit "
        "code is the worst (3 if any is unusable, else 1 if any is not conformant).",
    )
    paths_option(p)
    p.add_argument(
        "--impl",
        action="append",
        metavar="COMMAND",
        help="the implementation's command line, split like a POSIX shell (default: the "
        "reference engine, 'horserace serve'); repeat it to compare several implementations",
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
        help="YAML/JSON file of fixtures expected to fail (strict: one that passes is reported); with one --impl only",
    )
    p.add_argument("--write-expectations", metavar="FILE", help="write the current failures as an expectations file")
    p.add_argument(
        "--update-expectations",
        metavar="FILE",
        help="run with FILE as the expectations file, then remove from it the fixtures that now pass "
        "(their reasons kept for the rest); the run does not fail for them",
    )
    p.add_argument(
        "--lenient-expectations",
        action="store_true",
        help="an expected failure that now passes is reported but does not fail the run (default: strict, "
        "as pytest's strict xfail)",
    )
    p.add_argument(
        "--report-dir",
        default=REPORT_DIR,
        metavar="DIR",
        help=f"where the reports go (default: ./{REPORT_DIR}); with several --impl, one folder "
        "per implementation in it, and the comparison page index.html",
    )
    p.add_argument(
        "--require-all",
        action="store_true",
        help="a skipped fixture fails the run too (for a CI that wants every fixture run)",
    )
    selection_options(p)
    link_base_option(p)
    format_option(p)


def run(args: argparse.Namespace) -> int:
    from horserace.cli._program import owns_process
    from horserace.cli._results import writable_folder
    from horserace.conformance.expectations import read_expectations, unknown_ids
    from horserace.conformance.runner import Options

    argvs = [impl_argv(impl) for impl in args.impl or [None]]
    args.commands = [shown_command(impl) for impl in args.impl or [None]]
    if args.update_expectations:
        if args.expectations and args.expectations != args.update_expectations:
            raise UsageError(
                "horserace: --update-expectations FILE reads and rewrites FILE: give no other --expectations"
            )
        args.expectations = args.update_expectations
    if len(argvs) > 1 and (args.expectations or args.write_expectations):
        option = "--expectations" if args.expectations else "--write-expectations"
        raise UsageError(f"horserace: {option} holds one implementation's known failures: give one --impl with it")
    if args.expectations and not Path(args.expectations).exists():
        raise UsageError(f"horserace: no such file: {args.expectations}")
    writable_folder(Path(args.report_dir), "--report-dir")
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
    args.selection = (
        {"selected": len(fixtures), "of": len(corpus.fixtures), "select": args.select, "deselect": args.deselect}
        if len(fixtures) < len(corpus.fixtures)
        else None
    )
    options = Options(
        timeout=args.timeout,
        handshake_timeout=args.handshake_timeout,
        one_shot=args.one_shot,
        strict_rule_ids=args.strict_rule_ids,
        jobs=args.jobs,
        expected_failures=expected,
        own_process=owns_process(),
    )
    with unwound_by_signals():
        if len(argvs) == 1:
            return _one(argvs[0], fixtures, options, args, expected)
        return _several(argvs, fixtures, options, args)


@dataclass(frozen=True)
class _Done:
    """One implementation's run: its stream finished, its reports written."""

    run: Run
    written: dict[str, Path]
    #: What cut the run short (Ctrl-C, SIGTERM, SIGHUP), if anything.
    stopped: BaseException | None


def _one(argv: list[str], fixtures: list[Fixture], options: Options, args: argparse.Namespace, expected: dict) -> int:
    """One implementation: its stream and reports in the report folder itself."""
    from horserace.cli._results import print_run
    from horserace.conformance.expectations import prune_expectations, write_expectations
    from horserace.reports.runs import STREAM_NAME

    out_dir = Path(args.report_dir)
    done = _conform(argv, fixtures, options, args, out_dir / STREAM_NAME)
    if args.write_expectations and done.stopped is None:
        write_expectations(args.write_expectations, done.run.results, expected)
    print_run(done.run, done.written, out_dir, args.format, args.link_base)
    if args.update_expectations and done.stopped is None:
        pruned = prune_expectations(args.update_expectations, done.run.results, expected)
        if args.format != "json":
            names = ", ".join(pruned[:10]) + (f" and {len(pruned) - 10} more" if len(pruned) > 10 else "")
            said = f"removed {len(pruned)} that now pass ({names})" if pruned else "nothing to remove: none now passes"
            print(f"expectations {args.update_expectations}: {said}")
    if done.stopped is not None:
        return _said_stopped(done)
    code: int = done.run.footer.get("exit_code", ExitCode.FAILURES)
    return code


def _several(argvs: list[list[str]], fixtures: list[Fixture], options: Options, args: argparse.Namespace) -> int:
    """Several implementations, one after the other, each in its own process, with its
    stream and reports in ``DIR/NAME-VERSION/`` (from its hello; ``DIR/impl-N/`` for one
    that gave none); then the comparison page, ``DIR/index.html``.  The exit code is the
    worst: 3 if any was unusable, else 1 if any is not conformant."""
    from horserace.cli._results import print_runs, worst
    from horserace.reports.runs import STREAM_NAME, folder_name, unique_folders
    from horserace.reports.write import COMPARISON_PAGE, write_comparison

    out_dir = Path(args.report_dir)
    folders: list[str] = []
    done: list[_Done] = []
    for n, argv in enumerate(argvs, 1):
        fallback = unique_folders([*folders, f"impl-{n}"])[-1]

        def place(hello: dict[str, Any], fallback: str = fallback) -> Path:
            return out_dir / unique_folders([*folders, folder_name(hello, fallback)])[-1] / STREAM_NAME

        one = _conform(argv, fixtures, options, args, out_dir / fallback / STREAM_NAME, place, (n, len(argvs)))
        folders.append(one.written["jsonl"].parent.name)
        done.append(one)
        if one.stopped is not None:
            break
    runs = [one.run for one in done]
    started = time.time()
    try:
        page = write_comparison(runs, out_dir, folders, args.link_base)
    except EnvironmentFailure:
        _remove_stale(out_dir, started, (COMPARISON_PAGE,))
        raise
    print_runs(runs, [one.written for one in done], page, args.format)
    if done[-1].stopped is not None:
        return _said_stopped(done[-1])
    return worst(runs)


def _said_stopped(done: _Done) -> int:
    """Say what stopped the run; its exit code."""
    stopped = done.stopped
    assert stopped is not None
    print(
        f"horserace: {'interrupted' if isinstance(stopped, KeyboardInterrupt) else stopped}; "
        f"the reports hold the {len(done.run.results)} fixture(s) that finished",
        file=sys.stderr,
    )
    return exit_code_for(stopped)


def _conform(
    argv: list[str],
    fixtures: list[Fixture],
    options: Options,
    args: argparse.Namespace,
    stream_path: Path,
    place: Callable[[dict[str, Any]], Path] | None = None,
    of: tuple[int, int] | None = None,
) -> _Done:
    """Run one implementation into a stream at ``stream_path`` (at ``place(hello)`` once
    its hello is known, if given; the temporary file is then made in the report folder),
    and write every report beside the stream.  ``of``: this is implementation N of M."""
    from horserace.conformance.process import kill_all
    from horserace.reports.runs import Run
    from horserace.reports.stream import ResultStream, read_stream
    from horserace.reports.write import write_run

    header = {
        "command": args.commands[of[0] - 1 if of else 0],
        "mode": "one-shot" if args.one_shot else "persistent",
        "options": {
            "timeout": args.timeout,
            "jobs": args.jobs,
            "strict_rule_ids": args.strict_rule_ids,
            "expectations": _shown_path(args.expectations) if args.expectations else None,
            "require_all": args.require_all,
            "lenient_expectations": _lenient(args),
        },
        "fixtures": len(fixtures),
        "implementation": None,
    }
    if args.selection:
        header["selection"] = args.selection
    bar = progress(sys.stderr.isatty(), f"implementation {of[0]} of {of[1]}: " if of else "")
    stopped: BaseException | None = None
    started = time.time()
    stream: ResultStream | None = None
    try:
        stream = ResultStream(stream_path, header, scratch=Path(args.report_dir) if place else None)
        with stream:
            _run_into(
                stream, argv, fixtures, options, bar, [0], args.require_all, place, _lenient(args), args.paths or ()
            )
    except (KeyboardInterrupt, Stopped) as exc:
        # The stream was finished as interrupted on the way out; the implementations are
        # stopped, and every report is written from what the stream holds.
        kill_all()
        stopped = exc
    except EnvironmentFailure:
        kill_all()
        clear_progress(bar)
        _remove_stale((stream.path if stream else stream_path).parent, started)
        raise
    clear_progress(bar)
    if stream is None:  # stopped before the stream was made: there is nothing to report
        assert stopped is not None
        raise stopped
    final = stream.path
    try:
        run = Run(*read_stream(final), final)
        written = write_run(run, final.parent, args.link_base)
    except EnvironmentFailure:
        _remove_stale(final.parent, started)
        raise
    return _Done(run, written, stopped)


def shown_command(impl: str | None) -> str:
    """The implementation's command as the reports say it: as given (``horserace serve``
    for the reference engine, not the interpreter's path), each word that is an absolute
    path inside the working folder made relative to it."""
    import shlex

    if impl is None:
        return "horserace serve"
    try:
        words = shlex.split(impl)
    except ValueError:
        return impl
    shown = [_shown_path(word) for word in words]
    return impl if shown == words else shlex.join(shown)


def _shown_path(word: str) -> str:
    """An absolute path inside the working folder, relative to it; any other word as given."""
    if os.path.isabs(word):
        try:
            return Path(word).relative_to(Path.cwd()).as_posix()
        except ValueError:
            pass
    return word


def _lenient(args: argparse.Namespace) -> bool:
    """Whether an expected failure that now passes leaves the run conformant: asked for,
    or implied by --update-expectations (which removes them from the file)."""
    return bool(args.lenient_expectations or args.update_expectations)


def _remove_stale(out_dir: Path, started: float, names: Iterable[str] | None = None) -> None:
    """After a write the machine refused: remove every report of an earlier run left in
    the folder (it would pass for this run's), keeping those this run wrote; ``names``:
    those files only (default: every report of a run)."""
    from horserace.reports.write import REPORT_FILES

    for name in REPORT_FILES.values() if names is None else names:
        path = out_dir / name
        try:
            if path.stat().st_mtime < started:
                path.unlink()
        except OSError:
            pass


def _run_into(
    stream: ResultStream,
    argv: list[str],
    fixtures: list[Fixture],
    options: Options,
    bar: Callable[[str], None] | None,
    done: list[int],
    require_all: bool = False,
    place: Callable[[dict[str, Any]], Path] | None = None,
    lenient: bool = False,
    given: Sequence[str] = (),
) -> None:
    """Run the fixtures, every outcome into ``stream``, and finish it with the verdict;
    ``place`` names the stream's path from the hello; each fixture's ``file`` is its
    location (:func:`~horserace.resources.locations.fixture_location`; ``given``: the
    paths of the command line), never a path of the machine."""
    from horserace.conformance.runner import conformant, counts
    from horserace.conformance.runner import run as run_fixtures
    from horserace.quality.diagnosis import Diagnoser
    from horserace.resources.locations import fixture_location

    diagnoser = Diagnoser()

    def on_start(hello: dict[str, Any]) -> None:
        stream.header["implementation"] = hello
        if place is not None:
            stream.path = place(hello)

    def on_outcome(outcome: Outcome) -> None:
        record = diagnoser.record_of(outcome)
        record["file"] = fixture_location(str(record.get("file", "")), given)
        stream.add(record)
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
        ok = conformant(outcomes, require_all=require_all, lenient_xpass=lenient)
        stream.finish(
            {
                "counts": counts(outcomes),
                "conformant": ok,
                "require_all": require_all,
                "lenient_expectations": lenient,
                "exit_code": int(ExitCode.OK if ok else ExitCode.FAILURES),
            }
        )
