"""The conformance protocol (spec/protocol.md): version, message shapes and checks.

Shared by the reference server (``horserace serve``) and the runner
(``horserace conform``), so both read the same schemas.
"""

from __future__ import annotations

import json
from typing import Any

from horserace._version import PROTOCOL_VERSION
from horserace.corpus.fixture import KINDS

__all__ = ["KINDS", "MAX_LINE_BYTES", "PROTOCOL_VERSION", "answer_problems", "encode", "problems", "same_major"]

#: No protocol line may be longer than this (bytes, newline included).
MAX_LINE_BYTES = 16 * 1024 * 1024


def problems(name: str, message: Any) -> list[str]:
    """Why ``message`` does not match the protocol schema ``name`` (empty: it does)."""
    from horserace.resources.schemas import validator  # noqa: PLC0415  (start-up: the server never validates)

    checker = validator(f"protocol/{name}")
    try:
        if checker.is_valid(message):
            return []
        return [
            f"{'/'.join(str(p) for p in e.instance_path) or '(message)'}: {e.message}"
            for e in checker.iter_errors(message)
        ]
    except ValueError as exc:
        return [f"(message): {exc}"]


def same_major(version: object) -> bool:
    return isinstance(version, str) and version.split(".")[0] == PROTOCOL_VERSION.split(".")[0]


def encode(message: dict) -> bytes:
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


_ANSWER_FIELDS = {
    "result": ({"type", "seq", "observations"}, {"type", "seq", "observations"}),
    "rejected": ({"type", "seq"}, {"type", "seq", "at", "rule", "message"}),
    "error": ({"type", "seq", "message"}, {"type", "seq", "message"}),
}


def answer_problems(message: dict) -> list[str]:
    """The checks of spec/schema/protocol/answer.json, written out: the runner calls this
    for every answer, and handing a large observation to the schema validator would cost
    more than the answer itself (tests/conformance check the two agree)."""
    kind = message.get("type")
    if kind not in _ANSWER_FIELDS:
        return [f"type: {kind!r} is not one of result, rejected, error"]
    required, allowed = _ANSWER_FIELDS[kind]
    out = [f"missing {name!r}" for name in sorted(required - message.keys())]
    out += [f"unexpected field {name!r}" for name in sorted(message.keys() - allowed)]
    if "seq" in message and not isinstance(message["seq"], str):
        out.append("seq: not a string")
    if kind == "result" and "observations" in message and not isinstance(message["observations"], dict):
        out.append("observations: not an object")
    if kind == "rejected":
        at = message.get("at")
        if at is not None and (not isinstance(at, int) or isinstance(at, bool) or at < 0):
            out.append("at: not a non-negative integer or null")
        if message.get("rule") is not None and not isinstance(message.get("rule"), str):
            out.append("rule: not a string or null")
    if "message" in message and not isinstance(message["message"], str):
        out.append("message: not a string")
    return out
