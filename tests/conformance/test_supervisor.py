"""One :class:`Supervisor` per run: the processes of a run, counted scans of ``/proc``,
and no fact of one run left behind for the next."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from horserace.conformance import _descendants
from horserace.conformance.process import Implementation
from horserace.conformance.runner import Options, Worker
from horserace.conformance.server import reference_argv
from horserace.conformance.supervisor import Supervisor
from horserace.errors import ImplementationUnusable

pytestmark = pytest.mark.skipif(not _descendants.has_proc(), reason="processes are followed through /proc (Linux)")


#: Run in a fresh interpreter: a supervisor that owns its process takes every unmarked
#: child of that process for an implementation's orphan and kills it, and in pytest's
#: own process those are pytest's children (multiprocessing's resource tracker, a
#: LocalCluster's workers), which other tests need.
_PRELUDE = """
import subprocess, sys
from horserace.conformance import _descendants, process
from horserace.conformance.runner import Options, Worker, plan
from horserace.conformance.server import reference_argv
from horserace.conformance.supervisor import Supervisor

scans = []
_listing = _descendants._pids

def counting():
    scans.append(1)  # every scan of /proc lists its processes through _pids
    return _listing()

_descendants._pids = counting

def started(supervisor):
    worker = Worker(reference_argv(), Options(handshake_timeout=30), supervisor=supervisor)
    worker.declared()
    return worker.impl
"""


def _in_a_process_of_its_own(body: str) -> str:
    """What ``body`` (after :data:`_PRELUDE`) prints, run in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", _PRELUDE + textwrap.dedent(body)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("own_process", [False, True], ids=["library", "own process"])
def test_a_kill_under_its_reaper_scans_proc_once(own_process: bool) -> None:
    said = _in_a_process_of_its_own(
        f"""
        supervisor = Supervisor(own_process={own_process})
        impl = started(supervisor)
        scans.clear()
        impl.kill()
        print(len(scans), supervisor.live())
        """
    )
    assert said == "1 0"  # before the supervisor: 2 scans where horserace owns its process


def test_a_kill_without_a_reaper_scans_proc_twice() -> None:
    """Without a reaper (horserace run from a zip archive) a kill scans before the group
    is killed and once after, the orphans' sweep joined to the second (it was a third)."""
    said = _in_a_process_of_its_own(
        """
        process._REAPER = "/nonexistent/_reaper.py"
        impl = started(Supervisor(own_process=True))
        scans.clear()
        impl.kill()
        print(len(scans))
        """
    )
    assert said == "2"


def test_a_library_run_after_the_command_leaves_its_callers_children_alone() -> None:
    """The fact "horserace owns its process" belongs to the run that says it: a run as
    the command (own process: an unknown child is an orphan, killed) and then a run as a
    library in the same process, which must not take the caller's child for an orphan."""
    said = _in_a_process_of_its_own(
        """
        argv = reference_argv()
        plan(argv, [], Options(), supervisor=Supervisor(own_process=True))
        callers = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        try:
            plan(argv, [], Options())
            print("alive" if callers.poll() is None else "killed")
        finally:
            callers.kill()
            callers.wait()
        """
    )
    assert said == "alive", "the library run killed its caller's own child"


def _started(supervisor: Supervisor) -> Implementation:
    """The reference engine, running (its hello answered), under ``supervisor`` (of a
    library run: safe in pytest's process)."""
    worker = Worker(reference_argv(), Options(handshake_timeout=30), supervisor=supervisor)
    worker.declared()
    return worker.impl


def test_stopping_one_run_starts_no_process_of_its_own_and_leaves_the_next_free() -> None:
    stopped = Supervisor()
    stopped.kill_all()
    with pytest.raises(ImplementationUnusable, match="the run was interrupted"):
        _started(stopped)
    free = Supervisor()
    impl = _started(free)
    assert free.live() == 1
    impl.kill()
    assert free.live() == 0
