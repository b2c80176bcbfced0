"""Campaigns on a Dask cluster: the optional ``distributed`` extra
(``pip install 'horserace[distributed]'``), a room of its own as Hypothesis keeps its
optional integrations apart.

``horserace fuzz``, ``horserace mutants``, ``horserace perft --divide`` and ``horserace
impact`` take ``--cluster ADDRESS|local:N``: the work is cut into tasks (seed ranges,
mutants, root moves, shards of matches), each task runs on a worker of Dask's
``distributed`` scheduler (the implementation under test started there, locally), and
the client merges the results by task, not by arrival, so a task that Dask re-runs after
its worker died counts once.

- :mod:`~horserace.cluster.connect`: what ``--cluster`` names, and a client on it (a
  ``LocalCluster`` on the loopback interface for ``local:N``);
- :mod:`~horserace.cluster.tasks`: running tasks and merging them by task, and where they
  ran (:class:`~horserace.cluster.tasks.Ran`);
- :mod:`~horserace.cluster.fuzz`, :mod:`~horserace.cluster.mutants`,
  :mod:`~horserace.cluster.perft`, :mod:`~horserace.cluster.impact`: the four campaigns;
- :mod:`~horserace.cluster.bench`: the figures of ``horserace bench --cluster``.

Nothing outside this room imports dask.  Each module of the room imports
``distributed``, so a command imports them only once it has a ``--cluster`` (inside its
``run``), after :func:`require_extra` has checked that the extra is installed: without
it, a :class:`~horserace.errors.UsageError` that says what to install (exit 4), never a
traceback.  Importing this package itself needs nothing and raises nothing.
"""

from __future__ import annotations

from horserace.errors import UsageError

__all__ = ["INSTALL", "require_extra"]

#: What a user without the extra is told to run.
INSTALL = "pip install 'horserace[distributed]'"


def require_extra() -> None:
    """A :class:`UsageError` saying what to install when Dask's ``distributed`` is
    missing; called before the room's modules, which all need it, are imported."""
    try:
        import distributed  # noqa: F401, PLC0415  (the extra's gate: only a --cluster pays for it)
    except ImportError:
        raise UsageError(f"--cluster needs Dask's distributed scheduler, an optional extra: {INSTALL}") from None
