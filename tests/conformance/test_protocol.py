"""Protocol messages: the runner's written-out answer check agrees with the JSON Schema
that spec/protocol.md publishes, and ``horserace serve`` answers every message shape."""

from __future__ import annotations

import io
import json

import pytest

from horserace.conformance.protocol import answer_problems, problems
from horserace.conformance.server import serve

ANSWERS = [
    {"type": "result", "seq": "a", "observations": {}},
    {"type": "result", "seq": "a", "observations": []},
    {"type": "result", "seq": 1, "observations": {}},
    {"type": "result", "seq": "a"},
    {"type": "result", "seq": "a", "observations": {}, "extra": 1},
    {"type": "rejected", "seq": "a"},
    {"type": "rejected", "seq": "a", "at": 3, "rule": "HR-DRAW-1", "message": "no"},
    {"type": "rejected", "seq": "a", "at": -1},
    {"type": "rejected", "seq": "a", "at": None, "rule": None},
    {"type": "rejected", "seq": "a", "at": True},
    {"type": "rejected", "seq": "a", "rule": 5},
    {"type": "error", "seq": "a", "message": "boom"},
    {"type": "error", "seq": "a"},
    {"type": "error", "seq": "a", "message": 3},
    {"type": "hello", "seq": "a"},
    {"seq": "a"},
]


@pytest.mark.parametrize("answer", ANSWERS, ids=json.dumps)
def test_answer_check_agrees_with_the_schema(answer):
    assert bool(answer_problems(answer)) == bool(problems("answer", answer))


def exchange(*messages: dict) -> list[dict]:
    out = io.BytesIO()
    serve(io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_serve_handshake_matches_the_schema():
    (hello,) = exchange({"type": "hello", "protocol": "1.0", "suite": "x"})
    assert problems("hello-response", hello) == []
    assert problems("hello-request", {"type": "hello", "protocol": "1.0", "suite": "x"}) == []


def test_serve_answers_each_kind_and_stops():
    answers = exchange(
        {
            "type": "run",
            "seq": "1",
            "kind": "settlement",
            "input": {
                "mode": "individual",
                "seats": 2,
                "scores": [0, 0],
                "target": 61,
                "hands": [[], ["[3|5]", "[3|6]"]],
                "ended_by": 0,
            },
        },
        {
            "type": "run",
            "seq": "2",
            "kind": "layout",
            "input": {"steps": [{"tile": "[1|4]"}, {"tile": "[2|2]", "target": "[1|4]", "port": "low"}]},
        },
        {"type": "run", "seq": "3", "kind": "nonsense", "input": {}},
        {"type": "stop"},
        {"type": "run", "seq": "4", "kind": "layout", "input": {"steps": [{"tile": "[1|4]"}]}},
    )
    assert [a["type"] for a in answers] == ["result", "rejected", "error"]
    assert answers[0]["observations"]["credits"] == [3, 0]
    assert answers[1]["at"] == 1 and answers[1]["rule"] == "HR-PLACE-1"
    assert all(answer_problems(a) == [] for a in answers)
