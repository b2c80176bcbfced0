"""Comparison of expected and actual observations, field by field
(spec/fixture-format.md, "Comparison"), the one comparison of replay, conform, fuzz and
diff:

- keys absent from ``expected`` are not compared; a ``divide`` key (perft) on either
  side only is reported, the extra move of the implementation included;
- the unordered collections (:data:`SET_COLLECTIONS`: those of a layout snapshot, and
  the sides of ``winners`` and ``match_winners``) are compared as multisets in the canonical encoding: each missing and each extra item is reported
  once, with its count, wherever it sits in the list;
- an ordered list of another length is one difference of the whole lists when both are
  short, else its length and then the items side by side;
- in an event trace (``events``), each event that differs is shown whole, both versions,
  from the first on.

A :class:`Difference` says where it is as a structured path (:attr:`Difference.at`, keys
and list indices), so that a report finds the step or event in dispute without parsing
text; :attr:`Difference.path` is the same place written for people
(``steps[3].sum``, ``steps (length)``); :meth:`Difference.text` the whole line.
"""

from __future__ import annotations

import io
import json
import pickle
from collections import Counter
from dataclasses import dataclass
from typing import Any, TypeAlias

from horserace.corpus.encoding import SORT_KEYS, canonical

__all__ = ["MISSING", "SET_COLLECTIONS", "Difference", "PathStep", "diff", "diff_prefix", "event_fields", "format_path"]

#: One step into observations: a key of an object or an index of a list.
PathStep: TypeAlias = str | int

MISSING = "<missing>"


def format_path(at: tuple[PathStep, ...]) -> str:
    """A structured path for people: ``("steps", 3, "sum")`` is ``steps[3].sum``."""
    text = ""
    for step in at:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text = f"{text}.{step}" if text else step
    return text


#: Unordered collections (a layout snapshot's, and lists of sides): compared as multisets.
#: At most this many of their items are listed as missing or extra; a last difference
#: says how many more differ.
SET_COLLECTIONS = frozenset(SORT_KEYS)
MAX_ITEM_DIFFERENCES = 20
#: Ordered lists at most this long (and this short in JSON) are shown whole when their
#: lengths differ.
SHORT_LIST = 6
SHORT_JSON = 240


@dataclass(frozen=True)
class Difference:
    """One field whose expected and actual values differ; with ``length``, the list at
    ``at`` has another length (``expected`` and ``actual`` are then the lengths); with
    ``item`` (``"missing"`` or ``"extra"``), one item of an unordered collection is
    missing from the actual one (``expected`` is the item) or is there but not expected
    (``actual`` is the item), ``count`` times."""

    at: tuple[PathStep, ...]
    expected: Any
    actual: Any
    length: bool = False
    item: str | None = None
    count: int = 1
    #: For an event shown whole: the fields in which the two versions differ (``event``
    #: when they are events of different kinds), in the event's order.
    fields: tuple[str, ...] = ()

    @property
    def path(self) -> str:
        return format_path(self.at) + (" (length)" if self.length else "")

    def text(self, sides: tuple[str, str, str, str] = ("expected", "got", "missing", "not expected")) -> str:
        """The difference in one line, for people; ``sides`` names the two sides and the
        items only one of them has (``horserace diff`` says A and B)."""
        first, second, only_first, only_second = sides
        times = f" (x{self.count})" if self.count > 1 else ""
        if self.item == "missing":
            return f"{self.path}: {only_first} {_json(self.expected)}{times}"
        if self.item == "extra":
            return f"{self.path}: {only_second} {_json(self.actual)}{times}"
        if self.fields and isinstance(self.expected, dict) and isinstance(self.actual, dict):
            if self.fields == ("event",):
                return (
                    f"{self.path}: {first} a {self.expected.get('event')} event, {second} a "
                    f"{self.actual.get('event')} event: {first} {_json(self.expected)}, {second} {_json(self.actual)}"
                )
            kind = self.expected.get("event")
            parts = [
                f"{name} {first} {_json(self.expected.get(name))}, {second} {_json(self.actual.get(name, MISSING))}"
                for name in self.fields
            ]
            return f"{self.path} ({kind}): " + "; ".join(parts)
        return f"{self.path}: {first} {_json(self.expected)}, {second} {_json(self.actual)}"

    @property
    def field(self) -> str | None:
        """The name of the field in dispute: the last key of the path."""
        return next((step for step in reversed(self.at) if isinstance(step, str)), None)

    def to_dict(self) -> dict[str, Any]:
        """For people and ``--format json``: the place as text."""
        out = {"path": self.path, "expected": self.expected, "actual": self.actual, "text": self.text()}
        if self.item:
            out |= {"item": self.item, "count": self.count}
        if self.fields:
            out["fields"] = list(self.fields)
        return out

    def to_record(self) -> dict[str, Any]:
        """For the result stream: the place as text and as the structured path that the
        reports read (``at``, ``length``, ``item``, ``count``)."""
        out = {
            "path": self.path,
            "at": list(self.at),
            "length": self.length,
            "expected": self.expected,
            "actual": self.actual,
            "text": self.text(),
        }
        if self.item:
            out |= {"item": self.item, "count": self.count}
        if self.fields:
            out["fields"] = list(self.fields)
        return out


