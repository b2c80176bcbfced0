"""``horserace conform``: the corpus against an implementation, through the protocol."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.cli._options import (
    REPORT_DIR,
    clear_progress,
    count,
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
from horserace.cli.exitcodes import ExitCode, exit_code_for
from horserace.errors import EnvironmentFailure, UsageError

if TYPE_CHECKING:
    from horserace.conformance.session import Session
    from horserace.corpus.fixture import Fixture
    from horserace.reports.runs import Run

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
    p.add_argument(
        "--last-failed",
        "--lf",
        action="store_true",
        help="run only the fixtures that failed in the last run, read from the report folder's stream "
        "(with --select/--deselect: those of them that match); every fixture when it holds no failure",
    )
    stop = p.add_mutually_exclusive_group()
    stop.add_argument(
        "-x",
        "--exitfirst",
        dest="max_fail",
        action="store_const",
        const=1,
        help="stop at the first failing fixture, in corpus order (as --max-fail 1)",
    )
    stop.add_argument(
        "--max-fail",
        type=count(1, 100_000),
        metavar="N",
        help="stop at the Nth failing fixture, in corpus order: the fixtures after it are left out, and the "
        "verdict says how many (the same fixtures whatever --jobs is)",
    )
    p.add_argument(
        "--list",
        action="store_true",
        help="run nothing: say which fixtures would run and why each other one is skipped (the implementation "
        "is started for its hello only); with --format json, as JSON",
    )
    link_base_option(p)
    format_option(p)


def run(args: argparse.Namespace) -> int:
    # SIGTERM and SIGHUP unwind from the start, as Ctrl-C does: a signal before the run
    # began stops the command with its exit code (and the folder made for the reports is
    # the only trace), one during it is handled where the stream is.
    with unwound_by_signals():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from horserace.conformance.expectations import read_expectations, unknown_ids
    from horserace.conformance.runner import Options
    from horserace.conformance.session import Session
    from horserace.conformance.supervisor import Supervisor

    argvs = [impl_argv(impl) for impl in args.impl or [None]]
    args.commands = [shown_command(impl) for impl in args.impl or [None]]
    _check_options(args, argvs)
    corpus = load_corpus(args.paths)
    if corpus.errors:
        return print_load_errors(corpus, args.format)
    expected = read_expectations(args.expectations) if args.expectations else {}
    unknown_ids(expected, (fx.id for fx in corpus.fixtures), args.expectations)
    last = _last_failed(Path(args.report_dir), {fx.id for fx in corpus.fixtures}) if args.last_failed else None
    fixtures = selected_fixtures(corpus.fixtures, args, last.ids if last else None)
    if last is not None and args.format != "json" and not args.list:
        print(last.said, file=sys.stderr)
    _note_selection(args, fixtures, len(corpus.fixtures), last)
    options = Options(
        timeout=args.timeout,
        handshake_timeout=args.handshake_timeout,
        one_shot=args.one_shot,
        strict_rule_ids=args.strict_rule_ids,
        jobs=args.jobs,
        expected_failures=expected,
        max_fail=args.max_fail,
    )
    session = Session(
        options,
        Supervisor(own_process=args.own_process),
        require_all=args.require_all,
        lenient_expectations=_lenient(args),
    )
    if args.list:
        return _list(argvs, fixtures, session, args, len(corpus.fixtures))
    if len(argvs) == 1:
        return _one(argvs[0], fixtures, session, args, expected)
    return _several(argvs, fixtures, session, args)


def _check_options(args: argparse.Namespace, argvs: list[list[str]]) -> None:
    """The usage errors of conform's options that need no corpus (exit 4), before anything
    runs; ``--update-expectations FILE`` made the ``--expectations`` it reads."""
    from horserace.cli._results import writable_folder

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
            with target.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise UsageError(f"horserace: --write-expectations {target}: cannot write it: {exc.strerror}") from None
    if len(argvs) > 1 and args.last_failed:
        raise UsageError("horserace: --last-failed reads one implementation's stream: give one --impl with it")


def _note_selection(
    args: argparse.Namespace, fixtures: list[Fixture], corpus_size: int, last: _LastFailed | None
) -> None:
    """What the stream's header says of the selection (``args.selection``) and of
    ``--last-failed`` (``args.last_failed_ids``)."""
    args.last_failed_ids = sorted(last.ids) if last and last.ids is not None else None
    args.selection = (
        {"selected": len(fixtures), "of": corpus_size, "select": args.select, "deselect": args.deselect}
        if len(fixtures) < corpus_size
        else None
    )
    if args.selection and args.last_failed_ids is not None:
        args.selection["last_failed"] = len(args.last_failed_ids)


@dataclass(frozen=True)
class _LastFailed:
    """What ``--last-failed`` found in the report folder: the fixture IDs to run again
    (``None``: every fixture) and what to say of it."""

    ids: frozenset[str] | None
    said: str


def _last_failed(out_dir: Path, known: set[str]) -> _LastFailed:
    """The failures of the last run in ``out_dir``: those of its stream, and those an
    earlier ``--last-failed`` run was to run again and left out (stopped by ``-x``, say),
    so that a run stopped early forgets none.  With none (or no stream), every fixture,
    as pytest's ``--last-failed`` does."""
    from horserace.corpus.status import FAILING
    from horserace.reports.runs import STREAM_NAME
    from horserace.reports.stream import read_stream

    stream = out_dir / STREAM_NAME
    if not stream.is_file():
        return _LastFailed(None, f"--last-failed: no earlier run in {out_dir}/: running every selected fixture")
    header, results, _ = read_stream(stream)
    ran = {str(r.get("id")) for r in results}
    failed = {str(r.get("id")) for r in results if r.get("status") in {str(s) for s in FAILING}}
    carried = {str(i) for i in header.get("last_failed") or ()} - ran
    ids = failed | carried
    gone = ids - known
    ids &= known
    if not ids:
        return _LastFailed(
            None, f"--last-failed: the last run in {stream} had no failure: running every selected fixture"
        )
    also = f"; {len(gone)} of its failures no longer in the corpus" if gone else ""
    return _LastFailed(
        frozenset(ids), f"--last-failed: running the {len(ids)} fixture(s) that failed in the last run ({stream}){also}"
    )


