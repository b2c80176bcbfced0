"""House rules of the Fives family as named deviations of the reference engine.

Horse Race is a game of the Fives family, and its implementers often start from an
engine of another game of the family, or from a rule set they know: All Fives, Muggins,
Sniff, Fives-and-Threes, the draw and block games.  Each entry here is one rule as such
a rule set or engine plays it, where Horse Race plays it otherwise: a coherent engine
(a :class:`~horserace.engine.hand.Hand` subclass through the engine's seams, nothing
patched) that plays its house rule everywhere it applies, refuses what it would refuse,
and plays every other rule as spec/rules.md says.  Each names the rule it departs from
and its ``source``, the rule set or kind of engine that plays it, in the project's own
words.

They are registered beside the misreadings in :data:`horserace.quality.mutants.MUTANTS`
(family ``"house rule"``), so ``horserace mutants`` judges them and ``horserace serve
--mutant NAME`` serves them; the corpus kills each by a fixture that cites its rule
(tests/quality/test_mutants.py).

Perft works under each (make and unmake; tests/quality/test_perft_deviations.py): the
layouts here change only the count, the slot lists a placement touches and the fields
that :meth:`~horserace.engine.layout.Layout.save` keeps.  Two of them count moves the
reference engine does not have: ``draw`` (a draw by choice, ``draw-while-playable``) and
the second port of a mirror-image pair under its own name (``mirror-moves-distinct``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Self

from horserace.engine.events import HandEndReason
from horserace.engine.hand import Hand
from horserace.engine.layout import (
    BRANCH_A,
    BRANCH_B,
    CREDIT,
    LINEAR_A,
    LINEAR_B,
    MASK_OF_VALUES,
    PORT_HIGH,
    PORT_LOW,
    PORT_NAMES,
    AttachmentPoint,
    Layout,
    LayoutSave,
)
from horserace.engine.settlement import Settlement, hand_credit, round_to_five, side_totals
from horserace.engine.tiles import HIGH, IS_DOUBLE, LOW, NAMES, TILE_COUNT, pips_of
from horserace.engine.types import Mask, Port, Seat, Side, Tile
from horserace.errors import IllegalAction
from horserace.quality.deviations import HOUSE_RULE, Deviation

__all__ = ["HOUSE_RULES", "house_rule"]

#: The house rules, by name, in the order they are written here.
HOUSE_RULES: dict[str, Deviation] = {}


def house_rule(
    name: str, rule: str, description: str, source: str
) -> Callable[[Callable[[], type[Hand]]], Callable[[], type[Hand]]]:
    """Register the house rule that ``make()`` builds."""

    def register(make: Callable[[], type[Hand]]) -> Callable[[], type[Hand]]:
        HOUSE_RULES[name] = Deviation(name, rule, description, make(), HOUSE_RULE, source)
        return make

    return register


def _engine(name: str, **seams: Any) -> type[Hand]:
    """A :class:`Hand` subclass that sets the given seams (class attributes or methods)."""
    return type(name, (Hand,), {"__slots__": (), **seams})


_BOTH_LINEAR = (1 << LINEAR_A) | (1 << LINEAR_B)
_DOUBLES: Mask = sum(1 << t for t in range(TILE_COUNT) if IS_DOUBLE[t])


# ---------------------------------------------------------------------- spinners (HR-SPIN-1)
class _FewSpinners(Layout):
    """A layout on which a double is a spinner only if :meth:`is_spinner` says so.  Any
    other double is played crosswise in the line: it joins by ``linear-a``, counts both
    halves while its other linear side is free (HR-COUNT-2), counts nothing once both are
    filled (HR-COUNT-3), and has no branches: a branch port of it is refused (HR-SPIN-1)
    and never offered."""

    __slots__ = ()
    #: Whether the first double played (the opening tile or a later one) is a spinner.
    first_double_spins: ClassVar[bool] = True

    def is_spinner(self, t: Tile) -> bool:
        if not self.first_double_spins:
            return False
        for placed in self.order:
            if IS_DOUBLE[placed]:
                return placed == t
        return False

    def normalise(self, t: Tile, target: Tile | None, port: Port | None) -> tuple[Tile | None, Port | None]:
        if (
            target is not None
            and port is not None
            and port >= BRANCH_A
            and target in self
            and IS_DOUBLE[target]
            and not self.is_spinner(target)
        ):
            raise IllegalAction(
                f"{NAMES[target]} is not a spinner and has no {PORT_NAMES[port]}: "
                + ("only the first double played is one" if self.first_double_spins else "no double is one"),
                rule="HR-SPIN-1",
            )
        return super().normalise(t, target, port)

    def place(self, t: Tile, target: Tile | None, port: Port | None) -> int:
        count = super().place(t, target, port)
        if (
            target is not None
            and IS_DOUBLE[target]
            and port is not None
            and port <= LINEAR_B
            and self._filled[target] & _BOTH_LINEAR == _BOTH_LINEAR
            and not self.is_spinner(target)
        ):
            # Layout.place opened the branches of a double filled on both sides: not of this one.
            value = LOW[target]
            slots = self._slots[value]
            slots.remove((target, BRANCH_A))
            if not slots:
                self._open_values &= ~(1 << value)
                self.open_mask = MASK_OF_VALUES[self._open_values]
        return count

    def attachment_points(self) -> list[AttachmentPoint]:
        return [p for p in super().attachment_points() if p.port < BRANCH_A or self.is_spinner(p.tile)]

    def spinners(self) -> list[Tile]:
        return [t for t in self.order if IS_DOUBLE[t] and self.is_spinner(t)]


class _FirstDoubleSpins(_FewSpinners):
    __slots__ = ()


class _NoSpinners(_FewSpinners):
    __slots__ = ()
    first_double_spins = False


@house_rule(
    "first-double-only-spinner",
    "HR-SPIN-1",
    "only the first double played is a spinner; later doubles are played crosswise in line, without branches",
    "All Fives and Sniff (the first double played, the opening tile or a later one, is the spinner or sniff)",
)
def _h_first_double() -> type[Hand]:
    return _engine("FirstDoubleOnlySpinner", layout_class=_FirstDoubleSpins)


@house_rule(
    "no-spinners",
    "HR-SPIN-1",
    "no double is a spinner: doubles are played crosswise in line and only the two ends of the line grow",
    "Muggins as pagat.com names it (no spinner) and Fives-and-Threes as played in British pubs",
)
def _h_no_spinners() -> type[Hand]:
    return _engine("NoSpinners", layout_class=_NoSpinners)


# ---------------------------------------------------------------------- naming (HR-MOVE-2)
class _MirrorsApart(Layout):
    """A layout that keeps the two ports of a mirror-image pair apart: both are moves of
    their own (listed, counted by perft), and a placement keeps the port it names
    (``linear-b`` of an opening double stays ``linear-b``)."""

    __slots__ = ()

    def normalise(self, t: Tile, target: Tile | None, port: Port | None) -> tuple[Tile | None, Port | None]:
        canonical_target, _ = super().normalise(t, target, port)
        # Layout.normalise names a mirror image by the first free port of A then B; both
        # are free then, so the port as given is as legal.
        return canonical_target, port if canonical_target is not None else None

    def place(self, t: Tile, target: Tile | None, port: Port | None) -> int:
        if target is None:
            count = super().place(t, None, None)
            if IS_DOUBLE[t]:
                self._slots[LOW[t]].append((t, LINEAR_B))  # the mirror image, a move of its own
            return count
        if not IS_DOUBLE[target] or port is None:
            return super().place(t, target, port)
        # On a double: Layout.place with the mirror images kept apart.  The placed tile is
        # a non-double (a double [v|v] is the only double with a half v).
        slots = self._slots
        self.order.append(t)
        value = LOW[target]
        target_slots = slots[value]
        target_slots.remove((target, port))
        filled = self._filled[target] | (1 << port)
        self._filled[target] = filled
        count = self.count
        if port <= LINEAR_B:
            if filled & _BOTH_LINEAR == _BOTH_LINEAR:
                count -= 2 * value  # HR-COUNT-3: interior
                target_slots.append((target, BRANCH_A))
                target_slots.append((target, BRANCH_B))
        elif self._one_branch:  # HRI-10 variant: the other branch closes
            other = (target, BRANCH_B if port == BRANCH_A else BRANCH_A)
            if other in target_slots:
                target_slots.remove(other)
        if LOW[t] == value:
            own, free, added = PORT_LOW, PORT_HIGH, HIGH[t]
        else:
            own, free, added = PORT_HIGH, PORT_LOW, LOW[t]
        self._filled[t] = 1 << own
        self._joins.append((target, port, t, own))
        count += added
        slots[added].append((t, free))
        self.count = count
        values = self._open_values | (1 << added)
        if not target_slots:
            values &= ~(1 << value)
        self._open_values = values
        self.open_mask = MASK_OF_VALUES[values]
        return count


@house_rule(
    "mirror-moves-distinct",
    "HR-MOVE-2",
    "the two ports of a mirror-image pair are two moves: both are listed and counted by perft, and a placement "
    "keeps the name it was given",
    "engines that generate a move per port (the issue's 'second of two mirror-image moves'), as a line-of-play "
    "engine with a left and a right end does",
)
def _h_mirrors() -> type[Hand]:
    return _engine("MirrorMovesDistinct", layout_class=_MirrorsApart)


# ---------------------------------------------------------------------- the opening (HR-OPEN-2)
class _DoubleOpening(Layout):
    """A layout whose opening tile must be a double: on the empty layout only doubles play
    (an opener without one draws, as any player without a playable tile does)."""

    __slots__ = ()

    def __init__(self, *, branch_use_one: bool = False) -> None:
        super().__init__(branch_use_one=branch_use_one)
        self.open_mask = _DOUBLES

    def normalise(self, t: Tile, target: Tile | None, port: Port | None) -> tuple[Tile | None, Port | None]:
        if not self.order and target is None and port is None and not IS_DOUBLE[t]:
            raise IllegalAction(f"the opening tile must be a double, not {NAMES[t]}", rule="HR-OPEN-2")
        return super().normalise(t, target, port)

    def restore(self, saved: LayoutSave) -> None:
        super().restore(saved)
        if saved is None:  # the layout is empty again
            self.open_mask = _DOUBLES


@house_rule(
    "opening-must-be-double",
    "HR-OPEN-2",
    "the opening tile must be a double; an opener who holds none draws until one comes",
    "All Fives and Muggins as apps and old rule books play them (the highest double leads), and Sniff as an old "
    "book of games gives it (with no double dealt, the players draw until one is found)",
)
def _h_double_opening() -> type[Hand]:
    return _engine("OpeningMustBeDouble", layout_class=_DoubleOpening)


# ---------------------------------------------------------------------- who opens next (HR-OPEN-3)
def _lead_passes_left(self: Hand, reason: HandEndReason, domino_seat: Seat | None) -> Seat | None:
    return (self.opener + 1) % self.seats


@house_rule(
    "lead-passes-left",
    "HR-OPEN-3",
    "the next hand is opened by the left-hand neighbour of this hand's opener, however the hand ended",
    "Fives-and-Threes (the turn to start passes to the left) and Sniff as some rule books give it",
)
def _h_lead_left() -> type[Hand]:
    return _engine("LeadPassesLeft", next_opener_after=_lead_passes_left)


def _lightest_opens(self: Hand, reason: HandEndReason, domino_seat: Seat | None) -> Seat | None:
    if reason is not HandEndReason.BLOCKED:
        return domino_seat
    pips = [self.pip_count(h) for h in self.hands]
    lightest = [seat for seat, p in enumerate(pips) if p == min(pips)]
    return lightest[0] if len(lightest) == 1 else None  # a tie: a lot, as after any block


@house_rule(
    "lightest-hand-opens-after-block",
    "HR-OPEN-3",
    "after a blocked hand the player with the fewest pips opens the next (a lot only if several tie)",
    "All Fives as Gambit's rules give it (whoever wins the hand plays first in the next)",
)
def _h_lightest_opens() -> type[Hand]:
    return _engine("LightestHandOpensAfterBlock", next_opener_after=_lightest_opens)


# ---------------------------------------------------------------------- the turn (HR-TURN-1)
def _only_doubles(self: Hand, count: int, tile: Tile) -> bool:
    return IS_DOUBLE[tile]


def _only_scoring(self: Hand, count: int, tile: Tile) -> bool:
    return self.layout.credit_raw_table[count] > 0


@house_rule(
    "only-doubles-continue",
    "HR-TURN-1",
    "only a double earns another placement; a scoring non-double ends the turn",
    "the 'a double plays again' rule of draw games (Mexican Train and its house rules), grafted on a Fives engine",
)
def _h_only_doubles() -> type[Hand]:
    return _engine("OnlyDoublesContinue", earns_continuation=_only_doubles)


@house_rule(
    "only-scoring-tiles-continue",
    "HR-TURN-1",
    "only a scoring placement earns another placement; a double that does not score ends the turn",
    "Fives engines that give a bonus play for a score (an extra turn for making the ends a multiple of five)",
)
def _h_only_scoring() -> type[Hand]:
    return _engine("OnlyScoringTilesContinue", earns_continuation=_only_scoring)


# ---------------------------------------------------------------------- drawing
@house_rule(
    "draw-one-then-pass",
    "HR-DRAW-2",
    "a player without a playable tile draws one tile; if it does not play, they pass",
    "the 'draw one' option of domino apps, and Sniff as old rule books limit its draws (a few tiles, then the turn is lost)",
)
def _h_draw_one() -> type[Hand]:
    return _engine("DrawOneThenPass", draw_until_playable=False)


@house_rule(
    "draw-while-playable",
    "HR-DRAW-1",
    "a player may draw from the boneyard even while holding a playable tile; a playable tile drawn is placed at once "
    "(a move of perft, 'draw'; random play never chooses it)",
    "Muggins and Sniff as some rule books and apps allow it (a player may draw rather than play, to keep a tile)",
)
def _h_draw_while_playable() -> type[Hand]:
    return _engine("DrawWhilePlayable", play_before_drawing=False)


@house_rule(
    "last-two-stay-in-boneyard",
    "HR-DEAL-2",
    "the last two tiles of the boneyard are never drawn",
    "Muggins as Foster's Hoyle gives it (the last two in the stock must never be drawn), the two-player Sniff and "
    "Draw dominoes of several apps",
)
def _h_two_stay() -> type[Hand]:
    return _engine("LastTwoStayInBoneyard", undrawable=2)


# ---------------------------------------------------------------------- settlement
def _settled(winners: tuple[Side, ...], credits: Sequence[int], scores: Sequence[int], target: int) -> Settlement:
    """A settlement from its winners and credits (displayed points): the credits added
    together, the sides at or over the target sharing the match (HR-MATCH-2)."""
    after = tuple(s + c for s, c in zip(scores, credits, strict=True))
    return Settlement(winners, tuple(credits), after, tuple(side for side, s in enumerate(after) if s >= target))


def _winners(totals: Sequence[int], partnership: bool, domino_seat: Seat | None) -> tuple[Side, ...]:
    """HR-END-1, HR-END-2: the side that dominoed, or every side with the lowest total."""
    if domino_seat is not None:
        return (domino_seat % 2 if partnership else domino_seat,)
    low = min(totals)
    return tuple(side for side, total in enumerate(totals) if total == low)


def _settle_by(credit: Callable[[int], int]) -> Callable[..., Settlement]:
    """The canonical settlement with the opponents' pips ``P`` credited as ``credit(P)``."""

    def settle(
        pips_by_seat: Sequence[int], *, partnership: bool, domino_seat: Seat | None, scores: Sequence[int], target: int
    ) -> Settlement:
        totals = side_totals(pips_by_seat, partnership)
        winners = _winners(totals, partnership, domino_seat)
        credits = [0] * len(totals)
        for side in winners:
            credits[side] = credit(sum(totals) - totals[side])
        return _settled(winners, credits, scores, target)

    return settle


