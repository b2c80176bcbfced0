"""Every command that takes --rules, a fixture path or an expectations file, given a bad
one: a name or path that does not exist is a usage error (4); an existing file that is
invalid is invalid input (2), with ``file:line:column: message``.  Nothing is internal (5)."""

from __future__ import annotations

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode

BAD_RULESET = "name: bad\ndescription: broken on purpose\ntarget: 61\nreadings: {branch_use: three}\n"
BAD_FIXTURES = "- id: AAAAAA\n  kind: nonsense\n"

#: Each command that takes --rules, with the arguments it needs besides.
RULES_COMMANDS = {
    "replay": ["replay"],
    "play": ["play"],
    "serve": ["serve"],
    "fuzz": ["fuzz", "--budget", "1"],
    "bench": ["bench", "--hands", "1", "--repeat", "1"],
    "diff": ["diff", "--rules", "canonical"],
    "perft": ["perft", "seed:1", "--depth", "2"],
}
#: Each command that takes fixture paths.
PATH_COMMANDS = {
    "replay": ["replay"],
    "coverage": ["coverage"],
    "conform": ["conform"],
    "mutants": ["mutants", "--only", "round-each-opponent"],
    "diff": ["diff", "--rules", "canonical", "--rules", "canonical"],
}


@pytest.mark.parametrize("command", RULES_COMMANDS)
def test_a_ruleset_that_does_not_exist_is_a_usage_error(command, capsys):
    assert main([*RULES_COMMANDS[command], "--rules", "no-such-ruleset"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "no-such-ruleset: no such ruleset file, and no bundled ruleset of that name" in err
    assert "internal error" not in err


@pytest.mark.parametrize("command", RULES_COMMANDS)
def test_an_invalid_ruleset_file_is_invalid_input_with_its_place(command, tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_RULESET)
    assert main([*RULES_COMMANDS[command], "--rules", str(bad)]) == ExitCode.INVALID_INPUT
    err = capsys.readouterr().err
    assert f"{bad}:4:" in err and "readings/branch_use" in err


def test_a_ruleset_with_an_anchor_is_invalid_input_at_the_anchor(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_RULESET.replace("readings: {branch_use: three}", "readings: &r {branch_use: one}"))
    assert main(["replay", "--rules", str(bad)]) == ExitCode.INVALID_INPUT
    assert f"{bad}:4:11: anchor &r: anchors and aliases are not allowed" in capsys.readouterr().err


@pytest.mark.parametrize("command", PATH_COMMANDS)
def test_a_fixture_path_that_does_not_exist_is_a_usage_error(command, tmp_path, capsys):
    missing = tmp_path / "no" / "such.yaml"
    assert (
        main(
            [*PATH_COMMANDS[command], str(missing), "--report-dir", str(tmp_path / "r")]
            if command == "conform"
            else [*PATH_COMMANDS[command], str(missing)]
        )
        == ExitCode.USAGE
    )
    assert f"no such file or folder: {missing}" in capsys.readouterr().err


@pytest.mark.parametrize("command", PATH_COMMANDS)
def test_an_invalid_fixture_file_is_invalid_input_with_its_place(command, tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(BAD_FIXTURES)
    args = [*PATH_COMMANDS[command], str(bad)]
    if command == "conform":
        args += ["--report-dir", str(tmp_path / "r")]
    assert main(args) == ExitCode.INVALID_INPUT
    captured = capsys.readouterr()
    assert f"{bad}:1:" in captured.err + captured.out


def test_an_expectations_file_that_does_not_exist_is_a_usage_error(tmp_path, capsys):
    missing = tmp_path / "expected.yaml"
    code = main(["conform", "--expectations", str(missing), "--report-dir", str(tmp_path / "r")])
    assert code == ExitCode.USAGE
    assert f"no such file: {missing}" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("expected_failures: [1, 2]\n", ":"),
        ("expected_failures: {NOSUCH: x}\n", ":"),
        ("expected_failures: {a: 1\n", ":2:"),  # broken YAML: the place of the error
        ("expected_failures: {a: x, a: y}\n", ":1:"),  # a duplicate key, as the strict loader finds it
        ("expected_failures:\n  AAAAAA: &r x\n  BBBBBB: *r\n", ":2:11: anchor &r"),  # refused from the events
        ("expected_failures: !!map {}\n", ":1:20: YAML tag !!map"),
    ],
)
def test_an_invalid_expectations_file_is_invalid_input(text, where, tmp_path, capsys):
    bad = tmp_path / "expected.yaml"
    bad.write_text(text)
    code = main(["conform", "--expectations", str(bad), "--report-dir", str(tmp_path / "r")])
    assert code == ExitCode.INVALID_INPUT
    assert f"horserace: {bad}{where}" in capsys.readouterr().err


def test_an_unknown_mutant_is_a_usage_error(capsys):
    assert main(["serve", "--mutant", "no-such"]) == ExitCode.USAGE
    assert main(["mutants", "--only", "no-such"]) == ExitCode.USAGE
    assert "no-such" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--timeout", "inf"),
        ("--timeout", "nan"),
        ("--timeout", "1e308"),
        ("--timeout", "0"),
        ("--timeout", "-1"),
        ("--timeout", "soon"),
        ("--handshake-timeout", "nan"),
        ("--jobs", "100000000"),
        ("--jobs", "0"),
    ],
)
def test_a_number_out_of_range_is_a_usage_error(option, value, tmp_path, capsys):
    assert main(["conform", option, value, "--report-dir", str(tmp_path / "r")]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert option in err and "internal error" not in err
    assert not (tmp_path / "r").exists()  # refused before anything ran


def test_jobs_beyond_the_fixtures_to_run_are_not_started(tmp_path, capsys):
    code = main(["conform", "--jobs", "256", "--select", "P4RYQF", "--report-dir", str(tmp_path / "r")])
    assert code == ExitCode.OK
    assert "1 pass" in capsys.readouterr().out


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_a_path_that_is_not_a_regular_file_is_refused_without_reading_it(special, tmp_path, capsys):
    import os

    if special == "fifo":
        special = str(tmp_path / "pipe.yaml")
        os.mkfifo(special)  # reading it would block for ever
    assert main(["replay", special]) == ExitCode.INVALID_INPUT
    assert f"{special}: not a regular file" in capsys.readouterr().err


def test_a_report_dir_that_cannot_be_used_is_a_usage_error(tmp_path, capsys):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert main(["conform", "--report-dir", str(a_file)]) == ExitCode.USAGE
    assert "a file, not a folder" in capsys.readouterr().err
    assert main(["conform", "--report-dir", str(a_file / "below")]) == ExitCode.USAGE
    assert "cannot make it" in capsys.readouterr().err


def test_an_expectations_file_that_cannot_be_written_is_a_usage_error_before_the_run(tmp_path, capsys):
    target = tmp_path / "no" / "such" / "expected.yaml"
    code = main(["conform", "--write-expectations", str(target), "--report-dir", str(tmp_path / "r")])
    assert code == ExitCode.USAGE and "cannot write it" in capsys.readouterr().err
    assert not (tmp_path / "r" / "results.jsonl").exists()  # nothing ran


def test_a_broken_pipe_keeps_the_runs_exit_code(tmp_path):
    """``horserace conform ... | head`` with the reader gone before the summary: the exit
    code is still the run's (1, not conformant), and no traceback."""
    import subprocess
    import sys
    from pathlib import Path

    fake = Path(__file__).resolve().parents[1] / "conformance" / "fake_impl.py"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "horserace",
            "conform",
            "--impl",
            f"{sys.executable} {fake} settle-wrong",
            "--select",
            "kind:settlement",
            "--report-dir",
            str(tmp_path / "r"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()  # the reader is gone before the runner writes anything
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == ExitCode.FAILURES
    assert b"Traceback" not in err and b"BrokenPipeError" not in err
