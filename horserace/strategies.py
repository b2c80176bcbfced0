"""Hypothesis strategies for Horse Race, for the property tests of any Python implementation.

Every strategy here produces plain data in the fixture format of spec/fixture-format.md
(tiles as ``"[a|b]"`` strings, ports by name, seats as integers), so its values can be
fed to an implementation under test and to the reference engine alike, as
hypothesis-jsonschema does for JSON schemas.  Values that need legal play (layouts, play
scenarios) are built by playing the reference engine with Hypothesis-drawn choices, so
they are legal by construction and shrink towards the first legal choice at every step.

This module needs Hypothesis (``pip install 'horserace[test]'``).  ``import horserace``
never imports it; import it explicitly::

    from hypothesis import given
    from horserace import strategies as hrst
    from horserace.corpus.observers import observe

    @given(hrst.play_scenarios())
    def test_my_engine_matches_the_reference(scenario):
        expected = observe("play", scenario)            # the reference trace
        assert my_engine.play(scenario) == expected     # your implementation

    @given(hrst.rulesets().flatmap(lambda r: hrst.play_scenarios(ruleset=r).map(lambda s: (r, s))))
    def test_every_variant(case):
        ruleset, scenario = case
        assert my_engine.play(scenario, ruleset.variants) == observe("play", scenario, ruleset.variants)

Strategies: :func:`tile_indices`, :func:`tiles`, :func:`rulesets`, :func:`variants`,
:func:`tables`, :func:`deals`, :func:`layouts`, :func:`settlement_states`,
:func:`play_scenarios`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.strategies import DrawFn, SearchStrategy

from horserace.corpus.encoding import placement_record
from horserace.corpus.generate import layout_walk
from horserace.engine.hand import DEAL_SIZE, Hand
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, BranchUse, Ruleset
from horserace.engine.seating import SEATINGS
from horserace.engine.tiles import ALL_TILES, HIGH, LOW, NAMES, TILE_COUNT

__all__ = [
    "deals",
    "layouts",
    "play_scenarios",
    "rulesets",
    "settlement_states",
    "tables",
    "tile_indices",
    "tiles",
    "variants",
]

#: Targets drawn when none is given: the canonical 61 often, any other now and then.
DEFAULT_TARGETS: SearchStrategy[int] = st.one_of(st.just(61), st.integers(1, 121))

_SEATINGS = tuple((s.players, s.partnership) for s in SEATINGS)


# ---------------------------------------------------------------------- helpers
def _as_strategy(value: Any) -> SearchStrategy:
    return value if isinstance(value, SearchStrategy) else st.just(value)


def _seatings(players: int | None, partnership: bool | None) -> list[tuple[int, bool]]:
    """The (players, partnership) pairs allowed by the arguments (HR-SEAT-1)."""
    if players is not None and players not in DEAL_SIZE:
        raise InvalidArgument(f"Horse Race is played by 2, 3 or 4 players, not players={players!r}")
    if partnership and players not in (None, 4):
        raise InvalidArgument(f"the partnership game has four players, not players={players!r}")
    return [
        (p, m)
        for p, m in _SEATINGS
        if (players is None or p == players) and (partnership is None or m == bool(partnership))
    ]


def _names(tile_list: Iterable[int]) -> list[str]:
    return [NAMES[t] for t in tile_list]


# ---------------------------------------------------------------------- tiles
def tile_indices() -> SearchStrategy[int]:
    """Tile indices 0..27 of the double-six set (HR-SET-1), in the engine's order
    ``[0|0], [0|1], ..., [6|6]`` (see :mod:`horserace.engine.tiles`).  Shrinks towards ``[0|0]``.

    >>> from horserace.engine.tiles import NAMES
    >>> tile_indices().map(NAMES.__getitem__).example()  # doctest: +SKIP
    '[2|5]'
    """
    return st.integers(min_value=0, max_value=TILE_COUNT - 1)


def tiles(*, either_order: bool = False) -> SearchStrategy[str]:
    """Tiles in fixture notation, ``"[a|b]"`` (HR-MOVE-2).

    By default the low half comes first, as every observation writes it.  With
    ``either_order=True`` the halves are also written high half first now and then, as
    input may write them (``"[5|2]"`` is ``"[2|5]"``), to exercise an implementation's
    tile parser.

    >>> tiles().example()  # doctest: +SKIP
    '[1|4]'
    >>> tiles(either_order=True).example()  # doctest: +SKIP
    '[4|1]'
    """
    if not either_order:
        return tile_indices().map(NAMES.__getitem__)
    return st.tuples(tile_indices(), st.booleans()).map(
        lambda pair: f"[{HIGH[pair[0]]}|{LOW[pair[0]]}]" if pair[1] else NAMES[pair[0]]
    )


# ---------------------------------------------------------------------- rulesets
def rulesets(*, target: int | SearchStrategy[int] = 61) -> SearchStrategy[Ruleset]:
    """:class:`~horserace.engine.ruleset.Ruleset` values over every reading of every register
    variant (spec/interpretations.md); shrinks towards the canonical reading of each
    field.  ``target`` is the match target (HR-MATCH-1): a number or a strategy of them.

    >>> rulesets().example()  # doctest: +SKIP
    Ruleset(continuation_without_tile=<ContinuationWithoutTile.END_TURN: 'end-turn'>, ...)
    >>> rulesets(target=st.sampled_from([10, 61])).example().target in (10, 61)  # doctest: +SKIP
    True

    A fixture names its readings as ``ruleset.variants`` (only the non-canonical ones).
    """
    targets = _as_strategy(target)
    readings = {name: st.sampled_from(values) for name, values in VARIANT_FIELDS.items()}
    return st.builds(Ruleset.from_readings, **readings, target=targets)


def variants() -> SearchStrategy[dict[str, str]]:
    """A fixture's ``variants`` mapping ``{field: reading}``: the non-canonical readings
    of a drawn ruleset (empty for the canonical rules).

    >>> variants().example()  # doctest: +SKIP
    {'drawn_tile_scope': 'whole-hand', 'branch_use': 'one'}
    """
    return rulesets().map(lambda r: r.variants)


# ---------------------------------------------------------------------- tables and deals
def tables(
    players: int | None = None,
    partnership: bool | None = None,
    target: int | SearchStrategy[int] | None = None,
) -> SearchStrategy[dict[str, Any]]:
    """A fixture's table: ``{mode, seats, scores, target}`` with every side's score below
    the target (HR-SEAT-1, HR-MATCH-1).  ``players`` (2-4) and ``partnership`` fix the
    seating when given; ``target`` is a number or a strategy (default: mostly 61).

    >>> tables(players=4, partnership=True, target=61).example()  # doctest: +SKIP
    {'mode': 'partnership', 'seats': 4, 'scores': [12, 60], 'target': 61}
    """
    seatings = _seatings(players, partnership)
    targets = DEFAULT_TARGETS if target is None else _as_strategy(target)

    @st.composite
    def build(draw: DrawFn) -> dict[str, Any]:
        seats, pair_mode = draw(st.sampled_from(seatings))
        goal = draw(targets)
        if not isinstance(goal, int) or goal < 1:
            raise InvalidArgument(f"a target is a positive whole number, not {goal!r}")
        sides = 2 if pair_mode else seats
        scores = draw(st.lists(st.integers(0, goal - 1), min_size=sides, max_size=sides))
        return {"mode": "partnership" if pair_mode else "individual", "seats": seats, "scores": scores, "target": goal}

    return build()


def deals(players: int | None = None, partnership: bool | None = None) -> SearchStrategy[dict[str, Any]]:
    """A fresh deal as a fixture's deal dict: ``{hands, boneyard, opener}``.

    All 28 tiles are shuffled; each of 2 / 3 / 4 seats holds 7 / 6 / 5 tiles and the
    other 14 / 10 / 8 form the boneyard, in draw order (HR-DEAL-1, HR-DEAL-2); the opener
    is any seat (HR-OPEN-1).  ``players`` fixes the number of seats; ``partnership=True``
    means four seats (the deal itself is the same in both modes).  Shrinks towards the
    unshuffled set and seat 0.

    >>> deals(players=2).example()  # doctest: +SKIP
    {'hands': [['[0|3]', ...], ['[2|2]', ...]], 'boneyard': ['[1|6]', ...], 'opener': 1}
    """
    seat_counts = sorted({p for p, _ in _seatings(players, partnership)})

    @st.composite
    def build(draw: DrawFn) -> dict[str, Any]:
        seats = draw(st.sampled_from(seat_counts))
        return _deal_dict(*_draw_deal(draw, seats, None))

    return build()


def _draw_deal(draw: DrawFn, seats: int, opener: int | None) -> tuple[list[list[int]], list[int], int]:
    """Shuffle and deal (HR-DEAL-1, HR-DEAL-2); a lot for the opener unless it is given."""
    order = draw(st.permutations(ALL_TILES))
    size = DEAL_SIZE[seats]
    if opener is None:
        opener = draw(st.integers(0, seats - 1))
    return [order[s * size : (s + 1) * size] for s in range(seats)], order[seats * size :], opener


def _deal_dict(hands: list[list[int]], boneyard: list[int], opener: int) -> dict[str, Any]:
    return {"hands": [_names(h) for h in hands], "boneyard": _names(boneyard), "opener": opener}


# ---------------------------------------------------------------------- layouts
def layouts(
    max_placements: int = TILE_COUNT,
    *,
    min_placements: int = 1,
    ruleset: Ruleset | None = None,
) -> SearchStrategy[list[dict[str, str]]]:
    """Placement lists reachable by legal play from the empty layout, as a ``layout``
    fixture's ``steps`` (or ``setup``): the first is the opening ``{tile}``, each later
    one a ``{tile, target, port}`` that is legal on the layout the earlier ones built
    (HR-PLACE-1, HR-MOVE-1, HR-SPIN-2, HR-SPIN-3), named canonically (HR-MOVE-2).

    Each step is drawn among all distinct legal placements of the tiles not yet placed.
    The list has between ``min_placements`` and ``max_placements`` entries, fewer only
    when no unplaced tile fits anywhere.  Under ``ruleset`` with ``branch_use=one``
    (HRI-10) a spinner's second branch is never used; the default (canonical) lists may
    use both.

    >>> layouts(max_placements=3).example()  # doctest: +SKIP
    [{'tile': '[1|4]'}, {'tile': '[4|4]', 'target': '[1|4]', 'port': 'high'},
     {'tile': '[0|4]', 'target': '[4|4]', 'port': 'linear-b'}]
    """
    if not 1 <= min_placements <= max_placements:
        raise InvalidArgument(f"need 1 <= min_placements <= max_placements, not {min_placements}, {max_placements}")
    if max_placements > TILE_COUNT:
        raise InvalidArgument(f"a layout holds at most {TILE_COUNT} tiles, not max_placements={max_placements}")
    one_branch = (ruleset or CANONICAL).branch_use is BranchUse.ONE

    @st.composite
    def build(draw: DrawFn) -> list[dict[str, str]]:
        length = draw(st.integers(min_placements, max_placements))
        walk = layout_walk(lambda moves: draw(st.sampled_from(moves)), length, branch_use_one=one_branch)
        return [placement_record(*move) for _, move in walk]

    return build()


# ---------------------------------------------------------------------- settlements
def settlement_states(
    players: int | None = None,
    partnership: bool | None = None,
    target: int | SearchStrategy[int] | None = None,
) -> SearchStrategy[dict[str, Any]]:
    """A ``settlement`` fixture's input: the table (``mode``, ``seats``, ``scores`` below
    ``target``, ``target``), ``hands`` (the tiles left in each seat's hand, each tile once)
    and ``ended_by`` (HR-END-1, HR-END-2, HR-SETTLE-1..3, HR-MATCH-2).

    ``ended_by`` is a seat, whose hand is then empty (it placed its last tile), or
    ``"blocked"``; every other hand holds at least one tile, and at least one tile is on
    the layout.  Scores near the target make match winners (HR-MATCH-2) common enough.

    >>> settlement_states(players=2).example()  # doctest: +SKIP
    {'mode': 'individual', 'seats': 2, 'scores': [3, 59], 'target': 61,
     'hands': [[], ['[5|6]', '[0|2]']], 'ended_by': 0}
    """
    table_strategy = tables(players, partnership, target)

    @st.composite
    def build(draw: DrawFn) -> dict[str, Any]:
        table = draw(table_strategy)
        seats = table["seats"]
        ended_by = draw(st.sampled_from(["blocked", *range(seats)]))
        order = draw(st.permutations(ALL_TILES))
        most = (TILE_COUNT - 1) // seats  # leaves a tile for the layout
        hands = []
        taken = 0
        for seat in range(seats):
            size = 0 if seat == ended_by else draw(st.integers(1, most))
            hands.append(_names(order[taken : taken + size]))
            taken += size
        return {**table, "hands": hands, "ended_by": ended_by}

    return build()


# ---------------------------------------------------------------------- play
def play_scenarios(
    *,
    ruleset: Ruleset | None = None,
    players: int | None = None,
    partnership: bool | None = None,
    target: int | SearchStrategy[int] | None = None,
    max_hands: int = 1,
) -> SearchStrategy[dict[str, Any]]:
    """A complete ``play`` fixture's input: the table and ``hands``, each a fresh deal
    with ``placements``: every placement of a legal hand, in order, forced ones included
    (and ``{end_turn: true}`` where a continuation is given up under
    ``continuation=optional``).  Draws and passes are left out, as the format says: they
    follow from the boneyard order.

    The hand is played by the reference engine under ``ruleset`` (default: canonical;
    the table's target replaces the ruleset's), each placement drawn among the legal
    ones and each possible end of turn decided by a drawn boolean, so the list is legal
    and plays the hand to its end (HR-END-1, HR-BLOCK-1, HR-MATCH-1).  With
    ``max_hands > 1`` up to that many hands of one match follow each other, scores
    carried over, the next opener being the seat that placed the last tile or, after a
    block, any seat (HR-OPEN-3); the match may end first.

    The expected observations are the reference engine's:
    ``horserace.corpus.observers.observe("play", scenario, ruleset.variants)``.

    >>> play_scenarios(players=2, target=61).example()  # doctest: +SKIP
    {'mode': 'individual', 'seats': 2, 'scores': [0, 17], 'target': 61,
     'hands': [{'hands': [...], 'boneyard': [...], 'opener': 0,
                'placements': [{'tile': '[3|4]'}, {'tile': '[4|6]', 'target': '[3|4]', 'port': 'high'}, ...]}]}
    """
    if max_hands < 1:
        raise InvalidArgument(f"max_hands must be at least 1, not {max_hands!r}")
    base = ruleset if ruleset is not None else CANONICAL
    if not isinstance(base, Ruleset):
        raise InvalidArgument(f"ruleset must be a horserace.engine.ruleset.Ruleset, not {base!r}")
    table_strategy = tables(players, partnership, target)

    @st.composite
    def build(draw: DrawFn) -> dict[str, Any]:
        table = draw(table_strategy)
        seats = table["seats"]
        pair_mode = table["mode"] == "partnership"
        rules = replace(base, target=table["target"])
        hand_count = draw(st.integers(1, max_hands))
        scores = list(table["scores"])
        entries = []
        opener: int | None = None
        for _ in range(hand_count):
            dealt, boneyard, first = _draw_deal(draw, seats, opener)
            deal = _deal_dict(dealt, boneyard, first)
            hand = Hand(
                dealt,
                boneyard,
                first,
                partnership=pair_mode,
                scores=scores,
                ruleset=rules,
                record=False,
            )
            deal["placements"] = _play(draw, hand)
            entries.append(deal)
            if hand.match_over:
                break
            scores = list(hand.scores)
            opener = hand.next_opener
        return {**table, "hands": entries}

    return build()


def _play(draw: DrawFn, hand: Hand) -> list[dict[str, Any]]:
    """Play ``hand`` to its end with drawn choices; return the listed placements."""
    placements: list[dict[str, Any]] = []
    while not hand.over:
        seat = hand.to_act
        if hand.may_end_turn() and draw(st.booleans()):
            hand.end_turn(seat)
            placements.append({"end_turn": True})
            continue
        if hand.pending_drawn is None and not hand.can_place(seat):
            hand.play_forced()  # draws and passes follow from the boneyard
            continue
        tile, target, port = draw(st.sampled_from(hand.legal_placements()))
        hand.place(seat, tile, target, port)
        placements.append(placement_record(tile, target, port))
    return placements
