"""``horserace serve``: the reference engine as a protocol implementation
(spec/protocol.md), persistent or one-shot, on standard input and output."""

from __future__ import annotations

import json
import sys
from typing import IO

from horserace._version import __version__
from horserace.conformance.messages import Answer, Error, Hello, HelloRequest, Rejected, Result, RunRequest, StopRequest
from horserace.conformance.protocol import PROTOCOL_VERSION, encode
from horserace.corpus.fixture import KINDS
from horserace.corpus.observers import observe
from horserace.engine.hand import Hand
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.errors import ScenarioError

__all__ = ["answer", "hello", "main_serve", "reply", "serve"]


def hello(ruleset: Ruleset) -> Hello:
    return Hello(PROTOCOL_VERSION, "horserace-reference", __version__, "Python", KINDS, ruleset.readings)


def reply(message: object, ruleset: Ruleset = CANONICAL, engine: type[Hand] = Hand) -> Hello | Answer | None:
    """The reply to one protocol message (``None`` for ``stop``), from ``engine``: the
    reference engine, or a variant or mutant of it that the caller hands down."""
    if not isinstance(message, dict):
        return Error("", "a message is a JSON object")
    kind_of = message.get("type")
    if kind_of == HelloRequest.TYPE:
        return hello(ruleset)
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
        observations = observe(kind, inp, ruleset.readings, engine=engine)
    except ScenarioError as exc:
        return Rejected(seq, exc.at, exc.rule, exc.message)
    except (KeyError, TypeError, ValueError) as exc:
        return Error(seq, f"malformed input: {type(exc).__name__}: {exc}")
    if kind == "illegal" and observations["rejected_at"] is not None:
        return Rejected(seq, observations["rejected_at"], observations["rule"])
    if kind == "illegal":
        observations = {"rejected_at": None}
    return Result(seq, observations)


def answer(message: object, ruleset: Ruleset = CANONICAL, engine: type[Hand] = Hand) -> dict | None:
    """The reply to one protocol message as it goes on the wire (``None`` for ``stop``)."""
    out = reply(message, ruleset, engine)
    return None if out is None else out.to_json()


def serve(stdin: IO[bytes], stdout: IO[bytes], ruleset: Ruleset = CANONICAL, engine: type[Hand] = Hand) -> int:
    """Answer messages line by line until ``stop`` or the end of input (which also makes
    one-shot mode work: one line in, one line out, exit)."""
    for raw in stdin:
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            out: dict | None = Error("", f"not a JSON line: {exc}").to_json()
        else:
            out = answer(message, ruleset, engine)
        if out is None:
            break
        stdout.write(encode(out))
        stdout.flush()
    return 0


def main_serve(ruleset: Ruleset, engine: type[Hand] = Hand) -> int:
    return serve(sys.stdin.buffer, sys.stdout.buffer, ruleset, engine)
