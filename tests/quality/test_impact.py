"""``horserace impact``'s study: common random numbers that are common, statistics that are
honest, effects found where the rules imply them, shards that merge exactly.

The expected directions are stated before the study is run, from the register
(spec/interpretations.md), in each test's docstring.
"""

from __future__ import annotations

from collections import Counter

import pytest

from horserace.engine.seating import SEATINGS, Seating
from horserace.quality.impact import Shard, Tally, match_values, merge, shard_tasks, study
from horserace.quality.impact_stats import analyse, holm
from horserace.resources.rulesets import resolve

pytest.importorskip("scipy", reason="the impact extra (NumPy, SciPy) is not installed")

CANONICAL = resolve("canonical")


def _rows(result):
    return {(r.seating, r.metric): r for r in analyse(result).rows}


@pytest.mark.parametrize("name", ["canonical", "continuation-optional"])
def test_a_a_on_common_streams_is_exactly_zero(name):
    """The same ruleset twice on common streams plays the same games (under
    `continuation=optional` too, whose give-ups have a stream of their own): every
    difference is zero, its interval [0, 0], p = 1, nothing significant."""
    result = study(resolve(name), resolve(name), matches=12, seed=3)
    analysis = analyse(result)
    assert analysis.tests == 13 * len(SEATINGS)
    for r in analysis.rows:
        assert (r.diff, r.low, r.high, r.p_holm, r.significant) == (0, 0, 0, 1.0, False), r


def test_block_round_of_passes_changes_passes_alone():
    """HRI-5 (stated before the run): "the credits are the same under both readings (no
    pass changes a hand, the layout or a score)". On common streams every game is then
    the same under both rulesets, placement for placement: every metric is exactly
    equal, except passes per hand, which rises by one pass per seat per blocked hand
    (a round of passes where the canonical reading ends the hand at once). The choices
    and the next deals stay in step through the extra passes (no pass draws a number);
    on independent streams nothing of this would hold."""
    b = resolve("block-round-of-passes")
    result = study(CANONICAL, b, matches=40, seed=11)
    rows = _rows(result)
    for seating in SEATINGS:
        for (label, metric), r in rows.items():
            if label != seating.label:
                continue
            if metric == "passes_per_hand":
                blocked = rows[(label, "blocked_share")].a
                assert blocked > 0, "no blocked hand: the test proves nothing"
                assert r.diff > 0 and r.diff == pytest.approx(seating.players * blocked, rel=1e-9)
            else:
                assert r.diff == 0 and r.a == r.b, r


def test_one_branch_offers_fewer_placements_and_draws_more():
    """HRI-10, `branch_use=one` (stated before the run): a spinner whose one branch is
    started offers no second branch, so a layout has fewer attachment points. So fewer
    legal placements are offered per choice, and a hand more often holds nothing that
    fits: more draws per hand. Both in every seating, significant after Holm."""
    result = study(CANONICAL, resolve("one-branch"), matches=150, seed=5)
    rows = _rows(result)
    for seating in SEATINGS:
        options = rows[(seating.label, "options_per_choice")]
        draws = rows[(seating.label, "draws_per_hand")]
        assert options.diff < 0 and options.high < 0 and options.significant, options
        assert draws.diff > 0 and draws.low > 0 and draws.significant, draws


def test_continuation_end_turn_draws_less_and_shortens_chains():
    """HRI-1, `continuation_without_tile=end-turn` (stated before the run): a player who
    earned a continuation and holds no playable tile draws until one plays and places it
    under the canonical reading, and stops at once under this one. So fewer tiles are
    drawn per hand, and the chain of placements of such a turn loses its last placement
    (the drawn tile): continuation chains are shorter. Two players, where the boneyard
    is largest (14 tiles) and draws most frequent."""
    result = study(CANONICAL, resolve("continuation-end-turn"), matches=150, seed=7, seatings=(Seating(2),))
    rows = _rows(result)
    draws = rows[("2 players", "draws_per_hand")]
    chains = rows[("2 players", "chain_length")]
    assert draws.diff < 0 and draws.high < 0 and draws.significant, draws
    assert chains.diff < 0 and chains.high < 0 and chains.significant, chains


