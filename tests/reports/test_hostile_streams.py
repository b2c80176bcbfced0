"""``horserace report`` on streams that horserace did not write: each case of the hostile
streams seen in CI, run through the real command.  A stream is refused with
``file:line:`` and exit 2, or rendered with the bounds ``conform`` applies; no case is an
internal error, and every report written honours the 2 MiB cap.

The streams are made from the stored stream of suite 0.1.0 (``streams/``: the Python
example with its deliberate error, 189 fixtures, some failing), edited one record at a
time.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.conformance.bounds import TEXT_LIMIT
from horserace.reports.write import COMPARISON_PAGE, REPORT_FILES

STORED = Path(__file__).parent / "streams" / "python-example-suite-0.1.0.jsonl"
#: What docs/robustness.md promises of every report (horserace.reports.budget.REPORT_CAP).
REPORT_CAP = 2 * 1024 * 1024


def _records() -> list[dict]:
    return [json.loads(line) for line in STORED.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, records: list[dict | str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]  # a lone surrogate as its escape
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _report(capsys, *streams: Path, out: Path) -> tuple[int, str]:
    code = main(["report", *(str(s) for s in streams), "--out", str(out)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "internal error" not in captured.err, captured.err
    return code, captured.err


def _failing(records: list[dict]) -> dict:
    return next(r for r in records if r.get("status") == "fail")


def _refused(tmp_path, capsys, records: list[dict | str], line: int, words: str) -> None:
    stream = _write(tmp_path / "in" / "results.jsonl", records)
    code, err = _report(capsys, stream, out=tmp_path / "out")
    assert code == ExitCode.INVALID_INPUT, err
    assert f"results.jsonl:{line}:" in err and words in err, err
    assert not (tmp_path / "out" / "report.html").exists()


def test_a_line_nested_100000_deep_is_refused_at_its_line(tmp_path, capsys):
    records: list[dict | str] = [*_records()]
    records.insert(2, '{"record": "result", "id": "DEEP", "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    _refused(tmp_path, capsys, records, 3, "nested too deep")


def test_a_record_nested_deeper_than_a_report_can_draw_is_refused(tmp_path, capsys):
    records = _records()
    deep: object = []
    for _ in range(500):
        deep = [deep]
    _failing(records)["expected"] = deep
    line = records.index(_failing(records)) + 1
    _refused(tmp_path, capsys, records, line, "nested more than 100 deep")


@pytest.mark.parametrize("field", ["message", "id"])
def test_a_lone_surrogate_is_refused_at_its_line(tmp_path, capsys, field):
    records = _records()
    _failing(records)[field] = "before \ud800 after"
    line = records.index(_failing(records)) + 1
    _refused(tmp_path, capsys, records, line, "a lone surrogate")


@pytest.mark.parametrize("where", ["result", "header"])
def test_a_number_beyond_a_double_is_refused(tmp_path, capsys, where):
    records: list[dict | str] = [*_records()]
    line = 2 if where == "result" else 1
    text = json.dumps(records[line - 1])
    records[line - 1] = text[:-1] + ', "seconds": 1e400}' if where == "result" else text[:-1] + ', "fixtures": 1e400}'
    _refused(tmp_path, capsys, records, line, "beyond a 64-bit float")


def test_a_footer_conformant_despite_its_failures_is_refused(tmp_path, capsys):
    records = _records()
    footer = records[-1]
    assert footer["record"] == "footer" and footer["conformant"] is False
    footer["conformant"] = True
    _refused(tmp_path, capsys, records, len(records), "footer: conformant, but")


def test_a_footer_whose_counts_disagree_with_the_results_is_refused(tmp_path, capsys):
    records = _records()
    records[-1]["counts"] = {**records[-1]["counts"], "pass": records[-1]["counts"]["pass"] + 7}
    _refused(tmp_path, capsys, records, len(records), "counts disagree with the results")


def test_a_footer_whose_counts_is_null_is_refused(tmp_path, capsys):
    records = _records()
    records[-1]["counts"] = None
    _refused(tmp_path, capsys, records, len(records), "footer: counts is null, not an object")


def test_more_results_than_the_corpus_of_the_header_are_refused(tmp_path, capsys):
    records = _records()
    assert records[0]["fixtures"] == 189
    extra = [{**_failing(records), "id": f"EXTRA{n}"} for n in range(3)]
    records[-1:-1] = extra
    _refused(tmp_path, capsys, records, 191, "more results than the run had fixtures (189, the header says)")


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("description", 3, "description is a number"), ("seconds", "slow", "seconds is a string, not a number")],
)
def test_a_field_of_the_wrong_type_is_refused(tmp_path, capsys, field, value, words):
    records = _records()
    _failing(records)[field] = value
    _refused(tmp_path, capsys, records, records.index(_failing(records)) + 1, words)


def test_a_nested_field_of_the_wrong_type_is_refused(tmp_path, capsys):
    """A hello's readings and a diagnosis's deviations (each was "internal error:
    AttributeError" as text)."""
    records = _records()
    records[0]["implementation"]["readings"] = "canonical"
    _refused(tmp_path, capsys, records, 1, "header: implementation: readings is a string, not an object or null")
    records = _records()
    _failing(records)["diagnosis"] = {"cause": None, "deviations": "interior-double-counted"}
    line = records.index(_failing(records)) + 1
    _refused(tmp_path / "2", capsys, records, line, "diagnosis: deviations is a string, not an object or null")


def test_a_huge_message_is_cut_as_conform_cuts_it(tmp_path, capsys):
    records = _records()
    _failing(records)["message"] = "x" * (20 * 1024 * 1024)
    stream = _write(tmp_path / "in" / "results.jsonl", records)
    code, err = _report(capsys, stream, out=tmp_path / "out")
    assert code == ExitCode.OK, err
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "bytes cut)" in html
    for name in ("json", "junit", "markdown", "html"):
        size = (tmp_path / "out" / REPORT_FILES[name]).stat().st_size
        assert size < REPORT_CAP, (name, size)


def test_a_long_message_on_every_fixture_keeps_every_report_under_its_cap(tmp_path, capsys):
    """What conform keeps of a 15 MiB message (64 KiB, cut) on each of 189 fixtures: 12 MB
    of text, which every report shares out within its 2 MiB."""
    records = _records()
    for r in records[1:-1]:
        r["message"] = "m" * (TEXT_LIMIT - 10)
    stream = _write(tmp_path / "in" / "results.jsonl", records)
    code, err = _report(capsys, stream, out=tmp_path / "out")
    assert code == ExitCode.OK, err
    for name in ("json", "junit", "markdown", "html"):
        size = (tmp_path / "out" / REPORT_FILES[name]).stat().st_size
        assert size < REPORT_CAP, (name, size)


def test_the_comparison_of_long_messages_keeps_its_page_under_the_cap(tmp_path, capsys):
    """Three runs of 64 KiB messages on every fixture (two streams made 35.7 MB before):
    the runs share the page's budget."""
    records = _records()
    for r in records[1:-1]:
        r["message"] = "m" * (TEXT_LIMIT - 10)
    streams = [_write(tmp_path / name / "results.jsonl", records) for name in ("a", "b", "c")]
    code, err = _report(capsys, *streams, out=tmp_path / "out")
    assert code == ExitCode.OK, err
    size = (tmp_path / "out" / COMPARISON_PAGE).stat().st_size
    assert size < REPORT_CAP, size


@pytest.mark.parametrize("name", [COMPARISON_PAGE, "report.html", "REPORT.MD", "spec-rules.md"])
def test_an_implementation_named_as_a_report_file_gets_a_folder_of_its_own(tmp_path, capsys, name):
    first, second = _records(), _records()
    first[0]["implementation"] = {**first[0]["implementation"], "name": name, "version": ""}
    a = _write(tmp_path / "a" / "results.jsonl", first)
    b = _write(tmp_path / "b" / "results.jsonl", second)
    code, err = _report(capsys, a, b, out=tmp_path / "out")
    assert code == ExitCode.OK, err
    assert (tmp_path / "out" / COMPARISON_PAGE).is_file()
    folders = sorted(p.name for p in (tmp_path / "out").iterdir() if p.is_dir())
    assert len(folders) == 2 and name not in folders, folders


def test_every_name_a_report_folder_holds_is_kept_from_implementations():
    from horserace.reports.runs import REPORT_NAMES

    assert {*REPORT_FILES.values(), COMPARISON_PAGE} <= REPORT_NAMES


def test_markup_from_an_implementation_is_escaped_in_report_md(tmp_path, capsys):
    records = _records()
    records[0]["implementation"]["name"] = "<svg onload=alert(1)>"
    failing = _failing(records)
    failing["message"] = "refused: <img src=x onerror=alert(2)>"
    failing["description"] = "<script>alert(3)</script>"
    failing["id"] = "<u onclick=alert(6)>"
    failing["rule"] = failing["rules"][0] = "HR-<a href=javascript:alert(7)>"
    failing["differences"] = [
        {"path": "<b onclick=alert(4)>", "expected": 1, "actual": 2, "text": "<i onmouseover=alert(5)>"}
    ]
    stream = _write(tmp_path / "in" / "results.jsonl", records)
    code, err = _report(capsys, stream, out=tmp_path / "out")
    assert code == ExitCode.OK, err
    text = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    for live in ("<svg", "<img", "<script", "<b ", "<i ", "<u ", "<a "):
        outside_code = [part for part in _outside_code(text) if live in part]
        assert not outside_code, (live, outside_code[:1])
    assert "&lt;svg onload=alert(1)&gt;" in text
    assert "\nrefused: <img src=x onerror=alert(2)>\n" in text  # in its fenced block, as it was written


def _outside_code(text: str) -> list[str]:
    """The parts of Markdown ``text`` outside fenced blocks and code spans (where HTML
    is not read as HTML)."""
    parts, fenced = [], False
    for line in text.splitlines():
        if line.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if not fenced:
            parts.extend(line.split("`")[0::2])
    return parts


def test_the_stream_conform_writes_keeps_long_texts_to_its_share(tmp_path):
    """The stream is written as the run goes: each result keeps its share of 1 MiB of long
    text (189 fixtures: 5,548 bytes each), so a 64 KiB message on every fixture makes a
    stream under the cap too."""
    from horserace.reports.stream import ResultStream

    records = _records()
    header = {k: v for k, v in records[0].items() if k not in ("record", "suite", "protocol", "started")}
    path = tmp_path / "results.jsonl"
    with ResultStream(path, header) as stream:
        for r in records[1:-1]:
            stream.add({**r, "message": "m" * (TEXT_LIMIT - 10)})
        stream.finish({k: v for k, v in records[-1].items() if k != "record"})
    assert path.stat().st_size < REPORT_CAP, path.stat().st_size
    assert all("bytes cut)" in r["message"] for r in stream.results)


@pytest.mark.slow
def test_a_15_mib_message_on_every_fixture_of_the_corpus_keeps_every_file_under_its_cap(tmp_path):
    """The whole corpus through conform, every answer an error of 15 MiB (about 12 s)."""
    import sys

    fake = Path(__file__).parents[1] / "conformance" / "fake_impl.py"
    out = tmp_path / "report"
    code = main(["conform", "--impl", f"{sys.executable} {fake} huge-message '*' x", "--report-dir", str(out)])
    assert code == ExitCode.FAILURES
    for name in ("jsonl", "json", "junit", "markdown", "html"):
        size = (out / REPORT_FILES[name]).stat().st_size
        assert size < REPORT_CAP, (name, size)


def _fields(records: list[dict]) -> list[tuple[int, tuple]]:
    """Every field of the header, its hello, the footer and the first failing result of
    each kind, with the fields of their objects one level down."""
    picked = [0, len(records) - 1]
    kinds: set[str] = set()
    for n, r in enumerate(records):
        if r.get("record") == "result" and r["status"] != "skip" and r["kind"] not in kinds:
            kinds.add(r["kind"])
            picked.append(n)
    out: list[tuple[int, tuple]] = []
    for n in picked:
        for key, value in records[n].items():
            out.append((n, (key,)))
            if isinstance(value, dict):
                out += [(n, (key, sub)) for sub in value]
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                out += [(n, (key, 0, sub)) for sub in value[0]]
    return out


@pytest.mark.slow
def test_every_field_of_every_type_is_refused_or_rendered_never_an_internal_error(tmp_path, capsys):
    """Each field of a stream of a run in which every fixture fails, set to each JSON
    type: exit 0 or 2, never a traceback (one result of each kind kept; about 30 s)."""
    import copy
    import sys

    fake = Path(__file__).parents[1] / "conformance" / "fake_impl.py"
    run = tmp_path / "run"
    assert main(["conform", "--impl", f"{sys.executable} {fake} all-wrong", "--report-dir", str(run)]) == 1
    capsys.readouterr()
    records = [json.loads(line) for line in (run / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    records = [records[n] for n in sorted({n for n, _ in _fields(records)})]  # one result of each kind
    kept = [r["status"] for r in records[1:-1]]
    records[-1]["counts"] = {status: kept.count(status) for status in kept}
    assert _report(capsys, _write(tmp_path / "in" / "results.jsonl", records), out=tmp_path / "out")[0] == ExitCode.OK
    codes: dict[int, int] = {}
    for n, path in _fields(records):
        for value in (None, 3, "s", [], {}, [1]):
            edited = copy.deepcopy(records)
            place = edited[n]
            for key in path[:-1]:
                place = place[key]
            place[path[-1]] = value
            stream = _write(tmp_path / "in" / "results.jsonl", edited)
            code, _ = _report(capsys, stream, out=tmp_path / "out")  # no traceback, no internal error
            assert code in (ExitCode.OK, ExitCode.INVALID_INPUT), (path, value, code)
            codes[code] = codes.get(code, 0) + 1
    assert codes.get(ExitCode.OK) and codes.get(ExitCode.INVALID_INPUT), codes
