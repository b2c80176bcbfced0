"""The command line behaves as a mature tool's does (issue: diagnostics an implementer
can trust, "CLI"): an expectations file written after a run converges, ``coverage``
takes the selection options, every ``--format json`` is JSON, a command's usage error
shows that command's usage, and ``--help`` lists conform first."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.cli.main import build_parser

FAKE = Path(__file__).parents[1] / "conformance" / "fake_impl.py"


@pytest.mark.slow
def test_writing_expectations_converges(tmp_path, capsys):
    """A fixture listed as failing that now passes (xpass) is dropped from the file
    written by the same run; one still failing keeps the reason it was listed with."""
    expectations = tmp_path / "expected.yaml"
    base = ["conform", "--select", "kind:settlement", "--report-dir", str(tmp_path / "r")]
    broken = f"{sys.executable} {FAKE} error P4RYQF"
    assert main([*base, "--impl", broken, "--write-expectations", str(expectations)]) == ExitCode.FAILURES
    assert "P4RYQF: error (HR-SETTLE-1)" in expectations.read_text()
    expectations.write_text("expected_failures:\n  P4RYQF: 'known: a tie bug'\n")
    again = ["--expectations", str(expectations), "--write-expectations", str(expectations)]
    assert main([*base, "--impl", broken, *again]) == ExitCode.OK  # xfail
    assert "P4RYQF: 'known: a tie bug'" in expectations.read_text()
    good = f"{sys.executable} {FAKE} good"
    assert main([*base, "--impl", good, *again]) == ExitCode.FAILURES  # xpass, reported ...
    assert "P4RYQF" not in expectations.read_text()  # ... and dropped: the next run is clean
    assert main([*base, "--impl", good, *again]) == ExitCode.OK


def test_coverage_takes_the_selection_options(capsys):
    assert main(["coverage", "--select", "kind:settlement", "--format", "json"]) in (ExitCode.OK, ExitCode.FAILURES)
    report = json.loads(capsys.readouterr().out)
    assert report
    assert main(["coverage", "--select", "rule:HR-NOPE"]) == ExitCode.USAGE


@pytest.mark.parametrize(
    "argv",
    [["mutants", "--list"], ["coverage"], ["replay", "--select", "kind:settlement"], ["play", "--seed", "1"]],
)
def test_every_format_json_is_json(argv, capsys):
    main([*argv, "--format", "json"])
    json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("command", ["replay", "conform", "coverage", "mutants"])
def test_a_usage_error_shows_the_commands_own_usage(command, capsys):
    assert main([command, "--bogus"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert f"horserace {command}: unrecognized arguments: --bogus" in err
    assert f"usage: horserace {command}" in err


def test_help_lists_the_commands_in_the_order_a_newcomer_meets_them():
    text = build_parser().format_help()
    listed = [line.split()[0] for line in text.splitlines() if line.startswith("    ") and not line.startswith("     ")]
    assert listed[:3] == ["conform", "replay", "coverage"]


def test_the_default_implementation_is_this_installation_not_a_folder_in_the_cwd(tmp_path, monkeypatch, capsys):
    """``conform`` without ``--impl`` serves this installation's engine: a ``horserace/``
    folder in the current directory (an old checkout) is not put first on the path."""
    old = tmp_path / "horserace"
    old.mkdir()
    (old / "__init__.py").write_text("")
    (old / "__main__.py").write_text('raise SystemExit("an old checkout was served")\n')
    monkeypatch.chdir(tmp_path)
    code = main(["conform", "--select", "kind:layout", "--report-dir", str(tmp_path / "report")])
    assert code == ExitCode.OK, capsys.readouterr().out
