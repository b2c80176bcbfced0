"""The one comparison (spec/fixture-format.md, "Comparison"): unordered collections as
multisets with counts, divide keys on either side, short lists whole, events whole."""

from __future__ import annotations

from horserace.corpus.compare import Difference, diff

POINTS = [
    {"tile": "[1|1]", "port": "linear-b", "value": 1},
    {"tile": "[3|4]", "port": "low", "value": 3},
    {"tile": "[4|4]", "port": "branch-a", "value": 4},
]


def test_an_unordered_collection_in_another_order_is_equal():
    assert diff({"steps": [{"attachment_points": POINTS}]}, {"steps": [{"attachment_points": POINTS[::-1]}]}) == []


def test_tiles_are_compared_in_the_canonical_encoding():
    assert diff({"tiles": ["[2|5]", "[1|1]"]}, {"tiles": ["[1|1]", "[5|2]"]}) == []


def test_one_missing_item_is_one_difference_wherever_it_sits():
    expected = [{"tile": "[0|5]", "port": "low", "value": 0}, *POINTS]
    found = diff({"contributions": expected}, {"contributions": POINTS[::-1]})
    assert found == [Difference(("contributions",), expected[0], None, item="missing")]
    assert found[0].text() == 'contributions: missing {"tile": "[0|5]", "port": "low", "value": 0}'


def test_missing_and_extra_items_are_counted():
    expected = {"tiles": ["[1|1]", "[2|2]", "[2|2]"]}
    found = diff(expected, {"tiles": ["[1|1]", "[3|3]"]})
    assert [(d.item, d.expected, d.actual, d.count) for d in found] == [
        ("missing", "[2|2]", None, 2),
        ("extra", None, "[3|3]", 1),
    ]
    assert found[0].text() == 'tiles: missing "[2|2]" (x2)'
    assert found[0].to_record()["count"] == 2 and found[1].to_record()["item"] == "extra"


def test_a_divide_move_only_the_implementation_counts_is_shown():
    found = diff(
        {"nodes": 7, "divide": {"[1|2] low": 3, "[1|2] high": 4}},
        {"nodes": 8, "divide": {"[1|2] low": 3, "[1|2] high": 4, "[2|2] linear-a": 1}},
    )
    assert Difference(("nodes",), 7, 8) in found
    assert Difference(("divide", "[2|2] linear-a"), "<missing>", 1) in found


def test_short_lists_of_other_lengths_are_shown_whole():
    assert diff({"scores": [10, 5]}, {"scores": [10, 5, 0]}) == [Difference(("scores",), [10, 5], [10, 5, 0])]
    long = list(range(20))
    found = diff({"xs": long}, {"xs": long[:-1]})
    assert found == [Difference(("xs",), 20, 19, length=True)]


def test_each_differing_event_is_shown_whole_both_versions():
    expected = [{"type": "place", "count": 5}, {"type": "place", "count": 10}, {"type": "draw"}]
    actual = [{"type": "place", "count": 5}, {"type": "place", "count": 5, "extra": 1}, {"type": "pass"}, {"type": "x"}]
    found = diff({"events": expected}, {"events": actual})
    assert found == [
        Difference(("events", 1), expected[1], actual[1]),
        Difference(("events", 2), expected[2], actual[2]),
        Difference(("events",), 3, 4, length=True),
    ]


def test_keys_absent_from_expected_are_not_compared():
    assert diff({"sum": 5}, {"sum": 5, "credit": 1}) == []


def test_identical_data_has_no_difference_and_an_integer_is_still_not_a_boolean():
    trace = {"hands": [{"events": [{"event": "place", "seat": 0, "continues": True, "count": 5}] * 40}]}
    assert diff(trace, {"hands": [{"events": [dict(e) for e in trace["hands"][0]["events"]]}]}) == []
    assert diff({"continues": True}, {"continues": 1}) == [Difference(("continues",), True, 1)]
    assert diff({"count": 0}, {"count": False}) == [Difference(("count",), 0, False)]
    assert diff({"credit": 1}, {"credit": 1.0}) == []  # equal numbers, neither a boolean
