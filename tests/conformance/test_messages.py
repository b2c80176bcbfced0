"""Each protocol message class is tied to its JSON Schema: its fields are the schema's
properties (``type`` is the class's ``TYPE``), the fields without a default are the
schema's required ones, and what ``to_json`` writes passes the schema."""

from __future__ import annotations

import dataclasses

import pytest

from horserace.conformance import messages as m
from horserace.conformance.protocol import PROTOCOL_VERSION, problems
from horserace.resources.schemas import load_schema

#: Each class and one example of it.
EXAMPLES = [
    m.HelloRequest(PROTOCOL_VERSION, "0.1.0"),
    m.Hello(PROTOCOL_VERSION, "x", "1", "Rust", ("layout", "play"), {"branch_use": "one"}),
    m.RunRequest("7", "settlement", {"hands": []}),
    m.StopRequest(),
    m.Result("7", {"nodes": 3}),
    m.Rejected("7", 2, "HR-PLACE-1", "no"),
    m.Rejected("7"),
    m.Error("7", "malformed input"),
]


def _schema_of(message) -> dict:
    """The schema of a message class; for an answer, the branch of its ``type``."""
    schema = load_schema(f"protocol/{message.SCHEMA}")
    for branch in schema.get("oneOf", [schema]):
        if branch["properties"]["type"].get("const", message.TYPE) == message.TYPE:
            return branch
    raise AssertionError(f"no branch of {message.SCHEMA} for type {message.TYPE}")


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda msg: f"{type(msg).__name__}")
def test_fields_are_the_schemas_properties(message):
    schema = _schema_of(message)
    fields = {f.name: f for f in dataclasses.fields(message)}
    assert set(fields) | {"type"} == set(schema["properties"])
    required = {
        name
        for name, f in fields.items()
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    assert required | {"type"} == set(schema["required"])


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda msg: f"{type(msg).__name__}")
def test_what_a_message_writes_passes_its_schema(message):
    assert problems(message.SCHEMA, message.to_json()) == []


def test_answers_read_back_as_they_were_written():
    for answer in (
        m.Result("1", {"a": 1}),
        m.Rejected("2", 0, "HR-DRAW-1", "no"),
        m.Rejected("3"),
        m.Error("4", "bad"),
    ):
        assert m.answer_from_json(answer.to_json()) == answer
    hello = EXAMPLES[1]
    assert m.Hello.from_json(hello.to_json()) == hello


def test_a_drifted_class_is_caught():
    @dataclasses.dataclass(frozen=True)
    class Drifted:
        SCHEMA = "run-request"
        TYPE = "run"
        seq: str
        kind: str  # "input" forgotten

    schema = _schema_of(Drifted)
    assert {f.name for f in dataclasses.fields(Drifted)} | {"type"} != set(schema["properties"])
