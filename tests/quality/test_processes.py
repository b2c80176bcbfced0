"""The one pool of every local ``--jobs`` (horserace/quality/processes.py): results in
shard order whatever the workers, a worker that dies is an environment failure at once
(multiprocessing.Pool would start another and wait for the lost shard forever), and a
stop ends the workers."""

from __future__ import annotations

import os
import signal

import pytest

from horserace.errors import EnvironmentFailure
from horserace.quality.processes import in_processes


def square(n: int) -> int:
    return n * n


def dies_on_three(n: int) -> int:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's OOM killer would
    return n


def test_results_come_in_shard_order_for_every_number_of_workers():
    told: list[int] = []
    for jobs in (1, 2, 3):
        told.clear()
        assert in_processes(square, list(range(7)), jobs, done=lambda i, r: told.append(i)) == [n * n for n in range(7)]
        assert told == list(range(7))


def test_a_worker_that_dies_is_an_environment_failure_not_a_wait():
    with pytest.raises(
        EnvironmentFailure, match=r"a worker process died \(killed, or out of memory\) before shard [1-4] of 6"
    ):
        in_processes(dies_on_three, list(range(6)), 2)


def test_until_drops_the_shards_after():
    assert in_processes(square, list(range(6)), 2, until=lambda i, r: i == 1) == [0, 1, None, None, None, None]
