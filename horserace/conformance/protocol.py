"""The conformance protocol (spec/protocol.md): version, message shapes and checks.

Shared by the reference server (``horserace serve``) and the runner
(``horserace conform``), so both read the same schemas.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from horserace._version import PROTOCOL_VERSION
from horserace.conformance.bounds import MAX_CONTAINERS, answer_size_problems, too_many_containers
from horserace.corpus.fixture import KINDS

__all__ = [
    "KINDS",
    "MAX_HELLO_BYTES",
    "MAX_INT_DIGITS",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "AnswerDecodeError",
    "answer_problems",
    "decode",
    "encode",
    "problems",
    "same_major",
    "unknown_fields",
]

#: No protocol line may be longer than this (bytes, newline included).
MAX_LINE_BYTES = 16 * 1024 * 1024
#: No hello may be longer than this (bytes, newline included), checked before the line is
#: decoded: a hello of 1,000 targets is 5 KB, and every hello within the bounds of
#: :mod:`horserace.conformance.bounds` that an implementation would write fits.
MAX_HELLO_BYTES = 1024 * 1024


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


class AnswerDecodeError(ValueError):
    """A line that is not a protocol message: not UTF-8, not strict JSON (NaN and
    Infinity are not JSON, nor a number beyond a 64-bit float such as ``1e400``), an
    integer of more than :data:`MAX_INT_DIGITS` digits, nested too deep to decode, or a
    lone surrogate where the value matters."""


def _not_json(constant: str) -> None:
    raise AnswerDecodeError(f"not strict JSON: {constant} (strict parsers refuse it)")


def _finite(text: str) -> float:
    """A JSON number with a fraction or an exponent, which must fit a 64-bit float:
    ``1e400`` would be infinity, which no strict JSON writer can write back."""
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise AnswerDecodeError(f"not a number JSON can hold: {shown} is beyond a 64-bit float")
    return value


#: The most digits an integer of a message may have (Python's own limit on turning text
#: into an integer is 4,300; a count of the protocol has a few).
MAX_INT_DIGITS = 4000


def _bounded_int(text: str) -> int:
    if len(text) - text.startswith("-") > MAX_INT_DIGITS:
        raise AnswerDecodeError(
            f"an integer of {len(text) - text.startswith('-'):,} digits (at most {MAX_INT_DIGITS:,})"
        )
    return int(text)


#: One strict decoder for every line (json.loads with a hook would build one per call).
_DECODER = json.JSONDecoder(parse_constant=_not_json, parse_float=_finite)
#: For a line long enough to hold an integer of too many digits: every integer checked
#: (a call per integer, which the usual short line does not pay).
_LONG_DECODER = json.JSONDecoder(parse_constant=_not_json, parse_float=_finite, parse_int=_bounded_int)
#: A UTF-16 surrogate written as an escape; json.loads joins a valid pair into one
#: character and leaves a lone one as it is, which no UTF-8 writer can write.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Fields of free text, where a lone surrogate is replaced (U+FFFD) rather than fatal.
FREE_TEXT = ("message", "name", "version", "language")


def decode(line: bytes) -> dict[str, Any]:
    """One protocol line as a JSON object; raises :class:`AnswerDecodeError` for a line
    that is not a protocol message.  A lone surrogate in free text (:data:`FREE_TEXT`)
    is replaced by U+FFFD, and the text says so."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AnswerDecodeError(f"not UTF-8 (byte {exc.start})") from None
    containers = too_many_containers(line)
    if containers is not None:
        raise AnswerDecodeError(
            f"too large to decode: up to {containers:,} arrays and objects (at most {MAX_CONTAINERS:,})"
        )
    try:
        message = (_LONG_DECODER if len(text) > MAX_INT_DIGITS else _DECODER).decode(text)
    except RecursionError:
        raise AnswerDecodeError("nested too deep to decode") from None
    except AnswerDecodeError:
        raise
    except ValueError:
        shown = text.strip()
        shown = shown if len(shown) <= 120 else shown[:117] + "..."
        raise AnswerDecodeError(f"not JSON: {shown!r}") from None
    if not isinstance(message, dict):
        raise AnswerDecodeError("not a JSON object")
    if "\\u" in text and _SURROGATE_ESCAPE.search(text):  # the cheap test first: most answers have no escape
        for key in FREE_TEXT:
            value = message.get(key)
            if isinstance(value, str) and _SURROGATE.search(value):
                message[key] = _SURROGATE.sub("\ufffd", value) + " [lone surrogates replaced by U+FFFD]"
        try:
            json.dumps(message, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise AnswerDecodeError("not text: a lone surrogate among its values") from None
        except RecursionError:
            raise AnswerDecodeError("nested too deep to decode") from None
    return message


#: One encoder for every line (json.dumps with options would build one per call).
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def encode(message: dict[str, Any]) -> bytes:
    return (_ENCODER.encode(message) + "\n").encode("utf-8")


_ANSWER_FIELDS = {
    "result": ({"type", "seq", "observations"}, {"type", "seq", "observations"}),
    "rejected": ({"type", "seq"}, {"type", "seq", "at", "rule", "message", "observations"}),
    "error": ({"type", "seq", "message"}, {"type", "seq", "message"}),
}
#: Fields of an answer that a protocol version before this one does not have.
_ADDED_IN = {("rejected", "observations"): (1, 2)}
LATEST = (1, 2)


def _allowed(kind: str, protocol: tuple[int, int]) -> set[str]:
    return {name for name in _ANSWER_FIELDS[kind][1] if protocol >= _ADDED_IN.get((kind, name), (1, 0))}


def unknown_fields(message: dict[str, Any], protocol: tuple[int, int] = LATEST) -> list[str]:
    """The fields of an answer that its type does not have under ``protocol`` (an
    answer of an unknown type has none: :func:`answer_problems` refuses it whole)."""
    kind = message.get("type")
    if kind not in _ANSWER_FIELDS:
        return []
    return sorted(message.keys() - _allowed(str(kind), protocol))  # a set difference: linear


def answer_problems(message: dict[str, Any], protocol: tuple[int, int] = LATEST) -> list[str]:
    """The checks of spec/schema/protocol/answer.json, written out: the runner calls this
    for every answer, and handing a large observation to the schema validator would cost
    more than the answer itself (tests/conformance check the two agree).  A field that
    ``protocol`` does not have yet is unexpected."""
    too_large = answer_size_problems(message)
    if too_large:
        return too_large
    kind = message.get("type")
    if kind not in _ANSWER_FIELDS:
        return [f"type: {kind!r} is not one of result, rejected, error"]
    required, allowed = _ANSWER_FIELDS[kind][0], _allowed(str(kind), protocol)
    out = [f"missing {name!r}" for name in sorted(required - message.keys())]
    out += [f"unexpected field {name!r}" for name in sorted(message.keys() - allowed)]
    if "seq" in message and not isinstance(message["seq"], str):
        out.append("seq: not a string")
    if kind == "result" and "observations" in message and not isinstance(message["observations"], dict):
        out.append("observations: not an object")
    if kind == "rejected":
        out += _rejection_problems(message)
    if "message" in message and not isinstance(message["message"], str):
        out.append("message: not a string")
    return out


def _rejection_problems(message: dict[str, Any]) -> list[str]:
    """The checks of a ``rejected`` answer's own fields: ``at``, ``rule``, ``observations``."""
    out = []
    at = message.get("at")
    if at is not None and (not isinstance(at, int) or isinstance(at, bool) or at < 0):
        out.append("at: not a non-negative integer or null")
    if message.get("rule") is not None and not isinstance(message.get("rule"), str):
        out.append("rule: not a string or null")
    if "observations" in message and not isinstance(message["observations"], dict):
        out.append("observations: not an object")
    return out
