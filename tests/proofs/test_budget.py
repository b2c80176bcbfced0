"""The time budget: every canonical proof together within 20 s.

Measured (z3-solver 5.4.1, this machine): the 20 canonical proofs of
horserace.verify.proofs.PROOFS take 0.07-0.08 s wall time together (0.03 s inside the
solver; the slowest, match-winners-seat-blind-4, ~7 ms).  With the wrong-model runs, the
ties (rounding 0..168, CREDIT 0..255, the N = 4 layout walk ~1.4 s, the random deep
layouts ~1 s, the settle() domains, Hypothesis) and the synthesis, the whole folder
tests/proofs runs in about 4-5 s.
"""

from __future__ import annotations

import time

import pytest

from horserace.verify import proofs

pytestmark = pytest.mark.proof

BUDGET_SECONDS = 20.0


def test_all_proofs_are_proved_within_the_budget():
    start = time.perf_counter()
    results = proofs.run_all()
    wall = time.perf_counter() - start
    failed = [r.explain() for r in results if not r.proved]
    assert not failed, "\n".join(failed)
    assert len(results) == len(proofs.PROOFS) == 20
    assert wall < BUDGET_SECONDS, f"the proofs took {wall:.1f} s, over the {BUDGET_SECONDS:.0f} s budget"
    slowest = max(results, key=lambda r: r.seconds)
    print(f"{len(results)} proofs in {wall:.3f} s; slowest {slowest.name} {slowest.seconds:.3f} s")  # noqa: T201  (the figure, seen with -s)
