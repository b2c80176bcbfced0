"""Colour in the terminal (horserace/reports/colour.py): ``--color always`` colours the
outcomes, ``never`` does not, ``auto`` colours only a terminal and never under a
non-empty ``NO_COLOR`` (no-color.org); JSON output is never coloured."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports import colour

FAKE = Path(__file__).parents[1] / "conformance" / "fake_impl.py"
RED_FAIL = "\x1b[31mFAIL\x1b[0m "
ESC = "\x1b"


def _conform(tmp_path: Path, capsys, *options: str) -> str:
    argv = ["conform", "--impl", f"{sys.executable} {FAKE} settle-wrong", "--select", "kind:settlement"]
    assert main([*argv, "--report-dir", str(tmp_path / "r"), *options]) == 1
    return capsys.readouterr().out


@pytest.fixture
def terminal(monkeypatch):
    """Standard output that says it is a terminal (what ``auto`` looks at)."""

    def with_tty():
        monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)

    return with_tty


def test_always_colours_the_outcomes_and_the_verdict(tmp_path, capsys):
    out = _conform(tmp_path, capsys, "--color", "always")
    assert RED_FAIL in out  # each failing fixture's outcome
    assert "\x1b[31mNOT CONFORMANT: " in out  # the verdict, in the colour of its tone
    assert "\x1b[31m30 fail\x1b[0m" in out  # the counts
    # The rest of a line stays as it was: the same text once the codes are taken out.
    plain = _conform(tmp_path, capsys, "--color", "never")
    assert ESC not in plain
    assert out.replace("\x1b[31m", "").replace("\x1b[32m", "").replace("\x1b[0m", "") == plain


def test_auto_does_not_colour_what_is_not_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert ESC not in _conform(tmp_path, capsys)  # captured: no terminal
    assert ESC not in _conform(tmp_path, capsys, "--color", "auto")


def test_auto_colours_a_terminal_unless_no_color_is_set(tmp_path, capsys, monkeypatch, terminal):
    terminal()
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert RED_FAIL in _conform(tmp_path, capsys)
    monkeypatch.setenv("NO_COLOR", "")  # empty: as if unset (no-color.org)
    assert RED_FAIL in _conform(tmp_path, capsys)
    for value in ("1", "0", "no"):  # any other value turns colour off
        monkeypatch.setenv("NO_COLOR", value)
        assert ESC not in _conform(tmp_path, capsys)
    # The command line wins over the environment.
    assert RED_FAIL in _conform(tmp_path, capsys, "--color", "always")


def test_json_is_never_coloured(tmp_path, capsys):
    out = _conform(tmp_path, capsys, "--color", "always", "--format", "json")
    assert ESC not in out
    assert json.loads(out)["footer"]["conformant"] is False


def test_report_takes_the_option_too(tmp_path, capsys):
    _conform(tmp_path, capsys)
    assert (
        main(["report", str(tmp_path / "r" / "results.jsonl"), "--out", str(tmp_path / "again"), "--color", "always"])
        == 0
    )
    assert RED_FAIL in capsys.readouterr().out


def test_a_choice_that_is_none_of_the_three_is_refused(tmp_path, capsys):
    assert main(["conform", "--color", "sometimes", "--report-dir", str(tmp_path / "r")]) == ExitCode.USAGE
    assert "--color: 'sometimes': give one of auto, always, never" in capsys.readouterr().err
    with pytest.raises(ValueError, match="'sometimes': give one of"):
        colour.choose("sometimes")


def test_outcomes_have_their_colours():
    colour.choose("always")
    try:
        assert colour.outcome("PASS", "pass") == "\x1b[32mPASS\x1b[0m"
        assert colour.outcome("SKIP", "skip") == "\x1b[2mSKIP\x1b[0m"
        assert colour.outcome("XFAIL", "xfail") == "\x1b[33mXFAIL\x1b[0m"
        for failing in ("fail", "crash", "timeout", "error", "rejected", "not-rejected", "unconfirmed", "xpass"):
            assert colour.outcome("x", failing) == "\x1b[31mx\x1b[0m", failing
        colour.choose("never")
        assert colour.outcome("FAIL", "fail") == "FAIL"
    finally:
        colour.choose("auto")
