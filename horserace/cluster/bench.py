"""``horserace bench --cluster ADDRESS|local:N``: what a fuzzing campaign gains on a
cluster, and what the cluster costs.

For each cluster: the scheduler's overhead per task (empty tasks: one at a time, the
round trip of submitting one and getting its result; and a batch sent at once, the time
per task), a shard's fixed cost on a worker (starting the implementation, its hello,
stopping it: a shard of no seeds), and a campaign of the reference engine over a fixed
budget of seeds (every kind), with its hands per second, per worker, and the share of
the workers' time spent in shards.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from horserace.cluster.connect import connected
from horserace.cluster.fuzz import fuzz_on, fuzz_shard, portable, shard_seeds
from horserace.cluster.tasks import run_tasks
from horserace.conformance.server import reference_argv
from horserace.quality.fuzz import Plan

__all__ = ["SEEDS", "format_text", "measure"]

#: Seeds of the campaign measured: some 9,000 hands of play, half a minute on one worker.
SEEDS = 1000
#: Empty tasks timed one at a time, and sent in one batch.
ROUND_TRIPS = 50
BATCH = 500
#: Shards of no seeds timed for the fixed cost of a shard.
EMPTY_SHARDS = 6


def _nothing(i: int) -> int:
    return i


def measure(
    cluster: str,
    *,
    seeds: int = SEEDS,
    shard_size: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The figures of one cluster (``local:N`` is started and stopped here)."""
    argv = reference_argv()
    with connected(cluster) as client:
        workers = len(client.scheduler_info(n_workers=-1).get("workers", {}))
        if progress:
            progress(f"bench --cluster {cluster}: scheduler round trips")
        client.gather(client.map(_nothing, range(workers * 4), pure=False))  # every worker warm
        trips = []
        for i in range(ROUND_TRIPS):
            began = time.perf_counter()
            client.submit(_nothing, i, pure=False).result()
            trips.append(time.perf_counter() - began)
        began = time.perf_counter()
        client.gather(client.map(_nothing, range(BATCH), pure=False))
        batch = (time.perf_counter() - began) / BATCH
        if progress:
            progress(f"bench --cluster {cluster}: a shard's fixed cost")
        empty = [(portable(argv), 0, 0, Plan(), "horserace-bench-never-set")] * EMPTY_SHARDS
        run_tasks(client, cluster, fuzz_shard, empty, name="bench-warm")  # the first start on a worker is slower
        _, fixed = run_tasks(client, cluster, fuzz_shard, empty, name="bench-empty")
        fixed_seconds = fixed.busy_seconds / EMPTY_SHARDS
        if progress:
            progress(f"bench --cluster {cluster}: fuzzing {seeds:,} seeds")
        size = shard_seeds(seeds, workers, shard_size)
        result, ran = fuzz_on(client, cluster, argv, 0, seeds, shard_size=size)
    per_worker = {
        name: round(share.units / share.seconds) if share.seconds > 0 else None
        for name, share in sorted(ran.shares.items())
    }
    rate = result.hands / result.seconds if result.seconds > 0 else None
    return {
        "cluster": cluster,
        "workers": workers,
        "seeds": seeds,
        "shards": ran.tasks,
        "shard_seeds": size,
        "seconds": round(result.seconds, 3),
        "hands": result.hands,
        "scenarios": result.tried.scenarios,
        "hands_per_second": round(rate) if rate else None,
        "hands_per_second_per_worker": round(rate / workers) if rate else None,
        "busy_hands_per_second_by_worker": per_worker,
        "busy_share": round(ran.busy_share, 3) if ran.busy_share is not None else None,
        "task_round_trip_ms": {
            "median": round(statistics.median(trips) * 1000, 2),
            "min": round(min(trips) * 1000, 2),
            "max": round(max(trips) * 1000, 2),
            "runs": ROUND_TRIPS,
        },
        "task_in_batch_ms": round(batch * 1000, 2),
        "batch": BATCH,
        "shard_fixed_seconds": round(fixed_seconds, 3),
        "findings": len(result.findings),
    }


def format_text(figures: list[dict[str, Any]]) -> str:
    lines = []
    for f in figures:
        rate = f"{f['hands_per_second']:,} hands/s" if f["hands_per_second"] else "- hands/s"
        per = f"{f['hands_per_second_per_worker']:,}" if f["hands_per_second_per_worker"] else "-"
        busy = f", workers busy {f['busy_share']:.0%}" if f["busy_share"] is not None else ""
        lines.append(
            f"cluster {f['cluster']}: {f['workers']} worker{'' if f['workers'] == 1 else 's'}, {f['seeds']:,} seeds "
            f"in {f['shards']} shards of {f['shard_seeds']}: {f['seconds']:.1f} s, {f['hands']:,} hands "
            f"({rate}; {per} per worker){busy}"
        )
        by_worker = ", ".join(
            f"{name} {rate:,} hands/s" for name, rate in f["busy_hands_per_second_by_worker"].items() if rate
        )
        lines.append(f"  each worker while in a shard: {by_worker or '-'}")
        trip = f["task_round_trip_ms"]
        lines.append(
            f"  scheduler: {trip['median']:.1f} ms per task round trip (median of {trip['runs']}, "
            f"{trip['min']:.1f}-{trip['max']:.1f}), {f['task_in_batch_ms']:.2f} ms per task in a batch of {f['batch']}"
        )
        lines.append(
            f"  a shard's fixed cost on a worker: {f['shard_fixed_seconds']:.2f} s (start the implementation, its hello, "
            f"stop it; mean of {EMPTY_SHARDS})"
        )
        if f["findings"]:
            lines.append(f"  {f['findings']} finding(s): the reference engine disagreed with itself (a defect)")
    return "\n".join(lines)
