"""Runs as data: a stored result stream read back strictly, and the folder each
implementation's reports go into when several are shown side by side.

``horserace report`` reads streams that it did not just write (copied, edited, from
another version), so :func:`load_run` checks every line before a report is made from
it: each error names the file and the line (``results.jsonl:3: ...``), and the reports
never meet a record they cannot read.  An implementation is known across runs by its
hello's ``name`` and ``version`` (:attr:`Run.name`, :attr:`Run.version`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from horserace.conformance.bounds import TEXT_LIMIT, cut
from horserace.corpus.status import PASSING, Status
from horserace.errors import InputError, UsageError
from horserace.reports.stream import records
from horserace.reports.summary import tally
from horserace.resources.limits import MAX_STREAM_BYTES
from horserace.resources.paths import display_path
from horserace.resources.strict_yaml import read_text

__all__ = ["REPORT_NAMES", "STREAM_NAME", "Run", "folder_name", "load_run", "unique_folders"]

#: The stream's file name in a report folder.
STREAM_NAME = "results.jsonl"
#: A folder name keeps these characters; every other run of characters becomes ``_``.
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
#: Longest folder name made from a hello (file systems allow 255 bytes; a path stays readable).
_FOLDER_LENGTH = 80
_STATUSES = frozenset(str(s) for s in Status)
#: The deepest a record may nest (a result holds a fixture's values, about 8 deep, four
#: levels down); far deeper is no stream horserace wrote, and no report could draw it.
MAX_RECORD_DEPTH = 100
#: Results a stream may hold when its header does not say how many fixtures the run had
#: (a header of suite 0.1.0 or later does: no more results than that).
MAX_RESULTS = 100_000
#: Optional fields of a record that the reports read, and their JSON types (``None``:
#: null is allowed too).
_HEADER_FIELDS: dict[str, tuple[type | None, ...]] = {
    "suite": (str,),
    "protocol": (str,),
    "started": (str,),
    "command": (str, None),
    "mode": (str,),
    "options": (dict, None),
    "selection": (dict, None),
    "schema": (int,),
}
_HELLO_FIELDS: dict[str, tuple[type | None, ...]] = {
    "readings": (dict, None),
    "seatings": (list, None),
    "targets": (list, None),
}
_DIAGNOSIS_FIELDS: dict[str, tuple[type | None, ...]] = {"cause": (dict, None), "deviations": (dict, None)}
_FOOTER_FIELDS: dict[str, tuple[type | None, ...]] = {
    "counts": (dict,),
    "conformant": (bool,),
    "interrupted": (bool,),
    "unusable": (str, None),
    "require_all": (bool,),
    "lenient_expectations": (bool,),
    "finished": (str,),
    "stopped": (dict, None),
    "exit_code": (int, None),
    "error": (str, None),
}
_RESULT_OPTIONAL: dict[str, tuple[type | None, ...]] = {
    "description": (str,),
    "why": (str,),
    "seconds": (int, float),
    "breaks": (str, None),
    "was": (str, None),
    "stderr": (str, None),
    "diagnosis": (dict, None),
    "refusal": (dict, None),
    "twin": (dict, None),
    "variants": (dict, None),
    "refused_at": (int, None),
}
#: The fields of a result that every report reads, and their JSON types.
_RESULT_FIELDS: dict[str, tuple[type, ...]] = {
    "id": (str,),
    "kind": (str,),
    "file": (str,),
    "line": (int,),
    "rule": (str,),
    "status": (str,),
    "message": (str,),
}


@dataclass(frozen=True)
class Run:
    """One run of one implementation, as its stream holds it."""

    header: dict[str, Any]
    results: list[dict[str, Any]]
    footer: dict[str, Any]
    #: Where the stream was read from (``None``: built in memory).
    source: Path | None = None

    @property
    def hello(self) -> dict[str, Any]:
        hello = self.header.get("implementation")
        return hello if isinstance(hello, dict) else {}

    @property
    def name(self) -> str:
        """The implementation's name, from its hello (its command without one)."""
        return str(self.hello.get("name") or self.header.get("command") or "implementation")

    @property
    def version(self) -> str:
        return str(self.hello.get("version") or "")

    @property
    def passed(self) -> int:
        """Fixtures that passed (an expected failure does not count)."""
        return sum(1 for r in self.results if r["status"] == Status.PASS)

    @property
    def skipped(self) -> int:
        return sum(1 for r in self.results if r["status"] == Status.SKIP)

    @property
    def failed(self) -> int:
        """Fixtures that make the implementation non-conformant."""
        return sum(1 for r in self.results if r["status"] not in PASSING)

    @property
    def unusable(self) -> bool:
        return bool(self.footer.get("unusable"))


def folder_name(hello: Mapping[str, Any] | None, fallback: str) -> str:
    """``NAME-VERSION`` from a hello, safe as one folder name on every file system:
    letters, digits, ``.``, ``_`` and ``-`` only, not starting with a dot, at most 80
    characters; ``fallback`` when nothing of it is left (no hello)."""
    if not hello:
        return fallback
    text = "-".join(str(hello[key]) for key in ("name", "version") if hello.get(key))
    safe = _UNSAFE.sub("_", text).lstrip(".-_")[:_FOLDER_LENGTH].rstrip(".")
    return safe or fallback