def _list(argvs: list[list[str]], fixtures: list[Fixture], session: Session, args: argparse.Namespace, of: int) -> int:
    """``--list``: each implementation's hello, and for each selected fixture whether it
    would run or why it would be skipped."""
    import json

    from horserace.cli._options import write_out
    from horserace.resources.locations import fixture_location

    listed: list[dict[str, Any]] = []
    for argv in argvs:
        hello, reasons = session.plan(argv, fixtures)
        listed.append(
            {
                "command": args.commands[len(listed)],
                "implementation": hello,
                "fixtures": [
                    {
                        "id": fx.id,
                        "kind": fx.kind,
                        "rule": fx.primary_rule,
                        "file": fixture_location(fx.file, args.paths or ()),
                        "line": fx.line,
                    }
                    | ({"skip": reason} if reason else {"run": True})
                    for fx, reason in zip(fixtures, reasons, strict=True)
                ],
                "run": sum(1 for r in reasons if not r),
                "skip": sum(1 for r in reasons if r),
            }
        )
    deselected = of - len(fixtures)
    if args.format == "json":
        write_out(json.dumps({"selected": len(fixtures), "of": of, "implementations": listed}, indent=2))
        return ExitCode.OK
    lines = []
    for one in listed:
        hello = one["implementation"]
        name = f"{hello.get('name', '?')} {hello.get('version', '')}".rstrip()
        lines.append(f"{name} ({one['command']}):")
        for fx in one["fixtures"]:
            what = "run " if fx.get("run") else "skip"
            why = f"  ({fx['skip']})" if "skip" in fx else ""
            lines.append(f"  {what} {fx['id']}  {fx['kind']:<10} {fx['rule']:<12} {fx['file']}:{fx['line']}{why}")
        left = f", {deselected} deselected" if deselected else ""
        lines.append(f"{one['run']} would run, {one['skip']} would be skipped{left} (of {of} fixtures)")
    write_out("\n".join(lines))
    return ExitCode.OK


@dataclass(frozen=True)
class _Done:
    """One implementation's run: its stream finished, its reports written."""

    run: Run
    written: dict[str, Path]
    #: What cut the run short (Ctrl-C, SIGTERM, SIGHUP), if anything.
    stopped: BaseException | None


def _one(
    argv: list[str], fixtures: list[Fixture], session: Session, args: argparse.Namespace, expected: dict[str, Any]
) -> int:
    """One implementation: its stream and reports in the report folder itself."""
    from horserace.cli._results import print_run
    from horserace.conformance.expectations import prune_expectations, write_expectations
    from horserace.reports.runs import STREAM_NAME

    out_dir = Path(args.report_dir)
    done = _conform(argv, fixtures, session, args, out_dir / STREAM_NAME)
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


