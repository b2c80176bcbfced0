"""``horserace impact --cluster``: an impact study as shards of matches, one task each.

Each task plays one :class:`~horserace.quality.impact.Shard` (matches of one seating,
under both rulesets) on a worker and sends back its :class:`~horserace.quality.impact.Tally`;
the client merges the tallies by task with the merge a local run uses, exactly (the sums
are kept without rounding), so a study on any cluster gives the figures of one run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from distributed import Client

from horserace.cluster.tasks import Done, Ran, run_tasks
from horserace.engine.ruleset import Ruleset
from horserace.engine.seating import Seating
from horserace.quality.impact import SHARD_MATCHES, ImpactStudy, Shard, Tally, assemble, shard_tasks
from horserace.resources.rulesets import NamedRuleset

__all__ = ["MAX_SHARD_MATCHES", "MIN_SHARDS_PER_WORKER", "impact_on", "impact_shard", "shard_matches"]

#: Matches per shard on a cluster, at most: some 4 s of play for a worker of the project's
#: 2-core machine (about 1,000 matches a second, both sides), against 5-20 ms of
#: scheduler round trip per task (docs/impact-studies.md, "Costs").
MAX_SHARD_MATCHES = 2000
#: Shards per worker, at least, so that no worker waits long for the last one.
MIN_SHARDS_PER_WORKER = 4


def shard_matches(matches: int, seatings: int, workers: int, size: int | None = None) -> int:
    """Matches per shard on a cluster: ``size`` if given, else as many as give each worker
    :data:`MIN_SHARDS_PER_WORKER` shards, from :data:`SHARD_MATCHES` to
    :data:`MAX_SHARD_MATCHES` (the figures do not depend on it: the sums are exact)."""
    if size is not None:
        return size
    wanted = -(-matches * seatings // (max(1, workers) * MIN_SHARDS_PER_WORKER))
    return max(SHARD_MATCHES, min(MAX_SHARD_MATCHES, wanted))


def impact_shard(shard: Shard, a: Ruleset, b: Ruleset, seed: int, streams: str) -> Tally:
    """Run on a worker: the shard's matches under both rulesets."""
    return shard.run(a, b, seed, streams)


def impact_on(
    client: Client,
    cluster: str,
    a: NamedRuleset,
    b: NamedRuleset,
    *,
    matches: int,
    seed: int,
    seatings: Sequence[Seating],
    streams: str = "common",
    level: float = 0.05,
    shard_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    timeout: float | None = None,
) -> tuple[ImpactStudy, Ran]:
    """The study of ``matches`` matches per seating, in shards of ``shard_size`` (default:
    :func:`shard_matches`), on the cluster; a signal stops it with the shards that finished."""
    workers = len(client.scheduler_info(n_workers=-1).get("workers", {}))
    shards = shard_tasks(seatings, matches, shard_matches(matches, len(seatings), workers, shard_size))
    finished: dict[int, Tally] = {}

    def done(task: Done[Tally]) -> None:
        finished[task.index] = task.result
        if progress is not None:
            progress(shards[task.index].count)

    ran = Ran(cluster, workers, len(shards), unit="matches")
    stopped: BaseException | None = None
    try:
        _, ran = run_tasks(
            client,
            cluster,
            impact_shard,
            [(shard, a.ruleset, b.ruleset, seed, streams) for shard in shards],
            name="impact",
            units=lambda tally: 2 * tally.matches,
            unit="matches",
            done=done,
            timeout=timeout,
        )
    except Exception:
        raise
    except BaseException as exc:  # noqa: BLE001  (errors re-raised above; any other stop: Ctrl-C, or the command line's SIGTERM and SIGHUP)
        stopped = exc
    return assemble(a, b, matches, seed, seatings, streams, level, shards, finished, stopped), ran
