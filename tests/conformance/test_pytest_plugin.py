"""The pytest11 plugin: ``pytest --horserace-impl COMMAND`` collects the corpus, one item
per fixture named by its ID, and reports failures field by field."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.helpers import bundled_corpus

pytestmark = pytest.mark.slow  # subprocesses and timeouts: seconds, not milliseconds

FAKE = Path(__file__).with_name("fake_impl.py")


def test_reference_engine_passes_through_the_plugin(pytester):
    """``horserace serve`` declares every reading (protocol 1.1), so every fixture of the
    corpus runs, none skipped."""
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", f"{sys.executable} -m horserace serve", "-q"
    )
    assert result.ret == 0
    result.assert_outcomes(passed=sum(1 for fx in bundled_corpus().fixtures if not fx.deprecated))


def test_fixtures_of_other_readings_are_skipped_with_the_reason(pytester):
    """A server fixed to one reading per field (as a 1.0 implementation) skips the
    fixtures that hold only under another reading, and says which."""
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--horserace-impl",
        f"{sys.executable} -m horserace serve --variant branch_use=both",
        "-q",
        "-rs",
    )
    assert result.ret == 0
    result.stdout.re_match_lines([r"\d+ passed, \d+ skipped"])
    result.stdout.re_match_lines([r".*holds only under branch_use=one"])


def test_items_are_named_by_fixture_id_and_selectable_by_rule(pytester):
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--horserace-impl",
        f"{sys.executable} -m horserace serve",
        "--collect-only",
        "-q",
        "-k",
        "HR-SETTLE-3",
    )
    assert result.ret == 0
    assert any(line.endswith("::2DNZSQ") for line in result.stdout.lines)  # the 4, 4, 4, 14 tie


def test_failures_name_the_fixture_rule_and_fields(pytester):
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", f"{sys.executable} {FAKE} settle-wrong", "-k", "settlement"
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(
        ["*P4RYQF (HR-SETTLE-1)*", "*credits[[]0[]]: expected 3, got 4*", "cause HR-SETTLE-*first difference: credits*"]
    )


def test_an_unusable_implementation_ends_the_session_once_with_exit_3(pytester):
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--horserace-impl", "/no/such/engine")
    assert result.ret == 3
    result.stdout.fnmatch_lines(["*horserace: the implementation is unusable*cannot start*"])
    assert result.stdout.str().count("cannot start") == 1  # one session error, not one failure per item


def test_plugin_is_inert_without_the_option(pytester):
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["1 passed*"])


def test_a_crash_costs_one_item_and_the_rest_run_on_a_restarted_implementation(pytester):
    """After one fixture crashes the implementation, the plugin restarts it (a new
    handshake) for the next: one failure, not a failure for every later item."""
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", f"{sys.executable} {FAKE} non-json P4RYQF", "-k", "settlement"
    )
    assert result.ret == 1
    result.stdout.re_match_lines([r".*\b1 failed, \d+ passed"])
    result.stdout.fnmatch_lines(["*P4RYQF (HR-SETTLE-1)*", "crash: answer is not JSON*"])
    assert "AttributeError" not in result.stdout.str()


SERVE = f"{sys.executable} -m horserace serve"


def test_the_corpus_runs_beside_the_users_own_tests_and_is_counted(pytester):
    pytester.makepyfile("def test_mine():\n    assert True\n")
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", SERVE, "-k", "settlement or mine"
    )
    assert result.ret == 0
    settlements = sum(1 for fx in bundled_corpus().fixtures if fx.kind == "settlement" and not fx.deprecated)
    result.stdout.re_match_lines([rf"collected \d+ items / \d+ deselected / {settlements + 1} selected"])  # + test_mine
    result.stdout.re_match_lines([rf".*\b{settlements + 1} passed"])


def test_node_ids_select_fixtures_and_rules(pytester):
    pytester.makepyfile("def test_mine():\n    assert False\n")  # not collected: only corpus node IDs are given
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", SERVE, "horserace::HR-SETTLE-1::P4RYQF", "horserace::7SWR67", "-v"
    )
    assert result.ret == 0
    result.stdout.fnmatch_lines(["horserace::HR-COUNT-1::7SWR67 PASSED*", "horserace::HR-SETTLE-1::P4RYQF PASSED*"])
    result.stdout.re_match_lines([r".*collected 2 items"])
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", SERVE, "horserace::HR-SETTLE-3", "--collect-only", "-q"
    )
    assert result.ret == 0 and any(line.endswith("::2DNZSQ") for line in result.stdout.lines)
    assert not any("HR-SETTLE-1::" in line for line in result.stdout.lines)


def test_the_plugin_selects_as_conform_does(pytester):
    """--horserace-select takes conform's patterns (globs, readings) from the same place,
    deselects the rest as pytest does, and a pattern that matches nothing is a usage error
    with its close matches."""
    from horserace.corpus.selection import select

    expected = select(bundled_corpus().fixtures, ["HR-COUNT-*"], ["reading:continuation=optional"])
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", SERVE, "--horserace-select", "HR-COUNT-*",
        "--horserace-deselect", "reading:continuation=optional", "--collect-only", "-q",
    )  # fmt: skip
    assert result.ret == 0
    listed = {line.rsplit("::", 1)[1] for line in result.stdout.lines if line.startswith("horserace::")}
    assert listed == {fx.id for fx in expected}
    result.stdout.re_match_lines(
        [
            rf".*{len(expected)}/{len(bundled_corpus().fixtures)} tests collected \({len(bundled_corpus().fixtures) - len(expected)} deselected\).*"
        ]
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", SERVE, "--horserace-select", "kind:layuot"
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "did you mean layout" in result.stderr.str()


def test_junit_classnames_carry_the_rule_and_skips_point_at_the_fixture(pytester):
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--horserace-impl",
        f"{sys.executable} {FAKE} settlement-only",
        "-k",
        "settlement or HR-COUNT-2",
        f"--junitxml={junit}",
        "-rs",
    )
    assert result.ret == 0
    import xml.etree.ElementTree as ET

    cases = list(ET.parse(junit).getroot().iter("testcase"))
    assert {c.get("classname") for c in cases} >= {"horserace.HR-SETTLE-1", "horserace.HR-COUNT-2"}
    result.stdout.fnmatch_lines(["SKIPPED *scenarios/rule-text/*.yaml:*: kind layout not supported"])


def test_the_plugin_imports_nothing_of_horserace_but_itself_until_asked():
    import subprocess

    code = (
        "import sys, horserace.conformance.pytest_plugin as p; "
        "print(sorted(m for m in sys.modules if m.startswith('horserace')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert ast.literal_eval(out) == [
        "horserace",
        "horserace._lazy",
        "horserace._version",
        "horserace.conformance",
        "horserace.conformance.pytest_plugin",
    ]


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1"])
def test_the_timeout_is_checked_as_conforms_is(pytester, value):
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--horserace-impl",
        f"{sys.executable} -m horserace serve",
        "--horserace-timeout",
        value,
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--horserace-timeout: {value!r}: give seconds above 0 and at most 3600*"])


def test_the_implementations_text_reaches_the_terminal_visible_not_obeyed(pytester):
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", f"{sys.executable} {FAKE} control-message 7SWR67", "-k", "7SWR67"
    )
    assert result.ret == 1
    out = result.stdout.str()
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b[2J\\x0dCONFORMANT\\x07" in out
