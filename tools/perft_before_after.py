#!/usr/bin/env python3
"""Perft nodes per second before and after make and unmake, in one session: the
replay-based perft of 0.1 (tests/perft_oracle.py, which builds every node afresh and
replays its path) against perft by make and unmake (horserace.engine.perft), on fixture
K5N2P7's deal, timed as ``horserace bench --perft`` times (horserace.quality.bench.
time_perft: counts repeated until MIN_SECONDS have passed), the two alternated run by
run, and each figure a median of REPEATS runs with its range, by the wall clock and by
the process's CPU time; the ratio is the median of the paired ratios of CPU time.

    python tools/perft_before_after.py [DEPTH ...]     # default: 4 6 8 10 12

The replay-based perft takes about a minute for depth 12; give fewer depths to be quick.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from horserace.corpus.loader import load_paths  # noqa: E402
from horserace.corpus.observers import perft_position  # noqa: E402
from horserace.engine.perft import perft  # noqa: E402
from horserace.quality.bench import PERFT_DEPTHS, PERFT_FIXTURE, time_perft  # noqa: E402
from tests.perft_oracle import perft_by_replay  # noqa: E402

REPEATS = 5
MIN_SECONDS = 0.5


def main(argv: list[str]) -> int:
    depths = [int(a) for a in argv] or list(PERFT_DEPTHS)
    fixture = next(fx for fx in load_paths().fixtures if fx.id == PERFT_FIXTURE)
    hand = perft_position(fixture.input, fixture.ruleset)
    print(f"perft nodes per second on {PERFT_FIXTURE}'s deal, median [min-max] of {REPEATS} alternated runs;")
    print("wall clock, then per second of the process's CPU time (what one core does while it runs it)")
    print(
        f"{'depth':>5} {'nodes':>9}  {'before, wall':>24}  {'after, wall':>26}  {'before, CPU':>24}  {'after, CPU':>26}  ratio"
    )
    for depth in depths:
        before, after, before_cpu, after_cpu = [], [], [], []

        def replayed(depth: int = depth) -> int:
            return perft_by_replay({**fixture.input, "depth": depth}, fixture.ruleset)["nodes"]

        def made(depth: int = depth) -> int:
            return perft(hand, depth)

        nodes = 0
        for r in range(REPEATS):
            runs = [(before, before_cpu, replayed), (after, after_cpu, made)]
            for rates, cpu_rates, count in runs if r % 2 == 0 else runs[::-1]:
                nodes, rate, _, cpu_rate = time_perft(count, MIN_SECONDS)
                rates.append(rate)
                cpu_rates.append(cpu_rate)
        ratio = statistics.median(a / b for a, b in zip(after_cpu, before_cpu, strict=True))

        def figure(rates: list[float]) -> str:
            return f"{statistics.median(rates):,.0f} [{min(rates):,.0f}-{max(rates):,.0f}]"

        print(
            f"{depth:>5} {nodes:>9,}  {figure(before):>24}  {figure(after):>26}  {figure(before_cpu):>24}  "
            f"{figure(after_cpu):>26}  {ratio:,.0f}x",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
