"""The text that ``replay``, ``fuzz`` and ``mutants`` print: one finding per line, then a
summary line."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from horserace.conformance.perft import SideBySide
from horserace.corpus.compare import format_path
from horserace.corpus.positions import Count
from horserace.corpus.replay import Result
from horserace.corpus.status import Status
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.quality.fuzz import Finding, FuzzResult
from horserace.quality.mutants import MUTANTS, Verdict
from horserace.reports import colour

__all__ = ["code_mutants_text", "fuzz_text", "mutants_text", "perft_side_by_side_text", "perft_text", "replay_text"]

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
                f"{colour.outcome(r.status.upper(), r.status)} {fx.id} [{fx.kind}] ({fx.primary_rule}) "
                f"{fx.file}:{fx.line}: {fx.description}"
            )
            if r.message:
                lines.append(f"  {r.message}")
            lines.extend(f"  {d.text()}" for d in r.differences[:SHOWN_DIFFERENCES])
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


def _seed_list(items: list[tuple[int, str]]) -> str:
    return ", ".join(f"{seed} ({kind})" for seed, kind in items)


def _kinds_text(kinds: dict[str, int]) -> str:
    return ", ".join(f"{kind} {n:,}" for kind, n in kinds.items())


def _finding_lines(f: Finding, deviations: dict[str, str]) -> list[str]:
    size = f"shrunk from {f.original_size_text()} to {f.size_text()}" if f.shrunk else f"not shrunk ({f.size_text()})"
    if f.cut_short:
        size += ", shrinking cut short by the interruption"
    rule = f.rule or f"{f.outcome}: not counted against a rule"
    lines = [f"DISAGREEMENT seed {f.seed}, {f.kind} scenario ({rule}), {size}: {f.outcome}"]
    variants = {k: v for k, v in f.readings.items() if v != VARIANT_FIELDS[k][0]}
    readings = ", ".join(f"{k}={v}" for k, v in variants.items()) or "canonical"
    rules = f"{f.rules_name}, " if f.rules_name else ""
    lines.append(f"  {f.table}, {rules}target {f.target}, readings {readings}")
    if f.cause is not None:
        also = f" (also {', '.join(f.cause['alternatives'])})" if f.cause.get("alternatives") else ""
        basis = f.cause["basis"]
        lines.append(f"  cause: {f.cause['rule']}{also}, {basis if len(basis) <= 200 else basis[:197] + '...'}")
    if f.deviations:
        name, more = f.deviations[0], f.deviations[1:]
        also = f" (on this fixture also by {', '.join(more)})" if more else ""
        lines.append(f"  reproduced by deviation {name}: {deviations.get(name, '')}{also}")
    elif f.first_deviations:
        lines.append(f"  matches deviation {', '.join(f.first_deviations)} at its first difference (not exactly)")
    event = f.first_event
    if event is not None:
        lines.append(f"  first event that differs: {format_path(event.at)}")
        lines.append(f"    expected {json.dumps(event.expected, ensure_ascii=False)}")
        lines.append(f"    got      {json.dumps(event.actual, ensure_ascii=False)}")
    elif f.differences:
        lines.append(f"  {f.differences[0].text()}")
    elif f.message:
        lines.append(f"  {f.message}")
    lines.append(f"  written to {f.path}" if f.path else "  not written")
    return lines


def _cause_lines(result: FuzzResult) -> list[str]:
    """The findings by cause: each cause's rule and deviation, its count by kind, its
    smallest finding, and the seeds of the findings not shrunk."""
    found = result.findings_found
    shrunk = sum(len(g.findings) for g in result.causes)
    if result.shrink_all:
        how = "every finding shrunk (--shrink-all)"
    else:
        once = "once in each shard that met it" if len(result.ranges) > 1 else "once"
        how = f"each cause shrunk {once}, its other findings counted and listed, not shrunk (--shrink-all shrinks each)"
    lines = [f"causes: {len(result.causes)} in {found:,} finding{'s' if found != 1 else ''}, {shrunk} shrunk: {how}"]
    for group in result.causes:
        if group.rule:
            what = group.rule + (f", reproduced by deviation {group.deviation}" if group.deviation else "")
        else:
            what = f"{group.outcome} (the implementation failed to answer: not counted against a rule)"
        kinds = dict(sorted(group.kinds.items(), key=lambda kv: result.plan.kinds.index(kv[0])))
        lines.append(f"  {what}: {group.count:,} finding{'s' if group.count != 1 else ''} ({_kinds_text(kinds)})")
        small = group.smallest
        lines.append(f"    the smallest: seed {small.seed}, {small.kind} scenario, {small.size_text()}: {small.path}")
        if group.unshrunk:
            items = [(s.seed, s.kind) for s in group.others]
            shown = _seed_list(items[:8])
            more = f" and {group.unshrunk - 8:,} more" if group.unshrunk > 8 else ""
            lines.append(f"    not shrunk: {group.unshrunk:,}, seeds {shown}{more}")
    return lines


def _resume_text(result: FuzzResult) -> str:
    runs = "; then ".join(f"--seed {seed} --budget {budget}" for seed, budget in result.resume)
    if not runs:
        return "every seed asked for was fuzzed"
    return f"to fuzz the rest, run again with {runs} (the other options as given)"


def fuzz_text(result: FuzzResult) -> str:
    """What a fuzzing run tried (seeds, kinds, tables, rulesets, readings) and found: each
    finding written, then, when it keeps going, the findings by cause; an interrupted
    run says so, and how to resume."""
    ranges = ", ".join(f"{a}..{b}" for a, b in result.merged_ranges) or "none"
    asked = f"{result.seeds[0]}..{result.seeds[1]}"
    lines = _tried_lines(result, ranges, asked)
    deviations = {m.name: f"{m.rule}, {m.description}" for m in MUTANTS.values()}
    for f in result.findings:
        lines += _finding_lines(f, deviations)
    if result.keep_going and result.causes:
        lines += _cause_lines(result)
    if not result.findings:
        lines.append(colour.paint("no disagreement", "green"))
    if result.stopped_by is not None:
        lines.append(f"INTERRUPTED by {result.interrupted}: fuzzed seeds {ranges} of {asked}; {_resume_text(result)}")
    return "\n".join(lines)


def _tried_lines(result: FuzzResult, ranges: str, asked: str) -> list[str]:
    """What a fuzzing run tried: the seeds and rates, the kinds (and those left out), the
    tables, rulesets and readings, how illegal actions were judged."""
    tried = result.tried
    rate, hand_rate = result.scenarios_per_second, result.hands_per_second
    kinds = [k for k in result.plan.kinds if k not in result.unsupported]
    lines = [
        (
            f"fuzzed seeds {ranges}{'' if ranges == asked else f' of {asked}'} in {result.seconds:.1f} s: "
            f"{tried.scenarios:,} scenario{'' if tried.scenarios == 1 else 's'} ({f'{rate:,.0f}' if rate else '-'}/s), {tried.hands:,} hands of play "
            f"({f'{hand_rate:,.0f}' if hand_rate else '-'} hands/s), shrinking left out"
        ),
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
    return lines


def mutants_text(verdicts: list[Verdict], fixtures: int) -> str:
    lines = []
    for v in verdicts:
        m = v.mutant
        if v.killed:
            shown = ", ".join(f"{k.id} ({k.rule})" for k in v.killers[:SHOWN_KILLERS])
            more = f" and {len(v.killers) - SHOWN_KILLERS} more" if len(v.killers) > SHOWN_KILLERS else ""
            lines.append(
                f"{colour.paint('killed', 'green')}    {m.name:<32} [{m.rule}] by {len(v.killers)}: {shown}{more}"
            )
        elif v.note:
            lines.append(f"NOT JUDGED {m.name:<31} [{m.rule}] {v.note}")
        else:
            lines.append(f"{colour.paint('SURVIVED', 'red')}  {m.name:<32} [{m.rule}] {m.description}")
    survivors = sum(1 for v in verdicts if not v.killed)
    lines.append(f"{len(verdicts) - survivors} of {len(verdicts)} mutants killed by {fixtures} fixtures")
    if any(v.note for v in verdicts):
        lines.append("a mutant that could not be judged counts as not killed")
    return "\n".join(lines)


def _perft_head(result: Count, mutant: str | None) -> str:
    readings = ", ".join(f"{k}={v}" for k, v in result.ruleset.variants.items()) or "canonical readings"
    engine = f", mutant {mutant}" if mutant else ""
    after = f" after {', '.join(result.moves)}" if result.moves else ""
    return f"perft {result.position.label}{after}, depth {result.depth}, {readings}{engine}"


def perft_text(result: Count, *, divide: bool, mutant: str | None = None, of_moves: int | None = None) -> str:
    """A perft count: the position (and the moves descended), depth and readings, each
    first move's share with ``divide``, then the nodes and the time.  ``of_moves``: the
    position's first moves, of which the count holds only those in its divide (a count
    stopped before its end)."""
    lines = [_perft_head(result, mutant)]
    partial = of_moves is not None and len(result.divide) < of_moves
    if divide:
        width = max((len(name) for name in result.divide), default=0)
        lines += [f"  {name:<{width}}  {n:>12,}" for name, n in result.divide.items()]
        if not result.divide and not partial:
            lines.append("  (the hand is over: no first move)")
    rate = result.nodes_per_second
    if partial:
        lines.append(f"  (stopped: {len(result.divide)} of {of_moves} first moves counted; the rest are not)")
    what = "nodes below the moves counted" if partial else "nodes"
    lines.append(f"{what} {result.nodes:,} ({result.seconds:.3f} s" + (f", {rate:,.0f} nodes/s)" if rate else ")"))
    return "\n".join(lines)


def _count_cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    text = json.dumps(value)
    return text if len(text) <= 20 else text[:17] + "..."


def perft_side_by_side_text(result: SideBySide, *, mutant: str | None = None, next_command: str | None = None) -> str:
    """The reference engine's divide beside an implementation's, a row per first move
    (``*`` where they differ, the first difference named), the nodes, the verdict, and
    the command that descends the first difference."""
    ref = result.reference
    rows = result.rows
    first = result.first_difference
    width = max([len("move"), len("nodes"), *(len(r.move) for r in rows)])
    them = result.name
    col = max(len("reference"), 12)
    col2 = max(len(them), 12)
    lines = [
        _perft_head(ref, mutant),
        f"  {'move':<{width}}  {'reference':>{col}}  {them:>{col2}}",
    ]
    for r in rows:
        note = r.note
        if r == first:
            note = "first difference" + (f": {note}" if note != "differs" else "")
        mark = "*" if r.differs else " "
        cells = f"{mark} {r.move:<{width}}  {_count_cell(r.reference):>{col}}  {_count_cell(r.implementation):>{col2}}"
        lines.append(f"{cells}  {note}".rstrip())
    if not rows:
        lines.append("  (the hand is over: no first move on either side)")
    if not isinstance(result.divide, dict):
        lines.append(f"  (the implementation's divide is not an object: {_count_cell(result.divide)})")
    mark = " " if result.nodes == ref.nodes else "*"
    lines.append(f"{mark} {'nodes':<{width}}  {_count_cell(ref.nodes):>{col}}  {_count_cell(result.nodes):>{col2}}")
    if result.agree:
        lines.append(f"the counts agree ({them}, {ref.nodes:,} nodes)")
    else:
        differing = sum(r.differs for r in rows)
        verdict = f"the counts differ: {differing} of {len(rows)} first move(s)"
        if first is not None:
            verdict += f", the first {first.move}"
        lines.append(verdict)
        if next_command:
            lines.append(f"descend it: {next_command}")
        elif first is not None and first.reference is None:
            lines.append(f"{them} counts a move the reference engine does not have there: its move generation differs")
    return "\n".join(lines)


#: Survivors shown with their diff by ``mutants --code``; the rest are listed by place.
SHOWN_SURVIVOR_DIFFS = 40


def code_mutants_text(result: dict[str, Any]) -> str:
    """``horserace mutants --code``: the survivors (place, operator, verdict, diff), the
    score on the lines the corpus runs, and apart what it does not judge."""
    c = result["covered"]
    lines = []
    for i, s in enumerate(result["survivors"]):
        verdict = s["verdict"]
        said = s.get("check") or s.get("fixture") or s.get("why") or ""
        head = colour.paint("SURVIVED", "red") if verdict in ("untriaged", "open", "killed-by") else "survived"
        lines.append(
            f"{head}  horserace/engine/{s['module']}.py:{s['line']} {s['operator']} [{verdict}] {said}".rstrip()
        )
        if i < SHOWN_SURVIVOR_DIFFS:
            lines.extend(f"    {d}" for d in s["diff"].splitlines()[2:])
    if len(result["survivors"]) > SHOWN_SURVIVOR_DIFFS:
        lines.append(f"(diffs of the first {SHOWN_SURVIVOR_DIFFS} survivors shown; --format json has every one)")
    lines.extend(f"STALE     triage entry {s['entry']}: {s['why']}" for s in result["stale"])
    sampled = "" if result["mutants"] == result["enumerated"] else f" (a sample of {result['enumerated']:,})"
    lines.append(
        f"{result['mutants']:,} code mutants{sampled} of horserace/engine/ ({result['operators']}), "
        f"{result['fixtures']} fixtures, {result['seconds']:g} s"
    )
    score = "no mutant judged" if c["score"] is None else f"{c['score']:.1%}"
    reach = "none" if c["score_within_reach"] is None else f"{c['score_within_reach']:.1%}"
    lines.append(
        f"on lines the corpus runs: {c['killed']:,} of {c['judged'] - c['equivalent']:,} non-equivalent mutants "
        f"killed ({score}); {c['survived']} survived: {c['equivalent']} equivalent, {c['out_of_reach']} out of "
        f"reach ({result['out_of_reach_share']:.1%} of the campaign), {c['untriaged']} untriaged or open"
    )
    lines.append(
        f"within the corpus's reach (less the {c['out_of_reach']} out of reach): {c['killed']:,} of "
        f"{c['within_reach']:,} killed ({reach})"
    )
    lines.append(f"on lines no fixture runs: {result['not_run']:,} mutants, not judged")
    if result["same_definitions"]:
        lines.append(
            f"equivalent by construction: {result['same_definitions']:,} (the mutated module defines the same "
            "code and values)"
        )
    if result["not_applied"]:
        notes = Counter(x.get("note", "").split(":")[0] for x in result["not_applied_mutants"])
        said = "; ".join(f"{n} {k}" for k, n in notes.most_common())
        lines.append(f"not applied in process: {result['not_applied']:,} ({said})")
    return "\n".join(lines)
