"""The bounds of a hello and of an answer (spec/protocol.md, "Limits"): a message at
each limit is taken, one over it is refused with the limit it breaks, before its schema
is checked; and every limit is stated in the spec with its value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from horserace.conformance import bounds, protocol
from horserace.conformance.runner import check_hello
from horserace.conformance.scope import SEATING_NAMES
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.errors import ImplementationUnusable

SPEC = Path(__file__).parents[2] / "spec" / "protocol.md"


def _hello(**fields: object) -> dict:
    return {
        "type": "hello",
        "protocol": "1.2",
        "name": "x",
        "version": "1",
        "language": "py",
        "kinds": ["play", "settlement"],
        **fields,
    }


def test_a_hello_at_the_limits_of_real_adapters_is_taken():
    targets = check_hello(_hello(targets=list(range(1, 1001)))).targets
    assert targets is not None and str(targets) == "1-1000"
    ranges = [{"min": 10 * i + 1, "max": 10 * i + 5} for i in range(10)]
    assert str(check_hello(_hello(targets=ranges)).targets).count("-") == 10
    every = check_hello(_hello(readings={k: list(v) for k, v in VARIANT_FIELDS.items()}, seatings=list(SEATING_NAMES)))
    assert every.describe() == "every reading"
    extra = {f"x-{i}": i for i in range(bounds.MAX_HELLO_FIELDS - 7)}
    assert check_hello(_hello(**extra)).kinds == ("play", "settlement")


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"targets": list(range(1, 1002))}, "targets: 1,001 entries (at most 1,000)"),
        ({"targets": [{"min": i} for i in range(1, 1002)]}, "targets: 1,001 entries (at most 1,000)"),
        ({"kinds": ["play"] * 1001}, "kinds: 1,001 entries"),
        ({"seatings": ["2-players"] * 1001}, "seatings: 1,001 entries"),
        ({"readings": {f"r{i}": "x" for i in range(101)}}, "readings: 101 fields (at most 100)"),
        ({"readings": {"branch_use": ["both"] * 1001}}, "readings.branch_use: 1,001 entries"),
        ({f"k{i}": 0 for i in range(95)}, "101 fields (at most 100)"),
        ({"protocol": "1." + "2" * 5000}, "protocol: 5,002 characters (at most 16)"),
    ],
    ids=["targets", "ranges", "kinds", "seatings", "readings", "reading-list", "fields", "protocol"],
)
def test_a_hello_over_a_limit_makes_the_implementation_unusable_with_the_limit(fields, says):
    with pytest.raises(ImplementationUnusable, match="hello too large") as refused:
        check_hello(_hello(**fields))
    assert says in str(refused.value)
    assert len(str(refused.value)) < 300


def test_an_answer_of_too_many_fields_is_invalid_with_the_limit_and_a_long_one_is_taken():
    answer = {"type": "result", "seq": "1", "observations": {}}
    assert protocol.answer_problems({**answer, **{f"f{i}": 0 for i in range(97)}}) == [
        f"unexpected field 'f{i}'" for i in sorted(range(97), key=str)
    ]
    many = {**answer, **{f"f{i}": 0 for i in range(98)}}
    assert protocol.answer_problems(many) == ["101 fields (at most 100)"]
    # An answer's size is in its observations, which these bounds leave alone: ten
    # thousand events, as a result and as a 1.2 refusal's observations, are taken.
    events = [{"tile": [i % 7, (i + 1) % 7], "count": 5 * (i % 3)} for i in range(10_000)]
    answer = {"type": "result", "seq": "1", "observations": {"hands": [{"events": events}]}}
    line = protocol.encode(answer)
    assert len(line) < protocol.MAX_LINE_BYTES
    assert protocol.answer_problems(protocol.decode(line)) == []
    rejected = {"type": "rejected", "seq": "1", "at": 0, "rule": None, "observations": answer["observations"]}
    assert protocol.answer_problems(protocol.decode(protocol.encode(rejected))) == []


def test_every_limit_is_stated_in_the_spec_with_its_value():
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("### Limits") :]
    rows = dict(re.findall(r"^\|[^|]*\| `(MAX_[A-Z_]+)` \| ([^|]+) \|$", section, re.MULTILINE))
    values = {
        name: getattr(bounds, name, None) or getattr(protocol, name)
        for name in [
            *(n for n in bounds.__all__ if n.startswith("MAX_")),
            *(n for n in protocol.__all__ if n.startswith("MAX_")),
        ]
    }
    assert set(rows) == set(values)
    for name, value in values.items():
        shown = f"{value // (1024 * 1024)} MiB" if name.endswith("_BYTES") else f"{value:,}"
        assert rows[name].strip() == shown, name
