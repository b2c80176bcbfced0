"""A conformance session as a library: the fixtures of a selection against one
implementation after another, its processes under one :class:`Supervisor`, each
implementation's outcomes handed on in fixture order, its verdict, and (with a
:class:`Recording`) its stream finished and its reports written whatever stops it.

``horserace conform`` parses its arguments, makes a :class:`Session`, and prints what
it returns; the pytest plugin takes its implementation processes from one
(:meth:`Session.worker`), ``horserace bench`` times :meth:`Session.run`.  The stream and
the reports belong to a room above this one: a session reaches them through the
:class:`Recording` its caller gives (:class:`Stream` is what it needs of a stream).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, Protocol, Self, TypeVar

from horserace._signals import Stopped, deferred_signals, stop_for
from horserace.conformance.runner import Options, Outcome, Worker, conformant, counts, plan, run
from horserace.conformance.supervisor import Supervisor
from horserace.corpus.fixture import Fixture
from horserace.errors import EnvironmentFailure, ImplementationUnusable

__all__ = ["ExitCodes", "Ran", "Recorded", "Recording", "Session", "Stream", "Verdict"]

R = TypeVar("R")


@dataclass(frozen=True)
class ExitCodes:
    """The exit codes a verdict is written with: the command line's table
    (``horserace.cli.exitcodes``), given by the caller."""

    conformant: int
    not_conformant: int
    unusable: int


@dataclass(frozen=True)
class Verdict:
    """What one implementation's run comes to (spec/protocol.md, "Outcomes")."""

    counts: dict[str, int]
    conformant: bool
    require_all: bool = False
    lenient_expectations: bool = False
    #: Why the implementation could not be used (no fixture ran), if it could not.
    unusable: str | None = None
    #: The stop rule (``max_fail``) left this many fixtures out.
    not_run: int = 0
    max_fail: int | None = None

    def footer(self, codes: ExitCodes) -> dict[str, Any]:
        """The verdict as the stream's footer record holds it (spec/report.schema.json)."""
        if self.unusable is not None:
            return {"unusable": self.unusable, "counts": {}, "conformant": False, "exit_code": codes.unusable}
        footer: dict[str, Any] = {
            "counts": self.counts,
            "conformant": self.conformant,
            "require_all": self.require_all,
            "lenient_expectations": self.lenient_expectations,
            "exit_code": codes.conformant if self.conformant else codes.not_conformant,
        }
        if self.not_run:
            footer["stopped"] = {"max_fail": self.max_fail, "not_run": self.not_run}
        return footer


@dataclass(frozen=True)
class Ran:
    """One implementation's run: its hello, its outcomes in fixture order, its verdict."""

    hello: dict[str, Any]
    outcomes: list[Outcome]
    verdict: Verdict


class Stream(Protocol):
    """What a session needs of a result stream (``horserace.reports.stream.ResultStream``)."""

    header: dict[str, Any]
    path: Path
    footer: dict[str, Any] | None

    def add(self, record: dict[str, Any]) -> None: ...
    def finish(self, footer: dict[str, Any]) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None: ...


@dataclass(frozen=True)
class Recording(Generic[R]):
    """Where a recorded run goes, from the rooms above: the stream (made from the header),
    the record of each outcome (the diagnosis), and the reports, written from the stream
    once it is in place."""

    open_stream: Callable[[dict[str, Any]], Stream]
    record_of: Callable[[Outcome], dict[str, Any]]
    #: Reads the finished stream at the path given and writes every report beside it.
    write_reports: Callable[[Path], R]
    codes: ExitCodes
    #: The stream's final path, from the hello (several implementations: one folder each).
    place: Callable[[dict[str, Any]], Path] | None = None
    #: After a write the machine refused: clears the stream's folder (``None``: the
    #: stream was not made) of the reports of an earlier run (older than the time
    #: given), which would pass for this run's.
    remove_stale: Callable[[Path | None, float], None] = lambda folder, started: None
    #: Told of each fixture done: how many, of how many.
    progress: Callable[[int, int], None] | None = None


@dataclass(frozen=True)
class Recorded(Generic[R]):
    """A recorded run: the stream's path, what the reports' writer returned, the outcomes
    that finished, and what cut the run short (Ctrl-C, SIGTERM, SIGHUP), if anything."""

    stream: Path
    reports: R
    outcomes: list[Outcome]
    stopped: BaseException | None


