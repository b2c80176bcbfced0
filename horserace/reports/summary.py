"""What every report says of a run: counts by outcome, rows per rule, the implementation's
name."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from horserace.conformance.protocol import PROTOCOL_VERSION
from horserace.conformance.scope import Scope
from horserace.corpus.status import PASSING, Status
from horserace.engine.ruleset import CANONICAL
from horserace.errors import ImplementationUnusable
from horserace.reports.links import Links
from horserace.resources.documents import Rule, load_rules

#: The canonical reading of each register field (a hello that leaves a field out follows it).
CANONICAL_READINGS = CANONICAL.readings

__all__ = [
    "PASSING",
    "Verdict",
    "difference_text",
    "first_difference",
    "implementation_name",
    "per_rule",
    "refusal_text",
    "rule_title",
    "rule_where",
    "scope",
    "selection_words",
    "stopped_words",
    "tally",
    "verdict",
]


def tally(results: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results:
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def per_rule(results: list[dict[str, Any]], rules: Mapping[str, Rule] | None = None) -> list[dict[str, Any]]:
    """One row per rule of spec/rules.md, in the spec's order, every rule listed (a rule
    no fixture of the run cites has a row of zeros).  A fixture counts in the row of
    every rule it cites, not only its primary rule: one bug that fails twenty fixtures
    shows in the row of the rule they share.  ``primary_failed`` counts the failures whose
    primary rule it is.  A rule the spec does not have (a stream from another version)
    gets a row at the end."""
    rules = load_rules() if rules is None else rules
    rows: dict[str, dict[str, Any]] = {rule_id: _row(rule_id, rule.title) for rule_id, rule in rules.items()}
    for r in results:
        primary = r.get("rule")
        for rule_id in dict.fromkeys([*([primary] if primary else []), *(r.get("rules") or [])]):
            row = rows.get(rule_id) or rows.setdefault(rule_id, _row(rule_id, ""))
            if r["status"] == Status.SKIP:
                row["skipped"] += 1
            elif r["status"] in PASSING:
                row["passed"] += 1
            else:
                row["failed"] += 1
                row["failing"].append(r["id"])
                if rule_id == primary:
                    row["primary_failed"] += 1
    return list(rows.values())


def _row(rule_id: str, title: str) -> dict[str, Any]:
    return {"rule": rule_id, "title": title, "passed": 0, "failed": 0, "skipped": 0, "primary_failed": 0, "failing": []}


def rule_where(rule_id: str, rules: Mapping[str, Rule] | None = None, links: Links | None = None) -> str:
    """Where a rule's text is, as a report links it (:mod:`horserace.reports.links`):
    ``spec/rules.md#anchor`` by default, never a path of the machine."""
    return (links or Links()).rule(rule_id, rules)


def rule_title(rule_id: str, rules: Mapping[str, Rule] | None = None) -> str:
    rules = load_rules() if rules is None else rules
    rule = rules.get(rule_id)
    return rule.title if rule else "(not in this version of spec/rules.md)"


def difference_text(d: dict[str, Any]) -> str:
    """One difference of the stream in one line: its ``text`` (the comparison wrote it),
    else made from its fields (a stream of an earlier version)."""
    if isinstance(d.get("text"), str):
        return str(d["text"])
    expected = json.dumps(d.get("expected"), ensure_ascii=False)
    return f"{d.get('path', '?')}: expected {expected}, got {json.dumps(d.get('actual'), ensure_ascii=False)}"


def first_difference(record: dict[str, Any]) -> str:
    """The first difference of a failure in one line (``steps[3].sum: expected 5, got 13``)."""
    diffs = record.get("differences") or []
    if not diffs:
        return ""
    text = difference_text(diffs[0])
    text = text if len(text) <= 200 else text[:197] + "..."
    return text + (f" (and {len(diffs) - 1} more)" if len(diffs) > 1 else "")


def refusal_text(record: dict[str, Any]) -> str:
    """What the implementation said of an illegal fixture's action, beside the rule the
    action breaks: ``breaks HR-PLACE-3; refused action 0 (no rule given): "must draw";
    legal twin: refused action 0``."""
    refusal = record.get("refusal") if isinstance(record.get("refusal"), dict) else None
    breaks = record.get("breaks") or (record.get("expected") or {}).get("rule") or record.get("rule")
    if refusal is None:
        said = "accepted every action" if record.get("status") == Status.NOT_REJECTED else "no refusal"
    else:
        at = refusal.get("at")
        said = f"refused action {at if at is not None else '?'} ({refusal.get('rule') or 'no rule given'})"
        if refusal.get("message"):
            said += f": {json.dumps(str(refusal['message'])[:300], ensure_ascii=False)}"
    twin = record.get("twin") if isinstance(record.get("twin"), dict) else None
    if twin is not None:
        if twin.get("status") == "refused":
            shown = f"refused action {twin.get('at')}" + (f" ({twin['rule']})" if twin.get("rule") else "")
        else:
            shown = str(twin.get("status"))
        said += f"; legal twin: {shown}"
    return f"breaks {breaks}; {said}"


def implementation_name(header: dict[str, Any]) -> str:
    hello = header.get("implementation") or {}
    if not hello:
        return str(header.get("command", "implementation"))
    return f"{hello.get('name', '?')} {hello.get('version', '')} ({hello.get('language', '?')})".strip()


