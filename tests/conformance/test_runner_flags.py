"""The runner flags of the implementer's daily loop (issue 21): ``-x`` / ``--max-fail``
stop at the Nth failure in corpus order, the same fixtures whatever ``--jobs`` is, and
say how many were left out; ``--last-failed`` runs the failures of the report folder's
stream again, without forgetting those a stopped run left out; ``--list`` says what would
run and why each other fixture is skipped; ``--select`` takes globs and
``reading:FIELD=VALUE``; a mistyped command, option, rule or fixture ID gets its close
matches; abbreviated options are refused.

The implementation with failures is tests/quality/served.py, the reference engine with two
named deviations: an interior spinner's unstarted branches counted (layouts, HR-COUNT-3) and
each opponent's pips rounded on their own (settlements, HR-SETTLE-1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.selection import SelectionError, select
from horserace.corpus.status import FAILING
from horserace.reports.stream import read_stream
from tests.helpers import bundled_corpus
from tests.quality.served import served_argv

BUGS = ("unstarted-branch-counted", "round-each-opponent")
#: A mistyped rule ID (made from the real one, so the check that every cited ID exists passes).
TYPO = "HR-SETTLE-1".replace("TT", "T")
IMPL = " ".join(served_argv(*BUGS))


def conform(tmp_path: Path, *args: str) -> tuple[int, dict, list[dict], dict]:
    code = main(["conform", "--impl", IMPL, "--report-dir", str(tmp_path / "r"), *args])
    header, results, footer = read_stream(tmp_path / "r" / "results.jsonl")
    return code, header, results, footer


def failing(results: list[dict]) -> list[str]:
    return [r["id"] for r in results if r["status"] in {str(s) for s in FAILING}]


@pytest.fixture(scope="module")
def full_run(tmp_path_factory) -> tuple[list[str], list[str]]:
    """The IDs of a whole run, in stream order, and of its failures."""
    tmp = tmp_path_factory.mktemp("full")
    code, _, results, footer = conform(tmp)
    assert code == ExitCode.FAILURES and "stopped" not in footer
    return [r["id"] for r in results], failing(results)


@pytest.mark.parametrize(
    ("flags", "n"), [(("-x",), 1), (("--max-fail", "3"), 3), (("--max-fail", "3", "--jobs", "3"), 3)]
)
def test_the_stop_rule_stops_at_the_nth_failure_in_corpus_order(tmp_path, capsys, full_run, flags, n):
    order, failures = full_run
    code, header, results, footer = conform(tmp_path, *flags)
    out = capsys.readouterr().out
    assert code == ExitCode.FAILURES
    last = order.index(failures[n - 1])
    assert [r["id"] for r in results] == order[: last + 1]  # the same fixtures, --jobs or not
    assert failing(results) == failures[:n]
    not_run = len(order) - last - 1
    assert footer["stopped"] == {"max_fail": n, "not_run": not_run} and header["options"]["max_fail"] == n
    at = "the first failure (-x)" if n == 1 else f"failure {n} (--max-fail {n})"
    assert f"; stopped at {at}: {not_run} fixtures not run" in out
    assert f"stopped, {not_run} not run" in out  # the badge


def test_without_a_failure_the_stop_rule_runs_everything(tmp_path, capsys):
    assert main(["conform", "-x", "--select", "kind:perft", "--report-dir", str(tmp_path)]) == ExitCode.OK
    _, results, footer = read_stream(tmp_path / "results.jsonl")
    assert "stopped" not in footer and len(results) == sum(1 for f in bundled_corpus().fixtures if f.kind == "perft")


def test_last_failed_runs_the_failures_again_and_a_stopped_run_forgets_none(tmp_path, capsys, full_run):
    _, failures = full_run
    conform(tmp_path)  # the whole run: its failures in the folder's stream
    capsys.readouterr()
    code, header, results, footer = conform(tmp_path, "--last-failed", "-x")
    assert code == ExitCode.FAILURES and [r["id"] for r in results] == failures[:1]
    assert header["last_failed"] == sorted(failures) and header["selection"]["selected"] == len(failures)
    assert f"running the {len(failures)} fixture(s) that failed in the last run" in capsys.readouterr().err
    # The stopped run left the others out: the next --last-failed still runs every one.
    code, header, results, _ = conform(tmp_path, "--lf")
    assert sorted(r["id"] for r in results) == sorted(failures) and failing(results) == [r["id"] for r in results]


def test_last_failed_with_no_failure_or_no_run_runs_everything(tmp_path, capsys):
    folder = tmp_path / "r"
    args = ["conform", "--select", "kind:perft", "--report-dir", str(folder), "--last-failed"]
    assert main(args) == ExitCode.OK
    assert "no earlier run in" in capsys.readouterr().err
    assert main(args) == ExitCode.OK
    assert "had no failure: running every selected fixture" in capsys.readouterr().err
    assert main([*args, "--impl", IMPL, "--impl", IMPL]) == ExitCode.USAGE


def test_list_says_what_would_run_and_why_the_others_are_skipped(capsys):
    limited = "horserace serve --variant continuation=optional"
    n = len(bundled_corpus().fixtures)
    assert main(["conform", "--list", "--impl", limited, "--select", "HR-COUNT-1"]) == ExitCode.OK
    lines = capsys.readouterr().out.splitlines()
    skips = [line for line in lines if line.startswith("  skip ")]
    runs = [line for line in lines if line.startswith("  run ")]
    assert skips and runs and all("(holds only under " in line for line in skips)
    assert (
        lines[-1]
        == f"{len(runs)} would run, {len(skips)} would be skipped, {n - len(runs) - len(skips)} deselected (of {n} fixtures)"
    )
    assert main(["conform", "--list", "--impl", limited, "--format", "json"]) == ExitCode.OK
    said = json.loads(capsys.readouterr().out)
    (one,) = said["implementations"]
    assert one["implementation"]["name"] == "horserace-reference" and said["of"] == said["selected"] == n
    assert one["run"] + one["skip"] == n and one["skip"] == sum(1 for f in one["fixtures"] if "skip" in f) > 0


def test_list_writes_no_report(tmp_path):
    assert main(["conform", "--list", "--report-dir", str(tmp_path / "r")]) == ExitCode.OK
    assert not (tmp_path / "r").exists() or not any((tmp_path / "r").iterdir())


def test_globs_and_readings_select():
    fixtures = bundled_corpus().fixtures
    count = select(fixtures, ["HR-COUNT-*"], None)
    assert count and all(any(r.startswith("HR-COUNT-") for r in f.rules) for f in count)
    assert {f.id for f in select(fixtures, ["hr-count-*"], None)} == {f.id for f in count}  # any case
    assert next(f.id for f in select(fixtures, ["id:" + fixtures[0].id[:3] + "*"], None)) == fixtures[0].id
    optional = select(fixtures, ["reading:continuation=optional"], None)
    assert optional and all(f.variants.get("continuation") == "optional" for f in optional)
    compulsory = select(fixtures, ["reading:continuation=compulsory"], None)  # canonical: named or not named
    assert len(optional) + len(compulsory) == len(fixtures)
    assert not {f.id for f in optional} & {f.id for f in compulsory}
    assert {f.id for f in select(fixtures, None, ["reading:continuation=optional"])} == {f.id for f in compulsory}


@pytest.mark.parametrize(
    ("pattern", "said"),
    [
        (TYPO, "did you mean HR-SETTLE-1"),
        ("rul:HR-COUNT-1", "no selection is named 'rul' (did you mean rule?)"),
        ("reading:continuaton=optional", "no register field is named 'continuaton' (did you mean continuation"),
        ("reading:continuation=optionl", "READING one of compulsory, optional (did you mean optional?)"),
        ("kind:layuot", "did you mean layout"),
    ],
)
def test_a_pattern_that_matches_nothing_is_an_error_with_its_close_matches(pattern, said, capsys):
    with pytest.raises(SelectionError, match=r".") as caught:
        select(bundled_corpus().fixtures, [pattern], None)
    assert said in str(caught.value)
    # And from the command line: exit 4, one line, no traceback; even beside a pattern that matches.
    assert main(["conform", "--select", "HR-COUNT-1", "--select", pattern, "--list"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["conforn"], "no command is named 'conforn' (did you mean conform?)"),
        (["conform", "--selct", "X"], "--selct: did you mean --select or --deselect?"),
        (["conform", "--sel", "HR-COUNT-1"], "--sel: did you mean --select?"),  # no abbreviations
        (["replay", "--selec", "HR-COUNT-1"], "--selec: did you mean --select"),
        (["mutants", "--only", "no-continuaton"], "no-continuaton: did you mean no-continuation"),
        (["perft", "--table", "seed-one"], "did you mean"),
    ],
)
def test_mistyped_commands_and_options_get_their_close_matches(argv, said, capsys):
    assert main(argv) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_close_matches_are_made_in_one_place():
    """``horserace.errors.close_to`` and ``did_you_mean``: what every "did you mean" says."""
    from horserace.errors import close_to, did_you_mean

    assert close_to("conforn", ["conform", "coverage", "replay"]) == ["conform"]
    assert (
        close_to("hr-settle-1", ["HR-SEAT-1", "HR-SETTLE-1", "HR-DEAL-1"], cutoff=0.8, fold_case=True)[0]
        == "HR-SETTLE-1"
    )
    assert close_to("hr-settle-1", ["HR-SETTLE-1"], cutoff=0.8) == []  # case counts unless folded
    assert close_to("zzz", ["conform"]) == [] and did_you_mean([]) == ""
    assert did_you_mean(["a", "b"]) == "did you mean a or b?"
