#!/usr/bin/env python3
"""Fuzzed hands per second before and after, in one session: ``horserace fuzz`` as
:func:`horserace.quality.fuzz.fuzz` runs it, against ``horserace serve``, in a baseline
checkout (its own virtualenv) and in this one, the two alternated run by run (the first
of each pair swapped every round), on the one-hand workload (``--kind hand``) and on
every kind, with ``--jobs 1`` and ``--jobs 2``.  Each figure is a median of ROUNDS runs
with its range; the ratio is the median of the paired ratios (after over before), and
the CPU time per scenario of the runner's process and of the implementation processes
(their start included) is shown beside it.

    python tools/fuzz_before_after.py BASELINE_CHECKOUT [ROUNDS]

BASELINE_CHECKOUT is a worktree with ``.venv/`` (``git worktree add --detach DIR REV``,
then ``DIR/.venv/bin/pip install -e DIR``); ROUNDS defaults to 5.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: (name, kinds, seeds, jobs) of each workload.
WORKLOADS = (
    ("one hand", "hand", 3000, 1),
    ("one hand", "hand", 3000, 2),
    ("every kind", "", 300, 1),
    ("every kind", "", 300, 2),
)
#: One run, in the interpreter of the checkout measured: its figures as JSON.
ONE_RUN = """
import json, resource, sys, time
from horserace.conformance.server import reference_argv
from horserace.quality.fuzz import SCENARIO_KINDS, Plan, fuzz
kinds = tuple(sys.argv[1].split(",")) if sys.argv[1] else SCENARIO_KINDS
cpu = time.process_time()
result = fuzz(reference_argv(), 0, int(sys.argv[2]), plan=Plan(kinds=kinds), jobs=int(sys.argv[3]))
assert not result.findings, result.findings
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "hands_per_second": result.hands_per_second,
    "scenarios_per_second": result.scenarios_per_second,
    "runner_cpu_ms": (time.process_time() - cpu) * 1000 / result.tried.scenarios,
    "implementation_cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000 / result.tried.scenarios,
}))
"""


def one_run(checkout: Path, kinds: str, seeds: int, jobs: int) -> dict:
    python = checkout / ".venv" / "bin" / "python"
    out = subprocess.run(
        [str(python), "-P", "-c", ONE_RUN, kinds, str(seeds), str(jobs)],
        check=True,
        capture_output=True,
        text=True,
        cwd=checkout,
    ).stdout
    return json.loads(out)


def figure(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f} [{min(values):,.0f}-{max(values):,.0f}]"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("baseline", type=Path, help="the baseline checkout, with its own .venv/")
    parser.add_argument("rounds", type=int, nargs="?", default=5, help="alternated runs per workload (default: 5)")
    args = parser.parse_args(argv)
    if not (args.baseline / ".venv" / "bin" / "python").exists():
        parser.error(f"{args.baseline} has no .venv/bin/python: see the usage above")
    before_dir, after_dir = args.baseline.resolve(), ROOT
    rounds = args.rounds
    print(
        f"fuzzed hands per second, median [min-max] of {rounds} alternated runs; before {before_dir}, after {after_dir}"
    )
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{'workload':<11} {'jobs':>4} {'seeds':>6}  {'before':>21}  {'after':>21}  {'ratio':>5} [range]     "
        "CPU ms/scenario before, after: runner; implementation"
    )
    for name, kinds, seeds, jobs in WORKLOADS:
        before: list[dict] = []
        after: list[dict] = []
        for r in range(rounds):
            pair = [(before, before_dir), (after, after_dir)]
            for runs, checkout in pair if r % 2 == 0 else pair[::-1]:
                runs.append(one_run(checkout, kinds, seeds, jobs))
        ratios = [a["hands_per_second"] / b["hands_per_second"] for a, b in zip(after, before, strict=True)]

        def cpu(runs: list[dict], key: str) -> str:
            return f"{statistics.median(run[key] for run in runs):.2f}"

        print(
            f"{name:<11} {jobs:>4} {seeds:>6,}  {figure([b['hands_per_second'] for b in before]):>21}  "
            f"{figure([a['hands_per_second'] for a in after]):>21}  {statistics.median(ratios):>5.2f} "
            f"[{min(ratios):.2f}-{max(ratios):.2f}]  {cpu(before, 'runner_cpu_ms')}, {cpu(after, 'runner_cpu_ms')}; "
            f"{cpu(before, 'implementation_cpu_ms')}, {cpu(after, 'implementation_cpu_ms')}",
            flush=True,
        )
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