def scope(header: dict[str, Any], results: list[dict[str, Any]]) -> str:
    """What the implementation took part in, for the verdict: the kinds it declared, the
    readings it follows (those it leaves out are canonical) and, where it plays only
    some, its seatings and targets (ranges compressed: ``targets: 10-200``)."""
    hello = header.get("implementation") or {}
    kinds = ", ".join(hello.get("kinds") or []) or "none"
    try:
        declared = Scope.from_hello(hello, str(header.get("protocol") or PROTOCOL_VERSION))
    except (KeyError, TypeError, ValueError, ImplementationUnusable):  # a stream written by hand, or an odd hello
        readings = hello.get("readings") or {}
        other = [f"{k}={v}" for k, v in sorted(readings.items()) if v != CANONICAL_READINGS.get(k, v)]
        return f"kinds: {kinds}; readings: {', '.join(other) if other else 'canonical'}"
    return declared.describe_scope()


def selection_words(header: dict[str, Any]) -> str:
    """``" selected of 189"`` when the run's fixtures were selected from a larger corpus
    (``--select``, ``--deselect``), else ``""``."""
    chosen = header.get("selection")
    if not isinstance(chosen, dict) or not isinstance(chosen.get("of"), int):
        return ""
    return f" selected of {chosen['of']}"


@dataclass(frozen=True)
class Verdict:
    """The one line every report ends with, and whether it is good news."""

    text: str
    #: ``ok``, ``bad`` or ``warn`` (interrupted).
    tone: str


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def verdict(header: dict[str, Any], results: list[dict[str, Any]], footer: dict[str, Any]) -> Verdict:
    """The verdict, never claiming more than what ran: the scope when fixtures were
    skipped, "nothing ran" when none ran, the expected failures it rests on, the
    selection it was made on, and expected failures that now pass (the expectations
    file is out of date: strict, as pytest's strict xfail, unless the run was lenient)."""
    if footer.get("unusable"):
        return Verdict("IMPLEMENTATION UNUSABLE", "bad")
    if footer.get("interrupted"):
        return Verdict(f"INTERRUPTED after {len(results)} fixture(s)", "warn")
    selected = selection_words(header)
    skipped = sum(1 for r in results if r["status"] == Status.SKIP)
    expected = sum(1 for r in results if r["status"] == Status.XFAIL)
    now_pass = sum(1 for r in results if r["status"] == Status.XPASS)
    update = (
        f"; {_plural(now_pass, 'expected failure')} now pass{'es' if now_pass == 1 else ''}: "
        "update the expectations (--update-expectations FILE)"
        if now_pass
        else ""
    )
    if footer.get("conformant"):
        return _conformant(header, results, expected=expected, skipped=skipped, selected=selected, update=update)
    return _not_conformant(
        header, results, footer, expected=expected, skipped=skipped, now_pass=now_pass, selected=selected, update=update
    )


def _not_conformant(
    header: dict[str, Any],
    results: list[dict[str, Any]],
    footer: dict[str, Any],
    *,
    expected: int,
    skipped: int,
    now_pass: int,
    selected: str,
    update: str,
) -> Verdict:
    """The verdict of a run that is not conformant: nothing to run, nothing ran, fixtures
    skipped under --require-all, expected failures that now pass, or failures."""
    total = len(results)
    ran = total - skipped
    if total == 0:
        return Verdict("NOT CONFORMANT: no fixture to run", "bad")
    if ran == 0:
        return Verdict(f"NOT CONFORMANT: nothing ran ({total}{selected} skipped; {scope(header, results)})", "bad")
    failed = sum(1 for r in results if r["status"] not in PASSING and r["status"] != Status.XPASS)
    if not failed and skipped and footer.get("require_all"):
        return Verdict(f"NOT CONFORMANT: {skipped} of {total}{selected} fixtures skipped (--require-all)", "bad")
    if not failed and now_pass:
        return Verdict(f"NOT CONFORMANT: {update[2:]}", "bad")
    expecting = f", {_plural(expected, 'expected failure')} apart" if expected else ""
    picked = header["selection"].get("selected", total) if selected else total  # more than ran, if stopped
    chosen = f" ({picked}{selected})" if selected else ""
    return Verdict(
        f"NOT CONFORMANT: {failed} of {ran} fixtures run failed{chosen}{expecting}{update}{stopped_words(footer)}",
        "bad",
    )


def _conformant(
    header: dict[str, Any], results: list[dict[str, Any]], *, expected: int, skipped: int, selected: str, update: str
) -> Verdict:
    """The verdict of a conformant run: on every fixture, or on those that ran and the scope."""
    total = len(results)
    ran = total - skipped
    expecting = f" with {_plural(expected, 'expected failure')}" if expected else ""
    if ran == total:
        where = f"all {total}{selected} fixtures" if total != 1 or not selected else f"the 1 fixture{selected}"
        return Verdict(f"CONFORMANT{expecting} on {where}{update}", "ok")
    return Verdict(
        f"CONFORMANT{expecting} on {ran} of {total}{selected} fixtures ({skipped} skipped; {scope(header, results)}){update}",
        "ok",
    )


def stopped_words(footer: dict[str, Any]) -> str:
    """``"; stopped at failure 3 (--max-fail 3): 120 fixtures not run"`` when the stop
    rule (``-x``, ``--max-fail``) left fixtures out, else ``""``."""
    stopped = footer.get("stopped")
    if not isinstance(stopped, dict) or not isinstance(stopped.get("not_run"), int):
        return ""
    n = stopped.get("max_fail")
    at = "the first failure (-x)" if n == 1 else f"failure {n} (--max-fail {n})"
    return f"; stopped at {at}: {_plural(stopped['not_run'], 'fixture')} not run"
