"""``horserace conform --impl A --impl B``: each implementation in its own process, with
its stream and reports in ``DIR/NAME-VERSION/``, the comparison page ``DIR/index.html``,
a line per implementation, and the exit code of the worst.  One ``--impl`` keeps the
layout and the output of one run, with the badge's lines added at the end."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli._options import impl_argv
from horserace.cli.exitcodes import ExitCode
from horserace.reports.badge import badge_for
from horserace.reports.links import RULES_COPY, links_for
from horserace.reports.runs import load_run
from horserace.reports.stream import read_stream
from horserace.reports.terminal import SHIELDS_NOTE, badge_lines, terminal
from horserace.reports.write import REPORT_FILES
from tests.helpers import bundled_corpus

pytestmark = pytest.mark.slow  # subprocesses

FAKE = Path(__file__).parents[1] / "conformance" / "fake_impl.py"
SETTLEMENTS = ["--select", "kind:settlement"]


def _fake(mode: str, hello: str = "", arg: str = "-") -> str:
    return f"{sys.executable} {FAKE} {mode} {arg}" + (f" hello={hello}" if hello else "")


def test_each_implementation_gets_its_folder_and_the_page_compares_them(tmp_path, capsys):
    out = tmp_path / "r"
    impls = ["--impl", _fake("good", "ref@1.0"), "--impl", _fake("settle-wrong", "broken@0.9+dev")]
    assert main(["conform", *SETTLEMENTS, *impls, "--report-dir", str(out)]) == ExitCode.FAILURES
    # the rules beside the comparison page, as beside each run's reports (no spec beside the folder)
    assert sorted(p.name for p in out.iterdir()) == ["broken-0.9_dev", "index.html", "ref-1.0", RULES_COPY]
    for folder in ("broken-0.9_dev", "ref-1.0"):
        assert sorted(p.name for p in (out / folder).iterdir()) == sorted(REPORT_FILES.values())
    header, results, footer = read_stream(out / "broken-0.9_dev" / "results.jsonl")
    assert header["implementation"]["name"] == "broken" and footer["exit_code"] == ExitCode.FAILURES
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith(": 2 implementations")
    assert lines[1].startswith("  ref 1.0 (Python): CONFORMANT on all ")
    assert lines[1].endswith(f"({out / 'ref-1.0' / 'report.html'})")
    assert lines[2].startswith("  broken 0.9+dev (Python): NOT CONFORMANT: ")
    assert lines[3] == f"comparison of the 2 implementations: {out / 'index.html'}"
    assert lines[4].startswith(f"badge: {out / 'ref-1.0' / 'badge.svg'} (Horse Race ")
    assert lines[5].startswith(f"badge: {out / 'broken-0.9_dev' / 'badge.svg'} (Horse Race ")
    # One badge line per implementation, then once how to embed one, then the shields.io note.
    assert lines[6].startswith(
        f"  embed one as Markdown, ![Horse Race 30/30, 30 selected of {len(bundled_corpus().fixtures)}]("
    )
    assert f"({out / 'ref-1.0' / 'badge.svg'}), or as HTML, <img src=" in lines[6]
    assert lines[7:] == [SHIELDS_NOTE]
    page = (out / "index.html").read_text()
    assert 'href="ref-1.0/report.html"' in page and 'href="broken-0.9_dev/report.html"' in page
    assert "implementations disagree" in page and 'class="disagree"' in page
    assert not list(out.glob(".results-*"))  # no temporary stream left in the report folder


def test_an_unusable_implementation_makes_it_exit_3(tmp_path, capsys):
    out = tmp_path / "r"
    impls = ["--impl", _fake("settle-wrong", "broken@1"), "--impl", _fake("other-protocol")]
    assert main(["conform", *SETTLEMENTS, *impls, "--report-dir", str(out)]) == ExitCode.IMPLEMENTATION_UNUSABLE
    assert (out / "impl-2" / "results.jsonl").is_file()
    assert load_run(out / "impl-2").footer["unusable"]
    said = capsys.readouterr().out
    assert "IMPLEMENTATION UNUSABLE: the implementation speaks protocol '2.0'" in said
    assert "(Horse Race unusable)" in said
    assert "Unusable:" in (out / "index.html").read_text()


def test_the_same_implementation_twice_gets_two_folders_and_json_says_where(tmp_path, capsys):
    out = tmp_path / "r"
    impls = ["--impl", _fake("good", "ref@1"), "--impl", _fake("good", "REF@1")]
    assert main(["conform", *SETTLEMENTS, *impls, "--report-dir", str(out), "--format", "json"]) == ExitCode.OK
    said = json.loads(capsys.readouterr().out)
    assert [Path(i["reports"]["html"]).parent.name for i in said["implementations"]] == ["ref-1", "REF-1-2"]
    assert said["comparison"] == str(out / "index.html")
    assert [i["footer"]["conformant"] for i in said["implementations"]] == [True, True]


def test_expectations_belong_to_one_implementation(tmp_path, capsys):
    impls = ["--impl", _fake("good"), "--impl", _fake("good")]
    for option in ("--expectations", "--write-expectations"):
        argv = ["conform", *impls, option, str(tmp_path / "e.yaml"), "--report-dir", str(tmp_path / "r")]
        assert main(argv) == ExitCode.USAGE
        assert f"{option} holds one implementation's known failures" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_one_implementation_keeps_the_layout_and_the_output_of_one_run(tmp_path, capsys):
    """The folder holds the run's reports (no index.html, no sub-folder), and the output
    is the terminal summary and where the reports are, as before, then the badge."""
    out = tmp_path / "r"
    assert main(["conform", *SETTLEMENTS, "--impl", _fake("settle-wrong"), "--report-dir", str(out)]) == 1
    assert sorted(p.name for p in out.iterdir()) == sorted(REPORT_FILES.values())
    header, results, footer = read_stream(out / "results.jsonl")
    badge = badge_for(load_run(out))
    expected = [
        terminal(header, results, footer, links=links_for(out).seen_from(str(out))),
        f"reports in {out}/ (HTML: {out / 'report.html'})",
        *badge_lines(badge, str(out / "badge.svg"), str(out / "badge.json")),
        SHIELDS_NOTE,
    ]
    assert capsys.readouterr().out == "\n".join(expected) + "\n"


def test_horserace_as_an_implementation_is_this_horserace():
    assert impl_argv("horserace serve --variant branch_use=one") == [
        sys.executable,
        "-m",
        "horserace",
        "serve",
        "--variant",
        "branch_use=one",
    ]
    assert impl_argv("node horserace.js") == ["node", "horserace.js"]
