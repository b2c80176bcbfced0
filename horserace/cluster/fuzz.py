"""``horserace fuzz --cluster``: a fuzzing campaign as seed-range shards, one task each.

Each task is :func:`fuzz_shard` on a worker: it starts the implementation there (the
command line of ``--impl``; ``horserace`` as its first word is the worker's own
horserace) and fuzzes its seeds with :func:`horserace.quality.fuzz.fuzz_range`, up to
its first finding, shrunk on the worker; it sends back the :class:`Shard`.  The client
merges the shards by task with :func:`horserace.quality.fuzz.merge_shards`, the merge a
local run uses, and writes each finding once.

A finding stops the campaign, as it stops a local run, at the grain of a shard: no shard
starts once a finding has come back (those not yet started return at once, having tried
nothing), the shards already running finish their range, and every finding among them
is reported.  The result lists exactly the seed ranges tried, so a campaign that stopped
says which seeds are still to fuzz.  With ``keep_going`` (``--keep-going``) every shard
runs every seed, as a local run that keeps going does: each shard shrinks a finding once
per cause it meets (``shrink_all``: every one), and the merge makes the causes of all the
shards one, each with its count and its smallest finding.
"""

from __future__ import annotations

import contextlib
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, overload

from distributed import Client, Event

from horserace._signals import deferred_signals
from horserace.cluster.tasks import Done, Ran, run_until_stopped
from horserace.quality.fuzz import FuzzResult, Plan, Shard, fuzz_range, merge_shards, shards_of

__all__ = ["MIN_SHARDS_PER_WORKER", "SHARD_SEEDS", "fuzz_on", "fuzz_shard", "portable", "shard_seeds", "shards_of"]

#: Seeds per shard, at most: about 10 s of fuzzing for one worker on the project's 2-core
#: machine, against about 0.3 s to start the implementation and 10 ms of scheduler round
#: trip per task (docs/cluster.md, "Shard size": how it was chosen).
SHARD_SEEDS = 400
#: Shards per worker, at least, so that no worker waits long for the last one.
MIN_SHARDS_PER_WORKER = 4

#: Stands, in an argv sent to a worker, for the worker's own Python.
_THIS_PYTHON = "{python}"


def shard_seeds(budget: int, workers: int, size: int | None = None) -> int:
    """Seeds per shard: ``size`` if given, else :data:`SHARD_SEEDS`, made smaller so that
    each worker has at least :data:`MIN_SHARDS_PER_WORKER` shards."""
    if size is not None:
        return size
    return max(1, min(SHARD_SEEDS, -(-budget // (max(1, workers) * MIN_SHARDS_PER_WORKER))))


class _ShardTasks(Sequence[tuple[Any, ...]]):
    """The arguments of each shard's task, made as the task is sent (the shards of a
    budget of 10^9 seeds are 2.5 million: never held at once)."""

    def __init__(self, seed: int, budget: int, size: int, rest: tuple[Any, ...], sent: list[str]) -> None:
        self._seed, self._budget, self._size, self._rest, self._sent = seed, budget, size, rest, sent

    def __len__(self) -> int:
        return -(-self._budget // self._size)  # noqa: PLE0303  (a ceiling of two non-negative counts)

    @overload
    def __getitem__(self, i: int) -> tuple[Any, ...]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[Any, ...]]: ...
    def __getitem__(self, i: int | slice) -> tuple[Any, ...] | Sequence[tuple[Any, ...]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if not -len(self) <= i < len(self):
            raise IndexError(i)
        first = self._seed + (i % len(self)) * self._size
        return (self._sent, first, min(self._size, self._seed + self._budget - first), *self._rest)


def portable(argv: Sequence[str]) -> list[str]:
    """``argv`` as a worker should run it: this horserace (this Python, ``-m horserace``)
    becomes the worker's own; any other command is run as given."""
    argv = list(argv)
    if argv and argv[0] == sys.executable and "horserace" in argv[1:4] and "-m" in argv[1:4]:
        return [_THIS_PYTHON, *argv[1:]]
    return argv


def _on_worker(argv: Sequence[str]) -> list[str]:
    return [sys.executable if a == _THIS_PYTHON and i == 0 else a for i, a in enumerate(argv)]


def fuzz_shard(
    argv: Sequence[str],
    first: int,
    count: int,
    plan: Plan,
    stop: str,
    keep_going: bool = False,
    shrink_all: bool = False,
) -> Shard:
    """Run on a worker: seeds ``first .. first+count-1``, unless the campaign has stopped
    (the event ``stop`` is set): then nothing, at once."""
    if Event(stop).is_set():
        return Shard(first, 0, 0.0)
    return fuzz_range(_on_worker(argv), first, count, plan=plan, keep_going=keep_going, shrink_all=shrink_all)


def fuzz_on(
    client: Client,
    cluster: str,
    argv: Sequence[str],
    seed: int,
    budget: int,
    *,
    plan: Plan | None = None,
    shard_size: int | None = None,
    out_dir: Path | None = None,
    keep_going: bool = False,
    shrink_all: bool = False,
    progress: Callable[[int], None] | None = None,
    timeout: float | None = None,
) -> tuple[FuzzResult, Ran]:
    """Fuzz ``budget`` seeds from ``seed`` on the cluster, in shards of ``shard_size``
    seeds (default: :func:`shard_seeds`), stopping at the first finding unless
    ``keep_going`` (every seed, the findings shrunk once per cause and shard, or with
    ``shrink_all`` each one); ``progress`` is told of the seeds of each shard that
    finishes.  Findings are written under ``out_dir/generated/``, once each."""
    plan = plan or Plan()
    workers = len(client.scheduler_info(n_workers=-1).get("workers", {}))
    size = shard_seeds(budget, workers, shard_size)
    stop = Event(f"horserace-fuzz-stop-{uuid.uuid4().hex[:12]}", client=client)
    sent = portable(argv)

    def done(task: Done[Shard]) -> None:
        if task.result.finding is not None and not keep_going:
            stop.set()
        if progress is not None and task.result.seeds:
            progress(task.result.seeds)

    began = time.perf_counter()
    tasks = _ShardTasks(seed, budget, size, (plan, stop.name, keep_going, shrink_all), sent)
    try:
        finished, ran, stopped_by = run_until_stopped(
            client,
            cluster,
            fuzz_shard,
            tasks,
            name="fuzz",
            units=lambda shard: shard.tried.hands,
            unit="hands",
            done=done,
            timeout=timeout,
        )
    finally:
        # A second signal does not cut the cleanup short.  The scheduler forgets an event
        # once it is cleared; one already gone, anyway (whatever its comm raises then).
        with deferred_signals(reraise=False), contextlib.suppress(Exception):
            stop.clear()
    results = [finished[i] for i in sorted(finished)]  # every shard's, or those that finished before a signal
    elapsed = time.perf_counter() - began
    # The campaign's rate is over its wall time, less the shrinking (run on the workers, a
    # worker's share each).
    shrinking = sum(s.shrink_seconds for s in results) / max(1, ran.workers)
    with deferred_signals(reraise=False):  # the summary of what ran, whole
        result = merge_shards(
            results,
            (seed, seed + budget - 1),
            plan,
            elapsed,
            max(elapsed - shrinking, 1e-9),
            argv=argv,
            out_dir=out_dir,
            keep_going=keep_going,
            shrink_all=shrink_all,
        )
    result.stopped_by = stopped_by
    if stopped_by is not None:
        ran.seconds = elapsed
    return result, ran
