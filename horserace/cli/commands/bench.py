"""``horserace bench``: throughput and memory figures."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from horserace.cli._options import (
    clear_progress,
    format_option,
    progress,
    require_cluster_extra,
    ruleset_from,
    variant_options,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError

__all__ = ["NAME", "register", "run"]

NAME = "bench"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Measure random hands per second (uniform random legal placements, seeded) for "
        "2, 3 and 4 players and partnerships, with events on and off, and peak memory. "
        "Prints medians over repeats, with their range.",
    )
    p.add_argument(
        "--hands",
        type=int,
        default=10_000,
        help="hands per run (default: 10000); 0 leaves random play out, to measure only what other options add",
    )
    p.add_argument("--repeat", type=int, default=5, help="runs per configuration; the median is shown (default: 5)")
    p.add_argument("--seed", type=int, default=1, help="random seed of the first run (default: 1)")
    p.add_argument(
        "--soak",
        type=int,
        default=0,
        metavar="N",
        help="also play N two-player hands and sample resident memory to show it stays flat",
    )
    format_option(p)
    p.add_argument(
        "--corpus",
        action="store_true",
        help="also measure fixture loading (against a bare CSafeLoader parse) and replay throughput",
    )
    p.add_argument(
        "--corpus-fixtures",
        type=int,
        default=10_000,
        metavar="N",
        help="generated fixtures for --corpus (default: 10000)",
    )
    p.add_argument(
        "--conformance",
        action="store_true",
        help="also measure the conformance path: protocol against 'horserace serve' vs in-process replay",
    )
    p.add_argument(
        "--pytest-plugin",
        action="store_true",
        help="also measure what the installed pytest plugin adds to every pytest start-up",
    )
    p.add_argument(
        "--perft",
        action="store_true",
        help="also measure perft nodes per second by make and unmake on fixture K5N2P7's deal at depths "
        "4, 6, 8, 10 and 12 (each timed run at least half a second of counts; --repeat runs)",
    )
    p.add_argument(
        "--cluster",
        action="append",
        metavar="ADDRESS|local:N",
        help="also measure a fuzzing campaign on a Dask cluster (repeatable: each in turn, e.g. --cluster local:1 "
        "--cluster local:2): hands per second per campaign and per worker, the scheduler's overhead per task "
        "(pip install 'horserace[distributed]')",
    )
    p.add_argument(
        "--cluster-seeds",
        type=int,
        default=1000,
        metavar="N",
        help="seeds of the campaign of --cluster, every kind (default: 1000)",
    )
    p.add_argument(
        "--fuzz",
        action="store_true",
        help="also measure fuzzed scenarios and hands per second against 'horserace serve': one hand per seed "
        "(fuzz --kind hand) and every kind, each with --jobs 1 and 2, alternated (--repeat runs)",
    )
    p.add_argument(
        "--fuzz-seeds",
        type=int,
        default=3000,
        metavar="N",
        help="seeds per run of the one-hand workload for --fuzz (default: 3000)",
    )
    p.add_argument(
        "--fuzz-mix-seeds",
        type=int,
        default=300,
        metavar="N",
        help="seeds per run of the every-kind workload for --fuzz, six scenarios each (default: 300)",
    )
    p.add_argument(
        "--impact",
        action="store_true",
        help="also measure an impact study (canonical against one-branch, every seating) in matches per second "
        "with --jobs 1 and 2, alternated (--repeat runs), and the speed-up of 2 over 1",
    )
    p.add_argument(
        "--impact-matches",
        type=int,
        default=500,
        metavar="N",
        help="matches per seating and side of each run of --impact (default: 500)",
    )
    variant_options(p, "measure random play under this reading of the register (repeatable)")


def run(args: argparse.Namespace) -> int:
    from horserace.quality import bench  # the corpus and the runner: not for the other commands

    _check(args)
    bar = progress(sys.stderr.isatty())
    ruleset = ruleset_from(args)
    figures = bench.measure_play(args.hands, args.repeat, args.seed, bar, ruleset=ruleset) if args.hands else []
    soak_result = bench.soak(args.soak, seed=args.seed, progress=bar) if args.soak else None
    corpus_result = bench.measure_corpus(args.corpus_fixtures, progress=bar) if args.corpus else None
    conformance_result = bench.measure_conformance(progress=bar) if args.conformance else None
    plugin_result = bench.measure_pytest_plugin(progress=bar) if args.pytest_plugin else None
    perft_result = bench.measure_perft(repeats=args.repeat, progress=bar) if args.perft else None
    fuzz_result = (
        bench.measure_fuzz(args.fuzz_seeds, args.fuzz_mix_seeds, repeats=args.repeat, progress=bar)
        if args.fuzz
        else None
    )
    impact_result = (
        bench.measure_impact(args.impact_matches, repeats=args.repeat, progress=bar) if args.impact else None
    )
    cluster_result = _on_clusters(args, bar) if args.cluster else None
    clear_progress(bar)
    result = bench.report(
        figures, soak_result, corpus_result, conformance_result, plugin_result, perft_result, fuzz_result=fuzz_result
    )
    if cluster_result is not None:
        result["cluster"] = cluster_result
    if impact_result is not None:
        result["impact"] = impact_result
    print(json.dumps(result, indent=2) if args.format == "json" else _text(result, impact_result, cluster_result))
    return ExitCode.OK


def _check(args: argparse.Namespace) -> None:
    """The usage errors of bench's counts, told before anything is measured."""
    if args.hands < 0 or args.repeat < 1 or args.soak < 0:
        raise UsageError("--repeat must be at least 1, --hands and --soak at least 0")
    if args.fuzz_seeds < 1 or args.fuzz_mix_seeds < 1:
        raise UsageError("--fuzz-seeds and --fuzz-mix-seeds must be at least 1")
    if args.impact and args.impact_matches < 2:
        raise UsageError("--impact-matches must be at least 2")
    if args.cluster:
        if args.cluster_seeds < 1:
            raise UsageError("--cluster-seeds must be at least 1")
        require_cluster_extra()
        from horserace.cluster.connect import parse

        for spec in args.cluster:
            parse(spec)  # a malformed address is told before anything starts


def _on_clusters(args: argparse.Namespace, bar: Callable[[str], None] | None) -> list[dict[str, Any]]:
    """The figures of each ``--cluster``."""
    from horserace.cluster import bench as cluster_bench

    return [cluster_bench.measure(spec, seeds=args.cluster_seeds, progress=bar) for spec in args.cluster]


def _text(
    result: dict[str, Any], impact_result: dict[str, Any] | None, cluster_result: list[dict[str, Any]] | None
) -> str:
    """The figures as text: the one process's, then the impact study's, then the clusters'."""
    from horserace.quality import bench

    parts = [bench.format_text(result)]
    if impact_result is not None:
        parts.append(bench.format_impact(impact_result))
    if cluster_result is not None:
        from horserace.cluster import bench as cluster_bench

        parts.append(cluster_bench.format_text(cluster_result))
    return "\n".join(t for t in parts if t)