@pytest.mark.slow
def test_a_a_on_independent_streams_errs_no_more_than_the_level_says():
    """The same ruleset twice, the two sides on streams of their own, 200 studies (seeds):
    a study with any significant metric (after Holm) is a family-wise false positive;
    at level 5% their count must lie within the 99% binomial bound, 17 of 200. The
    check has teeth: the same p-values without Holm's correction exceed the bound."""
    from scipy import stats

    studies, level = 200, 0.05
    bound = int(stats.binom.ppf(0.99, studies, level))
    false_positives = uncorrected = 0
    for seed in range(studies):
        result = study(CANONICAL, CANONICAL, matches=16, seed=seed, seatings=(Seating(2),), streams="independent")
        analysis = analyse(result)
        false_positives += bool(analysis.significant)
        uncorrected += any(r.p < level for r in analysis.rows)
    assert false_positives <= bound, (false_positives, bound)
    assert uncorrected > bound, (uncorrected, bound)


def test_independent_streams_differ_and_common_do_not():
    """The design is what it says: independent streams play other games for the same
    match (so their A/A differences are not all zero), common ones the same."""
    seating = Seating(3)
    common = match_values(CANONICAL.ruleset, seating, "9/3 players/0")
    assert common == match_values(CANONICAL.ruleset, seating, "9/3 players/0")
    result = study(CANONICAL, CANONICAL, matches=12, seed=9, seatings=(seating,), streams="independent")
    assert any(r.diff != 0 for r in analyse(result).rows)


def test_shards_merge_exactly_as_one_run():
    """Tallies of shards of 7 matches, merged in reverse order, equal one shard of all 30
    to the last bit, and so does the study of any shard size."""
    a, b = CANONICAL.ruleset, resolve("one-branch").ruleset
    seating = Seating(4, partnership=True)
    whole = Shard(seating, 0, 30).run(a, b, 2, "common")
    shards = shard_tasks((seating,), 30, 7)
    parts = [s.run(a, b, 2, "common") for s in shards]
    merged = merge(shards[::-1], parts[::-1])[seating]
    assert merged.same_as(whole)
    assert merged.totals("points_per_hand") == whole.totals("points_per_hand")
    other = study(CANONICAL, resolve("one-branch"), matches=30, seed=2, seatings=(seating,), shard_size=4)
    assert other.tallies[seating].same_as(whole)


def test_exact_sums_do_not_depend_on_order():
    """The sums are exact: floats whose rounded sum depends on the order (1e16 + 1 - 1e16)
    give the same total either way."""
    t1, t2 = Tally(), Tally()
    for key in ("a",):
        for x in (1e16, 1.0, -1e16, 0.1, 0.2):
            t1.sums["points_per_hand"][key].add(x)
        for x in (0.2, -1e16, 0.1, 1.0, 1e16):
            t2.sums["points_per_hand"][key].add(x)
    assert t1.totals("points_per_hand")["a"] == t2.totals("points_per_hand")["a"] == pytest.approx(1.3)


def test_jobs_give_the_same_study():
    """--jobs 2 (spawned worker processes) gives the study of --jobs 1, exactly."""
    one = study(CANONICAL, resolve("one-branch"), matches=60, seed=4, seatings=(Seating(2),), jobs=1, shard_size=20)
    two = study(CANONICAL, resolve("one-branch"), matches=60, seed=4, seatings=(Seating(2),), jobs=2, shard_size=20)
    assert one.tallies[Seating(2)].same_as(two.tallies[Seating(2)])
    assert [r.to_dict() for r in analyse(one).rows] == [r.to_dict() for r in analyse(two).rows]


def test_holm_matches_its_definition():
    """Holm's adjusted p-values: sorted p times (m - rank), running maximum, capped at 1,
    back in the order given (worked: p = 0.01, 0.04, 0.03, 0.5 -> 0.04, 0.09, 0.09, 0.5)."""
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])


def test_equal_differences_of_a_few_matches_are_not_a_certainty():
    """Two matches whose differences happen to be equal (a zero spread) are not a
    significant difference: the sign test's p, 2 x 0.5^2 = 0.5; ten such, 2 x 0.5^10."""
    from scipy import stats

    from horserace.quality.impact_stats import _row

    for n, p in ((2, 0.5), (10, 2 * 0.5**10)):
        tally = Tally()
        for _ in range(n):
            values = dict.fromkeys(tally.sums, 1.0)
            tally.add(values, {**values, "hands_per_match": 2.0}, (Counter(), Counter()))
        row = _row(stats, "2 players", "hands_per_match", "hands per match", tally, True)
        assert (row.diff, row.low, row.high) == (1.0, 1.0, 1.0) and row.p == pytest.approx(p)