#: The files of a report folder (its stream, reports, badge, copy of the rules and
#: comparison page): no implementation's folder may take one of their names.
REPORT_NAMES = frozenset(
    {
        STREAM_NAME,
        "report.json",
        "junit.xml",
        "report.md",
        "report.html",
        "badge.svg",
        "badge.json",
        "spec-rules.md",
        "index.html",
    }
)


def unique_folders(names: Iterable[str]) -> list[str]:
    """``names`` with a ``-2``, ``-3`` ... added to each repeat (case-insensitively: two
    runs of one implementation and version, or a file system that folds case) and to a
    name of a report file (:data:`REPORT_NAMES`: an implementation named ``index.html``
    gets ``index.html-2``, beside the comparison page ``index.html``)."""
    taken: set[str] = set(REPORT_NAMES)
    out = []
    for name in names:
        candidate, n = name, 2
        while candidate.lower() in taken:
            candidate, n = f"{name}-{n}", n + 1
        taken.add(candidate.lower())
        out.append(candidate)
    return out


def load_run(path: Path) -> Run:
    """The run a stored stream holds, checked line by line.  A path that does not exist
    is a :class:`~horserace.errors.UsageError`; a folder means the stream in it; a file
    that is not a stream horserace could have written is an
    :class:`~horserace.errors.InputError` naming the file and the line."""
    path = Path(path)
    if path.is_dir() and (path / STREAM_NAME).is_file():
        path = path / STREAM_NAME
    name = display_path(path)
    if not path.exists():
        raise UsageError(f"horserace: no such file: {name}")
    if path.is_dir():
        raise UsageError(f"horserace: {name}: a folder without a {STREAM_NAME}")
    text = read_text(
        path, name, InputError, limit=MAX_STREAM_BYTES, too_large=f"larger than {MAX_STREAM_BYTES >> 20} MiB"
    )
    header: dict[str, Any] | None = None
    footer: dict[str, Any] | None = None
    footer_line = 0
    results: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    last = 0
    most = MAX_RESULTS
    for line, record in records(_lines(text), name):
        last = line
        _check_values(record, name, line)
        kind = record.get("record")
        if header is None:
            if kind != "header":
                raise InputError(
                    'the first record of a result stream is its header ({"record": "header", ...})',
                    file=name,
                    line=line,
                )
            _check_header(record, name, line)
            header = record
            if isinstance(record.get("fixtures"), int):
                most = record["fixtures"]
            continue
        if footer is not None:
            raise InputError(f"a record after the footer (line {footer_line})", file=name, line=line)
        if kind == "footer":
            _check_footer(record, name, line)
            footer, footer_line = record, line
        elif kind == "result":
            _check_result(record, name, line)
            if record["id"] in seen:
                raise InputError(
                    f"fixture {record['id']} has a result already, on line {seen[record['id']]}", file=name, line=line
                )
            if len(results) >= most:
                raise InputError(
                    f"more results than the run had fixtures ({most:,}"
                    f"{', the header says' if most != MAX_RESULTS else ' at most'})",
                    file=name,
                    line=line,
                )
            seen[record["id"]] = line
            results.append(record)
        else:
            raise InputError(f"record {kind!r}: a record is a header, a result or a footer", file=name, line=line)
    if header is None:
        raise InputError("empty: not a result stream", file=name)
    if footer is None:
        raise InputError(
            "no footer: the stream ends before the run does (horserace writes the footer even when a run is cut short)",
            file=name,
            line=last,
        )
    _check_agreement(footer, results, name, footer_line)
    return Run(header, results, footer, path)


