#!/usr/bin/env python3
"""A fuzzing campaign on ``local:1`` against ``local:2``, alternated run by run, and the
shard sizes behind ``horserace.cluster.fuzz.SHARD_SEEDS``: each run is one
``horserace.cluster.bench.measure`` (a LocalCluster started, the scheduler's overhead
per task, a shard's fixed cost, a campaign of the reference engine over SEEDS seeds of
every kind), and each figure a median of REPEATS runs with its range, with the load
average before the runs.

    python tools/cluster_scaling.py [REPEATS [SEEDS]]          # default: 3 runs, 600 seeds
    python tools/cluster_scaling.py --shards [SEEDS]           # local:2, shards of 10, 50, 150 seeds

Needs the distributed extra (pip install -e '.[distributed]').
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from horserace.cluster.bench import measure  # noqa: E402


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f} [{min(values):,.0f}-{max(values):,.0f}]"


def scaling(repeats: int, seeds: int) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f}; {repeats} alternated runs of {seeds} seeds each")
    runs: dict[str, list[dict]] = {"local:1": [], "local:2": []}
    for _ in range(repeats):
        for spec, figures in runs.items():
            figures.append(measure(spec, seeds=seeds))
            f = figures[-1]
            print(
                f"  {spec}: {f['hands_per_second']} hands/s, {f['shards']} shards, busy {f['busy_share']}", flush=True
            )
    for spec, figures in runs.items():
        rates = [f["hands_per_second"] for f in figures]
        per = [f["hands_per_second_per_worker"] for f in figures]
        trips = [f["task_round_trip_ms"]["median"] for f in figures]
        batch = [f["task_in_batch_ms"] for f in figures]
        fixed = [f["shard_fixed_seconds"] * 1000 for f in figures]
        print(
            f"{spec}: {_spread(rates)} hands/s per campaign, {_spread(per)} per worker; round trip "
            f"{statistics.median(trips):.1f} ms [{min(trips):.1f}-{max(trips):.1f}], in a batch "
            f"{statistics.median(batch):.2f} ms [{min(batch):.2f}-{max(batch):.2f}]; a shard's fixed cost "
            f"{_spread(fixed)} ms"
        )
    ratios = [
        b["hands_per_second"] / a["hands_per_second"] for a, b in zip(runs["local:1"], runs["local:2"], strict=True)
    ]
    print(f"local:2 / local:1, paired runs: {statistics.median(ratios):.2f}x [{min(ratios):.2f}-{max(ratios):.2f}]")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def shards(seeds: int) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f}; local:2, {seeds} seeds")
    for size in (10, 50, 150):
        f = measure("local:2", seeds=seeds, shard_size=size)
        print(
            f"  shards of {size}: {f['shards']} shards, {f['hands_per_second']} hands/s, busy {f['busy_share']}, "
            f"fixed cost {f['shard_fixed_seconds']:.2f} s",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--shards"]:
        shards(int(argv[1]) if len(argv) > 1 else 600)
    else:
        scaling(int(argv[0]) if argv else 3, int(argv[1]) if len(argv) > 1 else 600)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
