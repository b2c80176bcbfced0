"""The text that ``replay``, ``fuzz`` and ``mutants`` print: one finding per line, then a
summary line."""

from __future__ import annotations

import json

from horserace.corpus.compare import format_path
from horserace.corpus.positions import Count
from horserace.corpus.replay import Result
from horserace.corpus.status import Status
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


def fuzz_text(result: FuzzResult) -> str:
    rate = result.hands_per_second
    tried = ", ".join(f"{a}..{b}" for a, b in result.tried) or "none"
    asked = f"{result.seeds[0]}..{result.seeds[1]}"
    lines = [
        f"fuzzed {result.hands:,} hands (seeds {tried}{'' if tried == asked else f' of {asked}'}) in "
        f"{result.seconds:.1f} s ({f'{rate:,.0f}' if rate else '-'} hands/s, shrinking left out)"
    ]
    for f in result.findings:
        size = (
            f"shrunk from {f.original_placements} to {f.placements} placements"
            if f.shrunk
            else f"not shrunk ({f.placements} placements)"
        )
        lines.append(f"DISAGREEMENT seed {f.seed} ({f.rule}), {size}: {f.outcome}")
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
