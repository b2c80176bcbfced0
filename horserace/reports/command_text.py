"""The text that ``replay``, ``fuzz`` and ``mutants`` print: one finding per line, then a
summary line."""

from __future__ import annotations

from horserace.corpus.replay import Result
from horserace.corpus.status import Status
from horserace.quality.fuzz import FuzzResult
from horserace.quality.mutants import Verdict

__all__ = ["fuzz_text", "mutants_text", "replay_text"]

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
    rate = f"{result.hands / result.seconds:,.0f}" if result.seconds else "-"
    lines = [
        f"fuzzed {result.hands:,} hands (seeds {result.seeds[0]}..{result.seeds[1]}) in "
        f"{result.seconds:.1f} s ({rate} hands/s)"
    ]
    for f in result.findings:
        first = f.differences[0] if f.differences else None
        where = first.text() if first else f.message
        lines.append(
            f"DISAGREEMENT seed {f.seed} ({f.rule}), shrunk from {f.original_placements} to {f.placements} "
            f"placements: {where}"
        )
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
