"""One :class:`Supervisor` per run: the processes of a run, counted scans of ``/proc``,
and no fact of one run left behind for the next."""

from __future__ import annotations

import subprocess
import sys

import pytest

from horserace.conformance import _descendants, process
from horserace.conformance.process import Implementation
from horserace.conformance.runner import Options, Worker, plan
from horserace.conformance.server import reference_argv
from horserace.conformance.supervisor import Supervisor
from horserace.errors import ImplementationUnusable

pytestmark = pytest.mark.skipif(not _descendants.has_proc(), reason="processes are followed through /proc (Linux)")


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the scans of /proc: every one lists its processes through ``_pids``."""
    counted: list[int] = []
    listing = _descendants._pids

    def counting() -> list[int]:
        counted.append(1)
        return listing()

    monkeypatch.setattr(_descendants, "_pids", counting)
    return counted


def _started(supervisor: Supervisor) -> Implementation:
    """The reference engine, running (its hello answered), under ``supervisor``."""
    worker = Worker(reference_argv(), Options(handshake_timeout=30), supervisor=supervisor)
    worker.declared()
    return worker.impl


@pytest.mark.parametrize("own_process", [False, True], ids=["library", "own process"])
def test_a_kill_under_its_reaper_scans_proc_once(scans: list[int], own_process: bool) -> None:
    supervisor = Supervisor(own_process=own_process)
    impl = _started(supervisor)
    scans.clear()
    impl.kill()
    assert len(scans) == 1  # before the supervisor: 2 where horserace owns its process
    assert supervisor.live() == 0


def test_a_kill_without_a_reaper_scans_proc_twice(scans: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a reaper (horserace run from a zip archive) a kill scans before the group
    is killed and once after, the orphans' sweep joined to the second (it was a third)."""
    monkeypatch.setattr(process, "_REAPER", "/nonexistent/_reaper.py")
    impl = _started(Supervisor(own_process=True))
    scans.clear()
    impl.kill()
    assert len(scans) == 2


def test_a_library_run_after_the_command_leaves_its_callers_children_alone() -> None:
    """The fact "horserace owns its process" belongs to the run that says it: a run as
    the command (own process: an unknown child is an orphan, killed) and then a run as a
    library in the same process, which must not take the caller's child for an orphan."""
    argv = reference_argv()
    plan(argv, [], Options(), supervisor=Supervisor(own_process=True))
    callers = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        plan(argv, [], Options())
        assert callers.poll() is None, "the library run killed its caller's own child"
    finally:
        callers.kill()
        callers.wait()


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
