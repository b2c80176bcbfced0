"""``horserace report``: every report again from stored streams, nothing run.  Made again
from a copy of the stream, each report is the one the run wrote, byte for byte; several
streams make one folder each and the comparison page; a stream that is missing or
malformed gets a clear answer (4 or 2, the file and the line, no traceback)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from horserace._version import PROTOCOL_VERSION
from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports.stream import ResultStream
from horserace.reports.write import REPORT_FILES, write_all
from tests.reports.test_html_report import HEADER, layout_record, passing, play_record


def _stored(folder: Path, name: str, version: str, results: list[dict]) -> Path:
    """A stream as conform writes it, and its reports beside it."""
    hello = {**HEADER["implementation"], "name": name, "version": version}
    header = {k: v for k, v in HEADER.items() if k not in ("record", "suite", "protocol", "started")}
    path = folder / "results.jsonl"
    with ResultStream(path, {**header, "implementation": hello}) as stream:
        for r in results:
            stream.add(r)
        failed = any(r["status"] not in ("pass", "skip", "xfail") for r in results)
        stream.finish({"counts": {}, "conformant": not failed, "exit_code": int(failed)})
    write_all(path, folder)
    return path


def _results() -> list[dict]:
    return [layout_record(), play_record(("hands", 0, "events", 3, "count")), passing("AAAAAA", "HR-COUNT-1")]


def test_the_reports_made_again_are_the_ones_the_run_wrote(tmp_path, capsys):
    run = _stored(tmp_path / "run", "my<engine>", "2.3.1", _results())
    copy = tmp_path / "kept" / "stream.jsonl"
    copy.parent.mkdir()
    shutil.copyfile(run, copy)
    assert main(["report", str(copy), "--out", str(tmp_path / "again")]) == ExitCode.OK
    for name in REPORT_FILES.values():
        assert (tmp_path / "again" / name).read_bytes() == (tmp_path / "run" / name).read_bytes(), name
    out = capsys.readouterr().out
    assert "NOT CONFORMANT: 2 of 3 fixtures run failed" in out
    assert f"reports in {tmp_path / 'again'}/ (HTML: {tmp_path / 'again' / 'report.html'})" in out
    assert f"badge: {tmp_path / 'again' / 'badge.svg'} (Horse Race 1/3, 2 failed)" in out
    assert "  Markdown: ![Horse Race 1/3, 2 failed](" in out


def test_without_out_the_reports_go_beside_the_stream(tmp_path, capsys):
    run = _stored(tmp_path, "x", "1", [passing("AAAAAA", "HR-COUNT-1")])
    (tmp_path / "report.html").unlink()
    before = run.read_bytes()
    assert main(["report", str(tmp_path)]) == ExitCode.OK  # a report folder means its stream
    assert (tmp_path / "report.html").is_file() and run.read_bytes() == before
    assert "CONFORMANT on all 1 fixtures" in capsys.readouterr().out


def test_several_streams_make_one_folder_each_and_the_comparison_page(tmp_path, capsys):
    one = _stored(tmp_path / "a", "my<engine>", "2.3.1", _results())
    two = _stored(tmp_path / "b", "my<engine>", "2.4.0", [passing("AAAAAA", "HR-COUNT-1")])
    out = tmp_path / "compared"
    assert main(["report", str(one), str(two), "--out", str(out), "--format", "json"]) == ExitCode.OK
    said = json.loads(capsys.readouterr().out)
    assert said["comparison"] == str(out / "index.html")
    folders = [Path(i["reports"]["html"]).parent.name for i in said["implementations"]]
    assert folders == ["my_engine_-2.3.1", "my_engine_-2.4.0"]
    for folder in folders:
        assert sorted(p.name for p in (out / folder).iterdir()) == sorted(REPORT_FILES.values())
    page = (out / "index.html").read_text()
    assert 'href="my_engine_-2.3.1/report.html"' in page and 'id="trend"' in page
    assert main(["report", str(one), str(two), "--out", str(out)]) == ExitCode.OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"horserace 0.1.0 conformance, protocol {PROTOCOL_VERSION}: 2 implementations"
    assert lines[1].startswith("  my<engine> 2.3.1 (Rust & C): NOT CONFORMANT: 2 of 3 fixtures run failed (")
    assert lines[2].startswith("  my<engine> 2.4.0 (Rust & C): CONFORMANT on all 1 fixtures (")
    assert lines[3] == f"comparison of the 2 implementations: {out / 'index.html'}"


@pytest.mark.parametrize(
    ("text", "code", "said"),
    [
        (None, ExitCode.USAGE, "horserace: no such file: "),
        ('{"record": "header"}\n{"record": "result", "id": "X"\n', ExitCode.INVALID_INPUT, ":2:"),
        (
            '{"record": "header"}\n{"record": "footer"}\n{"x": 1}\n',
            ExitCode.INVALID_INPUT,
            ":3: a record after the footer",
        ),
        ('{"record": "result"}\n', ExitCode.INVALID_INPUT, ":1: the first record of a result stream is its header"),
        ("", ExitCode.INVALID_INPUT, ": empty: not a result stream"),
    ],
)
def test_a_missing_or_malformed_stream_gets_a_clear_answer(tmp_path, capsys, text, code, said):
    path = tmp_path / "results.jsonl"
    if text is not None:
        path.write_text(text)
    assert main(["report", str(path)]) == code
    err = capsys.readouterr().err
    assert said in err and "results.jsonl" in err and "Traceback" not in err
    assert not (tmp_path / "report.html").exists()


def test_a_stream_given_twice_and_an_out_that_is_a_file(tmp_path, capsys):
    run = _stored(tmp_path, "x", "1", [passing("AAAAAA", "HR-COUNT-1")])
    assert main(["report", str(run), str(tmp_path)]) == ExitCode.USAGE
    assert "again: give each stream once" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert main(["report", str(run), "--out", str(tmp_path / "file")]) == ExitCode.USAGE
    assert "a file, not a folder" in capsys.readouterr().err
    assert main(["report"]) == ExitCode.USAGE