def event_fields(expected: Any, actual: Any) -> tuple[str, ...]:
    """The fields in which an actual event differs from the expected one, compared as
    :func:`diff` compares (absent expected keys are not): ``("event",)`` for events of
    different kinds; else the differing fields in the expected event's order."""
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return ()
    if expected.get("event") != actual.get("event"):
        return ("event",)
    return tuple(k for k, v in expected.items() if k != "event" and diff(v, actual.get(k, MISSING), (k,)))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def diff(
    expected: Any, actual: Any, at: tuple[PathStep, ...] = (), out: list[Difference] | None = None
) -> list[Difference]:
    """Every difference of ``actual`` from ``expected`` (see the module docstring)."""
    if out is None:
        if _same_data(expected, actual) or _identical(expected, actual):
            return []  # the usual case of a correct implementation, and a cheap one
        out = []
    last = at[-1] if at else None  # the key this value sits under (an index for a list item)
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, value in expected.items():
            sub = (*at, k)
            if k not in actual:
                out.append(Difference(sub, value, MISSING))
            else:
                diff(value, actual[k], sub, out)
        if last == "divide":  # a move only the implementation counts is the bug
            for k in actual:  # in the answer's order: a set's order would change from run to run
                if k in expected:
                    continue
                out.append(Difference((*at, k), MISSING, actual[k]))
    elif isinstance(expected, list) and isinstance(actual, list):
        if last in SET_COLLECTIONS:
            _diff_multiset(expected, actual, at, out)
        elif last == "events":
            _diff_trace(expected, actual, at, out)
        else:
            _diff_list(expected, actual, at, out)
    elif expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        out.append(Difference(at, expected, actual))  # (1 == True in Python, not here)
    return out


#: The ordered lists a partial answer may hold only the beginning of.
_PREFIX_LISTS = frozenset({"hands", "events", "steps"})


def diff_prefix(expected: Any, actual: Any, at: tuple[PathStep, ...] = ()) -> list[Difference]:
    """The differences of a partial answer: what an implementation observed before it
    refused an action (protocol 1.2, ``rejected.observations``).  Only what it sent is
    compared: of ``hands``, ``events`` and ``steps`` the items it holds, each with the
    expected one at the same place (an event or a snapshot in full, as :func:`diff`
    does); the keys of the whole answer and of a hand that it leaves out are not compared."""
    out: list[Difference] = []
    if isinstance(expected, dict) and isinstance(actual, dict):
        for k, value in expected.items():
            if k in actual:
                out += diff_prefix(value, actual[k], (*at, k))
        return out
    last = at[-1] if at else None
    if last in _PREFIX_LISTS and isinstance(expected, list) and isinstance(actual, list):
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            if last == "hands":
                out += diff_prefix(e, a, (*at, i))
            elif last == "events":
                if diff(e, a, (*at, i)):
                    out.append(Difference((*at, i), e, a, fields=event_fields(e, a)))  # shown whole, as in a trace
            else:
                diff(e, a, (*at, i), out)
        return out
    return diff(expected, actual, at)


