"""Stored result streams read back strictly (horserace/reports/runs.py): every error
names the file and the line; the folder of each implementation is safe and unique."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from horserace.errors import InputError, UsageError
from horserace.reports.runs import Run, folder_name, load_run, unique_folders

HEADER = {"record": "header", "suite": "0.1.0", "protocol": "1.1", "implementation": {"name": "x", "version": "1"}}
RESULT = {
    "record": "result",
    "id": "7SWR67",
    "kind": "layout",
    "file": "scenarios/rule-text/layout.yaml",
    "line": 3,
    "rule": "HR-COUNT-1",
    "rules": ["HR-COUNT-1"],
    "status": "pass",
    "message": "",
    "differences": [],
}
FOOTER = {"record": "footer", "counts": {"pass": 1}, "conformant": True, "exit_code": 0}


def _stream(tmp_path: Path, *lines: object, raw: str | None = None) -> Path:
    path = tmp_path / "results.jsonl"
    text = raw if raw is not None else "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_stream_is_read_whole(tmp_path):
    run = load_run(_stream(tmp_path, HEADER, RESULT, FOOTER))
    assert (run.name, run.version, run.passed, run.failed, run.skipped) == ("x", "1", 1, 0, 0)
    assert run.source == tmp_path / "results.jsonl"


def test_a_report_folder_means_the_stream_in_it(tmp_path):
    _stream(tmp_path, HEADER, RESULT, FOOTER)
    assert load_run(tmp_path).results == [RESULT]


@pytest.mark.parametrize(
    ("lines", "line", "words"),
    [
        ((HEADER, "{not json", FOOTER), 2, "not a JSON line"),
        ((HEADER, "[1, 2]", FOOTER), 2, "a JSON object, not list"),
        ((RESULT, FOOTER), 1, "the first record of a result stream is its header"),
        ((HEADER, {**RESULT, "status": "great"}, FOOTER), 2, "status 'great' is not an outcome"),
        ((HEADER, {k: v for k, v in RESULT.items() if k != "rule"}, FOOTER), 2, "result 7SWR67: no rule"),
        ((HEADER, {**RESULT, "line": "3"}, FOOTER), 2, "line is a string"),
        ((HEADER, {**RESULT, "differences": [{"path": "x"}]}, FOOTER), 2, "differences[0] is an object with path"),
        ((HEADER, RESULT, RESULT, FOOTER), 3, "fixture 7SWR67 has a result already, on line 2"),
        ((HEADER, RESULT), 2, "no footer"),
        ((HEADER, RESULT, FOOTER, RESULT), 4, "a record after the footer (line 3)"),
        ((HEADER, {"record": "note"}, FOOTER), 2, "record 'note'"),
        (({**HEADER, "implementation": "me"}, FOOTER), 1, "implementation is a string"),
        ((HEADER, {**FOOTER, "counts": {"pass": "1"}}), 2, "counts is an object of whole numbers"),
        ((HEADER, '{"record": "result", "x": NaN}', FOOTER), 2, "NaN is not JSON"),
    ],
)
def test_a_malformed_stream_is_refused_at_its_line(tmp_path, lines, line, words):
    with pytest.raises(InputError) as caught:
        load_run(_stream(tmp_path, *lines))
    assert caught.value.line == line and caught.value.file.endswith("results.jsonl")
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"{caught.value.file}:{line}")


def test_an_empty_file_and_a_missing_one(tmp_path):
    with pytest.raises(InputError, match="empty: not a result stream"):
        load_run(_stream(tmp_path, raw=""))
    with pytest.raises(UsageError, match="no such file"):
        load_run(tmp_path / "nothing.jsonl")
    (tmp_path / "folder").mkdir()
    with pytest.raises(UsageError, match=r"a folder without a results\.jsonl"):
        load_run(tmp_path / "folder")


def test_not_utf8_and_not_a_regular_file(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"record": "header"}\n\xff\xfe\n')
    with pytest.raises(InputError, match="not UTF-8"):
        load_run(bad)
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        load_run(fifo)


def test_a_line_separator_inside_a_string_is_not_a_new_line(tmp_path):
    """U+2028 is a line break to str.splitlines, and ordinary text to JSON Lines."""
    result = {**RESULT, "message": "one\u2028two"}
    path = tmp_path / "results.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in (HEADER, result, FOOTER)) + "\n")
    assert load_run(path).results[0]["message"] == "one\u2028two"


@pytest.mark.parametrize(
    ("hello", "folder"),
    [
        ({"name": "python-example", "version": "1.0+deliberate-error"}, "python-example-1.0_deliberate-error"),
        ({"name": "../../etc", "version": "x"}, "etc-x"),
        ({"name": "a/b c\\d", "version": ""}, "a_b_c_d"),
        ({"name": "..", "version": ""}, "impl-1"),
        ({"name": "ü" * 300}, "impl-1"),
        ({"name": "n" * 300, "version": "1"}, "n" * 80),
        ({}, "impl-1"),
        (None, "impl-1"),
    ],
)
def test_folder_names_are_safe(hello, folder):
    assert folder_name(hello, "impl-1") == folder


def test_folder_names_are_unique_ignoring_case():
    assert unique_folders(["a-1", "A-1", "a-1", "b"]) == ["a-1", "A-1-2", "a-1-3", "b"]


def test_a_run_counts_expected_failures_apart():
    results = [{**RESULT, "id": str(n), "status": s} for n, s in enumerate(["pass", "xfail", "skip", "fail", "crash"])]
    run = Run(HEADER, results, FOOTER)
    assert (run.passed, run.skipped, run.failed) == (1, 1, 2)
