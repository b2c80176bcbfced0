"""One source for each shared fact: the register's fields and readings live in
``horserace.engine.ruleset`` (``VARIANT_FIELDS``), the fixture kinds in
``horserace.corpus.fixture`` (``KINDS``); every JSON Schema that repeats them must agree."""

from __future__ import annotations

import pytest

from horserace.corpus.fixture import KINDS
from horserace.corpus.observers import OBSERVERS
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.resources.schemas import load_schema

#: (schema, JSON pointer to the object whose properties are the register fields)
READINGS_IN = [
    ("fixture.schema", ("$defs", "variants")),
    ("ruleset.schema", ("properties", "readings")),
    ("protocol/hello-response", ("properties", "readings")),
    ("protocol/run-request", ("properties", "readings")),
]
#: (schema, pointer to the enum of kinds)
KINDS_IN = [
    ("fixture.schema", ("$defs", "common", "properties", "kind", "enum")),
    ("protocol/run-request", ("properties", "kind", "enum")),
    ("protocol/hello-response", ("properties", "kinds", "items", "enum")),
]


def _at(schema: dict, pointer: tuple[str, ...]):
    for step in pointer:
        schema = schema[step]
    return schema


@pytest.mark.parametrize(("name", "pointer"), READINGS_IN)
def test_schemas_name_the_register_readings_of_the_ruleset(name, pointer):
    properties = _at(load_schema(name), pointer)["properties"]
    assert {field: _enum(p) for field, p in properties.items()} == VARIANT_FIELDS


def _enum(prop: dict) -> tuple[str, ...]:
    """The readings a schema allows for a field: its ``enum``, or (a hello of protocol
    1.1: one reading or a list of them) the same enum in both branches of ``anyOf``."""
    if "enum" in prop:
        return tuple(prop["enum"])
    one, many = prop["anyOf"]
    assert one["enum"] == many["items"]["enum"]
    return tuple(one["enum"])


@pytest.mark.parametrize(("name", "pointer"), KINDS_IN)
def test_schemas_name_the_fixture_kinds(name, pointer):
    assert tuple(_at(load_schema(name), pointer)) == KINDS


def test_every_kind_has_an_observer():
    assert tuple(OBSERVERS) == KINDS


def test_the_check_can_fail():
    """A schema that drifted (a reading renamed) is caught."""
    properties = dict(_at(load_schema("ruleset.schema"), ("properties", "readings"))["properties"])
    properties["branch_use"] = {"enum": ["both", "only-one"]}
    assert {field: tuple(p["enum"]) for field, p in properties.items()} != VARIANT_FIELDS
