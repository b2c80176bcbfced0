"""One ``LocalCluster`` per test module: two worker processes of one thread each, on the
loopback interface only, no dashboard, started and stopped by the module's tests.  The
tests are skipped, with the reason, where the ``distributed`` extra is not installed."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

pytest.importorskip(
    "distributed", reason="the distributed extra is not installed (pip install 'horserace[distributed]')"
)

from distributed import Client, LocalCluster

#: Seconds any one wait of these tests may take.
WAIT = 60


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    local = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",  # its HTTP endpoints on a free loopback port
        scheduler_kwargs={"dashboard": False},
        silence_logs=logging.CRITICAL,
    )
    try:
        yield local
    finally:
        local.close(timeout=WAIT)


@pytest.fixture(scope="module")
def client(cluster: LocalCluster) -> Iterator[Client]:
    with Client(cluster, timeout=WAIT) as c:
        c.wait_for_workers(2, timeout=WAIT)
        yield c
