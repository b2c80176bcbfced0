"""The one exit-code table of every ``horserace`` command (documented in the README)."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0  #: success (a conformant implementation, a green replay)
    FAILURES = 1  #: failures or differences found
    INVALID_INPUT = 2  #: invalid input data: fixtures, rulesets, expectation files
    IMPLEMENTATION_UNUSABLE = 3  #: the implementation under test cannot be used
    USAGE = 4  #: the command line is wrong
    INTERNAL = 5  #: a defect in horserace itself (please report it)
