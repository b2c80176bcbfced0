"""Shards of a campaign on ``--jobs`` worker processes, their results in shard order.

The one design of every local ``--jobs`` (``impact``, ``fuzz``, ``mutants``): the work is
cut into shards fixed before the run (by its seed and size, never by the number of
workers), each shard is a call ``fn(task)`` of a module-level function, and the results
are taken in the order of the shards, whichever worker ran them and whenever they came.
So a run gives the same result for every ``jobs``.

``jobs`` 1 (or a single shard): the shards run in this process, one after another, no
pool.  Otherwise a pool of that many processes, **spawned** (the same on every platform,
nothing of the parent's threads or locks inherited): a ``ProcessPoolExecutor``, which
says when a worker dies (an :class:`~horserace.errors.EnvironmentFailure`, exit 6),
where ``multiprocessing.Pool`` would start another and wait for the lost shard forever.  A worker leaves Ctrl-C and SIGHUP
to its parent; the parent ends the workers (SIGTERM) once it is done, on an error, on a
signal, or once ``until`` says the shards after the one just taken are not wanted.  A
worker ended so unwinds (its ``finally`` blocks run: an implementation it started is
stopped), so no process is left behind.  A script that calls a campaign with ``jobs``
above 1 must do so under ``if __name__ == "__main__":`` (a spawned worker imports it).
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from horserace.errors import EnvironmentFailure, HorseRaceError

__all__ = ["in_processes"]

T = TypeVar("T")
R = TypeVar("R")


class _Ended(SystemExit):
    """Raised in a worker by the parent's SIGTERM: the worker unwinds and exits."""


#: Whether this worker is running a task (then SIGTERM unwinds it; idle, it just exits).
_busy = False


def _end(signum: int, frame: object) -> None:
    if not _busy:
        os._exit(128 + signum)  # idle, or exiting already: nothing of ours to stop
    raise _Ended(128 + signum)


def _worker_start() -> None:
    """A worker leaves Ctrl-C and SIGHUP to its parent, which ends it; SIGTERM (the
    parent ending it) unwinds it, so that what it started is stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _end)


def _call(job: tuple[Callable[[Any], Any], Any]) -> Any:
    """Run one shard in a worker.  An error that would not come back whole through
    pickle (an exception class with arguments of its own) comes back as a plain one
    with its message, a user's error still a :class:`ValueError`-like one."""
    global _busy  # noqa: PLW0603  (the worker's one flag, read by its SIGTERM handler)
    fn, task = job
    _busy = True
    try:
        return fn(task)
    except Exception as exc:
        try:
            pickle.loads(pickle.dumps(exc))  # noqa: S301  (a round trip of our own worker's exception)
        except Exception:  # noqa: BLE001  (pickling a third party's exception may fail in any way)
            kind = HorseRaceError if isinstance(exc, HorseRaceError) else RuntimeError
            raise kind(str(exc)) from None
        raise
    finally:
        _busy = False


def in_processes(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    jobs: int = 1,
    *,
    done: Callable[[int, R], None] | None = None,
    until: Callable[[int, R], bool] | None = None,
) -> list[R | None]:
    """``fn(task)`` of each task, in the order of ``tasks`` (``None`` for one not run).
    ``done(i, result)`` is told of each result in that order, as soon as it and every
    one before it are in; ``until(i, result)`` true: the tasks after ``i`` are not
    wanted (those running are ended, their results dropped).  Whatever is raised here
    while the workers run (an error of a task, Ctrl-C, a signal's exception) ends the
    workers and goes on: ``done`` has then been told of every result taken."""
    results: list[R | None] = [None] * len(tasks)
    if jobs <= 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            result = results[i] = fn(task)
            if done is not None:
                done(i, result)
            if until is not None and until(i, result):
                break
        return results
    pool = ProcessPoolExecutor(
        min(jobs, len(tasks)), mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start
    )
    whole = False
    try:
        pending = [pool.submit(_call, (fn, task)) for task in tasks]
        for i, future in enumerate(pending):
            try:
                result = results[i] = future.result()
            except BrokenProcessPool:
                raise EnvironmentFailure(
                    f"a worker process died (killed, or out of memory) before shard {i + 1} of {len(tasks)} came "
                    "back: nothing of it or of the shards after it is counted"
                ) from None
            if done is not None:
                done(i, result)
            if until is not None and until(i, result):
                break
        else:
            whole = True
    finally:
        if whole:
            pool.shutdown(wait=True)  # every result in: the workers, idle, end as told
        else:
            _end_workers(pool)  # a stop, an error, or shards not wanted
    return results


#: Seconds a worker ended with SIGTERM has to unwind (and stop what it started) before
#: it is killed.
_UNWIND_SECONDS = 5.0


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """End every worker of ``pool`` now: SIGTERM (a busy worker unwinds, its
    implementation stopped), then SIGKILL for one still running after
    :data:`_UNWIND_SECONDS`; the pool is not waited for (its own shutdown could wait on a
    worker ended in the middle of a result)."""
    workers = list(getattr(pool, "_processes", {}).values())  # the pool's processes: no public handle on them
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    deadline = time.monotonic() + _UNWIND_SECONDS
    for worker in workers:
        worker.join(max(0.0, deadline - time.monotonic()))
        if worker.is_alive():
            worker.kill()
            worker.join()
