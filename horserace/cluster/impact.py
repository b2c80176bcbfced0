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

__all__ = ["impact_on", "impact_shard"]


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
    shard_size: int = SHARD_MATCHES,
    progress: Callable[[int], None] | None = None,
    timeout: float | None = None,
) -> tuple[ImpactStudy, Ran]:
    """The study of ``matches`` matches per seating, in shards of ``shard_size``, on the
    cluster; a signal stops it with the shards that finished."""
    shards = shard_tasks(seatings, matches, shard_size)
    finished: dict[int, Tally] = {}

    def done(task: Done[Tally]) -> None:
        finished[task.index] = task.result
        if progress is not None:
            progress(shards[task.index].count)

    ran = Ran(cluster, len(client.scheduler_info(n_workers=-1).get("workers", {})), len(shards), unit="matches")
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
    except BaseException as exc:  # Ctrl-C, or the command line's SIGTERM and SIGHUP
        stopped = exc
    return assemble(a, b, matches, seed, seatings, streams, level, shards, finished, stopped), ran
