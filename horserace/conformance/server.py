"""``horserace serve``: the reference engine as a protocol implementation
(spec/protocol.md), persistent or one-shot, on standard input and output."""

from __future__ import annotations

import json
import sys
from typing import IO

from horserace._version import __version__
from horserace.conformance.protocol import PROTOCOL_VERSION, encode
from horserace.corpus.fixture import KINDS
from horserace.corpus.observers import observe
from horserace.engine.hand import Hand
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.errors import ScenarioError

__all__ = ["answer", "main_serve", "serve"]


def hello(ruleset: Ruleset) -> dict:
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "name": "horserace-reference",
        "version": __version__,
        "language": "Python",
        "kinds": list(KINDS),
        "readings": ruleset.readings,
    }


def answer(message: object, ruleset: Ruleset = CANONICAL, engine: type[Hand] = Hand) -> dict | None:
    """The answer to one protocol message (``None`` for ``stop``), from ``engine``: the
    reference engine, or a variant or mutant of it that the caller hands down."""
    if not isinstance(message, dict):
        return {"type": "error", "seq": "", "message": "a message is a JSON object"}
    kind_of = message.get("type")
    if kind_of == "hello":
        return hello(ruleset)
    if kind_of == "stop":
        return None
    seq = message.get("seq") if isinstance(message.get("seq"), str) else ""
    if kind_of != "run":
        return {"type": "error", "seq": seq, "message": f"unknown message type {kind_of!r}"}
    kind, inp = message.get("kind"), message.get("input")
    if kind not in KINDS or not isinstance(inp, dict):
        return {"type": "error", "seq": seq, "message": "a run message has a known kind and an input object"}
    try:
        observations = observe(kind, inp, ruleset.readings, engine=engine)
    except ScenarioError as exc:
        return {"type": "rejected", "seq": seq, "at": exc.at, "rule": exc.rule, "message": exc.message}
    except (KeyError, TypeError, ValueError) as exc:
        return {"type": "error", "seq": seq, "message": f"malformed input: {type(exc).__name__}: {exc}"}
    if kind == "illegal" and observations["rejected_at"] is not None:
        return {"type": "rejected", "seq": seq, "at": observations["rejected_at"], "rule": observations["rule"]}
    if kind == "illegal":
        observations = {"rejected_at": None}
    return {"type": "result", "seq": seq, "observations": observations}


def serve(stdin: IO[bytes], stdout: IO[bytes], ruleset: Ruleset = CANONICAL, engine: type[Hand] = Hand) -> int:
    """Answer messages line by line until ``stop`` or the end of input (which also makes
    one-shot mode work: one line in, one line out, exit)."""
    for raw in stdin:
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            reply: dict | None = {"type": "error", "seq": "", "message": f"not a JSON line: {exc}"}
        else:
            reply = answer(message, ruleset, engine)
        if reply is None:
            break
        stdout.write(encode(reply))
        stdout.flush()
    return 0


def main_serve(ruleset: Ruleset, engine: type[Hand] = Hand) -> int:
    return serve(sys.stdin.buffer, sys.stdout.buffer, ruleset, engine)
