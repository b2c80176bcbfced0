"""Running a campaign's tasks on a cluster and keeping their results by task.

Each task is one call of a module-level function of this room on one worker; its result
comes back with the worker that ran it and the seconds it took there.  The results are
kept in the order of the tasks, whatever order they finish in, so a task that Dask runs
again (its worker died: the scheduler gives it to another worker, up to
``distributed.scheduler.allowed-failures`` times) is counted once, by the run that
finished.  Whatever ends the campaign (the last result, an error, Ctrl-C, a scheduler that
goes away), the tasks not finished are cancelled before the client is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError  # what a future lost with its scheduler raises
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

import psutil  # distributed depends on it
from distributed import Client, Future, get_worker, wait
from distributed.client import FutureCancelledError, FuturesCancelledError
from distributed.scheduler import KilledWorker

from horserace._signals import deferred_signals
from horserace.conformance._descendants import MARK
from horserace.errors import EnvironmentFailure

__all__ = ["Done", "Ran", "WorkerShare", "run_tasks", "run_until_stopped"]

R = TypeVar("R")

#: What a future lost with its scheduler raises, by the versions of distributed.
_CANCELLED = (CancelledError, FutureCancelledError, FuturesCancelledError)
#: Seconds a worker may take to end the implementations of its cancelled tasks.
_END_SECONDS = 5.0
#: Tasks in flight per worker, at most (:func:`_window`).
WINDOW_PER_WORKER = 4
#: Seconds the client waits for a result before it looks at a held signal again.
_POLL_SECONDS = 0.25


@dataclass
class WorkerShare:
    """What one worker did: tasks finished, seconds busy with them, and the units of work
    (hands, nodes, fixtures) in them."""

    tasks: int = 0
    seconds: float = 0.0
    units: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"tasks": self.tasks, "seconds": round(self.seconds, 3), "units": self.units}


@dataclass
class Ran:
    """Where a campaign ran: the cluster, its workers when it began, the tasks, and each
    worker's share of them."""

    cluster: str
    workers: int
    tasks: int
    seconds: float = 0.0  #: wall time, from the first task sent to the last result
    unit: str = "units"  #: what ``units`` counts
    shares: dict[str, WorkerShare] = field(default_factory=dict)
    #: What stopped the campaign before its last task (``"stopped by SIGTERM (signal 15)"``,
    #: ``"interrupted"``), or ``None``: it ran to its end.
    stopped: str | None = None

    def count(self, worker: str, seconds: float, units: int) -> None:
        """One task's result, from ``worker``, that took ``seconds`` and did ``units``."""
        share = self.shares.setdefault(worker, WorkerShare())
        share.tasks += 1
        share.seconds += seconds
        share.units += units

    @property
    def finished(self) -> int:
        """The tasks whose results came back."""
        return sum(s.tasks for s in self.shares.values())

    @property
    def busy_seconds(self) -> float:
        return sum(s.seconds for s in self.shares.values())

    @property
    def busy_share(self) -> float | None:
        """The share of the workers' time spent in tasks (the rest: the scheduler, the
        start of each task, a tail with some workers idle)."""
        available = self.seconds * self.workers
        return self.busy_seconds / available if available > 0 else None

    def to_dict(self) -> dict[str, Any]:
        share = self.busy_share
        return {
            "cluster": self.cluster,
            "workers": self.workers,
            "tasks": self.tasks,
            "seconds": round(self.seconds, 3),
            "busy_share": round(share, 3) if share is not None else None,
            "finished": self.finished,
            "stopped": self.stopped,
            "unit": self.unit,
            "per_worker": {name: s.to_dict() for name, s in sorted(self.shares.items())},
        }

    def text(self) -> str:
        share = self.busy_share
        lines = [
            f"ran on {self.cluster}: {self.tasks:,} task{'' if self.tasks == 1 else 's'} on {self.workers} "
            f"worker{'' if self.workers == 1 else 's'} in {self.seconds:.1f} s"
            + (f", workers busy {share:.0%} of the time" if share is not None else "")
        ]
        if self.stopped is not None:
            lines.append(f"  {self.stopped}: {self.finished:,} of {self.tasks:,} tasks finished")
        for name, s in sorted(self.shares.items()):
            rate = f", {s.units / s.seconds:,.0f} {self.unit}/s" if s.seconds > 0 and s.units else ""
            lines.append(f"  worker {name}: {s.tasks:,} tasks, {s.units:,} {self.unit} in {s.seconds:.1f} s{rate}")
        return "\n".join(lines)


