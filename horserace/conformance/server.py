"""``horserace serve``: the reference engine as a protocol implementation
(spec/protocol.md), persistent or one-shot, on standard input and output."""

from __future__ import annotations

import functools
import json
import sys
from typing import IO, Any

from horserace._version import __version__
from horserace.conformance.messages import Answer, Error, Hello, HelloRequest, Rejected, Result, RunRequest, StopRequest
from horserace.conformance.protocol import PROTOCOL_VERSION, encode
from horserace.conformance.scope import SWITCHING, minor
from horserace.corpus.fixture import KINDS
from horserace.corpus.observers import observe
from horserace.engine.hand import Hand
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.errors import InputError, ScenarioError

__all__ = ["answer", "hello", "main_serve", "reference_argv", "reply", "serve"]


def reference_argv(*extra: str) -> list[str]:
    """``horserace serve`` (with ``extra`` arguments) as a child process of this Python.
    ``-P``: the current folder is not put first on the module path, so a ``horserace/``
    folder there (an old checkout, say) is never served in place of this installation."""
    return [sys.executable, "-P", "-m", "horserace", "serve", *extra]


def _spoken(request: dict[str, Any]) -> str:
    """The version to answer a hello in: the runner's, where it is older than ours (a
    1.0 runner gets a 1.0 hello: no lists of readings), else ours."""
    theirs = request.get("protocol")
    try:
        return theirs if isinstance(theirs, str) and minor(theirs) < minor(PROTOCOL_VERSION) else PROTOCOL_VERSION
    except ValueError:
        return PROTOCOL_VERSION


def hello(ruleset: Ruleset, every_reading: bool = False, protocol: str = PROTOCOL_VERSION) -> Hello:
    """The server's hello: the readings of ``ruleset``, or, with ``every_reading`` and
    from protocol 1.1, every reading of every field (the run then names the reading)."""
    readings: dict[str, str | tuple[str, ...]] = dict(ruleset.readings)
    if every_reading and minor(protocol) >= SWITCHING:
        readings = dict(VARIANT_FIELDS)
    return Hello(protocol, "horserace-reference", __version__, "Python", KINDS, readings)


@functools.lru_cache(maxsize=128)
def _checked(readings: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Every register field with its reading, from the readings a run carries (checked
    once per combination: a run of the corpus sends a few dozen of them, a request each)."""
    return Ruleset.from_readings(dict(readings)).readings


def _readings(message: dict[str, Any], ruleset: Ruleset, every_reading: bool) -> dict[str, str]:
    """The readings a run is answered under: those it carries (protocol 1.1), where the
    server declared every reading; else the server's own."""
    carried = message.get("readings")
    if carried is None:
        return ruleset.readings
    if not isinstance(carried, dict):
        raise InputError("readings: an object of register fields and readings")
    try:
        chosen = _checked(tuple(carried.items()))
    except TypeError:  # a reading that is not a string (a list, an object): unhashable
        raise InputError(f"readings: each reading is a string, not {carried!r:.200}") from None
    if not every_reading and chosen != ruleset.readings:
        theirs = ", ".join(f"{k}={v}" for k, v in ruleset.variants.items()) or "the canonical readings"
        raise InputError(f"this server follows {theirs} only (started with --rules or --variant)")
    return chosen


def reply(
    message: object, ruleset: Ruleset = CANONICAL, engine: type[Hand] = Hand, every_reading: bool = False
) -> Hello | Answer | None:
    """The reply to one protocol message (``None`` for ``stop``), from ``engine``: the
    reference engine, or a variant or mutant of it that the caller hands down.  With
    ``every_reading``, a 1.1 hello declares every reading and each run is answered under
    the readings it carries."""
    if not isinstance(message, dict):
        return Error("", "a message is a JSON object")
    kind_of = message.get("type")
    if kind_of == HelloRequest.TYPE:
        return hello(ruleset, every_reading, _spoken(message))
    if kind_of == StopRequest.TYPE:
        return None
    raw_seq = message.get("seq")
    seq = raw_seq if isinstance(raw_seq, str) else ""
    if kind_of != RunRequest.TYPE:
        return Error(seq, f"unknown message type {kind_of!r}")
    kind, inp = message.get("kind"), message.get("input")
    if kind not in KINDS or not isinstance(inp, dict):
        return Error(seq, "a run message has a known kind and an input object")
    try:
        readings = _readings(message, ruleset, every_reading)
    except InputError as exc:
        return Error(seq, f"malformed readings: {exc}")
    try:
        observations = observe(kind, inp, readings, engine=engine)
    except ScenarioError as exc:
        return Rejected(seq, exc.at, exc.rule, exc.message)
    except (KeyError, TypeError, ValueError) as exc:
        return Error(seq, f"malformed input: {type(exc).__name__}: {exc}")
    if kind == "illegal" and observations["rejected_at"] is not None:
        return Rejected(seq, observations["rejected_at"], observations["rule"])
    if kind == "illegal":
        observations = {"rejected_at": None}
    return Result(seq, observations)


def answer(
    message: object, ruleset: Ruleset = CANONICAL, engine: type[Hand] = Hand, every_reading: bool = False
) -> dict[str, Any] | None:
    """The reply to one protocol message as it goes on the wire (``None`` for ``stop``)."""
    out = reply(message, ruleset, engine, every_reading)
    return None if out is None else out.to_json()


def serve(
    stdin: IO[bytes],
    stdout: IO[bytes],
    ruleset: Ruleset = CANONICAL,
    engine: type[Hand] = Hand,
    every_reading: bool = False,
) -> int:
    """Answer messages line by line until ``stop`` or the end of input (which also makes
    one-shot mode work: one line in, one line out, exit)."""
    for raw in stdin:
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            out: dict[str, Any] | None = Error("", f"not a JSON line: {exc}").to_json()
        else:
            out = answer(message, ruleset, engine, every_reading)
        if out is None:
            break
        stdout.write(encode(out))
        stdout.flush()
    return 0


def main_serve(ruleset: Ruleset, engine: type[Hand] = Hand, every_reading: bool = False) -> int:
    return serve(sys.stdin.buffer, sys.stdout.buffer, ruleset, engine, every_reading)
