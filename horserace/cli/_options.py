"""Options and steps that several commands share: the ruleset of a command line, fixture
paths and selection, the implementation's command, output format, progress."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from horserace.cli.exitcodes import ExitCode, Stopped, exit_code_for
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.errors import UsageError
from horserace.reports import colour

if TYPE_CHECKING:
    from horserace.corpus.fixture import Corpus, Fixture
    from horserace.resources.rulesets import NamedRuleset

__all__ = [
    "MAX_JOBS",
    "MAX_SECONDS",
    "REPORT_DIR",
    "clear_progress",
    "cluster_option",
    "count",
    "format_option",
    "impl_argv",
    "jobs_option",
    "link_base_option",
    "load_corpus",
    "paths_option",
    "print_load_errors",
    "progress",
    "ruleset_from",
    "rulesets_from",
    "seconds",
    "selected_fixtures",
    "selection_options",
    "unwound_by_signals",
    "variant_options",
    "write_out",
]


#: Where ``conform`` writes its reports, and ``report`` those of several streams, by default.
REPORT_DIR = "horserace-report"
#: The largest values the command line accepts: beyond them a value is a mistake, not a wish.
MAX_SECONDS = 3600.0
MAX_JOBS = 256


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds, more than 0 and at most an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds above 0 and at most {MAX_SECONDS:g}")
    return value


def count(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r}: give a whole number from {low} to {high:,}")
        return value

    return parse


def write_out(text: str, end: str = "\n") -> None:
    """Print a command's result.  If the reader has gone (``horserace conform | head``),
    the rest of the output is dropped quietly and the command still exits with the code
    of its result, not 0."""
    try:
        sys.stdout.write(text + end)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # also silences the flush at exit
        os.close(devnull)


def jobs_option(p: argparse.ArgumentParser, what: str, default: int = 1) -> None:
    """``--jobs N``: how many run at once, 1 to :data:`MAX_JOBS`."""
    p.add_argument(
        "--jobs",
        type=count(1, MAX_JOBS),
        default=default,
        metavar="N",
        help=f"{what}, at most {MAX_JOBS} (default: {default})",
    )


def cluster_option(p: argparse.ArgumentParser, what: str) -> None:
    """``--cluster ADDRESS|local:N``: run on a Dask cluster (the ``distributed`` extra;
    :mod:`horserace.cluster`, imported only when it is given, after
    :func:`require_cluster_extra`)."""
    p.add_argument(
        "--cluster",
        metavar="ADDRESS|local:N",
        help=f"{what} on a Dask cluster: a scheduler's address (tcp://HOST:8786) or local:N, N worker "
        "processes started on this machine (pip install 'horserace[distributed]')",
    )


def require_cluster_extra() -> None:
    """Before a command given ``--cluster`` imports :mod:`horserace.cluster`'s modules
    (each needs Dask's ``distributed``): a :class:`UsageError` saying what to install
    when the extra is missing."""
    from horserace.cluster import require_extra  # noqa: PLC0415  (the cluster room, for a --cluster only)

    require_extra()


@contextlib.contextmanager
def cluster_client(address: str) -> Iterator[Any]:  # a distributed.Client: only the cluster room imports dask
    """A client on ``--cluster ADDRESS`` for a command's campaign: the extra checked and
    the address read before anything is started, then signals unwound as Ctrl-C for the
    whole campaign, and the client closed (a local cluster stopped) however it ends."""
    require_cluster_extra()
    from horserace.cluster.connect import connected, parse  # noqa: PLC0415  (the cluster room, for a --cluster only)

    parse(address)  # a malformed address is told before anything starts
    with unwound_by_signals(), connected(address) as client:
        yield client


@contextlib.contextmanager
def unwound_by_signals() -> Iterator[None]:
    """Inside the block, SIGTERM and SIGHUP unwind as Ctrl-C does (:class:`Stopped`, exit
    143 and 129): ``conform`` writes every report of what ran, a campaign on a cluster
    cancels its tasks and stops its local workers, on the way out.  In the main thread
    only, the handlers restored after."""

    def stop(signum: int, frame: object) -> None:
        raise Stopped(signum)

    previous = {}
    try:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            previous[signum] = signal.signal(signum, stop)
    except ValueError:  # not the main thread: signals are the main thread's
        pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def said_stopped(stopped: BaseException, held: str) -> int:
    """Say on stderr what stopped a command whose summary of what ran is on stdout
    (``held``: what that summary holds); the exit code of the stop (130, 143, 129)."""
    what = "interrupted" if isinstance(stopped, KeyboardInterrupt) else str(stopped)
    print(f"horserace: {what}; {held}", file=sys.stderr)
    return exit_code_for(stopped)


def _colour(text: str) -> str:
    """An argparse type that also sets the choice (:func:`horserace.reports.colour.choose`):
    argparse applies it to the default too, so every command line starts from its own."""
    if text not in colour.CHOICES:
        raise argparse.ArgumentTypeError(f"{text!r}: give one of {', '.join(colour.CHOICES)}")
    return colour.choose(text)


def format_option(p: argparse.ArgumentParser) -> None:
    """``--format text|json``, and ``--color`` for the text."""
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    p.add_argument(
        "--color",
        type=_colour,
        default="auto",
        metavar="auto|always|never",
        help="colour the outcomes in the text output: auto (the default) when it goes to a terminal and "
        "NO_COLOR is unset, always, or never",
    )


def _link_base(text: str) -> str:
    if not text or any(c.isspace() or ord(c) < 32 for c in text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a URL or a relative path (no spaces or control characters)")
    return text


def link_base_option(p: argparse.ArgumentParser) -> None:
    """``--link-base URL``: where the reports' rule links go (:mod:`horserace.reports.links`)."""
    p.add_argument(
        "--link-base",
        type=_link_base,
        metavar="URL",
        help="where the reports link each rule: the folder or URL holding rules.md (BASE/rules.md#anchor), or "
        "a template with {rule} or {anchor} (https://example.org/rules/{rule}.html); default: the spec relative "
        "to the report folder inside the clone, else a copy of the rules beside the reports (spec-rules.md)",
    )


def paths_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH", help="fixture files or folders (default: the bundled corpus)")


def _variant(text: str) -> tuple[str, str]:
    field, sep, reading = text.partition("=")
    field = field.strip().replace("-", "_")
    if not sep or field not in VARIANT_FIELDS or reading not in VARIANT_FIELDS[field]:
        known = "; ".join(f"{f}={'|'.join(r)}" for f, r in VARIANT_FIELDS.items())
        raise argparse.ArgumentTypeError(f"{text!r} is not a register variant; known: {known}")
    return field, reading


_RULES_HELP = "a ruleset file (spec/rulesets/*.yaml format) or the name of a bundled one, e.g. long-match or one-branch"


def variant_options(p: argparse.ArgumentParser, help_text: str, *, rules_help: str | None = None) -> None:
    """``--rules`` and ``--variant``; with ``rules_help``, ``--rules`` may be given
    several times (read with :func:`rulesets_from`)."""
    if rules_help is None:
        p.add_argument("--rules", metavar="FILE", help=_RULES_HELP)
    else:
        p.add_argument("--rules", action="append", metavar="FILE", help=f"{_RULES_HELP}; {rules_help}")
    p.add_argument("--variant", action="append", type=_variant, metavar="FIELD=READING", help=help_text)


def selection_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--select",
        action="append",
        metavar="WHAT",
        help="only fixtures matching WHAT: a fixture ID, a rule ID or a kind, each may be a glob "
        "('HR-COUNT-*'; id:, rule:, kind: to be explicit), or reading:FIELD=VALUE (the fixtures played "
        "under that reading, e.g. reading:continuation=optional); repeatable, any one matching selects",
    )
    p.add_argument(
        "--deselect", action="append", metavar="WHAT", help="leave out fixtures matching WHAT, as --select (repeatable)"
    )