def _use_settle(name: str, settle: Callable[..., Settlement]) -> type[Hand]:
    return _engine(name, settle=staticmethod(settle))


def _tie_scores_nothing(
    pips_by_seat: Sequence[int], *, partnership: bool, domino_seat: Seat | None, scores: Sequence[int], target: int
) -> Settlement:
    totals = side_totals(pips_by_seat, partnership)
    winners = _winners(totals, partnership, domino_seat)
    if len(winners) > 1:
        winners = ()  # a tie for the lowest total: nobody wins the hand, nobody scores
    credits = [0] * len(totals)
    for side in winners:
        credits[side] = hand_credit(sum(totals) - totals[side])
    return _settled(winners, credits, scores, target)


@house_rule(
    "tie-scores-nothing",
    "HR-SETTLE-3",
    "a blocked hand with several sides tied for the lowest total has no winner and scores nothing",
    "Draw and partnership dominoes as several rule books and apps give them (a tie for the lowest count: no score)",
)
def _h_tie_nothing() -> type[Hand]:
    return _use_settle("TieScoresNothing", _tie_scores_nothing)


def _lightest_single_hand(
    pips_by_seat: Sequence[int], *, partnership: bool, domino_seat: Seat | None, scores: Sequence[int], target: int
) -> Settlement:
    totals = side_totals(pips_by_seat, partnership)
    if partnership and domino_seat is None:
        low = min(pips_by_seat)
        winners = tuple(sorted({seat % 2 for seat, p in enumerate(pips_by_seat) if p == low}))
    else:
        winners = _winners(totals, partnership, domino_seat)
    credits = [0] * len(totals)
    for side in winners:
        credits[side] = hand_credit(sum(totals) - totals[side])
    return _settled(winners, credits, scores, target)


