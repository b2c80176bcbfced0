"""The double-six set and tile notation (HR-SET-1, HR-SET-2, HR-MOVE-2)."""

import pytest

from horserace.engine.tiles import (
    ALL_TILES,
    IS_DOUBLE,
    NAMES,
    PIPS,
    TOTAL_PIPS,
    parse_tile,
    pips_of,
    tile,
    tiles_of,
)
from horserace.errors import NotationError


def test_the_set_has_28_tiles_7_doubles_168_pips():
    assert len(ALL_TILES) == 28 and len(set(NAMES)) == 28
    assert sum(IS_DOUBLE) == 7
    assert TOTAL_PIPS == 168


def test_pip_value_is_the_sum_of_the_halves():
    assert PIPS[parse_tile("[3|6]")] == 9 and PIPS[parse_tile("[0|0]")] == 0
    assert pips_of((1 << parse_tile("[1|2]")) | (1 << parse_tile("[6|6]"))) == 15


@pytest.mark.parametrize("text", ["[2|5]", "[5|2]", " [ 5 | 2 ] "])
def test_either_half_first_on_input_low_first_on_output(text):
    assert NAMES[parse_tile(text)] == "[2|5]"


@pytest.mark.parametrize("text", ["[7|1]", "[1|-1]", "1|2", "[1,2]", "", "[1|2|3]"])
def test_bad_notation_is_rejected_with_the_rule(text):
    with pytest.raises(NotationError, match=r"HR-(SET-1|MOVE-2)"):
        parse_tile(text)


def test_not_a_string():
    with pytest.raises(NotationError, match="HR-MOVE-2"):
        parse_tile(12)


def test_tiles_of_round_trips():
    mask = (1 << tile(0, 0)) | (1 << tile(6, 6)) | (1 << tile(2, 3))
    assert [NAMES[t] for t in tiles_of(mask)] == ["[0|0]", "[2|3]", "[6|6]"]
