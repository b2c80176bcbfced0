"""Machine-checked arguments about the rules: Z3 proofs and Z3-built scenarios.

This subpackage needs the optional dependency ``z3-solver`` (``pip install
horserace[verify]``); nothing else in :mod:`horserace` imports it.

* :mod:`horserace.verify.models` — small symbolic models of the rules the proofs speak
  about: rounding of a settlement total (HR-SETTLE-1), the credit of a placement
  (HR-CREDIT-1), a spinner and its four ports (HR-COUNT-2, HR-COUNT-3, HR-SPIN-2),
  the match winners after a settlement (HR-MATCH-2) and the credits of a blocked hand
  (HR-SETTLE-3).
* :mod:`horserace.verify.proofs` — the proofs.  Each asserts the *negation* of a claim
  about a model and expects ``unsat``; ``sat`` yields a counterexample in game values,
  ``unknown`` (a timeout) is a failure too.
* :mod:`horserace.verify.ties` — what ties each model to the reference engine: the
  model, evaluated on every point of a bounded domain, must equal the engine's code on
  the same point.  A proof about a model that has drifted from the engine is worthless;
  the tie is what makes it speak for the engine.
* :mod:`horserace.verify.synthesis` — Z3 used the other way round: find positions that
  random play rarely reaches and write them as ``origin: generated`` fixtures.
"""

from __future__ import annotations

__all__ = ["models", "proofs", "synthesis", "ties"]
