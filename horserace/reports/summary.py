"""What every report says of a run: counts by outcome, rows per rule, the implementation's
name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from horserace.corpus.status import PASSING, Status
from horserace.engine.ruleset import CANONICAL

#: The canonical reading of each register field (a hello that leaves a field out follows it).
CANONICAL_READINGS = CANONICAL.readings

__all__ = ["PASSING", "Verdict", "implementation_name", "per_rule", "scope", "tally", "verdict"]


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


def scope(header: dict, results: list[dict]) -> str:
    """What the implementation took part in, for the verdict: the kinds it declared and
    the readings it follows (those it leaves out are canonical)."""
    hello = header.get("implementation") or {}
    kinds = ", ".join(hello.get("kinds") or []) or "none"
    readings = hello.get("readings") or {}
    other = [f"{k}={v}" for k, v in sorted(readings.items()) if v != CANONICAL_READINGS.get(k, v)]
    return f"kinds: {kinds}; readings: {', '.join(other) if other else 'canonical'}"


@dataclass(frozen=True)
class Verdict:
    """The one line every report ends with, and whether it is good news."""

    text: str
    #: ``ok``, ``bad`` or ``warn`` (interrupted).
    tone: str


def verdict(header: dict, results: list[dict], footer: dict) -> Verdict:
    """The verdict, never claiming more than what ran: the scope when fixtures were
    skipped, "nothing ran" when none ran."""
    if footer.get("unusable"):
        return Verdict("IMPLEMENTATION UNUSABLE", "bad")
    if footer.get("interrupted"):
        return Verdict(f"INTERRUPTED after {len(results)} fixture(s)", "warn")
    total = len(results)
    skipped = sum(1 for r in results if r["status"] == Status.SKIP)
    ran = total - skipped
    if footer.get("conformant"):
        if ran == total:
            return Verdict(f"CONFORMANT on all {total} fixtures", "ok")
        return Verdict(f"CONFORMANT on {ran} of {total} fixtures ({skipped} skipped; {scope(header, results)})", "ok")
    if total and ran == 0:
        return Verdict(f"NOT CONFORMANT: nothing ran ({total} skipped; {scope(header, results)})", "bad")
    failed = sum(1 for r in results if r["status"] not in PASSING)
    if not failed and skipped and footer.get("require_all"):
        return Verdict(f"NOT CONFORMANT: {skipped} of {total} fixtures skipped (--require-all)", "bad")
    return Verdict(f"NOT CONFORMANT: {failed} of {ran} fixtures run failed", "bad")
