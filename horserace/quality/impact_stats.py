"""The statistics of an impact study, with NumPy and SciPy (the optional ``impact`` extra).

For each seating and metric (:data:`horserace.quality.impact.METRICS`) a study has n
matches under A and under B and the exact sums of their values (:class:`~horserace.quality.impact.Tally`).
From them:

- **common streams** (the design pairs match i under A with match i under B): the
  paired difference ``d = B - A``, its mean, a 95% interval ``mean(d) +- t(0.975, n-1) *
  sd(d) / sqrt(n)`` and the paired t-test's two-sided p-value;
- **independent streams**: Welch's t: ``se = sqrt(var(A)/n + var(B)/n)``, with
  Welch-Satterthwaite degrees of freedom;
- the p-values of every metric and seating of the study, one family, corrected by Holm's
  step-down method, so that the chance of any false "significant" in the study is at most
  the level;
- the **smallest detectable difference**: the difference a test at the family's
  strictest level (``level / tests``, two-sided) would find with 80% power at this n,
  ``(z(1 - level/(2 tests)) + z(0.8)) * se``.  "No significant difference" means "no
  difference larger than about this", never "no difference".

A metric whose differences are all zero (the same games under both rulesets) has
interval [0, 0] and p = 1; one whose differences are all equal and not zero has a point
interval and the sign test's p, ``2 * 0.5^n``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from horserace.errors import UsageError
from horserace.quality.impact import CHAIN_CAP, METRICS, ImpactStudy, Tally

__all__ = ["INSTALL", "POWER", "Analysis", "Row", "analyse", "chain_shares", "holm", "require_extra"]

#: What a user without the extra is told to run.
INSTALL = "pip install 'horserace[impact]'"
#: The power at which the smallest detectable difference is stated.
POWER = 0.8


def require_extra() -> Any:
    """SciPy's stats, or a :class:`UsageError` naming the extra to install."""
    try:
        import numpy  # noqa: F401, ICN001, PLC0415  (the extra, probed: imported when a study is analysed)
        from scipy import stats  # noqa: PLC0415  (the optional [impact] extra)
    except ImportError:
        raise UsageError(f"horserace impact needs NumPy and SciPy, an optional extra: {INSTALL}") from None
    return stats


@dataclass
class Row:
    """One metric of one seating: both means, B - A, its interval, p (raw, Holm), the
    smallest detectable difference."""

    seating: str
    metric: str
    name: str
    n: int
    a: float
    b: float
    diff: float
    low: float
    high: float
    se: float
    p: float
    p_holm: float = 1.0
    detectable: float = 0.0
    significant: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "seating": self.seating,
            "metric": self.metric,
            "name": self.name,
            "matches": self.n,
            "a": self.a,
            "b": self.b,
            "difference": self.diff,
            "ci95": [self.low, self.high],
            "se": self.se,
            "p": self.p,
            "p_holm": self.p_holm,
            "smallest_detectable": self.detectable,
            "significant": self.significant,
        }


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    import numpy as np  # noqa: PLC0415  (the optional [impact] extra)

    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    if m == 0:
        return []
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = stepped
    return [float(x) for x in out]


def _variance(total: float, squares: float, n: int) -> float:
    """The sample variance from a sum and a sum of squares (never below zero)."""
    return max(0.0, (squares - total * total / n) / (n - 1))


def _row(stats: Any, seating: str, metric: str, name: str, t: Tally, paired: bool) -> Row:
    n = t.matches
    s = t.totals(metric)
    mean_a, mean_b = s["a"] / n, s["b"] / n
    diff = s["d"] / n if paired else mean_b - mean_a
    if paired:
        var_d = _variance(s["d"], s["dd"], n)
        se = math.sqrt(var_d / n)
        df = n - 1.0
    else:
        va, vb = _variance(s["a"], s["aa"], n) / n, _variance(s["b"], s["bb"], n) / n
        se = math.sqrt(va + vb)
        df = (va + vb) ** 2 / (va * va / (n - 1) + vb * vb / (n - 1)) if va + vb > 0 else n - 1.0
    if se == 0.0 or not math.isfinite(se):
        # Every difference the same: a point interval; p is 1 if it is zero, else the sign
        # test's (n differences of one sign, by chance: 2 * 0.5^n), which a few matches
        # cannot push below the level.
        p = 1.0 if diff == 0 else float(stats.binomtest(n, n, 0.5).pvalue)
        return Row(seating, metric, name, n, mean_a, mean_b, diff, diff, diff, 0.0, p)
    half = float(stats.t.ppf(0.975, df)) * se
    p = float(2 * stats.t.sf(abs(diff) / se, df))
    return Row(seating, metric, name, n, mean_a, mean_b, diff, diff - half, diff + half, se, p)


@dataclass
class Analysis:
    """Every row of a study, its family's size and level, and the distributions."""

    rows: list[Row]
    level: float
    tests: int

    @property
    def significant(self) -> list[Row]:
        return [r for r in self.rows if r.significant]

    def by_seating(self) -> dict[str, list[Row]]:
        out: dict[str, list[Row]] = {}
        for r in self.rows:
            out.setdefault(r.seating, []).append(r)
        return out


def analyse(study: ImpactStudy) -> Analysis:
    """The statistics of ``study``: a row per seating and metric, Holm-corrected over all."""
    stats = require_extra()
    rows = [
        _row(stats, seating.label, m.key, m.name, study.tallies[seating], study.paired)
        for seating in study.seatings
        if seating in study.tallies and study.tallies[seating].matches >= 2
        for m in METRICS
    ]
    tests = len(rows)
    for r, adjusted in zip(rows, holm([r.p for r in rows]), strict=True):
        r.p_holm = adjusted
        r.significant = adjusted < study.level
    if tests:
        z = float(stats.norm.ppf(1 - study.level / (2 * tests)) + stats.norm.ppf(POWER))
        for r in rows:
            r.detectable = z * r.se
    return Analysis(rows, study.level, tests)


def chain_shares(t: Tally) -> tuple[list[float], list[float]]:
    """The share of chains of each length 1..CHAIN_CAP (the last: that many or more), A and B."""
    out = []
    for side in (0, 1):
        total = sum(t.chains[side].values()) or 1
        out.append([t.chains[side][k] / total for k in range(1, CHAIN_CAP + 1)])
    return out[0], out[1]