@house_rule(
    "lightest-hand-wins-for-pair",
    "HR-END-2",
    "in a blocked partnership hand the pair of the player with the fewest pips wins, not the pair with the lower total",
    "partnership engines that rank the players' hands, not the pairs' (the reading the Indonesian «Pemenang ronde» "
    "names to rule it out)",
)
def _h_lightest_pair() -> type[Hand]:
    return _use_settle("LightestHandWinsForPair", _lightest_single_hand)


def _difference(
    pips_by_seat: Sequence[int], *, partnership: bool, domino_seat: Seat | None, scores: Sequence[int], target: int
) -> Settlement:
    totals = side_totals(pips_by_seat, partnership)
    winners = _winners(totals, partnership, domino_seat)
    credits = [0] * len(totals)
    for side in winners:
        own = totals[side]
        credits[side] = hand_credit(sum(max(0, t - own) for other, t in enumerate(totals) if other != side))
    return _settled(winners, credits, scores, target)


@house_rule(
    "winner-scores-difference",
    "HR-SETTLE-2",
    "the winner scores, from each opponent side, the difference between that side's pips and its own",
    "Muggins as old rule books give it (the lowest hand takes the difference from each opponent) and All Fives "
    "as Gambit's rules give it",
)
def _h_difference() -> type[Hand]:
    return _use_settle("WinnerScoresDifference", _difference)


