"""The JSON Schemas of spec/schema/ and the one factory of their validators (draft
2020-12, compiled by ``jsonschema_rs``), with the errors of a document placed at
``file:line:column``."""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from horserace.errors import FixtureError
from horserace.resources.limits import MAX_DEPTH
from horserace.resources.paths import spec_dir

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    import jsonschema_rs


__all__ = ["load_schema", "schema_errors", "validator"]


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema of spec/schema/ by its path there without ``.json``: ``fixture.schema``,
    ``ruleset.schema``, ``protocol/answer``."""
    schema: dict[str, Any] = json.loads((spec_dir() / "schema" / f"{name}.json").read_text(encoding="utf-8"))
    return schema


@cache
def validator(name: str) -> jsonschema_rs.Draft202012Validator:
    """The compiled validator of the schema ``name`` (see :func:`load_schema`)."""
    import jsonschema_rs  # noqa: PLC0415  (start-up: 50 ms that 'horserace serve' never needs)

    return jsonschema_rs.Draft202012Validator(load_schema(name))


def schema_errors(data: Any, text: str, file: str, name: str = "fixture.schema") -> list[FixtureError]:
    """Schema errors of a document with their positions.  A fixture file is a list of
    fixtures, so its errors name the fixture; other documents (rulesets) are one object."""
    # The YAML layer only for a document that failed: the protocol's users of this module
    # (the server, the runner) never parse YAML, and its import costs 20 ms of start-up.
    from horserace.resources.strict_yaml import node_at  # noqa: PLC0415  (start-up, as said above)

    fixture_list = name == "fixture.schema"
    checker = validator(name)
    try:
        if checker.is_valid(data):
            return []
        found = sorted(checker.iter_errors(data), key=lambda e: [str(p) for p in e.instance_path])
    except ValueError as exc:  # jsonschema_rs: "Recursion limit reached", or a value JSON does not have
        # The strict YAML layer refuses both before this (depth, dates, keys that are not
        # strings); data from elsewhere gets the validator's own words, not a guess.
        if "recursion" in str(exc).lower():
            return [FixtureError(f"nesting deeper than {MAX_DEPTH} levels; fixtures are shallow", file=file)]
        return [FixtureError(f"cannot be validated: {exc}", file=file)]
    return [_positioned(err, data, text, file, fixture_list, node_at) for err in found]


def _positioned(
    err: Any,
    data: Any,
    text: str,
    file: str,
    fixture_list: bool,
    node_at: Callable[[str, Iterable[str | int]], tuple[int | None, int | None]],
) -> FixtureError:
    """One schema error at its line and column, named by its fixture in a fixture list,
    its message shortened and, for a tile YAML read as a list, with the quoting it needs."""
    path = list(err.instance_path)
    line, column = node_at(text, path)
    fixture_id = None
    if (
        fixture_list
        and path
        and isinstance(path[0], int)
        and isinstance(data, list)
        and isinstance(data[path[0]], dict)
    ):
        fixture_id = data[path[0]].get("id") if isinstance(data[path[0]].get("id"), str) else None
    shown = path[1:] if fixture_list else path
    where = "/".join(str(p) for p in shown) or ("(fixture)" if fixture_list else "(document)")
    message = err.message
    if len(message) > 240:  # the validator quotes the whole offending value
        message = message[:160] + " ... " + message[-60:]
    value = _get(data, path)
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str) and "|" in value[0]:
        message += f"; quote tiles in YAML: '[{value[0]}]'"
    return FixtureError(f"{where}: {message}", file=file, line=line, column=column, fixture_id=fixture_id)


def _get(data: Any, path: list[Any]) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data