def selected_fixtures(
    fixtures: list[Fixture], args: argparse.Namespace, only: Iterable[str] | None = None
) -> list[Fixture]:
    """The fixtures ``--select`` and ``--deselect`` leave (among the IDs ``only``, if
    given); a pattern that matches no fixture is a usage error with the close matches, and
    so is a selection that leaves none (a run of nothing would pass for a green one)."""
    from horserace.corpus.selection import select  # noqa: PLC0415  (start-up: only the commands that select)

    chosen = select(fixtures, args.select, args.deselect, only=only)
    if fixtures and not chosen and (args.select or args.deselect):
        words = [f"--select {w}" for w in args.select or ()] + [f"--deselect {w}" for w in args.deselect or ()]
        raise UsageError(f"horserace: {' '.join(words)}: no fixture is left")
    return chosen


def _with_variants(ruleset: Ruleset, args: argparse.Namespace) -> Ruleset:
    for field, reading in getattr(args, "variant", None) or ():
        ruleset = ruleset.with_variant(field, reading)
    return ruleset


def ruleset_from(args: argparse.Namespace) -> Ruleset:
    """The ruleset of a command line: --rules (a file or a bundled name), then each
    --variant on top, then --target."""
    ruleset = CANONICAL
    if getattr(args, "rules", None):
        from horserace.resources.rulesets import resolve  # noqa: PLC0415  (start-up: YAML and the schemas only when asked for)

        ruleset = resolve(args.rules).ruleset
    ruleset = _with_variants(ruleset, args)
    if getattr(args, "target", None) is not None:
        if args.target < 1:
            raise UsageError("--target must be a positive whole number")
        ruleset = replace(ruleset, target=args.target)
    return ruleset


