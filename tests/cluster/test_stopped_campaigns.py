"""Campaigns on a cluster that end early, through the real command: SIGTERM to
``mutants --cluster`` and ``perft --cluster`` prints what ran (the verdicts of the
mutants judged, the count of the first moves counted, each said to be partial) and
exits 143; an implementation that kills every worker it runs on ends the campaign with
the environment's exit code and one line, no traceback, nothing left running.  Each
starts its own ``local:1`` cluster (slow: about 40 s in all)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from horserace.cli.exitcodes import ExitCode
from tests.cluster.conftest import WAIT

pytestmark = pytest.mark.slow


def _descendants(pid: int) -> list[psutil.Process]:
    with contextlib.suppress(psutil.Error):
        return psutil.Process(pid).children(recursive=True)
    return []


def _terminated_once(argv: list[str], ready, settle: float) -> tuple[subprocess.CompletedProcess, list[psutil.Process]]:
    """Run ``horserace ARGV``; once ``ready(descendants)`` holds, wait ``settle`` seconds
    and send SIGTERM to the command alone; its result and every process it had started."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "horserace", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    seen: dict[int, psutil.Process] = {}
    try:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and proc.poll() is None:
            children = _descendants(proc.pid)
            seen.update((c.pid, c) for c in children)
            if ready(children):
                break
            time.sleep(0.1)
        time.sleep(settle)
        seen.update((c.pid, c) for c in _descendants(proc.pid))
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), list(seen.values())


def _cmdline(p: psutil.Process) -> str:
    with contextlib.suppress(psutil.Error):
        return " ".join(p.cmdline())
    return ""


def _clean(done: subprocess.CompletedProcess, started: list[psutil.Process]) -> None:
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    _, alive = psutil.wait_procs(started, timeout=WAIT)  # the local cluster's processes end with it
    for p in alive:
        p.kill()
    assert started and not alive, [_cmdline(p) for p in alive]


def test_sigterm_to_mutants_on_a_cluster_prints_the_verdicts_of_the_mutants_judged():
    """42 mutants through the protocol on one worker take about 10 s; SIGTERM 1.5 s after
    the first mutant's server starts.  Before, nothing was printed and the verdicts of
    the mutants already judged were lost."""
    done, started = _terminated_once(
        ["mutants", "--cluster", "local:1", "--format", "json"],
        lambda children: any("serve" in _cmdline(c) for c in children),
        settle=1.5,
    )
    assert done.returncode == ExitCode.TERMINATED, done.stderr
    doc = json.loads(done.stdout)
    ran = doc["cluster"]
    assert ran["stopped"] == "stopped by SIGTERM (signal 15)"
    assert len(doc["mutants"]) == ran["finished"] < ran["tasks"] == 42
    assert f"the {ran['finished']} of 42 mutants judged before" in done.stderr
    _clean(done, started)


def test_sigterm_to_perft_on_a_cluster_prints_the_first_moves_counted_and_says_so():
    """perft seed:1 at depth 14 has seven first moves, one of them 32 million nodes
    (about 50 s); SIGTERM 4 s after the worker starts.  The count printed is the sum of
    the first moves counted, and the text says it is not the position's."""
    done, started = _terminated_once(
        ["perft", "seed:1", "--depth", "14", "--divide", "--cluster", "local:1", "--format", "json"],
        lambda children: any("spawn_main" in _cmdline(c) for c in children),
        settle=4,
    )
    assert done.returncode == ExitCode.TERMINATED, done.stderr
    doc = json.loads(done.stdout)
    ran = doc["cluster"]
    assert doc["complete"] is False and ran["stopped"] == "stopped by SIGTERM (signal 15)"
    assert len(doc["divide"]) == ran["finished"] < ran["tasks"] == 7
    assert doc["nodes"] == sum(doc["divide"].values())
    assert f"of the {ran['finished']} of 7 first moves counted before, not the position's" in done.stderr
    _clean(done, started)


#: An implementation that SIGKILLs the Dask worker process it runs under, each time it is started.
KILLER = """
import os, signal, sys
import psutil
for parent in psutil.Process().parents():
    if "spawn_main" in " ".join(parent.cmdline()):  # a worker process of the local cluster
        os.kill(parent.pid, signal.SIGKILL)
        break
sys.stdin.read()
"""


def test_an_implementation_that_kills_every_worker_ends_the_campaign_with_one_line(tmp_path: Path):
    """Every worker that starts a shard dies with it; the nanny starts another, which dies
    too, until Dask gives the shard up: exit 6 (the environment), the shard named, no
    traceback (before: one from ``Client.__del__``), no process left."""
    killer = tmp_path / "killer.py"
    killer.write_text(KILLER, encoding="utf-8")
    sentinel = f"horserace-killer-{os.getpid()}"
    impl = f"{sys.executable} {killer} {sentinel}"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "horserace",
            "fuzz",
            "--impl",
            impl,
            "--cluster",
            "local:2",
            "--budget",
            "20",
            "--kind",
            "settlement",
            "--out",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: dict[int, psutil.Process] = {}
    try:
        deadline = time.monotonic() + 3 * WAIT
        while time.monotonic() < deadline and proc.poll() is None:
            seen.update((c.pid, c) for c in _descendants(proc.pid))
            time.sleep(0.1)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert done.returncode == ExitCode.ENVIRONMENT, (out, err)
    assert "died while running it" in err and len(err.strip().splitlines()) == 1, err
    _clean(done, list(seen.values()))
    left = [p for p in psutil.process_iter(["cmdline"]) if sentinel in " ".join(p.info["cmdline"] or [])]
    assert not left


def _hook_name() -> str:
    return type(sys.unraisablehook).__name__


def test_dasks_finalizers_speak_on_no_worker_of_local_n_even_one_started_in_place_of_one_that_died():
    """The complaint of a Dask object finalized after its loop closed is dropped on each
    worker of ``local:N`` (whose stderr is the command's), and on the worker the nanny
    starts after one is killed; any other unraisable exception is still reported."""
    from horserace.cluster.connect import _QuietFinalizers, connected

    with connected("local:1") as client:
        (first,) = client.run(os.getpid).values()
        assert list(client.run(_hook_name).values()) == ["_QuietFinalizers"]
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                pids = list(client.run(os.getpid).values())
                if pids and first not in pids:
                    break
            time.sleep(0.2)
        assert list(client.run(_hook_name).values()) == ["_QuietFinalizers"]
    said: list[object] = []
    hook = _QuietFinalizers(lambda unraisable: said.append(unraisable.object))

    class Args:
        def __init__(self, obj: object) -> None:
            self.object = obj

    from distributed import Client

    hook(Args(Client.__del__))
    hook(Args(_hook_name))
    assert said == [_hook_name]