def _several(argvs: list[list[str]], fixtures: list[Fixture], session: Session, args: argparse.Namespace) -> int:
    """Several implementations, one after the other, each in its own process, with its
    stream and reports in ``DIR/NAME-VERSION/`` (from its hello; ``DIR/impl-N/`` for one
    that gave none); then the comparison page, ``DIR/index.html``.  The exit code is the
    worst: 3 if any was unusable, else 1 if any is not conformant."""
    from horserace.cli._results import print_runs, worst
    from horserace.reports.recording import remove_stale
    from horserace.reports.runs import STREAM_NAME, folder_name, unique_folders
    from horserace.reports.write import COMPARISON_PAGE, write_comparison

    out_dir = Path(args.report_dir)
    folders: list[str] = []
    done: list[_Done] = []
    for n, argv in enumerate(argvs, 1):
        fallback = unique_folders([*folders, f"impl-{n}"])[-1]

        def place(hello: dict[str, Any], fallback: str = fallback) -> Path:
            return out_dir / unique_folders([*folders, folder_name(hello, fallback)])[-1] / STREAM_NAME

        one = _conform(argv, fixtures, session, args, out_dir / fallback / STREAM_NAME, place, (n, len(argvs)))
        folders.append(one.written["jsonl"].parent.name)
        done.append(one)
        if one.stopped is not None:
            break
    runs = [one.run for one in done]
    started = time.time()
    try:
        page = write_comparison(runs, out_dir, folders, args.link_base)
    except EnvironmentFailure:
        remove_stale(out_dir, started, (COMPARISON_PAGE,))
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
    session: Session,
    args: argparse.Namespace,
    stream_path: Path,
    place: Callable[[dict[str, Any]], Path] | None = None,
    of: tuple[int, int] | None = None,
) -> _Done:
    """Run one implementation into a stream at ``stream_path`` (at ``place(hello)`` once
    its hello is known, if given; the temporary file is then made in the report folder),
    and write every report beside the stream.  ``of``: this is implementation N of M."""
    from horserace.conformance.session import ExitCodes
    from horserace.reports.recording import stream_recording

    bar = progress(sys.stderr.isatty(), f"implementation {of[0]} of {of[1]}: " if of else "")

    def shown(done: int, total: int) -> None:
        if bar:
            width = 30
            filled = width * done // max(1, total)
            bar(f"[{'=' * filled}{' ' * (width - filled)}] {done}/{total} fixtures")

    recording = stream_recording(
        stream_path,
        ExitCodes(int(ExitCode.OK), int(ExitCode.FAILURES), int(ExitCode.IMPLEMENTATION_UNUSABLE)),
        link_base=args.link_base,
        given=args.paths or (),
        place=place,
        scratch=Path(args.report_dir) if place else None,
        progress=shown,
    )
    try:
        recorded = session.record(argv, fixtures, _header(args, len(fixtures), of), recording)
    finally:
        clear_progress(bar)
    run, written = recorded.reports
    return _Done(run, written, recorded.stopped)


def _header(args: argparse.Namespace, fixtures: int, of: tuple[int, int] | None) -> dict[str, Any]:
    """The stream's header: the command, the mode, the options, the selection."""
    run_options: dict[str, Any] = {
        "timeout": args.timeout,
        "jobs": args.jobs,
        "strict_rule_ids": args.strict_rule_ids,
        "expectations": _shown_path(args.expectations) if args.expectations else None,
        "require_all": args.require_all,
        "lenient_expectations": _lenient(args),
    }
    if args.max_fail is not None:
        run_options["max_fail"] = args.max_fail
    header: dict[str, Any] = {
        "command": args.commands[of[0] - 1 if of else 0],
        "mode": "one-shot" if args.one_shot else "persistent",
        "options": run_options,
        "fixtures": fixtures,
        "implementation": None,
    }
    if args.selection:
        header["selection"] = args.selection
    if args.last_failed_ids is not None:
        header["last_failed"] = args.last_failed_ids
    return header


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
    if Path(word).is_absolute():
        try:
            return Path(word).relative_to(Path.cwd()).as_posix()
        except ValueError:
            pass
    return word


def _lenient(args: argparse.Namespace) -> bool:
    """Whether an expected failure that now passes leaves the run conformant: asked for,
    or implied by --update-expectations (which removes them from the file)."""
    return bool(args.lenient_expectations or args.update_expectations)
