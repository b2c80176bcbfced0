"""``horserace mutants --cluster``: a task per mutant.

Each task judges one mutant on a worker, as a local run does (through ``horserace serve
--mutant NAME`` started on the worker, or in the worker's process with
``--in-process``); the corpus is sent to the workers once.  The client puts the verdicts
back in the order of the mutants asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from distributed import Client

from horserace.cluster.tasks import Done, Ran, run_until_stopped
from horserace.corpus.fixture import Fixture
from horserace.quality.mutants import MUTANTS, Killer, Mutant, Verdict, judge_in_process, judge_through_protocol

__all__ = ["judge_mutant", "mutants_on"]


def judge_mutant(name: str, fixtures: list[Fixture], in_process: bool) -> tuple[tuple[Killer, ...], str]:
    """Run on a worker: the killers of the mutant ``name`` and the note of its verdict."""
    judge = judge_in_process if in_process else judge_through_protocol
    verdict = judge(MUTANTS[name], fixtures)
    return verdict.killers, verdict.note


def mutants_on(
    client: Client,
    cluster: str,
    mutants: Sequence[Mutant],
    fixtures: list[Fixture],
    *,
    in_process: bool = False,
    progress: Callable[[int], None] | None = None,
    timeout: float | None = None,
) -> tuple[list[Verdict], Ran, BaseException | None]:
    """The verdict on each of ``mutants``, one task each, in their order; what ran; and
    the signal that stopped the campaign (``None``: none did), the verdicts then those of
    the mutants judged before it."""
    corpus = client.scatter(fixtures, broadcast=True, hash=False)

    def done(_: Done[tuple[tuple[Killer, ...], str]]) -> None:
        if progress is not None:
            progress(1)

    results, ran, stopped = run_until_stopped(
        client,
        cluster,
        judge_mutant,
        [(m.name, corpus, in_process) for m in mutants],
        name="mutants",
        units=lambda _: len(fixtures),
        unit="fixtures",
        done=done,
        timeout=timeout,
    )
    verdicts = [Verdict(mutants[i], *results[i]) for i in sorted(results)]
    return verdicts, ran, stopped
