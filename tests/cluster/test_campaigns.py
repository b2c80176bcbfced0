"""Campaigns on a ``LocalCluster`` (tests/cluster/conftest.py): fuzzing in seed-range
shards merges into the result of the same seeds, a finding is written once, a worker
killed mid-campaign loses no seed and counts none twice; perft's divide by root move and
the mutants' verdicts equal those of one process; the command line says where it ran,
and a bad address, a missing extra, Ctrl-C are told clearly."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import psutil
import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.cluster.connect import connected, local_cluster, parse
from horserace.cluster.fuzz import fuzz_on, portable, shard_seeds, shards_of
from horserace.cluster.mutants import mutants_on
from horserace.cluster.perft import count_on
from horserace.cluster.tasks import _window
from horserace.conformance.server import reference_argv
from horserace.corpus import positions
from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture
from horserace.corpus.status import Status
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS
from horserace.errors import EnvironmentFailure, UsageError
from horserace.quality.fuzz import Plan, scenarios
from horserace.quality.mutants import MUTANTS, judge_in_process, judge_through_protocol
from horserace.resources.rulesets import resolve
from tests.cluster.conftest import WAIT

#: A mutant that the hand scenarios of seeds 0..159 under the canonical rules catch on
#: two seeds only (found in process below, not assumed).
RARE = "last-placer-opens-after-block"
HAND_PLAN = Plan(kinds=("hand",), rulesets=(resolve("canonical"),))


def _disagreeing_seeds(mutant: str, seeds: range) -> set[int]:
    """The seeds whose hand scenario the mutant plays otherwise, replayed in process."""
    declared: dict[str, tuple[str, ...]] = {name: (readings[0],) for name, readings in VARIANT_FIELDS.items()}
    engine = MUTANTS[mutant].engine
    return {
        s
        for s in seeds
        if replay_fixture(scenarios(s, HAND_PLAN, declared)[0].fixture, engine=engine).status != Status.PASS
    }


def _covered(ranges: list[tuple[int, int]]) -> list[int]:
    return sorted(seed for a, b in ranges for seed in range(a, b + 1))


def test_shards_cut_the_budget_once():
    assert shards_of(5, 23, 10) == [(5, 10), (15, 10), (25, 3)]
    assert shard_seeds(100_000, 2) == 400 and shard_seeds(100, 2) == 13 and shard_seeds(3, 8) == 1
    assert shard_seeds(100, 2, size=7) == 7
    here = reference_argv()
    assert portable(here)[0] == "{python}" and portable(here)[1:] == here[1:]
    assert portable(["node", "adapter.js"]) == ["node", "adapter.js"]


def test_cluster_addresses_are_checked():
    assert parse("local:3").local == 3
    assert parse("10.0.0.5:8786").address == "tcp://10.0.0.5:8786"
    assert parse("tcp://sched.example:8786").address == "tcp://sched.example:8786"
    for bad in ("local:0", "local:65", "nowhere", "http://x:1", "x:99999", ""):
        with pytest.raises(UsageError):
            parse(bad)


def test_an_address_where_no_scheduler_answers_is_a_usage_error():
    began = time.perf_counter()
    with (
        pytest.raises(UsageError, match=r"no scheduler answers at tcp://127\.0\.0\.1:9"),
        connected("127.0.0.1:9", timeout=1),
    ):
        pass
    assert time.perf_counter() - began < WAIT


def test_a_finding_stops_the_campaign_and_is_written_once(client, tmp_path):
    """Every seed disagrees: each shard that ran has one finding, at its first seed; the
    shards that had not started when the first finding came back tried nothing, and the
    result says which seeds were tried."""
    argv = reference_argv("--mutant", "no-continuation")
    result, ran = fuzz_on(client, "test", argv, 0, 160, plan=HAND_PLAN, shard_size=10, out_dir=tmp_path, timeout=WAIT)
    starts = {first for first, _ in shards_of(0, 160, 10)}
    assert result.findings and ran.tasks == 16
    assert len(result.ranges) < 16  # some shards never started
    assert all(a in starts and b == a for a, b in result.ranges)  # each stopped at its first seed
    assert sorted(f.seed for f in result.findings) == sorted(a for a, _ in result.ranges)
    written = sorted((tmp_path / "generated").iterdir())
    assert len(written) == len(result.findings) == len({f.path for f in result.findings})
    assert load_paths([tmp_path]).errors == []


def test_a_worker_killed_mid_campaign_loses_no_seed_and_counts_none_twice(client, tmp_path):
    """A worker process is killed (SIGKILL) while it runs a shard, once some shards are
    done: Dask runs its shards again on the other worker, and the merged result covers
    every seed of the budget once, with the findings of a run in one process."""
    seeds = range(160)
    expected = _disagreeing_seeds(RARE, seeds)
    assert 0 < len(expected) < 5  # rare: most shards run whole
    pids = client.run(os.getpid)
    killed: list[int] = []

    def kill_once(_: int) -> None:
        if killed:
            return
        busy = [address for address, keys in client.processing().items() if keys]
        if busy:
            killed.append(pids[busy[0]])
            os.kill(pids[busy[0]], signal.SIGKILL)

    result, ran = fuzz_on(
        client,
        "test",
        reference_argv("--mutant", RARE),
        0,
        len(seeds),
        plan=HAND_PLAN,
        shard_size=20,
        out_dir=tmp_path,
        keep_going=True,
        progress=kill_once,
        timeout=WAIT,
    )
    assert killed, "no worker was busy when the first shard came back"
    # Every finding once, in one cause: each shard shrinks the first of it it meets, and
    # counts the others.
    (cause,) = result.causes
    seen = [f.seed for f in cause.findings] + [s.seed for s in cause.others]
    assert sorted(seen) == sorted(expected) and cause.count == len(expected)
    # Each shard once, whole (the campaign keeps going).
    assert sorted(result.ranges) == [(first, first + count - 1) for first, count in shards_of(0, len(seeds), 20)]
    covered = _covered(result.ranges)
    assert covered == sorted(set(covered)) == list(seeds)  # every seed once
    assert result.tried.kinds["hand"] == result.tried.hands == len(covered)
    assert sum(s.tasks for s in ran.shares.values()) == ran.tasks == 8
    assert len(list((tmp_path / "generated").iterdir())) == len(result.findings) == len(cause.findings)
    client.wait_for_workers(2, timeout=WAIT)  # the nanny restarts the killed worker


def test_the_merged_divide_is_the_count_of_one_process(client):
    for name, depth, variants in (
        (positions.SeedName(1, players=4), 7, {}),
        (positions.SeedName(3, players=3), 6, {"continuation": "optional"}),
    ):
        ruleset = CANONICAL
        for field, reading in variants.items():
            ruleset = ruleset.with_variant(field, reading)
        position = positions.from_seed(name, ruleset)
        here = positions.count(position, depth, ruleset)
        there, ran, stopped = count_on(client, "test", position, depth, ruleset, timeout=WAIT)
        assert stopped is None and ran.stopped is None and ran.finished == ran.tasks
        assert there.divide == here.divide and there.nodes == here.nodes
        assert ran.tasks == len(here.divide) > 1
        assert sum(s.units for s in ran.shares.values()) == here.nodes


def test_mutants_on_the_cluster_get_the_verdicts_of_one_process(client, corpus):
    fixtures = [fx for fx in corpus.fixtures if fx.applies_under(CANONICAL)]
    chosen = [MUTANTS["terminal-double-once"], MUTANTS["exact-target"]]
    verdicts, ran, stopped = mutants_on(client, "test", chosen, fixtures, in_process=True, timeout=WAIT)
    assert stopped is None and ran.finished == 2
    assert [v.mutant.name for v in verdicts] == [m.name for m in chosen]
    assert [v.killers for v in verdicts] == [judge_in_process(m, fixtures).killers for m in chosen]
    (through,), _, _ = mutants_on(client, "test", chosen[:1], fixtures, timeout=WAIT)
    assert through.killers == judge_through_protocol(chosen[0], fixtures).killers and through.killed


@contextlib.contextmanager
def _fake_scheduler(first: bytes | None) -> Iterator[str]:
    """A listener on 127.0.0.1 that accepts and sends ``first`` (``None``: never speaks;
    empty: closes at once), then holds the connection; its address."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                peer, _ = server.accept()
                held.append(peer)
                if first == b"":
                    peer.close()
                elif first is not None:
                    peer.sendall(first)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for peer in held:
            peer.close()


