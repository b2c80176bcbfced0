"""The one comparison (spec/fixture-format.md, "Comparison"): unordered collections as
multisets with counts, divide keys on either side, short lists whole, events whole."""

from __future__ import annotations

import pytest

from horserace.corpus.compare import Difference, _identical, _same_data, diff

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
        Difference(("events", 1), expected[1], actual[1], fields=("count",)),
        Difference(("events", 2), expected[2], actual[2], fields=("type",)),
        Difference(("events",), 3, 4, length=True),
    ]


def test_an_event_difference_names_the_fields_that_differ():
    expected = {"event": "place", "seat": 0, "tile": "[1|4]", "count": 10, "credit_raw": 10, "credit": 2}
    actual = {**expected, "count": 12, "credit_raw": 0, "credit": 0}
    (found,) = diff({"events": [expected]}, {"events": [actual]})
    assert found.fields == ("count", "credit_raw", "credit")
    assert found.text() == (
        "events[0] (place): count expected 10, got 12; credit_raw expected 10, got 0; credit expected 2, got 0"
    )
    assert found.to_record()["fields"] == ["count", "credit_raw", "credit"]
    # Events of another kind say so first.
    (other,) = diff({"events": [expected]}, {"events": [{"event": "draw", "seat": 0, "tile": "[3|3]"}]})
    assert other.fields == ("event",) and other.text().startswith("events[0]: expected a place event, got a draw event")


def test_keys_absent_from_expected_are_not_compared():
    assert diff({"sum": 5}, {"sum": 5, "credit": 1}) == []


def test_identical_data_has_no_difference_and_an_integer_is_still_not_a_boolean():
    trace = {"hands": [{"events": [{"event": "place", "seat": 0, "continues": True, "count": 5}] * 40}]}
    assert diff(trace, {"hands": [{"events": [dict(e) for e in trace["hands"][0]["events"]]}]}) == []
    assert diff({"continues": True}, {"continues": 1}) == [Difference(("continues",), True, 1)]
    assert diff({"count": 0}, {"count": False}) == [Difference(("count",), 0, False)]
    assert diff({"credit": 1}, {"credit": 1.0}) == []  # equal numbers, neither a boolean


def test_a_huge_unordered_collection_lists_twenty_items_and_says_how_many_more():
    """A hostile answer's million extra items are counted, not each made a difference
    (the hostile suite's memory bound), and the last line says how many were not listed."""
    got = diff({"winners": [0]}, {"winners": [str(i) for i in range(1000)]})
    assert len(got) == 21
    assert got[0].text() == "winners: missing 0"
    assert {d.item for d in got[1:20]} == {"extra"}
    assert got[-1].text() == 'winners: expected "1 items", got "1,000 items; 981 more items differ, not listed"'


def test_the_fast_test_of_identical_data_tells_a_boolean_from_a_number():
    """Equal in Python is not the same JSON data (``True == 1 == 1.0``): the fast test
    says "the same" only for the same types, so a boolean answered as a number is still
    compared, and found, by the walk."""
    trace = {"hands": [{"events": [{"event": "place", "seat": 1, "continues": True, "count": 0}] * 30}]}
    copy = {"hands": [{"events": [dict(e) for e in trace["hands"][0]["events"]]}]}
    assert _same_data(trace, copy)
    for wrong in ({"continues": 1}, {"seat": True}, {"count": False}, {"count": 0.0}):
        answer = {
            "hands": [{"events": [*copy["hands"][0]["events"][:29], {**copy["hands"][0]["events"][29], **wrong}]}]
        }
        assert answer == trace  # what a fast test by == would take for the same
        assert not _same_data(trace, answer)
    assert diff(trace, {"hands": [{"events": [{**e, "continues": 1} for e in copy["hands"][0]["events"]]}]})


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ({"sum": 5, "credit": 1}, {"credit": 1, "sum": 5}),  # keys in another order
        ({"tiles": ["[1|1]", "[2|2]"]}, {"tiles": ["[2|2]", "[1|1]"]}),  # an unordered collection in another order
        ({"sum": 5}, {"sum": 5, "extra": 1}),  # a key absent from expected
    ],
)
def test_what_the_fast_test_does_not_call_the_same_the_walk_still_judges(expected, actual):
    assert not _same_data(expected, actual)
    assert diff(expected, actual) == []


def test_the_fast_test_never_calls_the_same_what_the_walk_does_not():
    """Data and a near copy of it (some leaves swapped for an equal value of another
    type: ``True`` for ``1``, ``1.0`` for ``1``, ``0`` for ``False``; some dicts in
    another key order): the fast test says "the same" only where the walk does."""
    hypothesis = pytest.importorskip("hypothesis")
    st = pytest.importorskip("hypothesis.strategies")
    leaves = st.none() | st.booleans() | st.integers(0, 2) | st.sampled_from([0.0, 1.0]) | st.sampled_from("ab")
    data = st.recursive(
        leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("xyz"), inner, max_size=3)
    )

    def near_copy(value, draw):
        if isinstance(value, dict):
            items = [(k, near_copy(v, draw)) for k, v in value.items()]
            return dict(items[::-1] if draw(st.booleans()) else items)
        if isinstance(value, list):
            return [near_copy(v, draw) for v in value]
        if value.__class__ in (bool, int) and value in (0, 1) and draw(st.booleans()):
            twin = int(value) if value.__class__ is bool else bool(value)
            return twin if draw(st.booleans()) else float(value)
        return value

    @hypothesis.settings(max_examples=300, deadline=None)
    @hypothesis.given(data, st.data())
    def same_only_when_identical(a, drawn):
        b = near_copy(a, drawn.draw)
        assert a == b  # equal in Python, always
        if _same_data(a, b):
            assert _identical(a, b)

    same_only_when_identical()
