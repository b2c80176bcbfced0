"""The text that ``replay``, ``fuzz`` and ``mutants`` print: one finding per line, then a
summary line."""

from __future__ import annotations

import json

from horserace.corpus.compare import format_path
from horserace.corpus.positions import Count
from horserace.corpus.replay import Result
from horserace.corpus.status import Status
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.quality.fuzz import FuzzResult
from horserace.quality.mutants import Verdict

__all__ = ["fuzz_text", "mutants_text", "perft_text", "replay_text"]

#: Differences shown per failing fixture; the rest are counted.
SHOWN_DIFFERENCES = 20
#: Killing fixtures shown per mutant; the rest are counted.
SHOWN_KILLERS = 6


def replay_text(results: list[Result], counts: dict[str, int], files: int, seconds: float) -> str:
    lines = []
    for r in results:
        if r.status in (Status.FAIL, Status.ERROR):
            fx = r.fixture
            lines.append(
                f"{r.status.upper()} {fx.id} [{fx.kind}] ({fx.primary_rule}) {fx.file}:{fx.line}: {fx.description}"
            )
            if r.message:
                lines.append(f"  {r.message}")
            for d in r.differences[:SHOWN_DIFFERENCES]:
                lines.append(f"  {d.text()}")
            if len(r.differences) > SHOWN_DIFFERENCES:
                lines.append(f"  ... and {len(r.differences) - SHOWN_DIFFERENCES} more differences")
    lines.append(
        f"replayed {len(results)} fixture(s) from {files} file(s): {counts['pass']} passed, "
        f"{counts['fail']} failed, {counts['error']} error(s), {counts['skip']} skipped ({seconds:.2f} s)"
    )
    return "\n".join(lines)


def _readings_text(readings: dict[str, list[str]]) -> str:
    """The readings tried per register field; fields where only the canonical reading was
    tried are summed up as "the others canonical"."""
    shown = [f"{name}={'|'.join(values)}" for name, values in readings.items() if values != [VARIANT_FIELDS[name][0]]]
    if not shown:
        return "canonical"
    return "; ".join(shown) + ("; the others canonical" if len(shown) < len(readings) else "")


def fuzz_text(result: FuzzResult) -> str:
    """What a fuzzing run tried (seeds, kinds, tables, rulesets, readings) and found."""
    tried = result.tried
    rate, hand_rate = result.scenarios_per_second, result.hands_per_second
    ranges = ", ".join(f"{a}..{b}" for a, b in result.merged_ranges) or "none"
    asked = f"{result.seeds[0]}..{result.seeds[1]}"
    kinds = [k for k in result.plan.kinds if k not in result.unsupported]
    lines = [
        f"fuzzed seeds {ranges}{'' if ranges == asked else f' of {asked}'} in {result.seconds:.1f} s: "
        f"{tried.scenarios:,} scenario{'' if tried.scenarios == 1 else 's'} ({f'{rate:,.0f}' if rate else '-'}/s), {tried.hands:,} hands of play "
        f"({f'{hand_rate:,.0f}' if hand_rate else '-'} hands/s), shrinking left out",
        "  kinds: " + ", ".join(f"{k} {tried.kinds[k]:,}" for k in kinds),
    ]
    if result.unsupported:
        lines.append(f"  not tried: {', '.join(result.unsupported)} (the implementation does not support them)")
    lines += [
        "  tables: " + (", ".join(s.label for s in result.plan.seatings if s.label in tried.tables) or "none"),
        "  rulesets: " + ("; ".join(result.rulesets) or "none"),
        f"  readings: {_readings_text(result.readings)}",
        "  illegal actions: the index of the rejection"
        + (
            " and its rule (--strict-rule-ids)"
            if result.plan.strict_rule_ids
            else " (add --strict-rule-ids for the rule)"
        ),
    ]
    for f in result.findings:
        size = (
            f"shrunk from {f.original_size_text()} to {f.size_text()}" if f.shrunk else f"not shrunk ({f.size_text()})"
        )
        lines.append(f"DISAGREEMENT seed {f.seed}, {f.kind} scenario ({f.rule}), {size}: {f.outcome}")
        variants = {k: v for k, v in f.readings.items() if v != VARIANT_FIELDS[k][0]}
        readings = ", ".join(f"{k}={v}" for k, v in variants.items()) or "canonical"
        rules = f"{f.rules_name}, " if f.rules_name else ""
        lines.append(f"  {f.table}, {rules}target {f.target}, readings {readings}")
        event = f.first_event
        if event is not None:
            lines.append(f"  first event that differs: {format_path(event.at)}")
            lines.append(f"    expected {json.dumps(event.expected, ensure_ascii=False)}")
            lines.append(f"    got      {json.dumps(event.actual, ensure_ascii=False)}")
        elif f.differences:
            lines.append(f"  {f.differences[0].text()}")
        elif f.message:
            lines.append(f"  {f.message}")
        lines.append(f"  written to {f.path}")
    if not result.findings:
        lines.append("no disagreement")
    return "\n".join(lines)


def mutants_text(verdicts: list[Verdict], fixtures: int) -> str:
    lines = []
    for v in verdicts:
        m = v.mutant
        if v.killed:
            shown = ", ".join(f"{k.id} ({k.rule})" for k in v.killers[:SHOWN_KILLERS])
            more = f" and {len(v.killers) - SHOWN_KILLERS} more" if len(v.killers) > SHOWN_KILLERS else ""
            lines.append(f"killed    {m.name:<32} [{m.rule}] by {len(v.killers)}: {shown}{more}")
        elif v.note:
            lines.append(f"NOT JUDGED {m.name:<31} [{m.rule}] {v.note}")
        else:
            lines.append(f"SURVIVED  {m.name:<32} [{m.rule}] {m.description}")
    survivors = sum(1 for v in verdicts if not v.killed)
    lines.append(f"{len(verdicts) - survivors} of {len(verdicts)} mutants killed by {fixtures} fixtures")
    if any(v.note for v in verdicts):
        lines.append("a mutant that could not be judged counts as not killed")
    return "\n".join(lines)


def perft_text(result: Count, *, divide: bool, mutant: str | None = None) -> str:
    """A perft count: the position, depth and readings, each first move's share with
    ``divide``, then the nodes and the time."""
    readings = ", ".join(f"{k}={v}" for k, v in result.ruleset.variants.items()) or "canonical readings"
    engine = f", mutant {mutant}" if mutant else ""
    lines = [f"perft {result.position.label}, depth {result.depth}, {readings}{engine}"]
    if divide:
        width = max((len(name) for name in result.divide), default=0)
        lines += [f"  {name:<{width}}  {n:>12,}" for name, n in result.divide.items()]
        if not result.divide:
            lines.append("  (the hand is over: no first move)")
    rate = result.nodes_per_second
    lines.append(f"nodes {result.nodes:,} ({result.seconds:.3f} s" + (f", {rate:,.0f} nodes/s)" if rate else ")"))
    return "\n".join(lines)