@dataclass(frozen=True)
class Done(Generic[R]):
    """A finished task: its index among the campaign's tasks and its result."""

    index: int
    result: R


def _kill_implementations() -> int:
    """SIGKILL every implementation this worker's tasks started (marked with a token of
    this process, :data:`horserace.conformance._descendants.MARK`) and its descendants;
    the number killed."""
    me = os.getpid()
    prefix = f"{me}-"
    doomed: set[int] = set()
    for proc in psutil.Process(me).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if proc.environ().get(MARK, "").startswith(prefix):
                doomed.add(proc.pid)
                doomed.update(c.pid for c in proc.children(recursive=True))
    for pid in doomed:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(doomed)


async def _end_implementations(dask_worker: Any) -> int:
    """Run on a worker, beside its tasks, once the campaign's tasks are cancelled: end
    the implementations its tasks started until none of its tasks runs (each ends on its
    dead implementation), for :data:`_END_SECONDS` at most, so that a task cancelled
    while it waits for a hello, or a worker closed with the cluster, leaves no process
    behind.  The number killed."""
    deadline = time.monotonic() + _END_SECONDS
    killed = 0
    while True:
        killed += _kill_implementations()
        if not dask_worker.state.executing or time.monotonic() > deadline:
            return killed
        await asyncio.sleep(0.05)  # the worker's loop, free meanwhile, hears its tasks end


def _timed(fn: Callable[..., R], *args: Any) -> tuple[R, str, float]:
    """Run on a worker: ``fn(*args)``, the worker's name and the seconds it took."""
    began = time.perf_counter()
    result = fn(*args)
    return result, str(get_worker().name), time.perf_counter() - began


def _window(workers: int) -> int:
    """Tasks in flight at once: enough that no worker waits for its next, few enough that
    the client holds a few dozen futures whatever the campaign's size."""
    return max(8, WINDOW_PER_WORKER * max(1, workers))


def _result_of(future: Future[tuple[R, str, float]], i: int, tasks: int, cluster: str) -> tuple[R, str, float]:
    """Task ``i``'s result, its worker and its seconds; a worker that died running it too
    often, or a scheduler gone, is an :class:`~horserace.errors.EnvironmentFailure`."""
    try:
        return future.result()
    except KilledWorker as exc:
        raise EnvironmentFailure(
            f"--cluster {cluster}: every worker that ran task {i + 1} of {tasks} died while "
            f"running it ({exc}); nothing of it is counted"
        ) from None
    except _CANCELLED as exc:  # the scheduler cancels nothing of ours: it went away
        raise EnvironmentFailure(f"--cluster {cluster}: the scheduler went away during the campaign ({exc})") from None


def _workers(client: Client) -> int:
    return len(client.scheduler_info(n_workers=-1).get("workers", {}))


