"""What ``--cluster`` names, and a client on it.

``local:N`` starts a ``LocalCluster`` of ``N`` worker processes on this machine, one
thread each, on the loopback interface only (``127.0.0.1``, no dashboard), stopped with
the command.  Anything else is the address of a running scheduler (``dask scheduler``:
``tcp://HOST:8786``, or ``HOST:PORT``), which must have workers (``dask worker
tcp://HOST:8786``) that run the same horserace as this one.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import re
import socket
import struct
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import distributed.client
import distributed.deploy.spec
import distributed.gc
from distributed import Client, LocalCluster
from distributed.diagnostics.plugin import WorkerPlugin

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


#: The most bytes a scheduler's first message (its handshake, some hundred bytes) may
#: announce: beyond it the peer is not a scheduler.
MAX_HANDSHAKE_BYTES = 1 << 20


def _probe(address: str, timeout: float) -> str | None:
    """What is wrong with the peer at ``tcp://HOST:PORT``, or ``None`` if it speaks as a
    Dask scheduler does on connection (its handshake first: a length of 8 bytes, then that
    many), all within ``timeout`` seconds.  Only the length is read, then the bytes it
    announces: a peer that never speaks, or announces more than
    :data:`MAX_HANDSHAKE_BYTES`, is refused before Dask's client reads from it."""
    scheme, _, rest = address.partition("://")
    if scheme != "tcp":  # tls: Dask's own client, with its timeout
        return None
    host, _, port = rest.rpartition(":")
    deadline = time.monotonic() + timeout

    def left() -> float:
        return max(0.001, deadline - time.monotonic())

    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=left()) as sock:
            got = b""
            while len(got) < 8:
                sock.settimeout(left())
                chunk = sock.recv(8 - len(got))
                if not chunk:
                    return "it closed the connection without a word"
                got += chunk
            (size,) = struct.unpack("<Q", got)
            if not 0 < size <= MAX_HANDSHAKE_BYTES:
                return f"its first message announces {size:,} bytes, not a scheduler's handshake"
            while size > 0:
                sock.settimeout(left())
                chunk = sock.recv(min(size, 65536))
                if not chunk:
                    return "it closed the connection within its first message"
                size -= len(chunk)
    except TimeoutError:
        return f"it did not speak within {timeout:g} s"
    except OSError as exc:
        return str(exc) or type(exc).__name__
    return None


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


class _QuietFinalizers:
    """An unraisable-exception hook that drops what Dask's finalizers say when they run
    after its event loop has closed (``Exception ignored in: <function Client.__del__
    ...>: RuntimeError: IOLoop is closed``): the objects are gone with their loop, and
    the text would reach the command's stderr.  Every other unraisable exception goes
    to the hook it replaced."""

    def __init__(self, previous: Callable[[sys.UnraisableHookArgs], object]) -> None:
        self.previous = previous

    def __call__(self, unraisable: sys.UnraisableHookArgs) -> None:
        if not getattr(unraisable.object, "__module__", "").startswith("distributed."):
            self.previous(unraisable)


def _quiet_dask_finalizers() -> None:
    """:class:`_QuietFinalizers` in place, once."""
    if not isinstance(sys.unraisablehook, _QuietFinalizers):
        sys.unraisablehook = _QuietFinalizers(sys.unraisablehook)


class _QuietWorker(WorkerPlugin):
    """On each worker of ``local:N``, whose stderr is the command's, and on each worker
    started in place of one that died: :func:`_quiet_dask_finalizers` (a shard's client
    on the worker, closed with the worker, spoke from ``Client.__del__``)."""

    def setup(self, worker: object) -> None:
        _quiet_dask_finalizers()


def _close(client: Client | None, local: LocalCluster | None, timeout: float) -> None:
    """The client closed, then the local cluster, each within ``timeout``; then Dask's
    hooks of interpreter exit and its collector diagnostics removed, and a client that
    could not close made inert, so that nothing of Dask's speaks after the command
    (before: a traceback from ``Client.__del__`` or from the exit hooks, on a cluster
    whose workers had all died)."""
    closed = True
    if client is not None:
        try:
            client.close(timeout=timeout)
        except Exception:  # noqa: BLE001  (a cleanup: whatever Dask's close raises, the local cluster is still closed and the client made inert)
            closed = False
    if local is not None:
        with contextlib.suppress(Exception):
            local.close(timeout=timeout)
    _quiet_dask_finalizers()
    atexit.unregister(distributed.client._close_global_client)  # noqa: SLF001  (Dask's exit hook has no public name)
    atexit.unregister(distributed.deploy.spec.close_clusters)
    with contextlib.suppress(Exception):
        distributed.gc.disable_gc_diagnosis(force=True)
    if client is not None and not closed:
        # Client.__del__ closes a client whose loop it still has: this one could not be.
        with contextlib.suppress(Exception):
            client._Client__loop = None  # type: ignore[attr-defined]  # noqa: SLF001  (name-mangled private of Client)


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
            client.register_plugin(_QuietWorker(), name="horserace-quiet-finalizers")
        else:
            assert cluster.address is not None
            wrong = _probe(cluster.address, timeout)
            if wrong is None:
                try:
                    client = Client(cluster.address, timeout=timeout)
                except Exception as exc:  # noqa: BLE001  (whatever Dask's client raises on connecting, its comm's OSError or a tls address's ValueError, is the usage message)
                    wrong = str(exc) or type(exc).__name__
            if wrong is not None or client is None:
                raise UsageError(
                    f"--cluster {text}: no scheduler answers at {cluster.address} ({wrong}); start one with "
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
        _close(client, local, timeout)
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
