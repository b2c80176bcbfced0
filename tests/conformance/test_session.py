"""The conformance session as a library: :class:`Session` records a run as ``conform``
does, says an unusable implementation with the caller's exit codes, and stops cleanly."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.conformance.runner import Options, Outcome
from horserace.conformance.server import reference_argv
from horserace.conformance.session import ExitCodes, Recorded, Recording, Session
from horserace.reports.recording import stream_recording
from horserace.reports.stream import ResultStream, read_stream
from tests.helpers import bundled_corpus

FAKE = Path(__file__).with_name("fake_impl.py")
CODES = ExitCodes(int(ExitCode.OK), int(ExitCode.FAILURES), int(ExitCode.IMPLEMENTATION_UNUSABLE))


def _fixtures() -> list[Any]:
    """The settlement fixtures (``conform --select kind:settlement``)."""
    return [fx for fx in bundled_corpus().fixtures if fx.kind == "settlement"]


def _recording(path: Path, **given: Any) -> Recording[tuple[dict, list[dict], dict]]:
    return Recording(
        open_stream=lambda header: ResultStream(path, header),
        record_of=Outcome.record,
        write_reports=read_stream,
        codes=CODES,
        **given,
    )


def _kept(record: dict) -> dict:
    """A record without what differs from one run to the next (its times)."""
    return {k: v for k, v in record.items() if k not in {"seconds", "started", "finished"}}


def test_a_recorded_session_writes_the_stream_conform_writes(tmp_path: Path) -> None:
    """``Session.record`` with the reports' recording (``reports.recording``) against
    ``conform --select kind:settlement``: the same results and verdict, record for record."""
    fixtures = _fixtures()
    header = {"command": "horserace serve", "fixtures": len(fixtures), "implementation": None}
    recording = stream_recording(tmp_path / "lib" / "results.jsonl", CODES)
    recorded = Session().record(reference_argv(), fixtures, header, recording)
    assert isinstance(recorded, Recorded) and recorded.stopped is None
    assert len(recorded.outcomes) == len(fixtures) > 0
    run, written = recorded.reports
    assert run.header["implementation"]["name"] == "horserace-reference"
    assert {path.name for path in written.values()} >= {"results.jsonl", "report.html", "junit.xml"}

    assert main(["conform", "--select", "kind:settlement", "--report-dir", str(tmp_path / "cli")]) == ExitCode.OK
    _, cli_results, cli_foot = read_stream(tmp_path / "cli" / "results.jsonl")
    assert [_kept(r) for r in run.results] == [_kept(r) for r in cli_results]
    assert (
        _kept(run.footer)
        == _kept(cli_foot)
        == {
            "record": "footer",
            "counts": cli_foot["counts"],
            "conformant": True,
            "require_all": False,
            "lenient_expectations": False,
            "exit_code": 0,
        }
    )


def test_an_unusable_implementation_ends_the_stream_with_the_callers_exit_code(tmp_path: Path) -> None:
    argv = [sys.executable, str(FAKE), "other-protocol"]
    recorded = Session().record(argv, _fixtures(), {"fixtures": 1}, _recording(tmp_path / "r.jsonl"))
    _, results, foot = recorded.reports
    assert results == [] and recorded.outcomes == []
    assert foot["exit_code"] == CODES.unusable and foot["conformant"] is False and "protocol" in foot["unusable"]


def test_a_stop_ends_the_implementations_and_keeps_what_ran(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to this process, KeyboardInterrupt in the main thread) after the
    third outcome: the session ends its processes, finishes the stream as interrupted,
    writes the reports and hands the stop back instead of raising it."""
    session = Session(Options(one_shot=True))
    sent: list[int] = []

    def after(done: int, total: int) -> None:
        if done == 3 and not sent:
            sent.append(done)
            os.kill(os.getpid(), signal.SIGINT)

    fixtures = _fixtures()
    recorded = session.record(
        reference_argv(), fixtures, {"fixtures": len(fixtures)}, _recording(tmp_path / "r.jsonl", progress=after)
    )
    assert isinstance(recorded.stopped, KeyboardInterrupt)
    _, results, foot = recorded.reports
    assert foot["interrupted"] is True and 3 <= len(results) < len(fixtures)
    assert session.supervisor.live() == 0 and session.supervisor.stopping
    assert not list(tmp_path.glob(".results-*"))  # no temporary file left
