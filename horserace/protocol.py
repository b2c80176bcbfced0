"""The conformance protocol (spec/protocol.md): version, message shapes and checks.

Shared by the reference server (``horserace serve``) and the runner
(``horserace conform``), so both read the same schemas.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from horserace.specdoc import spec_dir

PROTOCOL_VERSION = "1.0"
#: No protocol line may be longer than this (bytes, newline included).
MAX_LINE_BYTES = 16 * 1024 * 1024
KINDS = ("layout", "play", "settlement", "illegal", "perft")


@lru_cache(maxsize=None)
def _validator(name: str):
    import jsonschema_rs

    schema = json.loads((spec_dir() / "schema" / "protocol" / f"{name}.json").read_text(encoding="utf-8"))
    return jsonschema_rs.Draft202012Validator(schema)


def problems(name: str, message: Any) -> list[str]:
    """Why ``message`` does not match the protocol schema ``name`` (empty: it does)."""
    validator = _validator(name)
    try:
        if validator.is_valid(message):
            return []
        return [f"{'/'.join(str(p) for p in e.instance_path) or '(message)'}: {e.message}" for e in validator.iter_errors(message)]
    except ValueError as exc:
        return [f"(message): {exc}"]


def same_major(version: str) -> bool:
    return isinstance(version, str) and version.split(".")[0] == PROTOCOL_VERSION.split(".")[0]


def encode(message: dict) -> bytes:
    return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
