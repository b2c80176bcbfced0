"""How good the suite itself is, and how fast: the named mutants of the engine
(:mod:`~horserace.quality.mutants`), differential fuzzing (:mod:`~horserace.quality.fuzz`),
the outcome diff between rulesets (:mod:`~horserace.quality.ruleset_diff`) and benchmarks
(:mod:`~horserace.quality.bench`).  Z3 proofs are in :mod:`horserace.verify`, public
Hypothesis strategies in :mod:`horserace.strategies`."""

__all__: list[str] = []
