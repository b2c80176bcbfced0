"""``horserace mutants --code --cluster``: a task per batch of code mutants.

The client enumerates the mutants and traces the corpus once (which engine lines each
fixture runs); the corpus and that coverage go to the workers once, and each task judges
one batch of mutants in the worker's process, as a local run does
(:func:`horserace.quality.code_mutants.supervised`).  Every worker needs the ``mutation``
extra (cosmic-ray) as well as ``distributed``.  The client puts the outcomes back in the
order of the mutants.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from distributed import Client

from horserace.cluster.tasks import Done, Ran, run_tasks
from horserace.corpus.fixture import Fixture
from horserace.quality.code_mutants import Campaign, CodeMutant, Outcome, supervised

__all__ = ["BATCH", "code_mutants_on", "judge_batch"]

#: Mutants per task: a few seconds of work, so the scheduler's cost per task stays small.
BATCH = 40


def judge_batch(
    batch: list[CodeMutant],
    fixtures: list[Fixture],
    coverage: dict[str, frozenset[tuple[str, int]]],
    full: frozenset[str],
) -> list[Outcome]:
    """Run on a worker: the outcome of each mutant of ``batch``, judged in a process
    forked from the worker's (so a mutant stuck in C code is killed with it, not the
    worker)."""
    return supervised(batch, fixtures, coverage, jobs=1, full=full)


def code_mutants_on(
    client: Client,
    cluster: str,
    mutants: Sequence[CodeMutant],
    fixtures: list[Fixture],
    coverage: dict[str, frozenset[tuple[str, int]]],
    *,
    enumerated: int,
    full: frozenset[str] = frozenset(),
    done: Callable[[Outcome], None] | None = None,
    timeout: float | None = None,
) -> tuple[Campaign, Ran]:
    """The campaign of ``mutants``, one task per :data:`BATCH`, in their order."""
    start = time.perf_counter()
    corpus = client.scatter(fixtures, broadcast=True, hash=False)
    lines = client.scatter(coverage, broadcast=True, hash=False)
    batches = [list(mutants[i : i + BATCH]) for i in range(0, len(mutants), BATCH)]

    def told(result: Done[list[Outcome]]) -> None:
        if done is not None:
            for o in result.result:
                done(o)

    results, ran = run_tasks(
        client,
        cluster,
        judge_batch,
        [(b, corpus, lines, full) for b in batches],
        name="code-mutants",
        units=len,
        unit="mutants",
        done=told,
        timeout=timeout,
    )
    outcomes = [o for batch in results for o in batch]
    return Campaign(outcomes, enumerated, len(fixtures), time.perf_counter() - start), ran
