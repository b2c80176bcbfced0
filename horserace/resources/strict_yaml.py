"""The strict YAML layer shared by every document horserace reads (fixtures, rulesets,
expectations files), each error a :class:`~horserace.errors.FixtureError` with
``file:line:column``.

What spec/fixture-format.md forbids is refused where it can be seen, and before it costs
anything:

- the file: a regular file, at most :data:`~horserace.resources.limits.MAX_FILE_BYTES`,
  checked before it is read (:func:`read_text`), so a FIFO or ``/dev/zero`` never blocks
  or fills memory;
- anchors, aliases, merge keys (``<<``) and explicit tags, at the **event level**, before
  any node or value is built: PyYAML's composer expands aliases (an alias bomb of a few
  MB reaches gigabytes) and its constructor removes ``<<`` before a duplicate-key check
  could see it.  Only a text that contains ``&``, ``*``, ``!`` or ``<<`` at all can hold
  one, so only such a text pays for the pass over libyaml's events (:func:`_check_events`);
- duplicate keys, keys that are not strings, dates (YAML 1.1 reads ``2024-01-01`` as a
  date) in the constructor (:class:`StrictLoader`), where each has its node's position at
  no cost to a valid file;
- nesting deeper than :data:`~horserace.resources.limits.MAX_DEPTH`, measured on the
  parsed structure (brackets in a comment or a quoted string do not count): an iterative
  walk of the data, a few per cent of the parse; the position is found by a second pass
  only for a file that is too deep.

A valid file is parsed once, by libyaml; the slow second parses (:func:`node_at`) are for
files that failed.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

import yaml

from horserace.errors import FixtureError, InputError
from horserace.resources.limits import MAX_DEPTH, MAX_FILE_BYTES

if TYPE_CHECKING:
    import yaml._yaml  # noqa: TC004  (for the Mark alias only; yaml itself is imported above)

__all__ = ["StrictLoader", "compose", "node_at", "node_position", "parse_yaml", "read_document", "read_text"]

#: A position in the text: the pure-Python parser's, or libyaml's (the events of ``yaml.parse``).
_Mark: TypeAlias = "yaml.error.Mark | yaml._yaml.Mark"

_YAML_TAG = "tag:yaml.org,2002:"
_STR = _YAML_TAG + "str"
_MERGE_TAG = _YAML_TAG + "merge"

_TOO_LARGE = f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; fixture files are small"
_TOO_DEEP = f"nesting deeper than {MAX_DEPTH} levels; fixtures are shallow"
_ANCHORS = "anchors and aliases are not allowed in fixtures (write every value out)"
_MERGE = "merge keys are not allowed in fixtures (write every key out; quote '<<' to use it as a key)"
_TAGS = "explicit tags are not allowed in fixtures (plain values only; quote a string)"
_DATE = "a date is not allowed; quote it"
_KEYS = "keys must be strings"

#: What a plain scalar resolves to, for the messages.
_KINDS = {"int": "an integer", "float": "a number", "bool": "a boolean", "null": "null"}


def _shown_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag


class _Refused(yaml.constructor.ConstructorError):
    """A refusal of the strict constructor: its message is ours, shown without "YAML:"."""


def _refuse(message: str, mark: yaml.error.Mark | None) -> NoReturn:
    raise _Refused(None, None, message, mark)


class StrictLoader(yaml.CSafeLoader):
    """Safe and libyaml-backed; its constructor refuses what the composer lets through:
    duplicate keys, keys that are not strings, dates, and (should the event pass of
    :func:`parse_yaml` be bypassed) the tags it would otherwise build."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        # SafeConstructor's own (flatten_mapping, construct_object per key) minus what a
        # fixture never has: a key is a string scalar, so its value is the key, with one
        # comparison of its tag.  Merge keys never get here (the event pass refuses them).
        if not isinstance(node, yaml.MappingNode):
            _refuse(f"expected a mapping, found a {node.id}", node.start_mark)
        mapping: dict[Any, Any] = {}
        construct = self.construct_object
        for key_node, value_node in node.value:
            if key_node.tag != _STR or not isinstance(key_node, yaml.ScalarNode):
                _refuse(_key_problem(key_node), key_node.start_mark)
            mapping[key_node.value] = construct(value_node, deep=deep)
        if len(mapping) != len(node.value):
            seen: dict[str, int] = {}
            for key_node, _ in node.value:
                if key_node.value in seen:
                    _refuse(
                        f"duplicate key {key_node.value!r} (first at line {seen[key_node.value] + 1})",
                        key_node.start_mark,
                    )
                seen[key_node.value] = key_node.start_mark.line
        return mapping

    def _date(self, node: yaml.Node) -> NoReturn:
        _refuse(f"{_DATE}: '{node.value}'", node.start_mark)

    def _tagged(self, node: yaml.Node) -> NoReturn:
        _refuse(f"YAML tag {_shown_tag(node.tag)}: {_TAGS}", node.start_mark)

    def _plain_merge(self, node: yaml.Node) -> NoReturn:
        _refuse(f"a plain '{node.value}' is read as a merge key; quote it", node.start_mark)

    def _plain_value(self, node: yaml.Node) -> NoReturn:
        _refuse(f"a plain '{node.value}' is not a string in YAML 1.1; quote it", node.start_mark)


