"""``--jobs 2`` against ``--jobs 1`` for ``horserace fuzz`` and ``horserace mutants``:
alternated rounds of the commands as a user runs them, each timed by the wall clock,
with the CPU it got (its own and its children's, from the kernel) and the load average
before it; the median and range of each, and of the ratio of the wall times round by
round.  The results of the two are also compared (the same for every N, timings aside).

    .venv/bin/python tools/jobs_rounds.py [--rounds 5] [--fuzz-budget 1000] [--format json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORKLOADS = {
    "fuzz": ["fuzz", "--format", "json"],  # every kind against horserace serve: no finding
    "mutants": ["mutants", "--format", "json"],  # the 42 deviations through horserace serve --mutant
    "mutants --in-process": ["mutants", "--in-process", "--format", "json"],
}
TIMINGS = ("seconds", "scenarios_per_second", "hands_per_second")


def one_run(argv: list[str]) -> tuple[float, float, float, dict]:
    """Wall seconds, CPU seconds (the command and every process it waited for), the
    load average before, and its JSON output without timings."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "horserace", *argv], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    report = json.loads(out.stdout)
    for key in TIMINGS:
        report.pop(key, None)
    return wall, cpu, load, report


def spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 3), "low": round(min(values), 3), "high": round(max(values), 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--fuzz-budget", type=int, default=1000)
    parser.add_argument("--only", action="append", choices=list(WORKLOADS))
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args()
    out: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or WORKLOADS:
            runs: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}
            reports: dict[int, dict] = {}
            for r in range(args.rounds):
                for jobs in (1, 2) if r % 2 == 0 else (2, 1):  # alternated, the order too
                    argv = [*WORKLOADS[name], "--jobs", str(jobs)]
                    if name == "fuzz":
                        argv += ["--budget", str(args.fuzz_budget), "--out", str(Path(tmp) / f"{r}-{jobs}")]
                    wall, cpu, load, report = one_run(argv)
                    runs[jobs].append((wall, cpu, load))
                    reports[jobs] = report
            ratios = [a[0] / b[0] for a, b in zip(runs[1], runs[2], strict=True)]
            out[name] = {
                "rounds": args.rounds,
                **{
                    f"jobs {j}": {
                        "wall_seconds": spread([w for w, _, _ in runs[j]]),
                        "cpu_seconds": spread([c for _, c, _ in runs[j]]),
                        "load_before": spread([lo for _, _, lo in runs[j]]),
                    }
                    for j in (1, 2)
                },
                "speed_up": spread(ratios),
                "same_results": reports[1] == reports[2],
            }
    if args.format == "json":
        print(json.dumps(out, indent=2))
    else:
        for name, fig in out.items():
            one, two, up = fig["jobs 1"], fig["jobs 2"], fig["speed_up"]
            print(
                f"{name}: --jobs 1 {one['wall_seconds']['median']} s [{one['wall_seconds']['low']}-"
                f"{one['wall_seconds']['high']}], CPU {one['cpu_seconds']['median']} s; --jobs 2 "
                f"{two['wall_seconds']['median']} s [{two['wall_seconds']['low']}-{two['wall_seconds']['high']}], "
                f"CPU {two['cpu_seconds']['median']} s; speed-up {up['median']}x [{up['low']}-{up['high']}]; "
                f"load {min(one['load_before']['low'], two['load_before']['low'])}-"
                f"{max(one['load_before']['high'], two['load_before']['high'])}; same results: {fig['same_results']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