def run_tasks(
    client: Client,
    cluster: str,
    fn: Callable[..., R],
    items: Sequence[tuple[Any, ...]],
    *,
    name: str,
    units: Callable[[R], int] = lambda _: 0,
    unit: str = "units",
    done: Callable[[Done[R]], None] | None = None,
    timeout: float | None = None,
    ran: Ran | None = None,
) -> tuple[list[R], Ran]:
    """``fn(*item)`` for each item, one task each, and the results in the order of the
    items; ``ran``, if given, is filled in place (what ran is then known to a caller
    whom a signal stops, :func:`run_until_stopped`).  ``done`` is told of each result as
    it arrives (progress; a campaign that stops early).  A task whose worker died too often is an
    :class:`~horserace.errors.EnvironmentFailure`, as is a scheduler that goes away; an
    error raised by ``fn`` on a worker is raised here.  ``timeout``: seconds the whole
    campaign may take (an :class:`~horserace.errors.EnvironmentFailure` after them).

    The tasks are sent as the cluster frees: at most :func:`_window` of them are on the
    cluster at once, the next item read (``items`` may be a lazy sequence) as one
    finishes, so the client's memory does not grow with the campaign.  SIGINT, SIGTERM
    and SIGHUP are held while the client waits (Dask's threads and callbacks never see
    them) and acted on within :data:`_POLL_SECONDS`: the tasks left are cancelled and the
    signal goes on to the handler in place (Ctrl-C, the command line's ``Stopped``)."""
    if ran is None:
        ran = Ran(cluster, _workers(client), len(items), unit=unit)
    campaign = f"horserace-{name}-{uuid.uuid4().hex[:12]}"
    task = functools.partial(_timed, fn)
    window = _window(ran.workers)
    deadline = None if timeout is None else time.monotonic() + timeout
    results: list[R | None] = [None] * len(items)
    finished = bytearray(len(items))
    flying: dict[Future[tuple[R, str, float]], int] = {}
    ready: set[Future[tuple[R, str, float]]] = (
        set()
    )  # the results being read: forgotten too if the campaign stops among them
    sent = 0
    began = time.perf_counter()
    try:
        with deferred_signals() as held:
            while (sent < len(items) or flying) and held.signum is None:
                while sent < len(items) and len(flying) < window:
                    future = client.submit(task, *items[sent], key=f"{campaign}-{sent}", pure=False)
                    flying[future] = sent
                    sent += 1
                slice_ = _POLL_SECONDS
                if deadline is not None:
                    slice_ = min(slice_, deadline - time.monotonic())
                    if slice_ <= 0:
                        raise EnvironmentFailure(
                            f"--cluster {cluster}: the campaign did not finish within {timeout:g} s"
                        )
                try:
                    ready = wait(list(flying), timeout=slice_, return_when="FIRST_COMPLETED").done
                except TimeoutError:
                    continue
                except _CANCELLED as exc:  # the scheduler cancels nothing of ours: it went away
                    raise EnvironmentFailure(
                        f"--cluster {cluster}: the scheduler went away during the campaign ({exc})"
                    ) from None
                for future in sorted(ready, key=flying.__getitem__):
                    i = flying.pop(future)
                    result, worker, seconds = _result_of(future, i, len(items), cluster)
                    if finished[i]:
                        continue
                    finished[i] = 1
                    results[i] = result
                    ran.count(worker, seconds, units(result))
                    if done is not None:
                        done(Done(i, result))
    finally:
        ran.seconds = time.perf_counter() - began
        if flying or ready:
            with contextlib.suppress(Exception):  # a scheduler already gone: its futures went with it
                client.cancel([*flying, *ready], force=True)
        if flying:  # a task cancelled while it runs goes on in its worker: its implementation is ended
            with contextlib.suppress(Exception):
                client.run(_end_implementations, wait=True, on_error="return")
        # No future outlives the campaign in this frame, which the exception of a stop
        # keeps (a caller holds it): the scheduler forgets a task once no future wants it.
        flying.clear()
        ready = set()
    return cast("list[R]", results), ran  # every task finished: none is left None


def run_until_stopped(
    client: Client,
    cluster: str,
    fn: Callable[..., R],
    items: Sequence[tuple[Any, ...]],
    *,
    name: str,
    units: Callable[[R], int] = lambda _: 0,
    unit: str = "units",
    done: Callable[[Done[R]], None] | None = None,
    timeout: float | None = None,
) -> tuple[dict[int, R], Ran, BaseException | None]:
    """:func:`run_tasks`, stopped by a signal with what came: the results by the index of
    their item (every item's, unless stopped), what ran (its ``stopped`` said), and the
    exception of the stop (Ctrl-C, the command line's SIGTERM or SIGHUP) for the caller
    to end with, after it has written what ran; ``None`` when the campaign ran to its
    end.  Any other error is raised."""
    finished: dict[int, R] = {}

    def note(task: Done[R]) -> None:
        finished[task.index] = task.result
        if done is not None:
            done(task)

    ran = Ran(cluster, _workers(client), len(items), unit=unit)
    try:
        run_tasks(client, cluster, fn, items, name=name, units=units, unit=unit, done=note, timeout=timeout, ran=ran)
    except Exception:
        raise
    except BaseException as exc:  # noqa: BLE001  (errors re-raised above; any other stop is a signal: the caller ends with it, after writing what ran)
        ran.stopped = "interrupted" if isinstance(exc, KeyboardInterrupt) else str(exc) or type(exc).__name__
        return finished, ran, exc
    return finished, ran, None
