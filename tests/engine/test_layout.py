"""Layout mechanics beyond the documents' worked examples: the move model (HR-MOVE-1,
HR-MOVE-2), spinner arms (HR-SPIN-1..3) and counting (HR-COUNT-1..5)."""

from horserace.engine.layout import Layout
from horserace.engine.tiles import NAMES
from tests.helpers import T, build, place


def moves(layout: Layout, tile: str) -> list[tuple[str, str]]:
    from horserace.engine.layout import PORT_NAMES

    found = layout.moves_for(T(tile))
    assert all(tg is not None and p is not None for tg, p in found), "a move on a layout names its tile and port"
    return sorted((NAMES[tg], PORT_NAMES[p]) for tg, p in found if tg is not None and p is not None)


def test_opening_double_offers_one_move_per_mirror_pair():
    layout = build(("[4|4]",))
    assert moves(layout, "[2|4]") == [("[4|4]", "linear-a")]  # linear-b is its mirror
    place(layout, "[2|4]", "[4|4]", "linear-b")  # accepted, recorded as linear-a
    assert [c.port for c in layout.connections()] == [2]
    assert moves(layout, "[4|6]") == [("[4|4]", "linear-b")]
    place(layout, "[4|6]", "[4|4]", "linear-b")
    assert moves(layout, "[4|5]") == [("[4|4]", "branch-a")]  # branch-b is its mirror
    place(layout, "[4|5]", "[4|4]", "branch-b")
    assert moves(layout, "[3|4]") == [("[4|4]", "branch-b")]


def test_non_double_touching_half_follows_the_target_value():
    layout = build(("[2|5]",), ("[5|6]", "[2|5]", "high"))  # [5|6] touches with its 5: low
    assert layout.connections()[0].other_port == 0
    assert layout.count == 2 + 6


def test_double_on_a_branch_is_a_new_spinner():
    layout = build(
        ("[3|3]",),
        ("[3|4]", "[3|3]", "linear-a"),
        ("[1|3]", "[3|3]", "linear-b"),
        ("[3|6]", "[3|3]", "branch-a"),
        ("[6|6]", "[3|6]", "high"),
    )
    # [3|3] interior 0; ends [3|4]: 4, [1|3]: 1, [6|6] terminal 12 -> 17.
    assert layout.count == 17 and NAMES[layout.spinners()[-1]] == "[6|6]"
    assert moves(layout, "[2|6]") == [("[6|6]", "linear-b")]  # no branch of [6|6] yet


def test_every_distinct_move_counts_once():
    layout2 = build(("[1|1]",))
    assert moves(layout2, "[1|5]") == [("[1|1]", "linear-a")]
    hand = (1 << T("[1|5]")) | (1 << T("[1|6]")) | (1 << T("[2|3]"))
    assert len(layout2.moves_for_mask(hand)) == 2