StrictLoader.add_constructor(_YAML_TAG + "timestamp", StrictLoader._date)
for _name in ("binary", "set", "omap", "pairs"):
    StrictLoader.add_constructor(_YAML_TAG + _name, StrictLoader._tagged)
StrictLoader.add_constructor(_MERGE_TAG, StrictLoader._plain_merge)
StrictLoader.add_constructor(_YAML_TAG + "value", StrictLoader._plain_value)
del _name


def _key_problem(key_node: yaml.Node) -> str:
    if key_node.tag == _MERGE_TAG:
        return f"merge key '<<': {_MERGE}"
    if isinstance(key_node, yaml.SequenceNode):
        return f"{_KEYS}, not a list"
    if isinstance(key_node, yaml.MappingNode):
        return f"{_KEYS}, not a mapping"
    kind = key_node.tag[len(_YAML_TAG) :] if key_node.tag.startswith(_YAML_TAG) else ""
    if kind == "timestamp":
        return f"{_KEYS}, not a date ('{key_node.value}'); quote it"
    if kind in _KINDS:
        return f"{_KEYS}, not {_KINDS[kind]} ({key_node.value or '~'}); quote it"
    return f"{_KEYS}, not {_shown_tag(key_node.tag)}"


# ---------------------------------------------------------------------- the event pass
_SUSPECT = ("&", "*", "!", "<<")


def _check_events(text: str, file: str) -> None:
    """Refuse anchors, aliases, explicit tags and merge keys from libyaml's events, before
    anything is composed; iterative, and it measures nesting on the way (so the walk of
    the data is not needed after it)."""
    # Per open collection: -1 a sequence, 0 a mapping whose next node is a key, 1 a mapping
    # whose next node is a value.
    stack: list[int] = []
    try:
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(event, yaml.events.NodeEvent):  # a scalar, an alias or a collection's start
                is_key = False
                if stack and stack[-1] >= 0:
                    is_key = stack[-1] == 0
                    stack[-1] ^= 1
                mark = event.start_mark
                if isinstance(event, yaml.events.AliasEvent):
                    _fail(f"alias *{event.anchor}: {_ANCHORS}", file, mark)
                if event.anchor is not None:
                    _fail(f"anchor &{event.anchor}: {_ANCHORS}", file, mark)
                tag = getattr(event, "tag", None)
                if tag is not None:
                    _fail(f"YAML tag {_shown_tag(tag)}: {_TAGS}", file, mark)
                if isinstance(event, yaml.events.ScalarEvent):
                    if is_key and event.value == "<<" and event.implicit[0]:
                        _fail(f"merge key '<<': {_MERGE}", file, mark)
                else:
                    stack.append(0 if isinstance(event, yaml.events.MappingStartEvent) else -1)
                    if len(stack) > MAX_DEPTH:
                        _fail(_TOO_DEEP, file, mark)
            elif isinstance(event, yaml.events.CollectionEndEvent):
                stack.pop()
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text, file) from None


def _fail(message: str, file: str, mark: _Mark | None) -> NoReturn:
    raise FixtureError(
        message,
        file=file,
        line=mark.line + 1 if mark else None,
        column=mark.column + 1 if mark else None,
    )


