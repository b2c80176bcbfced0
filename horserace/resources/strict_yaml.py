"""The strict YAML layer shared by every document horserace reads (fixtures, rulesets,
expectations files): safe, libyaml-backed YAML with no duplicate keys, no merge keys, no
anchors or aliases (alias bombs), bounded size and nesting; each error a
:class:`~horserace.errors.FixtureError` with ``file:line:column``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from horserace.errors import FixtureError, InputError
from horserace.resources.limits import MAX_DEPTH, MAX_FILE_BYTES

__all__ = ["StrictLoader", "node_at", "parse_yaml", "read_document"]


class StrictLoader(yaml.CSafeLoader):
    """Safe, libyaml-backed, and strict about duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        mapping = super().construct_mapping(node, deep=deep)
        if len(mapping) != len(node.value):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                key = key_node.value
                if key == "<<":
                    raise yaml.constructor.ConstructorError(
                        None, None, "merge keys ('<<') are not allowed in fixtures", key_node.start_mark
                    )
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r} (first at line {seen[key] + 1})", key_node.start_mark
                    )
                seen[key] = key_node.start_mark.line
        return mapping


def _has_alias(data: Any) -> bool:
    """Whether any container is reachable twice (an anchor reused through an alias)."""
    seen: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (dict, list)):
            if id(item) in seen:
                return True
            seen.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return False


def _depth_ok(text: str) -> bool:
    """A cheap upper bound of flow nesting ([ and {) and indentation depth."""
    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest <= MAX_DEPTH + 2  # a tile "[a|b]" inside a flow list adds one


def parse_yaml(text: str, file: str) -> Any:
    """Parse one document's text (safe YAML only)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise FixtureError(
            f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; fixture files are small", file=file
        )
    if ("[" in text or "{" in text) and not _depth_ok(text):
        raise FixtureError(f"nesting deeper than {MAX_DEPTH} levels; fixtures are shallow", file=file)
    try:
        data = yaml.load(text, Loader=StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise FixtureError(
            f"YAML: {problem}",
            file=file,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        ) from None
    except yaml.YAMLError as exc:
        raise FixtureError(f"YAML: {exc}", file=file) from None
    except RecursionError:
        raise FixtureError(f"nesting deeper than {MAX_DEPTH} levels; fixtures are shallow", file=file) from None
    if ("&" in text or "*" in text) and _has_alias(data):
        raise FixtureError("anchors and aliases are not allowed in fixtures (write every value out)", file=file)
    return data


def node_at(text: str, path: Iterable[str | int]) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the YAML node at a JSON instance path: the slow,
    second parse made only for a file that failed."""
    try:
        node = yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return None, None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == step:
                    node = value_node
                    break
            else:
                break
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            break
    if node is None:
        return None, None
    return node.start_mark.line + 1, node.start_mark.column + 1


def read_document(path: Path, name: str, error: type[InputError]) -> tuple[str, Any]:
    """Read and parse one YAML document that is not a fixture file (a ruleset, an
    expectations file): its text and data, or ``error`` with the file's place."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror}", file=name) from None
    except UnicodeDecodeError as exc:
        raise error(f"not UTF-8 (byte {exc.start})", file=name) from None
    try:
        return text, parse_yaml(text, name)
    except InputError as exc:
        raise error(exc.message, file=name, line=exc.line, column=exc.column) from None