@dataclass
class Session:
    """Conformance runs that share their options and one :class:`Supervisor`: every
    implementation process they start is the supervisor's, and :meth:`stop` ends them all."""

    options: Options = field(default_factory=Options)
    supervisor: Supervisor = field(default_factory=Supervisor)
    #: A skipped fixture fails the run too.
    require_all: bool = False
    #: An expected failure that now passes does not fail the run (it is still reported).
    lenient_expectations: bool = False

    def worker(self, argv: Sequence[str], cwd: str | None = None) -> Worker:
        """One implementation process of this session, fixture by fixture (the pytest plugin)."""
        return Worker(argv, self.options, cwd, supervisor=self.supervisor)

    def plan(self, argv: Sequence[str], fixtures: list[Fixture]) -> tuple[dict[str, Any], list[str]]:
        """The implementation's hello, and why each fixture would be skipped (``""``: it would run)."""
        return plan(argv, fixtures, self.options, supervisor=self.supervisor)

    def run(
        self,
        argv: Sequence[str],
        fixtures: list[Fixture],
        *,
        on_start: Callable[[dict[str, Any]], None] | None = None,
        on_outcome: Callable[[Outcome], None] | None = None,
        cwd: str | None = None,
    ) -> Ran:
        """Run ``fixtures`` against the implementation (see :func:`horserace.conformance.runner.run`);
        raises :class:`ImplementationUnusable` when the first handshake fails."""
        hellos: list[dict[str, Any]] = []

        def started(hello: dict[str, Any]) -> None:
            hellos.append(hello)
            if on_start is not None:
                on_start(hello)

        outcomes = run(
            argv, fixtures, self.options, on_start=started, on_outcome=on_outcome, cwd=cwd, supervisor=self.supervisor
        )
        verdict = Verdict(
            counts(outcomes),
            conformant(outcomes, require_all=self.require_all, lenient_xpass=self.lenient_expectations),
            self.require_all,
            self.lenient_expectations,
            not_run=len(fixtures) - len(outcomes),
            max_fail=self.options.max_fail,
        )
        return Ran(hellos[0] if hellos else {}, outcomes, verdict)

    def stop(self) -> None:
        """End every implementation process of the session; none is started after."""
        self.supervisor.kill_all()

    def record(
        self, argv: Sequence[str], fixtures: list[Fixture], header: dict[str, Any], recording: Recording[R]
    ) -> Recorded[R]:
        """Run ``fixtures`` into a stream that begins with ``header``, finish it with the
        verdict (an unusable implementation's too), and write every report from it.  A
        stop (Ctrl-C, SIGTERM, SIGHUP) ends the implementations, finishes the stream as
        interrupted and writes the reports of what ran, then is returned in
        :attr:`Recorded.stopped`; one that comes while the reports are written waits for
        them.  Raised: a stop before the stream was made, and :class:`EnvironmentFailure`
        (with the earlier run's reports removed from the folder)."""
        outcomes: list[Outcome] = []
        stopped: BaseException | None = None
        started = time.time()
        stream: Stream | None = None
        try:
            stream = recording.open_stream(header)
            with stream:
                self._into(stream, argv, fixtures, recording, outcomes)
        except (KeyboardInterrupt, Stopped) as exc:
            # The stream was finished as interrupted on the way out (or is, below, if the
            # signal came before its block began); the implementations are stopped, and
            # every report is written from what the stream holds.
            with deferred_signals(reraise=False):
                self.stop()
                if stream is not None and stream.footer is None:
                    stream.__exit__(type(exc), exc, None)
            stopped = exc
        except EnvironmentFailure:
            self.stop()
            recording.remove_stale(stream.path.parent if stream is not None else None, started)
            raise
        if stream is None:  # stopped before the stream was made: there is nothing to report
            assert stopped is not None
            raise stopped
        final = stream.path
        # The stream is in place: a signal from now on waits for every report to be
        # written (each is renamed into place whole), and then stops the run as it would have.
        with deferred_signals(reraise=False) as held:
            try:
                reports = recording.write_reports(final)
            except EnvironmentFailure:
                recording.remove_stale(final.parent, started)
                raise
        if stopped is None and held.signum is not None:
            stopped = stop_for(held.signum)
        return Recorded(final, reports, outcomes, stopped)

    def _into(
        self,
        stream: Stream,
        argv: Sequence[str],
        fixtures: list[Fixture],
        recording: Recording[R],
        outcomes: list[Outcome],
    ) -> None:
        """Run the fixtures, every outcome into ``stream``, and finish it with the verdict."""

        def on_start(hello: dict[str, Any]) -> None:
            stream.header["implementation"] = hello
            if recording.place is not None:
                stream.path = recording.place(hello)

        def on_outcome(outcome: Outcome) -> None:
            stream.add(recording.record_of(outcome))
            outcomes.append(outcome)
            if recording.progress is not None:
                recording.progress(len(outcomes), len(fixtures))

        try:
            verdict = self.run(argv, fixtures, on_start=on_start, on_outcome=on_outcome).verdict
        except ImplementationUnusable as exc:
            verdict = Verdict({}, False, unusable=str(exc))
        stream.finish(verdict.footer(recording.codes))
