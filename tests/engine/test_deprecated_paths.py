"""The import paths of 0.1 that the README documented keep working until 0.3, each with a
DeprecationWarning that names the new path; the root re-exports stay without one."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

import horserace
from horserace.engine import Hand, Match, Ruleset, parse_tile, play_random_hand
from horserace.engine.ruleset import BranchUse
from horserace.errors import IllegalAction


@pytest.mark.parametrize(
    ("old", "name", "new"),
    [
        ("horserace.playout", "play_random_hand", play_random_hand),
        ("horserace.tiles", "parse_tile", parse_tile),
    ],
)
def test_a_moved_module_warns_and_still_works(old, name, new):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=r"horserace\.engine"):
        module = importlib.import_module(old)
    assert getattr(module, name) is new


def test_the_root_names_are_the_engines_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (horserace.Hand, horserace.Match, horserace.Ruleset, horserace.IllegalAction) == (
            Hand,
            Match,
            Ruleset,
            IllegalAction,
        )


def test_ruleset_from_strings_warns_and_means_the_same():
    with pytest.warns(DeprecationWarning, match="from_readings"):
        old = Ruleset(branch_use="one")
    assert old == Ruleset.from_readings(branch_use="one") == Ruleset(branch_use=BranchUse.ONE)


def test_from_readings_refuses_what_the_register_does_not_name():
    with pytest.raises(ValueError, match="no register variant is named 'branch'"):
        Ruleset.from_readings(branch="one")
    with pytest.raises(ValueError, match="has no reading 'three'"):
        Ruleset.from_readings(branch_use="three")
