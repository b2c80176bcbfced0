"""``horserace bench``: throughput and memory of the reference engine.

Figures, not pass/fail: the benchmark prints medians over repeats, and docs/performance.md quotes
them.  Random play is a uniform choice among the distinct legal placements from a seeded
generator (:mod:`horserace.engine.playout`).
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

from horserace.engine.hand import Hand, Move
from horserace.engine.match import deal
from horserace.engine.playout import play_random_hand
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.engine.seating import SEATINGS

__all__ = [
    "CONFIGS",
    "FUZZ_WORKLOADS",
    "PERFT_DEPTHS",
    "PERFT_FIXTURE",
    "FuzzFigure",
    "PerftFigure",
    "PlayFigure",
    "current_rss_kib",
    "format_fuzz",
    "format_impact",
    "format_text",
    "measure_conformance",
    "measure_corpus",
    "measure_fuzz",
    "measure_impact",
    "measure_perft",
    "measure_play",
    "measure_pytest_plugin",
    "peak_rss_kib",
    "play_checked_hand",
    "report",
    "soak",
    "time_hands",
    "time_perft",
]

#: The configurations measured: (label, players, partnership), one per seating.
CONFIGS = tuple((s.label, s.players, s.partnership) for s in SEATINGS)


@dataclass
class PlayFigure:
    config: str
    events: bool
    api: str  #: "run" (moves taken from the engine) or "checked" (every action validated)
    hands: int
    repeats: int
    median_hands_per_second: float
    min_hands_per_second: float
    max_hands_per_second: float


def play_checked_hand(hand: Hand, rng: random.Random) -> Hand:
    """Random play through the public, fully checked actions: the cost an outside driver
    pays (``place`` validates every placement, draws and passes are explicit)."""
    rand = rng.random
    while not hand.over:
        hand.play_forced()
        if hand.over:
            break
        moves = hand.legal_placements()
        tile, target, port = moves[int(rand() * len(moves))]
        hand.place(hand.to_act, tile, target, port)
    return hand


def time_hands(
    players: int,
    partnership: bool,
    hands: int,
    *,
    record: bool,
    seed: int,
    checked: bool = False,
    ruleset: Ruleset = CANONICAL,
) -> float:
    """Hands per second for ``hands`` random hands (deal included)."""
    rng = random.Random(seed)
    play = play_checked_hand if checked else play_random_hand
    start = time.perf_counter()
    for _ in range(hands):
        tiles, boneyard = deal(rng, players)
        hand = Hand(tiles, boneyard, 0, partnership=partnership, record=record, validate=False, ruleset=ruleset)
        play(hand, rng)
    return hands / (time.perf_counter() - start)


def measure_play(
    hands: int = 10_000,
    repeats: int = 5,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
    ruleset: Ruleset = CANONICAL,
) -> list[PlayFigure]:
    figures = []
    plan = [(label, p, part, rec, False) for label, p, part in CONFIGS for rec in (False, True)]
    plan.append(("2 players", 2, False, True, True))
    for label, players, partnership, record, checked in plan:
        rates = []
        for r in range(repeats):
            if progress:
                progress(
                    f"{label}, events {'on' if record else 'off'}{', checked' if checked else ''}: repeat {r + 1}/{repeats}"
                )
            rates.append(
                time_hands(players, partnership, hands, record=record, seed=seed + r, checked=checked, ruleset=ruleset)
            )
        figures.append(
            PlayFigure(
                label,
                record,
                "checked" if checked else "run",
                hands,
                repeats,
                round(statistics.median(rates)),
                round(min(rates)),
                round(max(rates)),
            )
        )
    return figures


def current_rss_kib() -> int:
    """Resident memory now (VmRSS from Linux /proc, the same measure as the peak), else
    the peak so far."""
    try:
        with Path("/proc/self/status").open() as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return peak_rss_kib()


def peak_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def soak(
    hands: int, *, seed: int = 1, checkpoints: int = 10, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Play ``hands`` two-player hands (events recorded per hand, as a replay would) and
    sample resident memory at checkpoints, to show it stays flat."""
    rng = random.Random(seed)
    samples = []
    step = max(1, hands // checkpoints)
    start = time.perf_counter()
    for i in range(1, hands + 1):
        tiles, boneyard = deal(rng, 2)
        play_random_hand(Hand(tiles, boneyard, 0, validate=False), rng)
        if i % step == 0 or i == hands:
            samples.append({"hands": i, "rss_kib": current_rss_kib()})
            if progress:
                progress(f"soak: {i:,}/{hands:,} hands, rss {samples[-1]['rss_kib']:,} KiB")
    elapsed = time.perf_counter() - start
    return {
        "hands": hands,
        "seconds": round(elapsed, 1),
        "hands_per_second": round(hands / elapsed),
        "samples": samples,
        "rss_growth_kib": samples[-1]["rss_kib"] - samples[0]["rss_kib"],
    }


def report(
    figures: list[PlayFigure],
    soak_result: dict[str, Any] | None,
    corpus_result: dict[str, Any] | None = None,
    conformance_result: dict[str, Any] | None = None,
    plugin_result: dict[str, Any] | None = None,
    perft_result: list[PerftFigure] | None = None,
    fuzz_result: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "python": sys.version.split()[0],
        "play": [asdict(f) for f in figures],
        "peak_rss_kib": peak_rss_kib(),
        "soak": soak_result,
        "corpus": corpus_result,
        "conformance": conformance_result,
        "pytest_plugin": plugin_result,
        "perft": None if perft_result is None else [asdict(f) for f in perft_result],
        "fuzz": fuzz_result,
    }


def measure_pytest_plugin(repeats: int = 15, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """What the pytest plugin costs every pytest start-up in an environment where
    horserace is installed: a fresh interpreter importing pytest, against one importing
    pytest and the plugin (as pytest's entry points do), alternated; medians and ranges
    in milliseconds."""
    import subprocess  # noqa: PLC0415  (only for this measurement)

    def once(code: str) -> float:
        began = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603  (this interpreter, on our own code)
        return (time.perf_counter() - began) * 1000

    bare, with_plugin = [], []
    for r in range(repeats):
        if progress:
            progress(f"pytest plugin: repeat {r + 1}/{repeats}")
        bare.append(once("import pytest"))
        with_plugin.append(once("import pytest, horserace.conformance.pytest_plugin"))
    added = [b - a for a, b in zip(bare, with_plugin, strict=True)]
    return {
        "repeats": repeats,
        "pytest_ms": round(statistics.median(bare), 1),
        "with_plugin_ms": round(statistics.median(with_plugin), 1),
        "added_ms": round(statistics.median(added), 1),
        "added_range_ms": [round(min(added), 1), round(max(added), 1)],
    }


def format_text(result: dict[str, Any]) -> str:
    lines = []
    if result["play"]:
        lines += [
            f"Random hands per second (median of {result['play'][0]['repeats']} runs; Python {result['python']})",
            "",
        ]
        lines.append(f"{'configuration':<14} {'events':<7} {'api':<8} {'median':>9} {'min':>9} {'max':>9}")
        for f in result["play"]:
            lines.append(
                f"{f['config']:<14} {'on' if f['events'] else 'off':<7} {f['api']:<8} "
                f"{f['median_hands_per_second']:>9,} {f['min_hands_per_second']:>9,} {f['max_hands_per_second']:>9,}"
            )
        lines.append("")
    perft_result = result.get("perft")
    if perft_result:
        first = perft_result[0]
        lines += [
            (
                f"Perft nodes per second on {PERFT_FIXTURE}'s deal (median of {first['repeats']} runs, each at least "
                f"{first['min_seconds']} s of counts; Python {result['python']})"
            ),
            "",
            (
                f"{'depth':>5} {'nodes':>10} {'moves made':>11} {'counts/run':>10} {'median':>9} {'min':>9} {'max':>9} "
                f"{'made/s':>9}   {'per CPU second: median':>22} {'min':>9} {'max':>9}"
            ),
        ]
        for f in perft_result:
            lines.append(
                f"{f['depth']:>5} {f['nodes']:>10,} {f['moves_made']:>11,} {f['counts_per_run']:>10,} "
                f"{f['median_nodes_per_second']:>9,} {f['min_nodes_per_second']:>9,} {f['max_nodes_per_second']:>9,} "
                f"{f['median_moves_made_per_second']:>9,}   {f['median_nodes_per_cpu_second']:>22,} "
                f"{f['min_nodes_per_cpu_second']:>9,} {f['max_nodes_per_cpu_second']:>9,}"
            )
        lines.append("")
    lines.append(f"peak resident memory: {result['peak_rss_kib'] / 1024:.1f} MiB")
    soak_result = result.get("soak")
    if soak_result:
        lines.append(
            f"soak: {soak_result['hands']:,} two-player hands in {soak_result['seconds']} s "
            f"({soak_result['hands_per_second']:,}/s); resident memory "
            + ", ".join(f"{s['rss_kib'] / 1024:.1f}" for s in soak_result["samples"])
            + f" MiB; growth {soak_result['rss_growth_kib']} KiB"
        )
    corpus = result.get("corpus")
    if corpus:
        lines.append(
            f"corpus: {corpus['fixtures']:,} generated play fixtures ({corpus['megabytes']} MB in {corpus['files']} files), "
            f"median of {corpus['repeats']}: bare CSafeLoader parse {corpus['floor_seconds']} s; strict load and "
            f"validate {corpus['load_seconds']} s = {corpus['load_ratio_to_floor']}x the parse "
            f"({corpus['load_fixtures_per_second']:,} fixtures/s); replay {corpus['replay_seconds']} s "
            f"({corpus['replay_fixtures_per_second']:,} fixtures/s)"
        )
    conf = result.get("conformance")
    if conf:
        lines.append(
            f"conformance: {conf['fixtures']:,} bundled fixtures, median of {conf['repeats']}: in-process replay "
            f"{conf['replay_fixtures_per_second']:,}/s; through the protocol against 'horserace serve' "
            f"{conf['protocol_fixtures_per_second']:,}/s ({conf['protocol_to_replay_ratio']}x the replay time); "
            f"one-shot {conf['one_shot_fixtures_per_second']}/s"
        )
    plugin = result.get("pytest_plugin")
    if plugin:
        low, high = plugin["added_range_ms"]
        lines.append(
            f"pytest plugin: pytest starts in {plugin['pytest_ms']} ms, with the plugin imported "
            f"{plugin['with_plugin_ms']} ms: {plugin['added_ms']} ms added (median of {plugin['repeats']}, "
            f"range {low} to {high} ms)"
        )
    if result.get("fuzz"):
        lines += ["", format_fuzz(result["fuzz"])]
    return "\n".join(lines)


# The corpus and conformance measurements import what they need when they run, not at the
# top: the play figures must not carry those modules' objects, which make every pass of
# the cyclic garbage collector in the timed loop longer (about 2%, measured).


def measure_corpus(
    count: int = 10_000,
    per_file: int = 100,
    repeats: int = 3,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Load-and-validate throughput of the strict loader against the floor (a bare
    ``yaml.load(text, Loader=yaml.CSafeLoader)`` of the same files, reading included),
    and replay throughput, on ``count`` generated ``play`` fixtures."""
    import shutil  # noqa: PLC0415  (see above: kept out of the play measurement)
    import tempfile  # noqa: PLC0415

    import yaml  # noqa: PLC0415

    from horserace.corpus.generate import random_play_fixture  # noqa: PLC0415
    from horserace.corpus.loader import load_paths  # noqa: PLC0415
    from horserace.corpus.replay import replay_fixture  # noqa: PLC0415
    from horserace.corpus.status import Status  # noqa: PLC0415

    root = Path(tempfile.mkdtemp(prefix="horserace-bench-"))
    folder = root / "generated"
    folder.mkdir()
    try:
        seatings = [(2, False), (3, False), (4, False), (4, True)]
        batch: list[dict[str, Any]] = []
        files = 0
        for i in range(count):
            players, partnership = seatings[i % len(seatings)]
            batch.append(random_play_fixture(seed + i, players, partnership))
            if len(batch) == per_file or i == count - 1:
                (folder / f"g{files:05d}.yaml").write_text(
                    yaml.dump(batch, Dumper=yaml.CSafeDumper, sort_keys=False, allow_unicode=True), encoding="utf-8"
                )
                files += 1
                batch = []
            if progress and i % 500 == 0:
                progress(f"corpus: generating fixtures {i:,}/{count:,}")
        paths = sorted(folder.glob("*.yaml"))
        size = sum(p.stat().st_size for p in paths)
        floors, loads, replays = [], [], []
        corpus = None
        for r in range(repeats):
            if progress:
                progress(f"corpus: repeat {r + 1}/{repeats}")
            start = time.perf_counter()
            for p in paths:
                yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
            floors.append(time.perf_counter() - start)
            start = time.perf_counter()
            corpus = load_paths([folder])
            loads.append(time.perf_counter() - start)
            if corpus.errors:
                raise RuntimeError(f"generated corpus did not load: {corpus.errors[0]}")
            start = time.perf_counter()
            results = [replay_fixture(fx) for fx in corpus.fixtures]
            replays.append(time.perf_counter() - start)
            if any(res.status is not Status.PASS for res in results):
                raise RuntimeError("generated corpus did not replay green")
        floor, load, replay = (statistics.median(x) for x in (floors, loads, replays))
        return {
            "fixtures": count,
            "files": files,
            "megabytes": round(size / 1e6, 1),
            "repeats": repeats,
            "floor_seconds": round(floor, 3),
            "load_seconds": round(load, 3),
            "load_ratio_to_floor": round(load / floor, 2),
            "load_fixtures_per_second": round(count / load),
            "replay_seconds": round(replay, 3),
            "replay_fixtures_per_second": round(count / replay),
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure_conformance(
    rounds: int = 20, repeats: int = 3, one_shot_fixtures: int = 40, progress: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Fixtures per second through the protocol against ``horserace serve`` (persistent),
    against in-process replay of the same fixtures, and in one-shot mode."""
    from horserace.conformance.runner import Options  # noqa: PLC0415  (see above measure_corpus)
    from horserace.conformance.server import reference_argv  # noqa: PLC0415
    from horserace.conformance.session import Session  # noqa: PLC0415
    from horserace.corpus.loader import load_paths  # noqa: PLC0415
    from horserace.corpus.replay import replay_fixture  # noqa: PLC0415
    from horserace.corpus.status import Status  # noqa: PLC0415

    corpus = load_paths()
    fixtures = [fx for fx in corpus.fixtures if fx.applies_under(CANONICAL)] * rounds
    argv = reference_argv()
    protocol_times, replay_times = [], []
    for r in range(repeats):
        if progress:
            progress(f"conformance: repeat {r + 1}/{repeats}")
        start = time.perf_counter()
        for fx in fixtures:
            replay_fixture(fx)
        replay_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        outcomes = Session().run(argv, fixtures).outcomes
        protocol_times.append(time.perf_counter() - start)
        if any(o.status is not Status.PASS for o in outcomes):
            raise RuntimeError("the reference engine is not conformant through the protocol")
    sample = fixtures[:one_shot_fixtures]
    if progress:
        progress("conformance: one-shot")
    start = time.perf_counter()
    Session(Options(one_shot=True)).run(argv, sample)
    one_shot = time.perf_counter() - start
    protocol, replay = statistics.median(protocol_times), statistics.median(replay_times)
    return {
        "fixtures": len(fixtures),
        "repeats": repeats,
        "replay_fixtures_per_second": round(len(fixtures) / replay),
        "protocol_fixtures_per_second": round(len(fixtures) / protocol),
        "protocol_to_replay_ratio": round(protocol / replay, 2),
        "one_shot_fixtures": len(sample),
        "one_shot_fixtures_per_second": round(len(sample) / one_shot, 1),
    }


# ---------------------------------------------------------------------- perft
#: The position perft is measured on: the deal of the corpus's first perft fixture.
PERFT_FIXTURE = "K5N2P7"
#: The depths measured.
PERFT_DEPTHS = (4, 6, 8, 10, 12)


@dataclass
class PerftFigure:
    depth: int
    nodes: int  #: the leaves the fixtures count
    moves_made: int  #: the moves made (and taken back) in one count: the last ply is counted, not made
    repeats: int
    min_seconds: float  #: each timed run repeats the count until it has run this long
    counts_per_run: int
    median_nodes_per_second: int
    min_nodes_per_second: int
    max_nodes_per_second: int
    median_moves_made_per_second: int
    #: Nodes per second of the process's own CPU time: on a shared machine, what one core
    #: does while it runs this process, beside the wall-clock figures above.
    median_nodes_per_cpu_second: int
    min_nodes_per_cpu_second: int
    max_nodes_per_cpu_second: int


def time_perft(count: Callable[[], int], min_seconds: float) -> tuple[int, float, int, float]:
    """Run ``count`` (one perft count, returning its nodes) until ``min_seconds`` have
    passed: (nodes of one count, nodes per second over the run, counts made, nodes per
    second of the process's CPU time)."""
    counts, nodes = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while True:
        nodes = count()
        counts += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            used = max(time.process_time() - cpu, 1e-9)
            return nodes, counts * nodes / elapsed, counts, counts * nodes / used


def measure_perft(
    depths: tuple[int, ...] = PERFT_DEPTHS,
    repeats: int = 5,
    min_seconds: float = 0.5,
    progress: Callable[[str], None] | None = None,
) -> list[PerftFigure]:
    """Perft nodes per second by make and unmake on :data:`PERFT_FIXTURE`'s deal at each
    depth: the same hand counted again and again (perft gives it back as it was), small
    depths by repetition, ``repeats`` timed runs of at least ``min_seconds`` each."""
    from horserace.corpus.loader import load_paths  # noqa: PLC0415  (see above measure_corpus)
    from horserace.corpus.observers import perft_position  # noqa: PLC0415
    from horserace.engine.perft import perft  # noqa: PLC0415

    fixture = next(fx for fx in load_paths().fixtures if fx.id == PERFT_FIXTURE)
    hand = perft_position(fixture.input, fixture.ruleset)
    counting = cast("_CountingMoves", perft_position(fixture.input, fixture.ruleset, _CountingMoves))
    figures = []
    for depth in depths:
        counting.moves_made = 0
        perft(counting, depth)

        def count(depth: int = depth) -> int:
            return perft(hand, depth)

        rates, cpu_rates, per_run, nodes = [], [], 0, 0
        for r in range(repeats):
            if progress:
                progress(f"perft: depth {depth}, repeat {r + 1}/{repeats}")
            nodes, rate, per_run, cpu_rate = time_perft(count, min_seconds)
            rates.append(rate)
            cpu_rates.append(cpu_rate)
        median = statistics.median(rates)
        figures.append(
            PerftFigure(
                depth,
                nodes,
                counting.moves_made,
                repeats,
                min_seconds,
                per_run,
                round(median),
                round(min(rates)),
                round(max(rates)),
                round(median * counting.moves_made / nodes),
                round(statistics.median(cpu_rates)),
                round(min(cpu_rates)),
                round(max(cpu_rates)),
            )
        )
    return figures


class _CountingMoves(Hand):
    """The reference engine, counting the moves perft makes (placements and ends of turn),
    for the figure of moves made; never timed."""

    __slots__ = ("moves_made",)
    moves_made: int

    def make(self, move: Move) -> None:
        self.moves_made += 1
        super().make(move)

    def end_turn(self, seat: int) -> None:
        self.moves_made += 1
        super().end_turn(seat)


# ---------------------------------------------------------------------- fuzzing
#: The fuzzing workloads: (name, scenario kinds; empty: every kind).
FUZZ_WORKLOADS: tuple[tuple[str, tuple[str, ...]], ...] = (("one hand", ("hand",)), ("every kind", ()))


@dataclass
class FuzzFigure:
    workload: str  #: "one hand" (``fuzz --kind hand``) or "every kind" (the default mix)
    kinds: list[str]
    jobs: int
    seeds: int
    scenarios: int
    hands: int  #: hands of play among the scenarios
    repeats: int
    median_scenarios_per_second: int
    min_scenarios_per_second: int
    max_scenarios_per_second: int
    median_hands_per_second: int
    min_hands_per_second: int
    max_hands_per_second: int
    #: The median divided by the processes: what each implementation process (and the
    #: runner's thread beside it) does when ``jobs`` of them run side by side.
    per_process_hands_per_second: int
    per_process_scenarios_per_second: int
    #: CPU time per scenario (medians, milliseconds): the runner's process (generator,
    #: encoding, pipe, comparison; its start included) and the implementation processes
    #: together (their start, hello and stop taken off).
    runner_cpu_ms_per_scenario: float
    implementation_cpu_ms_per_scenario: float


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _start_up_cpu(argv: list[str], repeats: int = 3) -> float:
    """CPU seconds an implementation process spends starting, answering the hello and
    stopping (the median of ``repeats``): taken off its CPU time per scenario."""
    from horserace.conformance.session import Session  # noqa: PLC0415  (see above measure_corpus)

    spent = []
    for _ in range(repeats):
        children = _children_cpu()
        worker = Session().worker(argv)
        try:
            worker.declared()
        finally:
            worker.close()
        spent.append(_children_cpu() - children)
    return statistics.median(spent)


def measure_fuzz(
    seeds: int = 3000,
    mix_seeds: int = 300,
    repeats: int = 5,
    jobs: tuple[int, ...] = (1, 2),
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Fuzzed scenarios and hands of play per second against ``horserace serve``, as
    ``horserace fuzz`` runs them (:func:`horserace.quality.fuzz.fuzz`, shrinking left out:
    the reference engine agrees with itself): the one-hand workload on ``seeds`` seeds,
    every kind on ``mix_seeds``, each with ``jobs`` processes in turn; the workloads and
    job counts alternate run by run, so a change of load on a shared machine falls on
    all of them alike.  Also the CPU time of the runner's process and of the
    implementation processes per scenario, which says which side is the bottleneck."""
    from horserace.conformance.server import reference_argv  # noqa: PLC0415  (see above measure_corpus)
    from horserace.quality.fuzz import SCENARIO_KINDS, Plan, fuzz  # noqa: PLC0415

    argv = reference_argv()
    start_up = _start_up_cpu(argv)
    plans = [
        (name, kinds or SCENARIO_KINDS, seeds if kinds else mix_seeds, j)
        for name, kinds in FUZZ_WORKLOADS
        for j in jobs
    ]
    runs: dict[int, list[tuple[float, float, float, float]]] = {i: [] for i in range(len(plans))}
    tried: dict[int, tuple[int, int]] = {}
    load_before = os.getloadavg()[0]
    for r in range(repeats):
        for i, (name, kinds, budget, j) in enumerate(plans):
            if progress:
                progress(f"fuzz: {name}, --jobs {j}: repeat {r + 1}/{repeats}")
            cpu, children = time.process_time(), _children_cpu()
            result = fuzz(argv, 0, budget, plan=Plan(kinds=kinds), jobs=j)
            if result.findings:
                raise RuntimeError(f"the reference engine disagrees with itself: {result.findings[0].message}")
            runner_cpu = time.process_time() - cpu
            impl_cpu = max(0.0, _children_cpu() - children - start_up * len(result.ranges))
            scenarios = result.tried.scenarios
            tried[i] = (scenarios, result.hands)
            runs[i].append(
                (
                    result.scenarios_per_second or 0.0,
                    result.hands_per_second or 0.0,
                    runner_cpu * 1000 / scenarios,
                    impl_cpu * 1000 / scenarios,
                )
            )
    figures = []
    for i, (name, kinds, budget, j) in enumerate(plans):
        scenario_rates, hand_rates, runner_ms, impl_ms = (list(column) for column in zip(*runs[i], strict=True))
        median_scenarios, median_hands = statistics.median(scenario_rates), statistics.median(hand_rates)
        figures.append(
            FuzzFigure(
                name,
                list(kinds),
                j,
                budget,
                tried[i][0],
                tried[i][1],
                repeats,
                round(median_scenarios),
                round(min(scenario_rates)),
                round(max(scenario_rates)),
                round(median_hands),
                round(min(hand_rates)),
                round(max(hand_rates)),
                round(median_hands / j),
                round(median_scenarios / j),
                round(statistics.median(runner_ms), 3),
                round(statistics.median(impl_ms), 3),
            )
        )
    return {
        "implementation": "horserace serve",
        "implementation_start_up_cpu_ms": round(start_up * 1000, 1),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "figures": [asdict(f) for f in figures],
    }


def format_fuzz(fuzz_result: dict[str, Any]) -> str:
    """The fuzzing figures as a table."""
    first = fuzz_result["figures"][0]
    before, after = fuzz_result["load_average"]
    lines = [
        (
            f"Fuzzing against '{fuzz_result['implementation']}' (median [min-max] of {first['repeats']} runs, alternated; "
            f"load average {before} before, {after} after)"
        ),
        "",
        (
            f"{'workload':<11} {'jobs':>4} {'seeds':>6} {'scenarios':>9} {'hands':>6}  {'scenarios/s':>21}  "
            f"{'hands/s':>21}  {'per process':>11}  {'CPU ms/scenario: runner':>23} {'implementation':>14}"
        ),
    ]
    for f in fuzz_result["figures"]:
        scenarios = f"{f['median_scenarios_per_second']:,} [{f['min_scenarios_per_second']:,}-{f['max_scenarios_per_second']:,}]"
        hands = f"{f['median_hands_per_second']:,} [{f['min_hands_per_second']:,}-{f['max_hands_per_second']:,}]"
        lines.append(
            f"{f['workload']:<11} {f['jobs']:>4} {f['seeds']:>6,} {f['scenarios']:>9,} {f['hands']:>6,}  {scenarios:>21}  "
            f"{hands:>21}  {f['per_process_hands_per_second']:>11,}  {f['runner_cpu_ms_per_scenario']:>23.3f} "
            f"{f['implementation_cpu_ms_per_scenario']:>14.3f}"
        )
    lines.append(
        "per process: hands per second divided by the implementation processes; implementation CPU: its start "
        f"({fuzz_result['implementation_start_up_cpu_ms']} ms a process) taken off"
    )
    return "\n".join(lines)


def measure_impact(
    matches: int = 500,
    repeats: int = 5,
    jobs: tuple[int, ...] = (1, 2),
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Matches per second of an impact study (canonical against one-branch, every
    seating, ``matches`` a seating and a side), with each of ``jobs`` worker processes in
    turn, alternated round by round so that a change of load falls on all alike; the
    speed-up of each job count over the first, as the median of the rounds' ratios."""
    from horserace.quality.impact import study  # noqa: PLC0415  (see above measure_corpus)
    from horserace.resources.rulesets import resolve  # noqa: PLC0415

    a, b = resolve("canonical"), resolve("one-branch")
    rates: dict[int, list[float]] = {j: [] for j in jobs}
    busy: dict[int, list[float]] = {j: [] for j in jobs}
    cpu_ms: dict[int, list[float]] = {j: [] for j in jobs}
    played = 0
    load_before = os.getloadavg()[0]
    for r in range(repeats):
        for j in jobs:
            if progress:
                progress(f"impact: --jobs {j}: repeat {r + 1}/{repeats}")
            cpu = time.process_time() + _children_cpu()
            began = time.perf_counter()
            result = study(a, b, matches=matches, seed=r, jobs=j)
            seconds = time.perf_counter() - began
            played = 2 * sum(t.matches for t in result.tallies.values())
            rates[j].append(played / seconds)
            # Cores' worth of CPU the run had (its workers reaped, so counted): on a shared
            # machine the ceiling of its speed-up.
            spent = time.process_time() + _children_cpu() - cpu
            busy[j].append(spent / seconds)
            cpu_ms[j].append(spent * 1000 / played)
    first = jobs[0]
    figures = []
    for j in jobs:
        ratios = [x / y for x, y in zip(rates[j], rates[first], strict=True)]
        figures.append(
            {
                "jobs": j,
                "median_matches_per_second": round(statistics.median(rates[j])),
                "min_matches_per_second": round(min(rates[j])),
                "max_matches_per_second": round(max(rates[j])),
                "median_speed_up": round(statistics.median(ratios), 3),
                "min_speed_up": round(min(ratios), 3),
                "max_speed_up": round(max(ratios), 3),
                "median_cores_busy": round(statistics.median(busy[j]), 2),
                "median_cpu_ms_per_match": round(statistics.median(cpu_ms[j]), 3),
            }
        )
    return {
        "rulesets": [a.name, b.name],
        "matches_per_run": played,
        "repeats": repeats,
        "cpus": os.cpu_count(),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "figures": figures,
    }


def format_impact(impact_result: dict[str, Any]) -> str:
    """The impact study's figures as a table."""
    before, after = impact_result["load_average"]
    a, b = impact_result["rulesets"]
    lines = [
        (
            f"Impact study {a} against {b}: {impact_result['matches_per_run']:,} matches a run, both sides, every "
            f"seating (median [min-max] of {impact_result['repeats']} runs, alternated; {impact_result['cpus']} CPUs, "
            f"load average {before} before, {after} after)"
        ),
        "",
        f"{'jobs':>4}  {'matches/s':>21}  {'speed-up':>20}  {'cores busy':>10}  {'CPU ms/match':>12}",
    ]
    for f in impact_result["figures"]:
        rate = f"{f['median_matches_per_second']:,} [{f['min_matches_per_second']:,}-{f['max_matches_per_second']:,}]"
        up = f"{f['median_speed_up']:.2f}x [{f['min_speed_up']:.2f}-{f['max_speed_up']:.2f}]"
        lines.append(
            f"{f['jobs']:>4}  {rate:>21}  {up:>20}  {f['median_cores_busy']:>10.2f}  "
            f"{f['median_cpu_ms_per_match']:>12.3f}"
        )
    lines.append(
        "cores busy: CPU seconds of the run and its workers per second of it, the ceiling of a speed-up; "
        "CPU ms/match: the same CPU per match played (what the workers' start and their messages add)"
    )
    return "\n".join(lines)
