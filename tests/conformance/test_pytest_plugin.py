"""The pytest11 plugin: ``pytest --horserace-impl COMMAND`` collects the corpus, one item
per fixture named by its ID, and reports failures field by field."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # subprocesses and timeouts: seconds, not milliseconds

FAKE = Path(__file__).with_name("fake_impl.py")


def test_reference_engine_passes_through_the_plugin(pytester):
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", f"{sys.executable} -m horserace serve", "-q"
    )
    assert result.ret == 0
    result.stdout.re_match_lines([r"\d+ passed, \d+ skipped"])


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
    result.stdout.fnmatch_lines(["*P4RYQF (HR-SETTLE-1)*", "*credits[[]0[]]: expected 3, got 4*"])


def test_unusable_implementation_fails_every_item_with_the_reason(pytester):
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", "/no/such/engine", "-k", "settlement", "-x"
    )
    assert result.ret == 1
    result.stdout.fnmatch_lines(["*implementation unusable*cannot start*"])


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
