"""One ``LocalCluster`` per test module: two worker processes of one thread each, on the
loopback interface only, no dashboard, started and stopped by the module's tests.  The
tests are skipped, with the reason, where the ``distributed`` extra is not installed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip(
    "distributed", reason="the distributed extra is not installed (pip install 'horserace[distributed]')"
)

from distributed import Client, LocalCluster

from horserace.cluster.connect import local_cluster

#: Seconds any one wait of these tests may take.
WAIT = 60


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    local = local_cluster(2)  # what local:2 starts
    try:
        yield local
    finally:
        local.close(timeout=WAIT)


@pytest.fixture(scope="module")
def client(cluster: LocalCluster) -> Iterator[Client]:
    with Client(cluster, timeout=WAIT) as c:
        c.wait_for_workers(2, timeout=WAIT)
        yield c
