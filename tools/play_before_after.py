#!/usr/bin/env python3
"""Random-play hands per second of two checkouts of horserace, alternated in one session.

    python tools/play_before_after.py BASELINE_DIR [--rounds N] [--hands N] [--perft]

BASELINE_DIR is another checkout (a git worktree of the older commit, with its own
``.venv``); this checkout is "after".  One worker process per checkout stays up for the
whole session, so imports are not timed.  Each round times every configuration of
``horserace bench`` (the eight "run" rows and the "checked" row; ``--perft`` adds perft
at depths 8, 10 and 12) once in each worker, the order of the two workers swapped every
round, with the same seed on both sides (seed = round number: both play the same hands).
Each figure is timed as ``horserace.quality.bench.time_hands`` times it (the deal
included) and by the process's CPU time as well.  It prints, per configuration, the
median and range of each side's hands per second by CPU time and the median of the
paired ratios (after / before) by CPU time and by the wall clock: on a shared machine
the ratio of alternated runs is the figure, not either side's rate.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The worker: one request per line (JSON), one answer per line.  It uses only the bench
#: functions both checkouts have.
WORKER = r"""
import json, sys, time
from horserace.quality import bench
perft_hand = None
for line in sys.stdin:
    job = json.loads(line)
    cpu = time.process_time()
    if job["kind"] == "play":
        wall = bench.time_hands(job["players"], job["partnership"], job["hands"], record=job["record"],
                                seed=job["seed"], checked=job["checked"])
        used = time.process_time() - cpu
        answer = {"wall": wall, "cpu": job["hands"] / used}
    else:
        from horserace.corpus.loader import load_paths
        from horserace.corpus.observers import perft_position
        from horserace.engine.perft import perft
        if perft_hand is None:
            fixture = next(fx for fx in load_paths().fixtures if fx.id == bench.PERFT_FIXTURE)
            perft_hand = perft_position(fixture.input, fixture.ruleset)
        nodes, wall, _, cpu_rate = bench.time_perft(lambda: perft(perft_hand, job["depth"]), 0.5)
        answer = {"wall": wall, "cpu": cpu_rate, "nodes": nodes}
    print(json.dumps(answer), flush=True)
"""

PLAY = [
    ("2 players", 2, False),
    ("3 players", 3, False),
    ("4 players", 4, False),
    ("partnership", 4, True),
]


def start(checkout: Path) -> subprocess.Popen[str]:
    python = checkout / ".venv" / "bin" / "python"
    return subprocess.Popen(
        [str(python), "-c", WORKER], cwd=checkout, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def ask(worker: subprocess.Popen[str], job: dict) -> dict:
    assert worker.stdin is not None and worker.stdout is not None  # noqa: PT018  (one invariant: the worker's pipes)
    worker.stdin.write(json.dumps(job) + "\n")
    worker.stdin.flush()
    line = worker.stdout.readline()
    if not line:
        raise SystemExit(f"a worker stopped (exit {worker.wait()})")
    return json.loads(line)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("baseline", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--perft", action="store_true")
    parser.add_argument("--only", help="one configuration label, e.g. '2 players|on|run'")
    args = parser.parse_args(argv)
    jobs: list[tuple[str, dict]] = [
        (
            f"{label}|{'on' if record else 'off'}|run",
            {"kind": "play", "players": players, "partnership": partnership, "record": record, "checked": False},
        )
        for label, players, partnership in PLAY
        for record in (False, True)
    ]
    jobs.append(
        ("2 players|on|checked", {"kind": "play", "players": 2, "partnership": False, "record": True, "checked": True})
    )
    if args.perft:
        jobs += [(f"perft depth {d}", {"kind": "perft", "depth": d}) for d in (8, 10, 12)]
    if args.only:
        jobs = [j for j in jobs if j[0] == args.only]
    sides = {"before": start(args.baseline.resolve()), "after": start(ROOT)}
    results: dict[str, dict[str, list[dict]]] = {label: {"before": [], "after": []} for label, _ in jobs}
    try:
        for r in range(args.rounds):
            order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
            for label, job in jobs:
                for side in order:
                    results[label][side].append(ask(sides[side], {**job, "hands": args.hands, "seed": r + 1}))
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    finally:
        for worker in sides.values():
            assert worker.stdin is not None
            worker.stdin.close()
            worker.wait()

    def figure(runs: list[dict]) -> str:
        rates = [run["cpu"] for run in runs]
        return f"{statistics.median(rates):>9,.0f} [{min(rates):,.0f}-{max(rates):,.0f}]"

    unit = "nodes/s for perft" if args.perft else ""
    print(f"{args.rounds} alternated rounds, {args.hands} hands a run; per second of CPU time {unit}")
    print(f"{'configuration':<24} {'before (CPU)':>26} {'after (CPU)':>26}  ratio CPU [range]   ratio wall")
    for label, _ in jobs:
        before, after = results[label]["before"], results[label]["after"]
        cpu_ratios = [a["cpu"] / b["cpu"] for a, b in zip(after, before, strict=True)]
        wall_ratios = [a["wall"] / b["wall"] for a, b in zip(after, before, strict=True)]
        print(
            f"{label:<24} {figure(before):>26} {figure(after):>26}  "
            f"{statistics.median(cpu_ratios):.3f} [{min(cpu_ratios):.2f}-{max(cpu_ratios):.2f}]   "
            f"{statistics.median(wall_ratios):.3f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
