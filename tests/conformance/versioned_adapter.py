"""An adapter of a given protocol minor version, as an implementer would write it from
spec/protocol.md, for the version-negotiation tests.

    python versioned_adapter.py MODE

MODE ``1.0``: a strict 1.0 adapter. It answers ``"protocol": "1.0"`` with one reading
per field and refuses (an ``error`` answer) any request with a field that 1.0 does not
have, as an adapter validating against the 1.0 schemas would: a run that fails here
means the runner sent a 1.1 field to a 1.0 adapter.
MODE ``1.1``: declares every reading of every field and applies the readings each run
carries (an ``error`` answer if a run carries none).
MODE ``1.1-targets``: as ``1.1``, accepting target 61 only.
MODE ``1.1-extra`` / ``1.0-extra``: as ``1.1`` / ``1.0``, with a field no answer has.
MODE ``1.0-lists``: says 1.0 but declares lists of readings (a 1.1 field).
MODE ``1.2-table``: a 1.2 adapter that plays 2 and 3 players only, to targets 50 to 70.
MODE ``1.1-range``: says 1.1 but declares a range of targets (a 1.2 field).
MODE ``1.2-refuses`` / ``1.1-refuses``: refuses the second placement of every play
fixture whose trace starts with a placement, sending with the refusal the first event
observed, its count one too many (1.2: the observations before a refusal).

The observations are the reference engine's.
"""

from __future__ import annotations

import json
import sys

from horserace.conformance.server import answer
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset

MODE = sys.argv[1]
VERSION = MODE[:3]
#: The version a 1.2 adapter speaks to this runner: the lower of the two (spec/protocol.md).
SPOKEN = VERSION
#: The fields of each request in protocol 1.0 (spec/schema/protocol at 1.0: closed).
FIELDS_1_0 = {"hello": {"type", "protocol", "suite"}, "run": {"type", "seq", "kind", "input"}, "stop": {"type"}}


def hello() -> dict:
    readings: dict = dict(CANONICAL.readings) if VERSION == "1.0" else {k: list(v) for k, v in VARIANT_FIELDS.items()}
    if MODE == "1.0-lists":
        readings = {k: list(v) for k, v in VARIANT_FIELDS.items()}
    out = {
        "type": "hello",
        "protocol": VERSION,
        "name": f"adapter-{MODE}",
        "version": "1",
        "language": "Python",
        "kinds": ["layout", "play", "settlement", "illegal", "perft"],
        "readings": readings,
    }
    if MODE == "1.1-targets":
        out["targets"] = [61]
    if MODE == "1.2-table":
        out["seatings"] = ["2-players", "3-players"]
        out["targets"] = [{"min": 50, "max": 70}]
    if MODE == "1.1-range":
        out["targets"] = [{"min": 10}]
    return out


def run(msg: dict) -> dict:
    if VERSION == "1.0":
        extra = set(msg) - FIELDS_1_0["run"]
        if extra:
            return {"type": "error", "seq": msg["seq"], "message": f"1.0 has no field {sorted(extra)}"}
        readings = CANONICAL.readings
    else:
        if "readings" not in msg:
            return {"type": "error", "seq": msg["seq"], "message": "a 1.1 run carries its readings"}
        readings = Ruleset.from_readings(msg["readings"]).readings
    reply = answer(
        {"type": "run", "seq": msg["seq"], "kind": msg["kind"], "input": msg["input"]}, Ruleset.from_readings(readings)
    )
    assert reply is not None
    if MODE.endswith("-extra"):
        reply["elapsed_ms"] = 3
    if MODE.endswith("-refuses") and msg["kind"] == "play" and reply["type"] == "result":
        first = reply["observations"]["hands"][0]["events"][0]
        placements = msg["input"]["hands"][0]["placements"]
        if first["event"] == "place" and len(placements) > 1:
            seen = {**first, "count": first["count"] + 1}
            return {
                "type": "rejected",
                "seq": msg["seq"],
                "at": 1,
                "message": "no continuation here",
                "observations": {"hands": [{"events": [seen]}]},
            }
    return reply


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "stop":
        break
    out = hello() if msg["type"] == "hello" else run(msg)
    print(json.dumps(out), flush=True)  # noqa: T201  (an implementation: its answers are its output)
