"""Bounds on what an implementation's answers leave in a run's memory and reports.

An answer line may be as long as the protocol allows (16 MiB), but what is kept of it
for the reports is bounded, so that a hostile implementation cannot grow the runner to
gigabytes or write reports of hundreds of megabytes:

- free text (a message, a hello's name, a value in dispute) over :data:`TEXT_LIMIT`
  bytes is cut, and says so: ``... (12,345,678 bytes cut)``;
- the observations of an answer longer than :data:`OBSERVATIONS_LIMIT` are judged in
  full but not kept for the reports (the differences, bounded, are);
- before an answer is decoded, its arrays and objects are counted: a line with more
  than :data:`MAX_CONTAINERS` would cost hundreds of megabytes to decode (an empty
  object is 64 bytes in Python, written in 3), and no observation needs so many;
- before a hello or an answer is checked against its schema or kept, its sizes are
  checked (:func:`hello_problems`, :func:`answer_size_problems`): at most
  :data:`MAX_HELLO_FIELDS` fields in a hello and :data:`MAX_ANSWER_FIELDS` in an answer,
  at most :data:`MAX_HELLO_ITEMS` entries in each of a hello's lists (kinds, targets,
  seatings, the readings of a field) and :data:`MAX_READINGS` fields in its readings,
  and a protocol version of at most :data:`MAX_VERSION_CHARS` characters.  A message
  over a bound is refused with the bound it breaks, at the cost of counting.

Every limit is stated in spec/protocol.md ("Limits").
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "MAX_ANSWER_FIELDS",
    "MAX_CONTAINERS",
    "MAX_HELLO_FIELDS",
    "MAX_HELLO_ITEMS",
    "MAX_READINGS",
    "MAX_VERSION_CHARS",
    "OBSERVATIONS_LIMIT",
    "TEXT_LIMIT",
    "answer_size_problems",
    "bounded",
    "cut",
    "hello_problems",
    "too_many_containers",
]

#: Free text kept per field, in UTF-8 bytes.
TEXT_LIMIT = 64 * 1024
#: Observations kept for the reports, in bytes of the answer line.
OBSERVATIONS_LIMIT = 1024 * 1024
#: Arrays and objects one answer line may hold.
MAX_CONTAINERS = 1_000_000
#: Fields a hello may have (protocol 1.2 has nine; others are ignored, up to this many).
MAX_HELLO_FIELDS = 100
#: Entries in each list of a hello: ``kinds``, ``targets``, ``seatings`` and the readings
#: of one register field (the hello's schema says the same of ``targets``).
MAX_HELLO_ITEMS = 1000
#: Register fields a hello's ``readings`` may name (the register has six).
MAX_READINGS = 100
#: Characters of a hello's ``protocol`` (``"1.2"``).
MAX_VERSION_CHARS = 16
#: Fields an answer may have (a ``rejected`` has six; from protocol 1.1 the others are
#: ignored, up to this many).
MAX_ANSWER_FIELDS = 100


def cut(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` if it is at most ``limit`` bytes of UTF-8, else its first ``limit``
    bytes (whole characters) and how many were cut."""
    if len(text) * 4 <= limit:  # the common case, without encoding
        return text
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text
    kept = data[:limit].decode("utf-8", "ignore")
    return f"{kept}... ({len(data) - len(kept.encode('utf-8', 'surrogatepass')):,} bytes cut)"


def bounded(value: Any, limit: int = TEXT_LIMIT) -> Any:
    """A value to keep for the reports: a string cut to ``limit``; an array or object
    whose JSON is longer than ``limit`` replaced by that JSON's first ``limit`` bytes,
    cut (a value is shown as text in every report); anything else as it is."""
    if isinstance(value, str):
        return cut(value, limit)
    if isinstance(value, (list, dict)) and value:
        text = json.dumps(value, ensure_ascii=False)
        if len(text) > limit // 4 and len(text.encode("utf-8", "surrogatepass")) > limit:
            return cut(text, limit)
    return value


def too_many_containers(line: bytes) -> int | None:
    """How many arrays and objects ``line`` may hold (brackets in strings count too: an
    upper bound), if that is over :data:`MAX_CONTAINERS`; else ``None``."""
    if len(line) < 2 * MAX_CONTAINERS:  # each container takes at least two bytes
        return None
    count = line.count(b"[") + line.count(b"{")
    return count if count > MAX_CONTAINERS else None


def _count(what: str, size: int, limit: int, unit: str) -> list[str]:
    return [f"{what}{size:,} {unit} (at most {limit:,})"] if size > limit else []


def hello_problems(hello: dict[str, Any]) -> list[str]:
    """The bounds a hello breaks (empty: none), checked before its schema is: each
    costs a count, never a walk of what it holds."""
    out = _count("", len(hello), MAX_HELLO_FIELDS, "fields")
    protocol = hello.get("protocol")
    if isinstance(protocol, str):
        out += _count("protocol: ", len(protocol), MAX_VERSION_CHARS, "characters")
    for name in ("kinds", "targets", "seatings"):
        value = hello.get(name)
        if isinstance(value, list):
            out += _count(f"{name}: ", len(value), MAX_HELLO_ITEMS, "entries")
    readings = hello.get("readings")
    if isinstance(readings, dict):
        out += _count("readings: ", len(readings), MAX_READINGS, "fields")
        if len(readings) <= MAX_READINGS:
            for name, value in readings.items():
                if isinstance(value, list):
                    out += _count(f"readings.{cut(str(name), 80)}: ", len(value), MAX_HELLO_ITEMS, "entries")
    return out


def answer_size_problems(answer: dict[str, Any]) -> list[str]:
    """The bounds an answer breaks (empty: none), checked before its fields are."""
    return _count("", len(answer), MAX_ANSWER_FIELDS, "fields")