def _one_end_of_doubles(hand: Mask) -> int:
    """Pips with a double counting one half: ``[4|4]`` is 4."""
    return pips_of(hand) - pips_of(hand & _DOUBLES) // 2


@house_rule(
    "double-counts-one-half-in-hand",
    "HR-SET-2",
    "a double left in hand counts one half at the end of a hand ([4|4] is 4), for the winner and for the credit",
    "a variation printed in the rule leaflets of domino sets (count only one end of a double in the losers' hands)",
)
def _h_one_half() -> type[Hand]:
    return _engine("DoubleCountsOneHalfInHand", pip_count=staticmethod(_one_end_of_doubles))


@house_rule(
    "settlement-rounds-down",
    "HR-SETTLE-1",
    "the opponents' pips are rounded down to a multiple of five (17 -> 15, 19 -> 15), never up",
    "scoring by whole fives, the remainder dropped, as engines that divide by five with integer division do",
)
def _h_round_down() -> type[Hand]:
    return _use_settle("SettlementRoundsDown", _settle_by(lambda pips: pips // 5))


@house_rule(
    "settlement-rounds-up",
    "HR-SETTLE-1",
    "the opponents' pips are rounded up to a multiple of five (16 -> 20, 11 -> 15)",
    "scoring a point for every five pips or part of five, as engines that divide by five rounding up do",
)
def _h_round_up() -> type[Hand]:
    return _use_settle("SettlementRoundsUp", _settle_by(lambda pips: (pips + 4) // 5))


class _Pips(int):
    """A score in displayed points that keeps the raw points behind it: its value is
    ``raw // 5`` (the display truncates), ``score + n`` adds ``n`` displayed points (``5n``
    raw), and the next settlement adds its pips to ``raw``, unrounded.  It travels from
    hand to hand in the scores as any score does."""

    raw: int

    def __new__(cls, raw: int) -> Self:
        score = super().__new__(cls, raw // 5)
        score.raw = raw
        return score

    def __getnewargs__(self) -> tuple[int]:  # pickled by its raw points
        return (self.raw,)

    def __add__(self, other: int) -> _Pips:  # keeps the raw points
        return _Pips(self.raw + 5 * int(other))

    __radd__ = __add__


def _raw(score: int) -> int:
    return score.raw if isinstance(score, _Pips) else 5 * score


def _unrounded(
    pips_by_seat: Sequence[int], *, partnership: bool, domino_seat: Seat | None, scores: Sequence[int], target: int
) -> Settlement:
    totals = side_totals(pips_by_seat, partnership)
    winners = _winners(totals, partnership, domino_seat)
    after = [_Pips(_raw(s)) for s in scores]
    for side in winners:
        after[side] = _Pips(after[side].raw + sum(totals) - totals[side])
    credits = tuple(int(a) - int(s) for a, s in zip(after, scores, strict=True))
    return Settlement(winners, credits, tuple(after), tuple(side for side, s in enumerate(after) if s >= target))


@house_rule(
    "unrounded-pips-kept",
    "HR-SETTLE-1",
    "the opponents' pips are credited unrounded in raw points; displayed points are the raw score divided by five "
    "and truncated, so remainders add up from hand to hand",
    "engines that keep the score in pips (All Fives and Muggins are scored in pips) and show it in fives, "
    "as pegging on a cribbage board does",
)
def _h_unrounded() -> type[Hand]:
    return _use_settle("UnroundedPipsKept", _unrounded)


# ---------------------------------------------------------------------- credit (HR-CREDIT-1, HR-CREDIT-2)
class _RawPointsLayout(Layout):
    """A layout whose placements credit their count as it is: 15 scores 15."""

    __slots__ = ()
    credit_table = CREDIT


@house_rule(
    "scores-in-raw-points",
    "HR-CREDIT-2",
    "every credit and score is in raw points: a count of 15 scores 15 and a settlement its rounded pips "
    "(17 -> 15), and the target is compared with those points",
    "All Fives and Muggins as most rule books and apps score them (a count of 15 scores 15 points, games to 100, "
    "200 or 250)",
)
def _h_raw_points() -> type[Hand]:
    return _engine("ScoresInRawPoints", layout_class=_RawPointsLayout, settle=staticmethod(_settle_by(round_to_five)))


def _fives_and_threes(count: int) -> int:
    """Fives-and-Threes' points for a count: a fifth of a multiple of five plus a third of
    a multiple of three (15 scores 3 + 5 = 8; 6 scores 2; 10 scores 2)."""
    if count <= 0:
        return 0
    return (count // 5 if count % 5 == 0 else 0) + (count // 3 if count % 3 == 0 else 0)


_F3_POINTS: tuple[int, ...] = tuple(_fives_and_threes(c) for c in range(len(CREDIT)))


class _FivesAndThreesLayout(Layout):
    """A layout whose counts score on multiples of three as well as five (displayed
    points; the raw credit is five times them, as everywhere)."""

    __slots__ = ()
    credit_raw_table = tuple(5 * p for p in _F3_POINTS)
    credit_table = _F3_POINTS


@house_rule(
    "fives-and-threes",
    "HR-CREDIT-1",
    "a count that is a multiple of three scores too: a fifth of a multiple of five plus a third of a multiple of "
    "three (15 -> 8, 6 -> 2, 9 -> 3); such a placement scores and continues",
    "Fives-and-Threes, the British pub and league game",
)
def _h_fives_and_threes() -> type[Hand]:
    return _engine("FivesAndThrees", layout_class=_FivesAndThreesLayout)