def _deep_mark(text: str) -> _Mark | None:
    """Where the nesting first goes deeper than the limit (a second pass over the events,
    made only for a file that is too deep)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(event, yaml.events.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return event.start_mark
            elif isinstance(event, yaml.events.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        pass
    return None


def _yaml_error(exc: yaml.YAMLError, text: str, file: str) -> FixtureError:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark: _Mark | None = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        if "maximum nesting depth" in problem:  # libyaml's own limit (1000 levels)
            message, mark = _TOO_DEEP, _deep_mark(text) or mark
        else:
            message = problem if isinstance(exc, _Refused) else f"YAML: {problem}"
        return FixtureError(
            message,
            file=file,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
        )
    return FixtureError(f"YAML: {exc}", file=file)


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether containers nest more than ``limit`` deep: level by level, no recursion."""
    level = [data] if type(data) in (dict, list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list[Any] = []
        extend = below.extend
        for item in level:
            extend([v for v in (item.values() if type(item) is dict else item) if type(v) in (dict, list)])
        level = below
    return False


def parse_yaml(text: str, file: str) -> Any:
    """Parse one document's text (safe YAML only, as the module docstring says)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise FixtureError(_TOO_LARGE, file=file)
    checked_events = any(s in text for s in _SUSPECT)
    if checked_events:
        _check_events(text, file)
    try:
        data = yaml.load(text, Loader=StrictLoader)  # noqa: S506  (the strict loader: PyYAML's safe loader, refusing more)
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, text, file) from None
    except RecursionError:
        raise FixtureError(_TOO_DEEP, file=file) from None
    if not checked_events and _deeper_than(data, MAX_DEPTH):
        _fail(_TOO_DEEP, file, _deep_mark(text))
    return data


# ---------------------------------------------------------------------- positions
def compose(text: str) -> yaml.Node | None:
    """The node tree of a text (``None`` if it does not parse): the slow second parse,
    made only for a file that failed."""
    try:
        return yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return None


def node_position(node: yaml.Node | None, path: Iterable[str | int]) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the node at ``path`` (keys and list indices) below
    ``node``; where the path goes further than the tree, the deepest node it reaches."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == step:
                    node = value_node
                    break
            else:
                break
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            node = node.value[step]
        else:
            break
    if node is None:
        return None, None
    return node.start_mark.line + 1, node.start_mark.column + 1


def node_at(text: str, path: Iterable[str | int]) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the YAML node at a JSON instance path."""
    return node_position(compose(text), path)


# ---------------------------------------------------------------------- reading
def read_text(
    path: Path,
    name: str,
    error: type[InputError] = FixtureError,
    *,
    limit: int = MAX_FILE_BYTES,
    too_large: str = _TOO_LARGE,
) -> str:
    """The text of one document file, or ``error`` with the file's name: it must be a
    regular file (a FIFO would block, ``/dev/zero`` never ends) of at most ``limit``
    bytes (else ``too_large`` is the message), both checked before a byte is read, and
    UTF-8."""
    try:
        info = path.stat()
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror}", file=name) from None
    if not stat.S_ISREG(info.st_mode):
        raise error("not a regular file", file=name)
    if info.st_size > limit:
        raise error(too_large, file=name)
    try:
        # O_NONBLOCK: should the path have become a FIFO since the stat, opening it does not wait.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise error("not a regular file", file=name)
            raw = f.read(limit + 1)  # the file may have grown since the stat
    except OSError as exc:
        raise error(f"cannot read: {exc.strerror}", file=name) from None
    if len(raw) > limit:
        raise error(too_large, file=name)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(raw, exc.start)
        raise error(f"not UTF-8 (byte {exc.start})", file=name, line=line, column=column) from None


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    """The line and column (1-based; the column in characters of the text before it,
    as an editor counts them) of byte ``offset`` of ``raw``."""
    start = raw.rfind(b"\n", 0, offset) + 1
    return raw.count(b"\n", 0, offset) + 1, len(raw[start:offset].decode("utf-8", "replace")) + 1


def read_document(path: Path, name: str, error: type[InputError]) -> tuple[str, Any]:
    """Read and parse one YAML document that is not a fixture file (a ruleset, an
    expectations file): its text and data, or ``error`` with the file's place."""
    text = read_text(path, name, error)
    try:
        return text, parse_yaml(text, name)
    except InputError as exc:
        raise error(exc.message, file=name, line=exc.line, column=exc.column) from None
