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
  object is 64 bytes in Python, written in 3), and no observation needs so many.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_CONTAINERS", "OBSERVATIONS_LIMIT", "TEXT_LIMIT", "bounded", "cut", "too_many_containers"]

#: Free text kept per field, in UTF-8 bytes.
TEXT_LIMIT = 64 * 1024
#: Observations kept for the reports, in bytes of the answer line.
OBSERVATIONS_LIMIT = 1024 * 1024
#: Arrays and objects one answer line may hold.
MAX_CONTAINERS = 1_000_000


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