def _lines(text: str) -> Iterator[str]:
    """The lines of ``text`` one at a time (a list of them all would be a second copy of
    a stream that may be hundreds of MB)."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        if end < 0:
            end = len(text)
        yield text[start:end]
        start = end + 1


def _kind(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(
        type(value), "a number"
    )


def _check_values(record: dict[str, Any], name: str, line: int) -> None:
    """Every value of ``record`` is one a report can hold: nested at most
    :data:`MAX_RECORD_DEPTH` deep, no lone surrogate in a string or a key (no UTF-8
    writer can write one); and every string over the bound ``conform`` keeps of free text
    (:data:`~horserace.conformance.bounds.TEXT_LIMIT`) is cut to it, and says so, as
    ``conform`` cuts what an implementation writes."""
    todo: list[tuple[Any, str, int]] = [(record, "", 1)]
    while todo:
        value, where, depth = todo.pop()
        if depth > MAX_RECORD_DEPTH:
            raise InputError(f"nested more than {MAX_RECORD_DEPTH} deep (at {where})", file=name, line=line)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in list(items):
            at = f"{where}.{key}" if isinstance(key, str) else f"{where}[{key}]"
            if isinstance(key, str) and _has_surrogate(key):
                raise InputError(f"a lone surrogate in the name of {at.lstrip('.')!r}", file=name, line=line)
            if isinstance(item, str):
                if _has_surrogate(item):
                    raise InputError(f"a lone surrogate in {at.lstrip('.')}", file=name, line=line)
                if len(item) > TEXT_LIMIT // 4:
                    value[key] = cut(item, TEXT_LIMIT)
            elif isinstance(item, (dict, list)) and item:
                todo.append((item, at, depth + 1))


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _check_types(
    record: dict[str, Any], fields: dict[str, tuple[type | None, ...]], what: str, name: str, line: int
) -> None:
    for key, types in fields.items():
        if key not in record:
            continue
        value = record[key]
        if value is None and None in types:
            continue
        kinds = tuple(t for t in types if t is not None)
        if value is None or not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            wanted = " or ".join(dict.fromkeys(_kind(t()) if t is not None else "null" for t in types))
            raise InputError(f"{what}: {key} is {_kind(value)}, not {wanted}", file=name, line=line)


def _check_header(record: dict[str, Any], name: str, line: int) -> None:
    hello = record.get("implementation")
    if hello is not None and not isinstance(hello, dict):
        raise InputError(f"header: implementation is {_kind(hello)}, not the hello (an object)", file=name, line=line)
    if isinstance(hello, dict) and "kinds" in hello and not isinstance(hello["kinds"], list):
        raise InputError(f"header: implementation.kinds is {_kind(hello['kinds'])}, not a list", file=name, line=line)
    _check_types(record, _HEADER_FIELDS, "header", name, line)
    if isinstance(hello, dict):
        _check_types(hello, _HELLO_FIELDS, "header: implementation", name, line)
    fixtures = record.get("fixtures")
    if fixtures is not None and not (isinstance(fixtures, int) and not isinstance(fixtures, bool) and fixtures >= 0):
        raise InputError(f"header: fixtures is {_kind(fixtures)}, not a count", file=name, line=line)


def _check_footer(record: dict[str, Any], name: str, line: int) -> None:
    _check_types(record, _FOOTER_FIELDS, "footer", name, line)
    counts = record.get("counts")
    if counts is not None and not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts.values()
    ):
        raise InputError("footer: counts is an object of whole numbers", file=name, line=line)


def _check_agreement(footer: dict[str, Any], results: list[dict[str, Any]], name: str, line: int) -> None:
    """The footer says what the results say: its counts, where it has any (an unusable
    run's are ``{}``), are theirs, and a run is not conformant with a fixture that failed,
    an implementation that could not be used, or an interruption."""
    counts = footer.get("counts")
    if isinstance(counts, dict) and counts and not footer.get("unusable"):  # {}: not counted (a run made unusable)
        actual = tally(results)
        differ = [
            f"{key} {counts.get(key, 0)} (the results: {actual.get(key, 0)})"
            for key in dict.fromkeys([*actual, *counts])
            if counts.get(key, 0) != actual.get(key, 0)
        ]
        if differ:
            raise InputError(f"footer: counts disagree with the results: {', '.join(differ)}", file=name, line=line)
    if footer.get("conformant"):
        lenient = footer.get("lenient_expectations") is True
        failing = [
            r["id"] for r in results if r["status"] not in PASSING and not (lenient and r["status"] == Status.XPASS)
        ]
        if failing:
            raise InputError(
                f"footer: conformant, but {len(failing)} fixture(s) did not pass ({', '.join(failing[:3])}"
                f"{', ...' if len(failing) > 3 else ''})",
                file=name,
                line=line,
            )
        if footer.get("unusable") or footer.get("interrupted"):
            why = "unusable" if footer.get("unusable") else "interrupted"
            raise InputError(f"footer: conformant, but the run was {why}", file=name, line=line)


def _check_result(record: dict[str, Any], name: str, line: int) -> None:
    def fail(text: str) -> InputError:
        who = record.get("id")
        return InputError(f"result{f' {who}' if isinstance(who, str) else ''}: {text}", file=name, line=line)

    for key, types in _RESULT_FIELDS.items():
        if key not in record:
            raise fail(f"no {key}")
        value = record[key]
        if not isinstance(value, types) or isinstance(value, bool):
            raise fail(f"{key} is {_kind(value)}")
    _check_types(record, _RESULT_OPTIONAL, f"result {record['id']}", name, line)
    if isinstance(record.get("diagnosis"), dict):
        _check_types(record["diagnosis"], _DIAGNOSIS_FIELDS, f"result {record['id']}: diagnosis", name, line)
    if record["status"] not in _STATUSES:
        raise fail(f"status {record['status']!r} is not an outcome ({', '.join(str(s) for s in Status)})")
    rules = record.get("rules")
    if rules is not None and not (isinstance(rules, list) and all(isinstance(r, str) for r in rules)):
        raise fail("rules is a list of rule IDs")
    differences = record.get("differences", [])
    if not isinstance(differences, list):
        raise fail(f"differences is {_kind(differences)}, not a list")
    for n, d in enumerate(differences):
        if not isinstance(d, dict) or not isinstance(d.get("path"), str) or not {"expected", "actual"} <= d.keys():
            raise fail(f"differences[{n}] is an object with path, expected and actual")
        count = d.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool):
            raise fail(f"differences[{n}].count is {_kind(count)}, not a whole number")