def rulesets_from(args: argparse.Namespace) -> list[NamedRuleset]:
    """The rulesets of a repeatable --rules (each a file or a bundled name), each with
    every --variant on top (only --variant: the canonical ruleset with them); none when
    neither is given."""
    from horserace.resources.rulesets import NamedRuleset, resolve  # noqa: PLC0415  (start-up: YAML and the schemas only when asked for)

    named = [resolve(r) for r in args.rules or ()]
    variants = getattr(args, "variant", None) or ()
    if not named and variants:
        named = [NamedRuleset("canonical", "the canonical rules", CANONICAL)]
    suffix = "".join(f" +{field}={reading}" for field, reading in variants)
    return [replace(n, name=n.name + suffix, ruleset=_with_variants(n.ruleset, args)) for n in named]


def progress(enabled: bool, prefix: str = "") -> Callable[[str], None] | None:
    """A one-line progress display on stderr, each message after ``prefix``, or None
    when stderr is not a terminal."""
    if not enabled:
        return None

    def show(message: str) -> None:
        sys.stderr.write(f"\r\033[K{prefix}{message}")
        sys.stderr.flush()

    return show


def clear_progress(bar: Callable[[str], None] | None) -> None:
    if bar:
        sys.stderr.write("\r\033[K")


def load_corpus(paths: list[str]) -> Corpus:
    """The fixtures of ``paths`` (default: the bundled corpus); a path that does not
    exist is a usage error."""
    from horserace.corpus.loader import load_paths  # noqa: PLC0415  (start-up: YAML and the schemas only for commands that load)

    for p in paths:
        if not Path(p).exists():
            raise UsageError(f"horserace: no such file or folder: {p}")
    return load_paths(paths or None)


def print_load_errors(corpus: Corpus, fmt: str) -> int:
    if fmt == "json":
        write_out(json.dumps({"errors": [e.to_dict() for e in corpus.errors]}, indent=2))
    else:
        for e in corpus.errors:
            print(e.render(), file=sys.stderr)
        print(
            f"{len(corpus.errors)} invalid fixture input(s) in {corpus.files} file(s); nothing was replayed",
            file=sys.stderr,
        )
    return ExitCode.INVALID_INPUT


def impl_argv(impl: str | None) -> list[str]:
    """The implementation's argv: --impl split like a POSIX shell, or the reference engine.
    A command whose first word is ``horserace`` is this horserace, run by the interpreter
    that runs this one (``--impl "horserace serve"`` works without the virtualenv on PATH)."""
    import shlex  # noqa: PLC0415  (start-up: only the commands that start an implementation)

    if impl is None:
        from horserace.conformance.server import reference_argv  # noqa: PLC0415  (start-up: as above)

        return reference_argv()
    try:
        argv = shlex.split(impl)
    except ValueError as exc:
        raise UsageError(f"horserace: --impl {impl!r}: {exc}") from None
    if not argv:
        raise UsageError("horserace: --impl is empty")
    if argv[0] == "horserace":
        return [sys.executable, "-m", "horserace", *argv[1:]]
    return argv
