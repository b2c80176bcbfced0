"""``horserace perft``: a position by fixture ID, FILE#ID or seed; --divide, --format json,
--variant and --mutant; progress only on a terminal; every mistake a clear exit code."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from tests.helpers import bundled_corpus

PERFT = "scenarios/rule-text/perft.yaml"


def fixture(fixture_id: str):
    return next(fx for fx in bundled_corpus().fixtures if fx.id == fixture_id)


def counted(capsys, *argv: str) -> dict:
    assert main(["perft", *argv, "--format", "json"]) == ExitCode.OK
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("fixture_id", ["K5N2P7", "CSBZVK", "0FSP7G", "H4NZXF", "8F4FM2", "J6GDXJ"])
def test_a_fixture_counts_its_expected_nodes_at_its_own_depth(fixture_id, capsys):
    doc = counted(capsys, f"{PERFT}#{fixture_id}", "--divide")
    assert {"nodes": doc["nodes"], "divide": doc["divide"]} == fixture(fixture_id).expected
    assert doc["variants"] == fixture(fixture_id).ruleset.variants
    assert counted(capsys, fixture_id)["nodes"] == doc["nodes"]  # by ID, from the bundled corpus
    assert "divide" not in counted(capsys, fixture_id)


def test_text_lists_the_first_moves_and_the_nodes(capsys):
    assert main(["perft", "CSBZVK", "--divide"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert out.startswith("perft CSBZVK (scenarios/rule-text/perft.yaml), depth 2, canonical readings\n")
    lines = out.splitlines()
    assert [line.split() for line in lines[1:8]] == [
        [name, str(n)] for name, n in fixture("CSBZVK").expected["divide"].items()
    ]
    assert lines[8].startswith("nodes 16 (")


def test_a_deeper_count_and_a_reading_on_top(capsys):
    assert counted(capsys, "K5N2P7", "--depth", "10")["nodes"] == 35_825
    # continuation=optional on top of CSBZVK's own readings: its depth-2 count is 0FSP7G's.
    doc = counted(capsys, "CSBZVK", "--variant", "continuation=optional", "--divide")
    assert doc["nodes"] == fixture("0FSP7G").expected["nodes"]
    assert doc["variants"] == {"continuation": "optional"}


def test_a_seeded_deal_is_the_deal_of_play(capsys):
    assert main(["play", "--seed", "7", "--players", "3", "--format", "json"]) == ExitCode.OK
    dealt = json.loads(capsys.readouterr().out)["hands"][0]
    doc = counted(capsys, "seed:7:players=3", "--depth", "1", "--divide")
    assert sorted(doc["divide"]) == dealt["hands"][dealt["opener"]]  # every opening tile, each one move
    assert counted(capsys, "seed:1:players=4:partnership", "--depth", "3")["position"] == (
        "seed:1:players=4:partnership"
    )


def test_a_mutant_counts_its_own_tree(capsys):
    canonical = counted(capsys, "CSBZVK")["nodes"]
    mutant = counted(capsys, "CSBZVK", "--mutant", "no-continuation")
    assert mutant["mutant"] == "no-continuation" and mutant["nodes"] == fixture("4RQT0M").expected["nodes"] != canonical


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["K5N2P8"], "no fixture K5N2P8 in the bundled corpus"),
        ([f"{PERFT}#K5N2P8"], f"no fixture K5N2P8 in {PERFT}"),
        (["G24QPZ"], "is a layout fixture, not a perft fixture"),
        (["no/such.yaml#K5N2P7"], "no such file or folder: no/such.yaml"),
        (["seed:1"], "give --depth N"),
        (["seed:1:players=5", "--depth", "2"], "'players=5' is not an option of a seeded deal"),
        (["seed:1:partnership", "--depth", "2"], "the partnership game has four players"),
        (["#K5N2P7"], "give the fixture file before '#'"),
        (["K5N2P7!"], "not a position"),
        (["K5N2P7", "--depth", "0"], "give a whole number from 1 to 100"),
        (["K5N2P7", "--mutant", "no-such"], "no mutant is named 'no-such'"),
        (["K5N2P7", "--variant", "branch_use=three"], "is not a register variant"),
    ],
)
def test_mistakes_are_usage_errors(argv, message, capsys):
    assert main(["perft", *argv]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_an_invalid_fixture_file_is_invalid_input(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("- id: AAAAAA\n  kind: nonsense\n")
    assert main(["perft", f"{bad}#AAAAAA"]) == ExitCode.INVALID_INPUT
    assert f"{bad}:" in capsys.readouterr().err


def test_help_teaches_the_positions_and_the_definition(capsys):
    with pytest.raises(SystemExit):
        main(["perft", "--help"])
    out = capsys.readouterr().out
    for words in (
        "FILE#ID",
        "seed:N[:players=P][:partnership]",
        "a hand that ends before the depth is one leaf",
        "examples:",
    ):
        assert words in out


def run_with_stderr(argv: list[str], *, tty: bool) -> tuple[str, str]:
    """Run horserace with its stderr a terminal (a pty) or a pipe: (stdout, stderr)."""
    command = [sys.executable, "-m", "horserace", *argv]
    if not tty:
        done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)
        return done.stdout, done.stderr
    primary, secondary = pty.openpty()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=secondary, text=True) as proc:
        os.close(secondary)
        chunks = []
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            chunks.append(chunk)
        out = proc.stdout.read() if proc.stdout else ""
        assert proc.wait(timeout=120) == 0
    os.close(primary)
    return out, b"".join(chunks).decode()


@pytest.mark.slow
def test_progress_shows_on_a_terminal_only_and_only_for_a_long_count():
    long = ["perft", "K5N2P7", "--depth", "13"]  # some seconds
    out, err = run_with_stderr(long, tty=True)
    assert "nodes 447,800" in out
    assert "perft depth 13:" in err and "of the first moves counted" in err
    out, err = run_with_stderr(long, tty=False)
    assert "nodes 447,800" in out and err == ""
    out, err = run_with_stderr(["perft", "K5N2P7", "--depth", "6"], tty=True)
    assert "perft depth" not in err
