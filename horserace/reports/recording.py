"""The reports' side of a recorded conformance session: the
:class:`~horserace.conformance.session.Recording` that writes a run as ``conform`` does
(the JSON Lines stream, each outcome diagnosed, every report beside it), for any caller
of :meth:`Session.record <horserace.conformance.session.Session.record>`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from horserace.conformance.runner import Outcome
from horserace.conformance.session import ExitCodes, Recording
from horserace.quality.diagnosis import Diagnoser
from horserace.reports.runs import Run
from horserace.reports.stream import ResultStream, read_stream
from horserace.reports.write import REPORT_FILES, write_run
from horserace.resources.locations import fixture_location

__all__ = ["Written", "remove_stale", "stream_recording"]

#: What a recorded run leaves: the run read back from its stream, and each report's path by name.
Written = tuple[Run, dict[str, Path]]


def stream_recording(
    stream_path: Path,
    codes: ExitCodes,
    *,
    link_base: str | None = None,
    given: Sequence[str] = (),
    place: Callable[[dict[str, Any]], Path] | None = None,
    scratch: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Recording[Written]:
    """A run into a stream at ``stream_path`` (at ``place(hello)`` once the hello is known,
    if given, its temporary file then in ``scratch``), each outcome diagnosed and its
    fixture's ``file`` its location (``given``: the paths of the command line), never a
    path of the machine; then every report beside the stream (links under ``link_base``)."""
    diagnoser = Diagnoser()

    def record_of(outcome: Outcome) -> dict[str, Any]:
        record = diagnoser.record_of(outcome)
        record["file"] = fixture_location(str(record.get("file", "")), given)
        return record

    def write_reports(final: Path) -> Written:
        run = Run(*read_stream(final), final)
        return run, write_run(run, final.parent, link_base)

    def stale(folder: Path | None, started: float) -> None:
        remove_stale(folder if folder is not None else stream_path.parent, started)

    return Recording(
        open_stream=lambda header: ResultStream(stream_path, header, scratch=scratch),
        record_of=record_of,
        write_reports=write_reports,
        codes=codes,
        place=place,
        remove_stale=stale,
        progress=progress,
    )


def remove_stale(out_dir: Path, started: float, names: Iterable[str] | None = None) -> None:
    """After a write the machine refused: remove every report of an earlier run left in
    the folder (it would pass for this run's), keeping those this run wrote; ``names``:
    those files only (default: every report of a run)."""
    for name in REPORT_FILES.values() if names is None else names:
        path = out_dir / name
        try:
            if path.stat().st_mtime < started:
                path.unlink()
        except OSError:
            pass
