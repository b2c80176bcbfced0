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

Nothing outside this room imports dask.  The package imports ``distributed`` here, so a
command imports this room only once it has a ``--cluster`` (inside its ``run``): without
the extra, that import is a :class:`~horserace.errors.UsageError` that says what to
install (exit 4), never a traceback.
"""

from __future__ import annotations

from horserace.errors import UsageError

#: What a user without the extra is told to run.
INSTALL = "pip install 'horserace[distributed]'"

try:
    import distributed  # noqa: F401  (the gate of the extra: every module of the room needs it)
except ImportError:
    raise UsageError(f"--cluster needs Dask's distributed scheduler, an optional extra: {INSTALL}") from None

__all__ = ["INSTALL"]
