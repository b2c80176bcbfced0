"""What ``--cluster`` names, and a client on it.

``local:N`` starts a ``LocalCluster`` of ``N`` worker processes on this machine, one
thread each, on the loopback interface only (``127.0.0.1``, no dashboard), stopped with
the command.  Anything else is the address of a running scheduler (``dask scheduler``:
``tcp://HOST:8786``, or ``HOST:PORT``), which must have workers (``dask worker
tcp://HOST:8786``) that run the same horserace as this one.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass

from distributed import Client, LocalCluster

from horserace._version import __version__
from horserace.errors import EnvironmentFailure, UsageError

__all__ = ["MAX_LOCAL_WORKERS", "Cluster", "connected", "local_cluster", "parse"]

#: The most worker processes ``local:N`` starts: beyond it a value is a mistake.
MAX_LOCAL_WORKERS = 64
#: Seconds to reach a scheduler, and to wait for its first worker.
CONNECT_SECONDS = 10.0

_LOCAL = re.compile(r"local:(?P<n>\d+)")
_ADDRESS = re.compile(r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9a-fA-F:]+\]|[A-Za-z0-9._-]+):(?P<port>\d{1,5})")
#: Dask's loggers say what they do at INFO and WARNING (a worker that died, a task that is
#: re-run); the command says what matters in its own words.
_QUIET = logging.CRITICAL


@dataclass(frozen=True)
class Cluster:
    """What ``--cluster`` names: ``local`` worker processes to start, or a scheduler's
    ``address``."""

    text: str
    local: int | None = None
    address: str | None = None


def parse(text: str) -> Cluster:
    """``local:N`` or ``[tcp://]HOST:PORT`` (a :class:`UsageError` for anything else)."""
    local = _LOCAL.fullmatch(text)
    if local:
        n = int(local["n"])
        if not 1 <= n <= MAX_LOCAL_WORKERS:
            raise UsageError(f"--cluster {text}: give local:N with N from 1 to {MAX_LOCAL_WORKERS}")
        return Cluster(text, local=n)
    address = _ADDRESS.fullmatch(text)
    if address is None or not 0 < int(address["port"]) < 65536 or address["scheme"] not in (None, "tcp", "tls"):
        raise UsageError(
            f"--cluster {text!r}: give a scheduler's address (tcp://HOST:PORT, as 'dask scheduler' prints it) "
            "or local:N (N worker processes on this machine)"
        )
    return Cluster(text, address=text if address["scheme"] else f"tcp://{text}")


def _worker_version() -> str:
    """This horserace's version, as a worker reports it."""
    return __version__


def local_cluster(workers: int) -> LocalCluster:
    """What ``local:N`` starts: ``workers`` worker processes of one thread each, on the
    loopback interface only, no dashboard (its HTTP endpoints on a free loopback port),
    its logs quiet."""
    return LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        scheduler_kwargs={"dashboard": False},
        silence_logs=_QUIET,
    )


@contextlib.contextmanager
def connected(text: str, *, timeout: float = CONNECT_SECONDS) -> Iterator[Client]:
    """A client on the cluster ``text`` names, closed (and a local cluster stopped) when
    the block ends, however it ends.  A scheduler that cannot be reached, or has no
    worker within ``timeout``, or whose workers run another horserace, is a
    :class:`UsageError`."""
    cluster = parse(text)
    loggers = [logging.getLogger("distributed")] + [
        logger
        for name, logger in logging.Logger.manager.loggerDict.items()
        if name.startswith("distributed.") and isinstance(logger, logging.Logger) and logger.level
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(_QUIET)
    local: LocalCluster | None = None
    client: Client | None = None
    try:
        if cluster.local is not None:
            try:
                local = local_cluster(cluster.local)
            except OSError as exc:
                raise EnvironmentFailure(f"--cluster {text}: could not start the local workers: {exc}") from None
            client = Client(local, timeout=timeout)
        else:
            try:
                client = Client(cluster.address, timeout=timeout)
            except OSError as exc:
                raise UsageError(
                    f"--cluster {text}: no scheduler answers at {cluster.address} ({exc}); start one with "
                    "'dask scheduler' and give the address it prints"
                ) from None
            try:
                client.wait_for_workers(1, timeout=timeout)
            except TimeoutError:
                raise UsageError(
                    f"--cluster {text}: the scheduler has no worker after {timeout:g} s; start some with "
                    f"'dask worker {cluster.address}' on each machine"
                ) from None
        versions = client.run(_worker_version)
        foreign = sorted(f"{worker} runs horserace {v}" for worker, v in versions.items() if v != __version__)
        if foreign:
            raise UsageError(
                f"--cluster {text}: every worker needs horserace {__version__}, as here: {'; '.join(foreign)}"
            )
        yield client
    finally:
        with contextlib.suppress(Exception):
            if client is not None:
                client.close(timeout=timeout)
        with contextlib.suppress(Exception):
            if local is not None:
                local.close(timeout=timeout)
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)