@pytest.mark.parametrize(
    ("first", "said"),
    [
        (None, "did not speak within 1 s"),
        (b"\xff" * 8 + b"garbage", "announces 18,446,744,073,709,551,615 bytes"),
        (struct.pack("<Q", 3 << 30) + b"x", "announces 3,221,225,472 bytes"),
        (b"", "closed the connection"),
    ],
    ids=["silent", "garbage", "huge-length", "closes"],
)
def test_a_peer_that_is_not_a_scheduler_is_refused_within_the_timeout(first, said, capsys):
    """A listener that never speaks, or sends what no scheduler sends: a usage error
    within the timeout, the peer never read beyond its first 8 bytes' claim."""
    with _fake_scheduler(first) as address:
        began = time.monotonic()
        with pytest.raises(UsageError, match=said), connected(address, timeout=1):
            pass
        assert time.monotonic() - began < WAIT
        if first is not None:  # the command's own timeout, 10 s, for the silent one: the above shows it
            assert main(["fuzz", "--cluster", address, "--budget", "1"]) == ExitCode.USAGE
            err = capsys.readouterr().err
            assert "no scheduler answers" in err and "Traceback" not in err


def test_fuzz_on_a_scheduler_address_says_where_it_ran(client, tmp_path, capsys):
    address = client.scheduler.address
    code = main(
        [
            "fuzz",
            "--cluster",
            address,
            "--kind",
            "settlement",
            "--budget",
            "40",
            "--out",
            str(tmp_path),
            "--format",
            "json",
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert code == ExitCode.OK and report["kinds"] == {"settlement": 40}
    assert _covered([tuple(r) for r in report["tried"]]) == list(range(40))
    assert report["cluster"]["cluster"] == address and report["cluster"]["workers"] == 2
    assert report["cluster"]["tasks"] == 8  # 40 seeds, at least 4 shards per worker
    code = main(["perft", "seed:2", "--depth", "5", "--divide", "--cluster", address])
    out = capsys.readouterr().out
    assert code == ExitCode.OK and f"ran on {address}" in out


def test_ctrl_c_cancels_the_tasks_left(client):
    def interrupt(_: int) -> None:
        raise KeyboardInterrupt

    result, _ = fuzz_on(
        client, "test", reference_argv(), 0, 200, plan=HAND_PLAN, shard_size=5, progress=interrupt, timeout=WAIT
    )
    assert isinstance(result.stopped_by, KeyboardInterrupt)
    assert result.ranges and _covered(result.ranges) == sorted(set(_covered(result.ranges)))  # what finished, once
    deadline = time.monotonic() + WAIT
    while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0


def test_the_usage_errors_of_cluster_options(capsys):
    assert main(["fuzz", "--cluster", "nowhere", "--budget", "1"]) == ExitCode.USAGE
    assert main(["fuzz", "--shard-seeds", "5", "--budget", "1"]) == ExitCode.USAGE
    assert main(["fuzz", "--cluster", "local:1", "--jobs", "2", "--budget", "1"]) == ExitCode.USAGE
    assert main(["perft", "seed:1", "--depth", "3", "--cluster", "local:1"]) == ExitCode.USAGE  # no --divide
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--divide" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["fuzz", "--cluster", "local:2", "--budget", "1"],
        ["mutants", "--cluster", "local:1"],
        ["perft", "seed:1", "--depth", "2", "--divide", "--cluster", "local:1"],
        ["bench", "--cluster", "local:1"],
        ["impact", "--rules", "canonical", "--rules", "one-branch", "--cluster", "local:1"],
    ],
    ids=lambda argv: argv[0],
)
def test_without_the_extra_the_command_says_what_to_install(argv):
    code = (
        "import sys; sys.modules['distributed'] = None\n"
        "import horserace.cluster  # the room's package itself imports, and raises, nothing\n"
        "from horserace.cli import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == ExitCode.USAGE
    assert "pip install 'horserace[distributed]'" in done.stderr and "Traceback" not in done.stderr


def test_a_scheduler_that_goes_away_is_an_environment_failure():
    """Its own cluster: stopped in the middle of a campaign."""
    from distributed import Client

    local = local_cluster(1)
    try:
        with Client(local, timeout=WAIT) as c:

            def stop_scheduler(_: int) -> None:
                local.close(timeout=WAIT)

            with pytest.raises(EnvironmentFailure, match="scheduler"):
                fuzz_on(
                    c,
                    "test",
                    reference_argv(),
                    0,
                    40,
                    plan=HAND_PLAN,
                    shard_size=5,
                    progress=stop_scheduler,
                    timeout=WAIT,
                )
    finally:
        local.close(timeout=WAIT)


def test_bench_on_a_cluster_gives_its_figures(client, capsys):
    address = client.scheduler.address
    assert main(["bench", "--hands", "0", "--cluster", address, "--cluster-seeds", "16", "--format", "json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)["cluster"]
    assert figures["cluster"] == address and figures["workers"] == 2 and figures["seeds"] == 16
    assert figures["shards"] == 8 and figures["hands"] > 0 and figures["findings"] == 0
    assert figures["hands_per_second_per_worker"] * 2 == pytest.approx(figures["hands_per_second"], abs=2)
    assert 0 < figures["task_round_trip_ms"]["min"] <= figures["task_round_trip_ms"]["median"]
    assert figures["task_in_batch_ms"] > 0 and figures["shard_fixed_seconds"] > 0


def test_tasks_are_sent_as_the_cluster_frees_not_all_at_once(client, monkeypatch):
    """30 shards on 2 workers: never more than the window of tasks sent and not finished
    (before, all 30 were submitted up front: 2.5 million for a budget of 10^9)."""
    sent = [0]
    in_flight: list[int] = []
    submit = client.submit

    def counted(*args, **kwargs):
        sent[0] += 1
        return submit(*args, **kwargs)

    def finished(_: int) -> None:
        in_flight.append(sent[0] - len(in_flight))  # this one included

    monkeypatch.setattr(client, "submit", counted)
    result, ran = fuzz_on(
        client,
        "test",
        reference_argv(),
        0,
        30,
        plan=Plan(kinds=("settlement",)),
        shard_size=1,
        progress=finished,
        timeout=WAIT,
    )
    assert ran.tasks == sent[0] == len(in_flight) == 30 and _covered(result.ranges) == list(range(30))
    assert max(in_flight) <= _window(2) < 30


#: The most resident memory the client of a campaign of any budget may use.
CLIENT_BYTES = 256 << 20


@pytest.mark.slow
def test_a_huge_cluster_campaign_holds_little_memory_and_sigterm_is_exit_143(tmp_path):
    """``fuzz --cluster local:1 --budget 10^9`` (2.5 million shards): the client's
    memory stays under 256 MiB until its first shard runs, and SIGTERM then is exit 143,
    the summary of what ran on stdout, nothing of Dask's shutdown on stderr, no process left.  Before, every shard was
    submitted up front: 852 MiB after 25 s, 7 GB later, and no shard ran meanwhile."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "horserace",
            "fuzz",
            "--cluster",
            "local:1",
            "--budget",
            "1000000000",
            "--kind",
            "settlement",
            "--out",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak = 0
    try:
        client = psutil.Process(proc.pid)
        deadline = time.monotonic() + WAIT
        children: list[psutil.Process] = []
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(psutil.Error):
                peak = max(peak, client.memory_info().rss)
                children = client.children(recursive=True)
                if any("serve" in c.cmdline() for c in children):  # a shard runs its implementation
                    break
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert 0 < peak < CLIENT_BYTES, peak
    # What ran is said, and how to fuzz the rest: from the first seed not fuzzed (0 when the
    # signal came before any shard ended; a shard or more may end first on a quick machine).
    assert "INTERRUPTED by SIGTERM" in out and "to fuzz the rest, run again with --seed " in out, (out, err)
    done = re.search(r"fuzzed seeds 0\.\.(\d+)[, ]", out)  # the first range fuzzed (merged: a gap follows)
    first_untried = int(done.group(1)) + 1 if done else 0
    assert f"run again with --seed {first_untried} " in out, (out, err)
    assert proc.returncode == ExitCode.TERMINATED, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    _, alive = psutil.wait_procs(children, timeout=WAIT)  # the local cluster's processes end with it
    assert children and not alive


@pytest.mark.slow
def test_an_implementation_that_never_says_hello_leaves_no_process_on_the_workers(tmp_path):
    """``fuzz --cluster local:1`` of an implementation that waits forever before its
    hello: unusable after the hello's timeout (exit 3), and the implementation of the
    shard the worker had started meanwhile, cancelled, is ended before the cluster
    stops (before, it was left running when the command exited)."""
    sentinel = f"horserace-no-hello-{os.getpid()}"
    impl = f"{sys.executable} -c 'import time; time.sleep(600)' {sentinel}"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "horserace",
            "fuzz",
            "--impl",
            impl,
            "--cluster",
            "local:1",
            "--budget",
            "5",
            "--kind",
            "settlement",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    left = [p for p in psutil.process_iter(["cmdline"]) if sentinel in (p.info["cmdline"] or [])]
    _, alive = psutil.wait_procs(left, timeout=WAIT)
    for proc in alive:
        proc.kill()
    assert done.returncode == ExitCode.IMPLEMENTATION_UNUSABLE, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert not alive


def test_code_mutants_on_the_cluster_get_the_outcomes_of_one_machine(client, corpus):
    """``mutants --code --cluster``: a task per batch, each judged on a worker in a
    process forked from it, the outcomes in the order of the mutants and equal to a run on
    this machine."""
    pytest.importorskip("cosmic_ray", reason="the [mutation] extra (cosmic-ray) is not installed")
    from horserace.cluster import code_mutants as cluster_code
    from horserace.quality import code_mutants as cm

    mutants, enumerated = cm.select(["settlement", "seating"], 50, 3)
    coverage = cm.trace_corpus(corpus.fixtures)
    here = cm.run_campaign(mutants, corpus.fixtures, enumerated=enumerated, coverage=coverage)
    there, ran = cluster_code.code_mutants_on(
        client, "test", mutants, corpus.fixtures, coverage, enumerated=enumerated, timeout=WAIT
    )
    assert ran.tasks == 2 and sum(s.units for s in ran.shares.values()) == 50  # batches of 40
    assert [(o.mutant, o.status, o.killers) for o in there.outcomes] == [
        (o.mutant, o.status, o.killers) for o in here.outcomes
    ]
