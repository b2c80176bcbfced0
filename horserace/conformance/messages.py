"""The protocol's messages (spec/protocol.md), one frozen class per message, each tied to
its JSON Schema in spec/schema/protocol/ (``SCHEMA``; a test checks that the fields are
the schema's properties and the required ones the schema's required).

The runner sends :class:`HelloRequest`, :class:`RunRequest` and :class:`StopRequest`
and reads a :class:`Hello` and one :data:`Answer` per run; the reference server does the
reverse.  ``to_json`` gives the message as it goes on the wire; ``from_json`` reads one
that has already passed its schema's checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias

__all__ = [
    "Answer",
    "Error",
    "Hello",
    "HelloRequest",
    "Rejected",
    "Result",
    "RunRequest",
    "StopRequest",
    "answer_from_json",
]

JSON: TypeAlias = dict[str, Any]


@dataclass(frozen=True)
class HelloRequest:
    """Runner to implementation, first: the protocol and suite versions."""

    SCHEMA: ClassVar[str] = "hello-request"
    TYPE: ClassVar[str] = "hello"
    protocol: str
    suite: str

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "protocol": self.protocol, "suite": self.suite}


@dataclass(frozen=True)
class Hello:
    """Implementation to runner, first: who it is, the fixture kinds it runs, the
    reading of each register entry it follows (canonical where it names none) or, from
    protocol 1.1, the readings it can be switched to (a tuple), the match targets it
    accepts (``None``: any; from 1.2 an entry may be a range ``{"min": 10, "max": 200}``)
    and, from 1.2, the seatings it plays (``None``: every one)."""

    SCHEMA: ClassVar[str] = "hello-response"
    TYPE: ClassVar[str] = "hello"
    protocol: str
    name: str
    version: str
    language: str
    kinds: tuple[str, ...]
    readings: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    targets: tuple[int | Mapping[str, int], ...] | None = None
    seatings: tuple[str, ...] | None = None

    def to_json(self) -> JSON:
        out: JSON = {
            "type": self.TYPE,
            "protocol": self.protocol,
            "name": self.name,
            "version": self.version,
            "language": self.language,
            "kinds": list(self.kinds),
            "readings": {k: v if isinstance(v, str) else list(v) for k, v in self.readings.items()},
        }
        if self.targets is not None:
            out["targets"] = [t if isinstance(t, int) else dict(t) for t in self.targets]
        if self.seatings is not None:
            out["seatings"] = list(self.seatings)
        return out

    @classmethod
    def from_json(cls, message: JSON) -> Hello:
        return cls(
            message["protocol"],
            message["name"],
            message["version"],
            message["language"],
            tuple(message["kinds"]),
            {k: v if isinstance(v, str) else tuple(v) for k, v in (message.get("readings") or {}).items()},
            tuple(message["targets"]) if message.get("targets") is not None else None,
            tuple(message["seatings"]) if message.get("seatings") is not None else None,
        )


@dataclass(frozen=True)
class RunRequest:
    """Runner to implementation: one fixture's input; ``seq`` comes back in the answer.
    From protocol 1.1, ``readings``: every register field with the reading to apply for
    this request (``None``: not sent, as in 1.0)."""

    SCHEMA: ClassVar[str] = "run-request"
    TYPE: ClassVar[str] = "run"
    seq: str
    kind: str
    input: JSON
    readings: Mapping[str, str] | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": self.TYPE, "seq": self.seq, "kind": self.kind, "input": self.input}
        if self.readings is not None:
            out["readings"] = dict(self.readings)
        return out

    @classmethod
    def from_json(cls, message: JSON) -> RunRequest:
        readings = message.get("readings")
        return cls(message["seq"], message["kind"], message["input"], dict(readings) if readings is not None else None)


@dataclass(frozen=True)
class StopRequest:
    """Runner to implementation, last (persistent mode)."""

    SCHEMA: ClassVar[str] = "stop-request"
    TYPE: ClassVar[str] = "stop"

    def to_json(self) -> JSON:
        return {"type": self.TYPE}


@dataclass(frozen=True)
class Result:
    """The observations of a run."""

    SCHEMA: ClassVar[str] = "answer"
    TYPE: ClassVar[str] = "result"
    seq: str
    observations: JSON

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "seq": self.seq, "observations": self.observations}


@dataclass(frozen=True)
class Rejected:
    """The implementation refused an action of the input: the ``at``-th of its list
    (``None``: it does not say which), naming ``rule``; from protocol 1.2, with what it
    observed before the refusal (``observations``, in a result's shape)."""

    SCHEMA: ClassVar[str] = "answer"
    TYPE: ClassVar[str] = "rejected"
    seq: str
    at: int | None = None
    rule: str | None = None
    message: str | None = None
    observations: JSON | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": self.TYPE, "seq": self.seq, "at": self.at, "rule": self.rule}
        if self.message is not None:
            out["message"] = self.message
        if self.observations is not None:
            out["observations"] = self.observations
        return out


@dataclass(frozen=True)
class Error:
    """The implementation could not run the request (a malformed input, an unknown kind)."""

    SCHEMA: ClassVar[str] = "answer"
    TYPE: ClassVar[str] = "error"
    seq: str
    message: str

    def to_json(self) -> JSON:
        return {"type": self.TYPE, "seq": self.seq, "message": self.message}


#: One answer to a :class:`RunRequest`.
Answer: TypeAlias = Result | Rejected | Error


def answer_from_json(message: JSON) -> Answer:
    """An answer that passed :func:`horserace.conformance.protocol.answer_problems`."""
    kind = message["type"]
    if kind == Result.TYPE:
        return Result(message["seq"], message["observations"])
    if kind == Rejected.TYPE:
        return Rejected(
            message["seq"], message.get("at"), message.get("rule"), message.get("message"), message.get("observations")
        )
    return Error(message["seq"], message["message"])
