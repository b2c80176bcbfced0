"""What every report says of a run: counts by outcome, rows per rule, the implementation's
name."""

from __future__ import annotations

from typing import Any

from horserace.corpus.status import PASSING, Status

__all__ = ["PASSING", "implementation_name", "per_rule", "tally"]


def tally(results: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results:
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def per_rule(results: list[dict]) -> list[dict]:
    """Rows of passed / failed / skipped per primary rule, in rule order."""
    rows: dict[str, dict[str, Any]] = {}
    for r in results:
        row = rows.setdefault(r["rule"], {"rule": r["rule"], "passed": 0, "failed": 0, "skipped": 0, "failing": []})
        if r["status"] == Status.SKIP:
            row["skipped"] += 1
        elif r["status"] in PASSING:
            row["passed"] += 1
        else:
            row["failed"] += 1
            row["failing"].append(r["id"])
    return sorted(rows.values(), key=lambda row: _rule_key(row["rule"]))


def _rule_key(rule: str) -> tuple:
    parts = rule.split("-")
    return (parts[1] if len(parts) > 2 else rule, int(parts[-1]) if parts[-1].isdigit() else 0)


def implementation_name(header: dict) -> str:
    hello = header.get("implementation") or {}
    if not hello:
        return header.get("command", "implementation")
    return f"{hello.get('name', '?')} {hello.get('version', '')} ({hello.get('language', '?')})".strip()
