"""The JSON Lines result stream of a conformance run: every report is made from it.

The stream is a header (suite and protocol versions, the implementation's hello, the
options), one line per fixture, and a footer (counts, verdict).  It is written to a
temporary file and renamed into place, so a reader never sees half a stream, and it is
finished (with ``"interrupted": true``) even when the run is cut short.  A write the
machine refuses (a full disk) stops the writing, removes the temporary file, and is
raised by :meth:`ResultStream.finish` as an :class:`~horserace.errors.EnvironmentFailure`.  The terminal
summary, JSON, JUnit XML, Markdown and HTML reports are made from the stream alone.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from horserace._files import discard, readable
from horserace._signals import deferred_signals
from horserace._version import PROTOCOL_VERSION, __version__
from horserace.errors import EnvironmentFailure, InputError
from horserace.reports.budget import fitted_record, record_share
from horserace.reports.summary import tally

__all__ = ["STREAM_SCHEMA", "ResultStream", "read_stream", "records"]

#: The version of the stream's records and of report.json: 2 added each failure's
#: ``diagnosis``, the ``refusal`` and ``twin`` of illegal fixtures, ``was`` of an
#: expected failure, the header's ``selection`` and ``schema``; 3 made a result's
#: ``file`` its location relative to its repository (``scenarios/rule-text/layout.yaml``,
#: :mod:`horserace.resources.locations`), not to the folder ``conform`` ran in, and never
#: a path of the machine, and the header's ``command`` the command as given
#: (``horserace serve`` for the reference engine).  A stream without ``schema`` is of
#: version 1 (suite 0.1.0); ``horserace report`` reads every version.
STREAM_SCHEMA = 3


class ResultStream:
    """Writes the JSON Lines stream atomically: ``with ResultStream(path, header) as s``.

    The temporary file is made in ``scratch`` (default: the stream's folder), and
    :attr:`path` may change until the stream is finished (``conform`` with several
    implementations names each one's folder after its hello); both must be on one file
    system, as the folders of one report folder are."""

    def __init__(self, path: Path, header: dict[str, Any], *, scratch: Path | None = None) -> None:
        self.path = Path(path)
        folder = self.path.parent if scratch is None else Path(scratch)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".results-", suffix=".jsonl.tmp", dir=folder)
        except OSError as exc:
            raise EnvironmentFailure.from_os_error(exc, self.path) from None
        self._tmp = Path(tmp)
        self._file = os.fdopen(fd, "w", encoding="utf-8")
        #: The first write the machine refused (a full disk): nothing more is written, the
        #: temporary file is removed, and :meth:`finish` raises it.
        self.failure: EnvironmentFailure | None = None
        #: Written with the first result (so that the implementation's hello can join it).
        self.header = {
            "record": "header",
            "schema": STREAM_SCHEMA,
            "suite": __version__,
            "protocol": PROTOCOL_VERSION,
            "started": _now(),
            **header,
        }
        self._header_written = False
        #: The long text each result may keep (:mod:`horserace.reports.budget`).
        self._share = record_share(self.header.get("fixtures"))
        self.results: list[dict[str, Any]] = []
        self.footer: dict[str, Any] | None = None
        self._lock = threading.RLock()

    def _write(self, record: dict[str, Any]) -> None:
        if self.failure is not None:
            return
        try:
            if not self._header_written:
                self._header_written = True
                self._file.write(json.dumps(self.header, ensure_ascii=False, allow_nan=False) + "\n")
            self._file.write(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n")
        except OSError as exc:
            self._fail(exc)

    def _fail(self, exc: OSError) -> None:
        """A write refused (from a worker thread, too): remember it, stop writing, and
        leave no temporary file."""
        self.failure = EnvironmentFailure.from_os_error(exc, self.path)
        with contextlib.suppress(OSError):
            self._file.close()
        discard(self._tmp)

    def add(self, record: dict[str, Any]) -> None:
        with self._lock:
            if self.footer is not None:  # finished (an interrupted run): what comes late is not the run's
                return
            record = fitted_record(record, self._share)  # the stream under its cap, as the reports
            self.results.append(record)
            self._write(record)

    def finish(self, footer: dict[str, Any]) -> None:
        """Write the footer, close the stream and rename it into place; a signal that
        arrives meanwhile is acted on once the stream is in place (a reader then finds it
        by its final name, and no temporary file is left)."""
        with deferred_signals(), self._lock:
            if self.footer is None:
                self._finish(footer)

    def _finish(self, footer: dict[str, Any]) -> None:
        self.footer = {"record": "footer", "finished": _now(), **footer}
        self._write(self.footer)
        if self.failure is None:
            try:
                self._file.flush()
                os.fsync(self._file.fileno())
                self._file.close()
                readable(self._tmp)
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._tmp.replace(self.path)
            except OSError as exc:
                self._fail(exc)
        if self.failure is not None:
            raise self.failure

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.footer is None and not (self.failure is not None and exc is self.failure):
            self.finish(
                {
                    "interrupted": True,
                    "counts": tally(self.results),
                    "conformant": False,
                    "error": f"{exc_type.__name__}: {exc}" if exc_type else "the run did not finish",
                }
            )


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


#: The most digits an integer of a record may have (as of an answer: Python refuses to
#: read more than 4,300, and no count needs more than a few).
MAX_INT_DIGITS = 4000


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise ValueError(f"{shown} is beyond a 64-bit float (no strict JSON writer can write it back)")
    return value


def _bounded_int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {digits:,} digits (at most {MAX_INT_DIGITS:,})")
    return int(text)


#: Strict JSON only: no NaN or Infinity, no number beyond a double (``1e400``), no
#: integer of thousands of digits.
_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite, parse_int=_bounded_int)


def records(lines: Iterable[str], name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The records of a stream's lines with their line numbers (1-based; blank lines
    are passed over); a line that is not a JSON object (or not strict JSON: ``NaN``,
    ``1e400``, nested too deep to decode) is an :class:`~horserace.errors.InputError`
    at ``name:line``."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = _DECODER.decode(line)
        except RecursionError:
            raise InputError("not a JSON line: nested too deep to decode", file=name, line=number) from None
        except ValueError as exc:
            column = getattr(exc, "colno", None)
            reason = getattr(exc, "msg", None) or str(exc)
            raise InputError(f"not a JSON line: {reason}", file=name, line=number, column=column) from None
        if not isinstance(record, dict):
            raise InputError(f"a record is a JSON object, not {type(record).__name__}", file=name, line=number)
        yield number, record


def read_stream(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """A stream that horserace wrote: header, results and footer."""
    header: dict[str, Any] = {}
    footer: dict[str, Any] = {}
    results = []
    with path.open(encoding="utf-8", newline="\n") as f:
        for _, record in records(f, str(path)):
            kind = record.get("record")
            if kind == "header":
                header = record
            elif kind == "footer":
                footer = record
            else:
                results.append(record)
    return header, results, footer
