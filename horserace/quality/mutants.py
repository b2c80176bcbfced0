"""Named deviations of the reference engine: the mutants, each a realistic misreading of
one rule, and the house rules of the Fives family (:mod:`horserace.quality.house_rules`),
in one registry, :data:`MUTANTS`.

They prove the suite's strength: ``horserace mutants`` runs the corpus against every
deviation, through the conformance protocol (``horserace serve --mutant NAME``) or in
process, and a deviation that no fixture kills shows a hole in the corpus.  A diagnosis
iterates over the same registry (each entry's ``family`` says which kind it is,
:mod:`horserace.quality.deviations`).

A mutant is a :class:`~horserace.engine.hand.Hand` subclass plugged into the engine's
explicit seams (its layout class, its settlement function, its turn rules), as
python-chess's variants subclass ``Board``: nothing is patched, so the reference engine
and any number of mutants live side by side in one process.

Perft works under every mutant (``horserace perft --mutant NAME``): a hand undoes its
own state whatever its seams, and a mutant's layout undoes its placements with the
layout's :meth:`~horserace.engine.layout.Layout.save` and ``restore``, which keep the
count and the slot lists a placement touches, all that the layouts here change
(tests/quality/test_perft_mutants.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from horserace.conformance.runner import Options, run
from horserace.conformance.server import reference_argv
from horserace.corpus.fixture import Fixture
from horserace.corpus.replay import replay_fixture
from horserace.corpus.status import Status
from horserace.engine import layout as layout_module
from horserace.engine.events import HandEnd, HandEndReason, Place
from horserace.engine.hand import Hand
from horserace.engine.layout import BRANCH_A, BRANCH_B, LINEAR_A, LINEAR_B, Contribution, Layout
from horserace.engine.settlement import SettleFunction, Settlement, hand_credit, side_totals
from horserace.engine.tiles import IS_DOUBLE, LOW
from horserace.engine.types import Port, Seat, Tile
from horserace.errors import IllegalAction, ImplementationUnusable, UsageError
from horserace.quality.deviations import MISREADING, Deviation
from horserace.quality.house_rules import HOUSE_RULES
from horserace.quality.processes import in_processes

__all__ = [
    "DEVIATIONS",
    "MUTANTS",
    "Killer",
    "Mutant",
    "Verdict",
    "judge_all",
    "judge_in_process",
    "judge_through_protocol",
    "mutant",
    "named",
    "of_family",
]

#: A named deviation (the name the mutants have always had): ``name``, ``rule``,
#: ``description``, ``engine``, ``family`` and ``source``.
Mutant = Deviation

#: The one registry of named deviations: the misreadings below, then the house rules of
#: :mod:`horserace.quality.house_rules`, by name.
MUTANTS: dict[str, Mutant] = {}
#: The same registry, by the name a diagnosis gives it.
DEVIATIONS = MUTANTS


def mutant(
    name: str, rule: str, description: str, source: str = "a misreading of the rule's text"
) -> Callable[[Callable[[], type[Hand]]], Callable[[], type[Hand]]]:
    """Register the misreading that ``make()`` builds."""

    def register(make: Callable[[], type[Hand]]) -> Callable[[], type[Hand]]:
        MUTANTS[name] = Mutant(name, rule, description, make(), MISREADING, source)
        return make

    return register


def named(name: str) -> Mutant:
    """The deviation called ``name`` (a :class:`~horserace.errors.UsageError` if none is)."""
    try:
        return MUTANTS[name]
    except KeyError:
        raise UsageError(f"no mutant is named {name!r}; see 'horserace mutants --list'") from None


def of_family(family: str) -> list[Mutant]:
    """The registered deviations of one family (``"misreading"`` or ``"house rule"``), in order."""
    return [m for m in MUTANTS.values() if m.family == family]


# ---------------------------------------------------------------------- counting
_BOTH = (1 << LINEAR_A) | (1 << LINEAR_B)


def _use_layout(cls: type[Layout]) -> type[Hand]:
    """A :class:`Hand` that builds on the layout ``cls``."""
    return type(f"HandOn{cls.__name__}", (Hand,), {"__slots__": (), "layout_class": cls})


def _recounting(contributions: Callable[[Layout], list[Contribution]]) -> type[Layout]:
    """A Layout whose counted contributions are ``contributions`` and whose count is
    their sum: a consistent misreading of what counts."""

    class Recounting(Layout):
        __slots__ = ()

        def contributions(self) -> list[Contribution]:
            return contributions(self)

        def place(self, t: Tile, target: Tile | None, port: Port | None) -> int:
            super().place(t, target, port)
            self.count = sum(c.value for c in self.contributions())
            return self.count

    return Recounting


def _double_state(layout: Layout, t: int) -> tuple[int, int]:
    filled = layout.filled_ports(t)
    free_linear = sum(1 for p in (LINEAR_A, LINEAR_B) if not filled >> p & 1)
    return filled, free_linear


@mutant(
    "unstarted-branch-counted",
    "HR-COUNT-3",
    "each unstarted branch of an interior spinner counts its value",
    "a misreading of the rule's text; also how Sniff is scored where the sniff counts its open sides",
)
def _m_unstarted_branch() -> type[Hand]:
    def contributions(layout: Layout) -> list[Contribution]:
        out = Layout.contributions(layout)
        for t in layout.order:
            filled, free = _double_state(layout, t)
            if IS_DOUBLE[t] and free == 0:
                out += [Contribution(t, p, LOW[t]) for p in (BRANCH_A, BRANCH_B) if not filled >> p & 1]
        return out

    return _use_layout(_recounting(contributions))


@mutant("interior-double-counted", "HR-COUNT-3", "a double with both linear sides filled still counts both halves")
def _m_interior_double() -> type[Hand]:
    def contributions(layout: Layout) -> list[Contribution]:
        out = Layout.contributions(layout)
        out += [
            Contribution(t, None, 2 * LOW[t]) for t in layout.order if IS_DOUBLE[t] and _double_state(layout, t)[1] == 0
        ]
        return out

    return _use_layout(_recounting(contributions))


@mutant("zero-end-not-listed", "HR-COUNT-4", "a counted end of value 0 is left out of the contributions")
def _m_zero_end() -> type[Hand]:
    def contributions(layout: Layout) -> list[Contribution]:
        return [c for c in Layout.contributions(layout) if c.value != 0]

    return _use_layout(_recounting(contributions))


@mutant("terminal-double-once", "HR-COUNT-2", "a double with a free linear side counts one half, not both")
def _m_terminal_once() -> type[Hand]:
    def contributions(layout: Layout) -> list[Contribution]:
        return [c._replace(value=LOW[c.tile]) if c.port is None else c for c in Layout.contributions(layout)]

    return _use_layout(_recounting(contributions))


@mutant(
    "opening-double-per-side", "HR-COUNT-2", "a double counts both halves once per free linear side ([2|2] alone = 8)"
)
def _m_double_per_side() -> type[Hand]:
    def contributions(layout: Layout) -> list[Contribution]:
        out = []
        for c in Layout.contributions(layout):
            if c.port is None:
                out += [c] * _double_state(layout, c.tile)[1]
            else:
                out.append(c)
        return out

    return _use_layout(_recounting(contributions))


@mutant("branches-before-linear", "HR-SPIN-2", "a spinner's branches open as soon as it is placed")
def _m_early_branches() -> type[Hand]:
    class EarlyBranches(Layout):
        __slots__ = ()

        def normalise(self, t: Tile, target: Tile | None, port: Port | None) -> tuple[Tile | None, Port | None]:
            filled = self._filled.get(target) if target is not None else None
            if target is None or filled is None or not IS_DOUBLE[target] or port is None or port < BRANCH_A:
                return super().normalise(t, target, port)
            if port == BRANCH_B and not filled & ((1 << BRANCH_A) | (1 << BRANCH_B)):
                port = BRANCH_A
            if filled >> port & 1 or LOW[target] not in (LOW[t], layout_module.HIGH[t]):
                raise IllegalAction(f"cannot place on {port}", rule="HR-PLACE-1")
            return target, port  # no HR-SPIN-2 check

        def place(self, t: Tile, target: Tile | None, port: Port | None) -> int:
            count = super().place(t, target, port)
            self._open_branches()
            return count

        def attachment_points(self) -> list[layout_module.AttachmentPoint]:
            points = super().attachment_points()
            for t in self.order:
                filled = self._filled[t]
                if IS_DOUBLE[t] and filled & _BOTH != _BOTH:
                    points += [
                        layout_module.AttachmentPoint(t, p, LOW[t]) for p in (BRANCH_A, BRANCH_B) if not filled >> p & 1
                    ]
            return points

        def _open_branches(self) -> None:
            """Every spinner offers its first free branch at once; no slot twice."""
            for slots in self._slots:
                kept: list[tuple[Tile, Port]] = []
                for slot in slots:
                    if slot not in kept and not self._filled[slot[0]] >> slot[1] & 1:
                        kept.append(slot)
                slots[:] = kept
            for t in self.order:
                if IS_DOUBLE[t]:
                    filled = self._filled[t]
                    free = [p for p in (BRANCH_A, BRANCH_B) if not filled >> p & 1]
                    slots = self._slots[LOW[t]]
                    if free and not any(s[0] == t and s[1] >= BRANCH_A for s in slots):
                        slots.append((t, free[0]))
            values = sum(1 << v for v, slots in enumerate(self._slots) if slots)
            self._open_values = values
            self.open_mask = layout_module.MASK_OF_VALUES[values]

    return _use_layout(EarlyBranches)


# ---------------------------------------------------------------------- settlement
def _use_settle(fn: SettleFunction) -> type[Hand]:
    """A :class:`Hand` that settles with ``fn``."""
    return type("HandSettlingOtherwise", (Hand,), {"__slots__": (), "settle": staticmethod(fn)})


def _settle_with(
    *,
    credit: Callable[[int], int] = hand_credit,
    round_each: bool = False,
    subtract_own: bool = False,
    include_partner: bool = False,
    split_ties: bool = False,
    first_only: bool = False,
    exclude_cowinners: bool = False,
) -> SettleFunction:
    def settle(
        pips_by_seat: Sequence[int], *, partnership: bool, domino_seat: Seat | None, scores: Sequence[int], target: int
    ) -> Settlement:
        totals = side_totals(pips_by_seat, partnership)
        if domino_seat is None:
            low = min(totals)
            winners = tuple(s for s, total in enumerate(totals) if total == low)
        else:
            winners = (domino_seat % 2 if partnership else domino_seat,)
        credits = [0] * len(totals)
        for side in winners:
            if round_each:
                value = sum(
                    credit(p) for seat, p in enumerate(pips_by_seat) if (seat % 2 if partnership else seat) != side
                )
            elif include_partner and partnership and domino_seat is not None:
                value = credit(sum(p for seat, p in enumerate(pips_by_seat) if seat != domino_seat))
            elif exclude_cowinners:
                value = credit(sum(totals) - sum(totals[w] for w in winners))
            else:
                value = credit(sum(totals) - totals[side])
            if subtract_own:
                value = max(0, credit(max(0, sum(totals) - 2 * totals[side])))
            if split_ties:
                value //= len(winners)
            credits[side] = value
        after = tuple(s + c for s, c in zip(scores, credits, strict=True))
        match_winners = tuple(side for side, s in enumerate(after) if s >= target)
        if first_only:
            match_winners = match_winners[:1]
        return Settlement(winners, tuple(credits), after, match_winners)

    return settle


@mutant("round-each-opponent", "HR-SETTLE-1", "each opponent's pips are rounded separately, then added")
def _m_round_each() -> type[Hand]:
    return _use_settle(_settle_with(round_each=True))


@mutant("remainder-3-down", "HR-SETTLE-1", "a remainder of 3 rounds down (only 4 rounds up)")
def _m_remainder_3() -> type[Hand]:
    return _use_settle(_settle_with(credit=lambda pips: (pips + 1) // 5))


@mutant(
    "winner-pips-subtracted",
    "HR-SETTLE-2",
    "the winner's own pips are subtracted from the opponents'",
    "a misreading of the rule's text; also Block and Draw dominoes' blocked hand (the lightest hand scores "
    "the others' pips less its own)",
)
def _m_subtract_own() -> type[Hand]:
    return _use_settle(_settle_with(subtract_own=True))


@mutant("partner-pips-credited", "HR-SETTLE-2", "the winner's partner's pips are credited with the opponents'")
def _m_partner() -> type[Hand]:
    return _use_settle(_settle_with(include_partner=True))


@mutant("tied-winners-split", "HR-SETTLE-3", "tied winners of a blocked hand split the credit between them")
def _m_split() -> type[Hand]:
    return _use_settle(_settle_with(split_ties=True))


@mutant(
    "co-winners-excluded",
    "HR-SETTLE-3",
    "tied winners of a blocked hand are credited only the pips of the sides that did not tie",
)
def _m_cowinners() -> type[Hand]:
    return _use_settle(_settle_with(exclude_cowinners=True))


@mutant("seat-order-tiebreak", "HR-MATCH-2", "of the sides reaching the target together, only the first seat wins")
def _m_seat_order() -> type[Hand]:
    return _use_settle(_settle_with(first_only=True))


# ---------------------------------------------------------------------- the turn
def _turn(name: str, **seams: object) -> type[Hand]:
    """A :class:`Hand` subclass that sets the given seams (class attributes or methods)."""
    return type(name, (Hand,), {"__slots__": (), **seams})


def _last_placer(hand: Hand) -> int | None:
    for event in reversed(hand.events):
        if isinstance(event, Place):
            return event.seat
    return None


@mutant("drawn-tile-continues", "HR-TURN-3", "a drawn tile that scores or is a double continues the turn")
def _m_drawn_continues() -> type[Hand]:
    return _turn("DrawnTileContinues", drawn_tile_exception=False)  # forgets that the tile was just drawn


@mutant("earlier-draw-as-just-drawn", "HR-TURN-3", "a tile drawn in an earlier turn is treated as just drawn")
def _m_earlier_draw() -> type[Hand]:
    return _turn("EarlierDrawAsJustDrawn", forced_readings={"drawn_tile_scope": "whole-hand"})


@mutant("no-continuation", "HR-TURN-1", "doubles and scoring tiles never continue the turn")
def _m_no_continuation() -> type[Hand]:
    def earns_continuation(self: Hand, count: int, tile: int) -> bool:
        return False

    return _turn("NoContinuation", earns_continuation=earns_continuation)


@mutant("opener-denied-continuation", "HR-OPEN-2", "the opening tile never continues the turn")
def _m_opener() -> type[Hand]:
    return _turn("OpenerDeniedContinuation", forced_readings={"opening_continuation": "never"})


@mutant("zero-count-continues", "HR-CREDIT-1", "a count of zero is taken for a multiple of five and continues the turn")
def _m_zero_continues() -> type[Hand]:
    def earns_continuation(self: Hand, count: int, tile: int) -> bool:
        return count == 0 or Hand.earns_continuation(self, count, tile)

    return _turn("ZeroCountContinues", earns_continuation=earns_continuation)


class _Exactly(int):
    """A target only reached exactly: ``score >= target`` means ``score == target``
    (``int`` compared with a subclass of ``int`` asks the subclass first)."""

    def __le__(self, other: int) -> bool:
        return int(other) == int(self)

    def __ge__(self, other: int) -> bool:
        return int(other) == int(self)


@mutant(
    "exact-target",
    "HR-MATCH-1",
    "the match is won only by reaching exactly the target",
    "a misreading of the rule's text; Fives-and-Threes pub leagues play to exactly 61 (there an overshoot is not scored)",
)
def _m_exact() -> type[Hand]:
    return _turn("ExactTarget", target_type=_Exactly)  # the settlement compares with the same target


@mutant("settled-after-match", "HR-MATCH-1", "a hand ended by a placement reaching the target is settled as well")
def _m_settled_after_match() -> type[Hand]:
    def end_by_placement(self: Hand, side: int) -> None:
        pips = tuple(map(self.pip_count, self.hands))
        totals = side_totals(pips, self.partnership)
        credits = [0] * len(totals)
        credits[side] = hand_credit(sum(totals) - totals[side])
        self.scores = [s + c for s, c in zip(self.scores, credits, strict=True)]
        self.over, self.reason, self.next_opener = True, HandEndReason.MATCH, None
        if self.record:
            self.events.append(HandEnd(HandEndReason.MATCH, (side,), pips, tuple(credits), tuple(self.scores), None))
        self.end_match((side,))

    return _turn("SettledAfterMatch", end_by_placement=end_by_placement)


@mutant("last-placer-opens-after-block", "HR-OPEN-3", "after a blocked hand the last player to place opens, no lot")
def _m_block_opener() -> type[Hand]:
    def next_opener_after(self: Hand, reason: HandEndReason, domino_seat: int | None) -> int | None:
        return _last_placer(self) if reason is HandEndReason.BLOCKED else domino_seat

    return _turn("LastPlacerOpensAfterBlock", next_opener_after=next_opener_after)


@mutant("next-seat-opens-after-domino", "HR-OPEN-3", "after a domino the winner's left-hand neighbour opens")
def _m_domino_opener() -> type[Hand]:
    def next_opener_after(self: Hand, reason: HandEndReason, domino_seat: int | None) -> int | None:
        if reason is HandEndReason.DOMINO and domino_seat is not None:
            return (domino_seat + 1) % self.seats
        return domino_seat

    return _turn("NextSeatOpensAfterDomino", next_opener_after=next_opener_after)


# ---------------------------------------------------------------------- the house rules
# After the misreadings: one registry, misreadings first (tests/quality/test_deviations.py
# holds every name to one entry and every entry to its family).
MUTANTS.update(HOUSE_RULES)


# ---------------------------------------------------------------------- judging
@dataclass(frozen=True)
class Killer:
    """A fixture that tells a mutant from the reference engine."""

    id: str
    rule: str
    status: Status


@dataclass(frozen=True)
class Verdict:
    """What the corpus did to one mutant."""

    mutant: Mutant
    killers: tuple[Killer, ...]
    #: Why the mutant could not be judged (its server would not start): not a kill.
    note: str = ""

    @property
    def killed(self) -> bool:
        """Some fixture told the mutant from the reference engine.  A mutant that could
        not be judged is not killed: the corpus has shown nothing about it."""
        return bool(self.killers)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "mutant": self.mutant.name,
            "rule": self.mutant.rule,
            "description": self.mutant.description,
            "family": self.mutant.family,
            "source": self.mutant.source,
            "killed": self.killed,
            "killers": [{"id": k.id, "rule": k.rule, "status": str(k.status)} for k in self.killers],
        }
        if self.note:
            out["note"] = self.note
        return out


def judge_in_process(mutant: Mutant, fixtures: list[Fixture]) -> Verdict:
    """Replay ``fixtures`` against the mutant's engine in this process: every observation
    compared with ``expected``, as ``horserace replay`` does (so an illegal fixture that
    refuses the right action citing another rule kills it too)."""
    killers = []
    for fx in fixtures:
        try:
            status = replay_fixture(fx, engine=mutant.engine).status
        except Exception:  # noqa: BLE001  (a mutant that crashes on a fixture, in any way, is told apart by it, as a crashing server is)
            status = Status.CRASH
        if status not in (Status.PASS, Status.SKIP):
            killers.append(Killer(fx.id, fx.primary_rule, status))
    return Verdict(mutant, tuple(killers))


def judge_through_protocol(mutant: Mutant, fixtures: list[Fixture], *, timeout: float = 20) -> Verdict:
    """Run ``fixtures`` against ``horserace serve --mutant NAME`` in a fresh process."""
    argv = reference_argv("--mutant", mutant.name)
    try:
        outcomes = run(argv, fixtures, Options(timeout=timeout))
    except ImplementationUnusable as exc:
        return Verdict(mutant, (), note=f"unusable: {exc}")
    killers = tuple(
        Killer(o.fixture.id, o.fixture.primary_rule, o.status)
        for o in outcomes
        if o.status not in (Status.PASS, Status.SKIP)
    )
    return Verdict(mutant, killers)


def _judged(task: tuple[str, list[Fixture], bool]) -> tuple[tuple[Killer, ...], str]:
    """Run in a worker process: the killers of the mutant named and its verdict's note
    (a mutant's engine is a class made at import, sent by its name)."""
    name, fixtures, in_process = task
    verdict = (judge_in_process if in_process else judge_through_protocol)(MUTANTS[name], fixtures)
    return verdict.killers, verdict.note


def judge_all(
    mutants: Sequence[Mutant],
    fixtures: list[Fixture],
    *,
    in_process: bool = False,
    jobs: int = 1,
    done: Callable[[Verdict], None] | None = None,
) -> tuple[list[Verdict], BaseException | None]:
    """The verdict on each of ``mutants``, in their order, judged on ``jobs`` worker
    processes (1: in this process; :func:`horserace.quality.processes.in_processes`), so
    the same for every ``jobs``; and what stopped the run (Ctrl-C, a signal's exception;
    ``None``: nothing did), the verdicts then those of the mutants before the first one
    not judged.  ``done`` is told of each verdict in that order."""
    verdicts: list[Verdict] = []

    def taken(i: int, judged: tuple[tuple[Killer, ...], str]) -> None:
        verdicts.append(Verdict(mutants[i], *judged))
        if done is not None:
            done(verdicts[-1])

    tasks = [(m.name, fixtures, in_process) for m in mutants]
    try:
        in_processes(_judged, tasks, jobs, done=taken)
    except Exception:
        raise
    except BaseException as exc:  # noqa: BLE001  (errors re-raised above; Ctrl-C, or a signal's exception: the workers are ended)
        return verdicts, exc
    return verdicts, None
