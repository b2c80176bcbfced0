"""``horserace mutants``: the corpus against every named deviation of the engine, the
mutants (misreadings) and the house rules of the Fives family."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from horserace.cli._options import (
    clear_progress,
    cluster_client,
    cluster_option,
    count,
    format_option,
    jobs_option,
    load_corpus,
    paths_option,
    print_load_errors,
    progress,
    said_stopped,
    unwound_by_signals,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError, close_to, did_you_mean

if TYPE_CHECKING:
    from horserace.cluster.tasks import Ran
    from horserace.corpus.fixture import Fixture
    from horserace.quality.mutants import Mutant, Verdict

__all__ = ["NAME", "register", "run"]

NAME = "mutants"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Each deviation of the engine is a realistic misreading of one rule (family "
        "'misreading') or a house rule of the Fives family that published rule sets and real engines "
        "play (family 'house rule'), served by 'horserace serve --mutant NAME'. The corpus is strong "
        "when every deviation is killed (exit 0); a surviving one exits 1.\n\n"
        "With --code, the mutants are the engine's code instead: every operator of cosmic-ray's core set "
        "at every place of horserace/engine/ (pip install 'horserace[mutation]'), each judged in this "
        "process by the fixtures whose replay runs its line. It prints the score on the lines the corpus "
        "runs (the equivalent left out), the same within the corpus's reach (the out of reach left out "
        "too, counted beside it), apart the mutants on lines no fixture runs, and each survivor with its file:line, "
        "operator, diff and its verdict in the triage file (horserace/quality/mutation_triage.yaml). "
        "Exit 1 when a survivor has no verdict or an open one, or (a whole campaign) a triage entry is "
        "stale.",
        epilog="examples:\n  horserace mutants --code --sample 40 --seed 1\n"
        "  horserace mutants --code --module settlement --format json\n"
        "  horserace mutants --code --jobs 2            # the whole engine (see README, Performance)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--list", action="store_true", help="list the deviations (family and source too) and exit")
    p.add_argument("--only", action="append", metavar="NAME", help="run only this deviation (repeatable)")
    p.add_argument(
        "--family",
        choices=["misreading", "house rule"],
        help="run (or list) only the deviations of this family",
    )
    jobs_option(
        p,
        "mutants judged at once, each in a worker process of its own (1: in this process); "
        "the verdicts are the same, in the same order, for every N; with --in-process the default is 1 "
        "(a worker's start costs more than judging there); with --code, 2 worker processes",
        default=2,
    )
    p.set_defaults(jobs=None)  # not given: 2, or 1 with --in-process
    p.add_argument(
        "--in-process",
        action="store_true",
        help="judge each mutant by replaying the corpus against it in this process, not through "
        "'horserace serve --mutant NAME' (faster; every observation compared, rule IDs included)",
    )
    cluster_option(p, "judge each mutant (with --code: each batch of code mutants) as a task of its own")
    code = p.add_argument_group("code mutants (--code)")
    code.add_argument(
        "--code",
        action="store_true",
        help="mutate the engine's code with cosmic-ray's operators and judge each mutant by the corpus",
    )
    code.add_argument(
        "--module",
        action="append",
        metavar="NAME",
        help="only this engine module (hand, layout, settlement, ...; repeatable; default: all)",
    )
    code.add_argument("--sample", type=count(1, 10**6), metavar="N", help="judge N mutants drawn at random")
    code.add_argument("--seed", type=int, default=0, metavar="S", help="the seed of --sample (default: 0)")
    code.add_argument(
        "--triage",
        metavar="FILE",
        help="the verdicts on the survivors (default: the bundled horserace/quality/mutation_triage.yaml)",
    )
    paths_option(p)
    format_option(p)


def run(args: argparse.Namespace) -> int:
    if args.code:
        return _run_code(args)
    code_only = [f"--{n}" for n in ("module", "sample", "triage") if getattr(args, n) is not None]
    if code_only:
        raise UsageError(f"horserace: {', '.join(code_only)} go with --code")
    from horserace.engine.ruleset import CANONICAL
    from horserace.quality.mutants import MUTANTS

    names = _names(args)
    if args.list:
        return _list([MUTANTS[name] for name in names], args.format)
    corpus = load_corpus(args.paths)
    if corpus.errors:
        return print_load_errors(corpus, args.format)
    fixtures = [fx for fx in corpus.fixtures if fx.applies_under(CANONICAL)]
    chosen = [MUTANTS[name] for name in names]
    verdicts, ran, stopped = _judged(args, chosen, fixtures)
    return _said(args, verdicts, ran, stopped, len(fixtures), len(chosen))


def _names(args: argparse.Namespace) -> list[str]:
    """The deviations asked for (``--only``, ``--family``); a mistyped name is a usage
    error, with the close ones."""
    from horserace.quality.mutants import MUTANTS

    unknown = [name for name in args.only or () if name not in MUTANTS]
    if unknown:
        hints = [f"{name}: {did_you_mean(close)}" for name in unknown if (close := close_to(name, MUTANTS))]
        hint = f" ({'; '.join(hints)})" if hints else ""
        raise UsageError(f"horserace: unknown mutant(s) {', '.join(unknown)}{hint}; see 'horserace mutants --list'")
    return [name for name in (args.only or MUTANTS) if args.family is None or MUTANTS[name].family == args.family]


def _list(listed: list[Mutant], fmt: str) -> int:
    """``--list``: each deviation, its rule, family, description and source."""
    if fmt == "json":
        fields = ("name", "rule", "family", "description", "source")
        write_out(json.dumps({"mutants": [{f: getattr(m, f) for f in fields} for m in listed]}, indent=2))
    else:
        for m in listed:
            write_out(f"{m.name:<32} {m.rule:<12} {m.family:<11} {m.description}\n{'':<57}source: {m.source}")
    return ExitCode.OK


def _judged(
    args: argparse.Namespace, chosen: list[Mutant], fixtures: list[Fixture]
) -> tuple[list[Verdict], Ran | None, BaseException | None]:
    """The verdicts (here, on ``--jobs`` processes, or on ``--cluster``), what ran on a
    cluster, and the signal that stopped the judging, if one did."""
    from horserace.quality.mutants import judge_all

    if args.cluster is None:
        with unwound_by_signals():
            jobs = args.jobs if args.jobs is not None else 1 if args.in_process else 2
            verdicts, stopped = judge_all(chosen, fixtures, in_process=args.in_process, jobs=jobs)
        return verdicts, None, stopped
    with cluster_client(args.cluster) as client:
        from horserace.cluster.mutants import mutants_on

        return mutants_on(client, args.cluster, chosen, fixtures, in_process=args.in_process)


def _said(
    args: argparse.Namespace,
    verdicts: list[Verdict],
    ran: Ran | None,
    stopped: BaseException | None,
    fixtures: int,
    chosen: int,
) -> int:
    """The verdicts as text or JSON (what ran on a cluster too); the exit code."""
    from horserace.reports.command_text import mutants_text

    survivors = [v for v in verdicts if not v.killed]
    if args.format == "json":
        write_out(
            json.dumps(
                {
                    "fixtures": fixtures,
                    "mutants": [v.to_dict() for v in verdicts],
                    "survivors": [v.mutant.name for v in survivors],
                }
                | ({"cluster": ran.to_dict()} if ran is not None else {}),
                indent=2,
            )
        )
    else:
        write_out(mutants_text(verdicts, fixtures) + (f"\n{ran.text()}" if ran is not None else ""))
    if stopped is not None:
        return said_stopped(
            stopped, f"the verdicts above are those of the {len(verdicts)} of {chosen} mutants judged before"
        )
    return ExitCode.FAILURES if survivors else ExitCode.OK


def _run_code(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from horserace.quality.code_mutants import load_triage, run_campaign, select, summary, trace_corpus
    from horserace.reports.command_text import code_mutants_text

    named = [f"--{n.replace('_', '-')}" for n in ("list", "only", "family", "in_process") if getattr(args, n)]
    if named:
        raise UsageError(f"horserace: {', '.join(named)} name deviations, not code mutants: leave out --code")
    if args.triage is not None and not Path(args.triage).is_file():
        raise UsageError(f"horserace: no such triage file: {args.triage}")
    triage = load_triage(Path(args.triage) if args.triage else None)
    mutants, enumerated = select(args.module, args.sample, args.seed)
    corpus = load_corpus(args.paths)
    if corpus.errors:
        return print_load_errors(corpus, args.format)
    fixtures = list(corpus.fixtures)
    full = frozenset(k for k, e in triage.items() if e["verdict"] == "killed-by")
    bar = progress(sys.stderr.isatty(), "code mutants: ")
    seen = [0, 0]

    def tick(outcome: object) -> None:
        seen[0] += 1
        seen[1] += getattr(outcome, "status", "") == "survived"
        if bar:
            bar(f"{seen[0]:,} of {len(mutants):,} judged, {seen[1]} survived")

    ran = None
    try:
        if args.cluster is not None:
            with cluster_client(args.cluster) as client:
                from horserace.cluster.code_mutants import code_mutants_on

                coverage = trace_corpus(fixtures)
                campaign, ran = code_mutants_on(
                    client, args.cluster, mutants, fixtures, coverage, enumerated=enumerated, full=full, done=tick
                )
        else:
            with unwound_by_signals():
                campaign = run_campaign(
                    mutants, fixtures, enumerated=enumerated, jobs=args.jobs or 2, full=full, done=tick
                )
    finally:
        clear_progress(bar)
    result = summary(campaign, triage, whole=args.sample is None)
    if ran is not None:
        result["cluster"] = ran.to_dict()
    if args.format == "json":
        write_out(json.dumps(result, indent=2))
    else:
        write_out(code_mutants_text(result) + (f"\n{ran.text()}" if ran is not None else ""))
    failing = result["covered"]["untriaged"] or result["stale"]
    return ExitCode.FAILURES if failing else ExitCode.OK