def _data(value: Any) -> bytes:
    """``value`` pickled without the memo: the bytes say every type, value and key
    order, and nothing else (no sharing of objects), so equal bytes are the same data."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # no memo: JSON data holds no cycle, and a shared object is written again
    pickler.dump(value)
    return buffer.getvalue()


def _same_data(expected: Any, actual: Any) -> bool:
    """The same JSON data with the same key order, types included (``1`` is not
    ``true``), decided in C: equal in Python (where ``1 == 1.0 == True``), then equal
    pickled; some three times cheaper than :func:`_identical` on a hand's trace.
    ``False`` says only that they are not equal so (keys in another order, ``1.0`` for
    ``1``, an unordered collection in another order): then the walk decides."""
    if expected != actual:  # in C, and at the first difference: a hostile answer is never pickled
        return False
    try:
        return _data(expected) == _data(actual)
    except (RecursionError, pickle.PicklingError, TypeError, ValueError):
        return False


#: The leaf types of JSON data: equal leaves of the same one are the same value.
_LEAVES = frozenset({str, int, bool, float, type(None)})


def _identical(expected: Any, actual: Any) -> bool:
    """The same JSON data, types included (``1`` is not ``true``): then nothing differs,
    whatever the rules of comparison say of absent keys and unordered collections.  A
    walk that stops at the first difference, some five times cheaper than :func:`diff`
    on a long equal trace."""
    kind = expected.__class__
    if kind is not actual.__class__:
        return False
    if kind is dict:
        if expected.keys() != actual.keys():
            return False
        pairs: Any = ((v, actual[k]) for k, v in expected.items())
    elif kind is list:
        if len(expected) != len(actual):
            return False
        pairs = zip(expected, actual, strict=True)
    else:
        return bool(expected == actual)
    for e, a in pairs:
        if e.__class__ is not a.__class__:
            return False
        if e.__class__ in _LEAVES:
            if e != a:
                return False
        elif not _identical(e, a):
            return False
    return True


def _diff_list(expected: list[Any], actual: list[Any], at: tuple[PathStep, ...], out: list[Difference]) -> None:
    if len(expected) != len(actual):
        if _short(expected) and _short(actual):
            out.append(Difference(at, expected, actual))  # shown whole: clearer than a length and shifted items
            return
        out.append(Difference(at, len(expected), len(actual), length=True))
    for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
        diff(e, a, (*at, i), out)


def _diff_multiset(expected: list[Any], actual: list[Any], at: tuple[PathStep, ...], out: list[Difference]) -> None:
    if len(expected) == len(actual):
        itemwise: list[Difference] = []
        _diff_list(expected, actual, at, itemwise)
        if not itemwise:
            return  # equal in the canonical order, item by item: the usual case, and the cheap one
    want = Counter(_key(canonical(item)) for item in expected)
    have = Counter(_key(canonical(item)) for item in actual)
    if want == have:
        return
    missing = sorted(k for k in want if want[k] > have.get(k, 0))
    extra = sorted(k for k in have if have[k] > want.get(k, 0))
    shown_missing = missing[:MAX_ITEM_DIFFERENCES]
    shown_extra = extra[: MAX_ITEM_DIFFERENCES - len(shown_missing)]
    # The items to show, found again by key: a hostile answer's collection of a million
    # items is counted, never copied.
    wanted = set(shown_missing) | set(shown_extra)
    items: dict[str, Any] = {}
    for item in (*expected, *actual):
        if len(items) == len(wanted):
            break
        value = canonical(item)
        key = _key(value)
        if key in wanted:
            items.setdefault(key, value)
    out.extend(Difference(at, items[k], None, item="missing", count=want[k] - have.get(k, 0)) for k in shown_missing)
    out.extend(Difference(at, None, items[k], item="extra", count=have[k] - want.get(k, 0)) for k in shown_extra)
    left = len(missing) + len(extra) - len(shown_missing) - len(shown_extra)
    if left:  # nothing is cut silently
        out.append(
            Difference(at, f"{len(expected):,} items", f"{len(actual):,} items; {left:,} more items differ, not listed")
        )


def _diff_trace(expected: list[Any], actual: list[Any], at: tuple[PathStep, ...], out: list[Difference]) -> None:
    """Events: each differing event whole, both versions, then the length."""
    for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
        if diff(e, a, (*at, i)):  # compared as usual (absent keys are not), shown whole
            out.append(Difference((*at, i), e, a, fields=event_fields(e, a)))
    if len(expected) != len(actual):
        out.append(Difference(at, len(expected), len(actual), length=True))


def _short(items: list[Any]) -> bool:
    return len(items) <= SHORT_LIST and len(_json(items)) <= SHORT_JSON


def _key(item: Any) -> str:
    return json.dumps(item, sort_keys=True, ensure_ascii=False)
