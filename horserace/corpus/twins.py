"""An illegal fixture passes by its reason (spec/fixture-format.md, "illegal"): the
loader's checks of an ``illegal`` fixture's legal twin, and the lint that holds the last
action of a rule-text illegal fixture to breaking its named rule only.

**The twin** (:attr:`Fixture.twin <horserace.corpus.fixture.Fixture.twin>`) is the
fixture's position with the one broken condition repaired.  An implementation's refusal
of the fixture's last action counts as a refusal for the fixture's rule when the refusal
names the rule or the implementation accepts the twin.  :func:`check_twin` refuses a
twin whose input is no valid position, whose actions are not as many as the fixture's,
whose last action is not of the fixture's kind (nor by the fixture's seat, unless the
seat is what the fixture breaks), or of which the reference engine refuses any action.

**The lint** (:func:`lint_illegal`, for ``origin: rule-text``): the reference evaluates
every condition of the order of checks on the last action
(:meth:`Hand.broken_conditions <horserace.engine.hand.Hand.broken_conditions>`), and
refuses a fixture whose action breaks a condition of another rule than its
``expected.rule`` (conditions implied by an earlier one not counted) or, for a
placement, whose actor holds no legal placement there: an implementation that checks
something else first (it wants a draw, it sees another seat to act) must not pass by
luck.

Both hold under the fixture's own readings and under each other reading of every field
it does not name, one at a time, as the corpus is checked under every reading
(tests/corpus/test_corpus.py): the fixture is sent under all of them.  Every error
points at its value's place (:class:`~horserace.errors.ScenarioError`'s ``path``): the
twin's own value for the twin, the last action for the lint.
"""

from __future__ import annotations

from typing import Any

from horserace.corpus.compare import format_path
from horserace.corpus.fixture import Fixture, build_twin_input, parse_input_path
from horserace.corpus.observers import Where, act, new_position, observe, with_target
from horserace.engine.hand import Hand
from horserace.engine.layout import parse_port
from horserace.engine.ruleset import VARIANT_FIELDS, Ruleset
from horserace.engine.tiles import parse_tile
from horserace.errors import IllegalAction, ScenarioError
from horserace.resources.schemas import validator

__all__ = ["WRONG_SEAT_RULES", "check_illegal", "check_twin", "lint_illegal", "readings_sent"]

#: The rules of the third check of the order of checks, the seat: a twin of a fixture
#: that breaks one of them may be acted by another seat (the one to act).
WRONG_SEAT_RULES = frozenset({"HR-SEAT-3", "HR-TURN-1", "HR-TURN-3"})


def readings_sent(fx: Fixture) -> list[dict[str, str]]:
    """The readings an illegal fixture is checked under: its own (canonical for every
    field it does not name), then each other reading of a field it does not name, one
    at a time."""
    out = [dict(fx.variants)]
    for name, readings in VARIANT_FIELDS.items():
        if name in fx.variants:
            continue
        out.extend({**fx.variants, name: reading} for reading in readings[1:])
    return out


def _under(readings: dict[str, str], own: dict[str, str]) -> str:
    """`` under name=reading`` for a reading the fixture does not name, else nothing."""
    extra = [f"{name}={reading}" for name, reading in readings.items() if name not in own]
    return f" under {', '.join(extra)}" if extra else ""


def _position(inp: dict[str, Any], readings: dict[str, str]) -> Hand:
    """The starting position of an illegal input (already checked by observing it)."""
    ruleset = with_target(Ruleset.from_readings(readings), inp["target"])
    return new_position(
        inp,
        ("input",),
        partnership=inp["mode"] == "partnership",
        seats=inp["seats"],
        scores=list(inp["scores"]),
        ruleset=ruleset,
    )


def _arguments(action: dict[str, Any]) -> tuple[int | None, int | None, int | None]:
    """The tile, target and port of an action (all ``None`` but for a placement)."""
    if action["action"] != "place":
        return None, None, None
    return (
        parse_tile(action["tile"]),
        parse_tile(action["target"]) if "target" in action else None,
        parse_port(action["port"]) if "port" in action else None,
    )


# ---------------------------------------------------------------------- the twin
def _in_twin(fx: Fixture, where: Where) -> Where:
    """A place inside the twin's input (``("input", ...)``) as the place of the twin's own
    value in the fixture: inside ``twin.input``, or the entry of ``twin.replace`` that
    holds it (else the first entry: the twin's change made the value wrong)."""
    rest = where[1:] if where[:1] == ("input",) else where
    twin = fx.twin or {}
    if "replace" not in twin:
        return ("twin", "input", *rest)
    entries = [(text, parse_input_path(text)) for text in twin["replace"]]
    for text, steps in entries:
        if steps is not None and tuple(rest[: len(steps)]) == steps:
            return ("twin", "replace", text, *rest[len(steps) :])
    for text, steps in entries:
        if steps is not None and steps[: len(rest)] == tuple(rest):
            return ("twin", "replace", text)
    return ("twin", "replace", entries[0][0])


def _schema_errors(fx: Fixture, twin_input: dict[str, Any]) -> ScenarioError | None:
    """The first schema error of a twin input built from ``replace`` (a twin written as a
    whole ``input`` was checked with the file), placed at the twin's value."""
    shell = {
        "id": fx.id,
        "description": fx.description,
        "kind": "illegal",
        "rules": fx.rules,
        "origin": fx.origin,
        "why": fx.why,
        "input": twin_input,
        "expected": fx.expected,
    }
    checker = validator("fixture.schema")
    if checker.is_valid([shell]):
        return None
    errors = sorted(checker.iter_errors([shell]), key=lambda e: [str(p) for p in e.instance_path])
    for err in errors:
        path = tuple(err.instance_path)
        if path[:2] == (0, "input"):
            where = ("input", *path[2:])
            return ScenarioError(f"the twin's {format_path(where)}: {err.message}", path=_in_twin(fx, where))
    return ScenarioError(f"the twin's input: {errors[0].message}", path=_in_twin(fx, ("input",)))


def _twin_kinds(fx: Fixture) -> tuple[str, ...]:
    """The kinds the twin's last action may have: the fixture's own; for an end of turn
    that no repair of the position can make legal, a placement (the action the player
    must make instead; either, for an end of turn after the hand is over, whose repair may
    leave the hand going on in a continuation).  An end of turn is legal only during a continuation not drawn in,
    under ``continuation=optional`` (HRI-2): under ``compulsory`` never, and never at the
    first action of its actor's turn (a position starts a fresh turn, and a continuation
    follows a placement of the same turn)."""
    kind = fx.input["actions"][-1]["action"]
    if kind != "end-turn":
        return (kind,)
    if fx.variants.get("continuation") != "optional":
        return ("place",)
    hand = _before_last(fx, dict(fx.variants))
    if isinstance(hand, IllegalAction):
        return ("place",)
    if hand.over:  # the repair may let the hand go on, in a continuation (HR-END-3's twin)
        return (kind, "place")
    if not hand.continuing:
        return ("place",)
    return (kind,)


def check_twin(fx: Fixture) -> None:
    """The checks of an illegal fixture's twin (the module docstring); raises
    :class:`ScenarioError` at the twin's value."""
    if fx.twin is None:
        return
    twin_input = build_twin_input(fx.input, fx.twin)
    if "replace" in fx.twin:
        error = _schema_errors(fx, twin_input)
        if error is not None:
            raise error
    actions, twin_actions = fx.input["actions"], twin_input["actions"]
    if len(twin_actions) != len(actions):
        raise ScenarioError(
            f"the twin has {len(twin_actions)} action(s), the fixture {len(actions)}: a twin makes the same "
            "number of actions, the last one accepted",
            path=_in_twin(fx, ("input", "actions")),
        )
    last, twin_last = actions[-1], twin_actions[-1]
    at = ("input", "actions", len(actions) - 1)
    kinds = _twin_kinds(fx)
    if twin_last["action"] not in kinds:
        shown = " or a ".join(kinds)
        raise ScenarioError(
            f"the twin's last action is a {twin_last['action']}, not a {shown}: the twin shows a legal action "
            "of the fixture's kind (a placement for an end of turn that can be legal nowhere near: "
            'spec/fixture-format.md, "illegal")',
            path=_in_twin(fx, (*at, "action")),
        )
    if twin_last["seat"] != last["seat"] and fx.expected.get("rule") not in WRONG_SEAT_RULES:
        raise ScenarioError(
            f"the twin's last action is by seat {twin_last['seat']}, the fixture's by seat {last['seat']}: "
            "only a fixture that breaks the seat's turn (HR-SEAT-3, HR-TURN-1, HR-TURN-3) has another actor "
            "in its twin",
            path=_in_twin(fx, (*at, "seat")),
        )
    for readings in readings_sent(fx):
        under = _under(readings, fx.variants)
        try:
            seen = observe("illegal", twin_input, readings)
        except ScenarioError as exc:
            inner = exc.path if exc.path[:1] == ("input",) else ("input",)
            said = exc.message if exc.message.startswith("input") else f"input: {exc.message}"
            raise ScenarioError(f"the twin's {said}{under}", exc.rule, path=_in_twin(fx, inner)) from None
        if seen["rejected_at"] is None:
            continue
        index = seen["rejected_at"]
        hand = _position(twin_input, readings)
        message = ""
        for i, action in enumerate(twin_actions[: index + 1]):
            try:
                act(hand, action)
            except IllegalAction as exc:
                if i == index:
                    message = f": {exc.message}"
                break
        raise ScenarioError(
            f"the reference refuses the twin's action {index} ({seen['rule']}){under}{message}; a twin is "
            "the fixture's position with its one broken condition repaired, and every action of it is legal",
            seen["rule"],
            path=_in_twin(fx, ("input", "actions", index)),
        )


# ---------------------------------------------------------------------- the lint
def _before_last(fx: Fixture, readings: dict[str, str]) -> Hand | IllegalAction:
    """The fixture's position just before its last action under ``readings``, or the
    refusal of an earlier action."""
    hand = _position(fx.input, readings)
    try:
        for action in fx.input["actions"][:-1]:
            act(hand, action)
    except IllegalAction as exc:
        return exc
    return hand


def lint_illegal(fx: Fixture) -> None:
    """The lint of a rule-text illegal fixture (the module docstring); raises
    :class:`ScenarioError` at its last action.  Under each reading it is sent under, the
    earlier actions must be accepted and the last refused under ``expected.rule`` (the
    corpus's own replay checks this under its readings one at a time from the canonical
    ones, not beside the readings the fixture names)."""
    rule = fx.expected.get("rule")
    actions = fx.input["actions"]
    last = actions[-1]
    at: Where = ("input", "actions", len(actions) - 1)
    for readings in readings_sent(fx):
        under = _under(readings, fx.variants)
        hand = _before_last(fx, readings)
        if isinstance(hand, IllegalAction):
            if not under:
                return  # replay reports it, with the fixture's differences
            raise ScenarioError(
                f"under {under[len(' under ') :]} the reference refuses an earlier action ({hand.rule}: "
                f"{hand.message}); a fixture holds under every reading it does not name: name the reading",
                hand.rule,
                path=("input", "actions"),
            )
        seat, kind = last["seat"], last["action"]
        broken = hand.broken_conditions(seat, kind, *_arguments(last))
        if not broken or broken[0].rule != rule:
            if not under:
                return
            named = f"refuses it under {broken[0].rule}" if broken else "accepts it"
            raise ScenarioError(
                f"under {under[len(' under ') :]} the reference {named}, not under {rule}; a fixture holds under "
                "every reading it does not name: name the reading",
                path=at,
            )
        others = [v for v in broken if v.implied_by is None and v.rule != rule]
        if others:
            listed = "; ".join(f"{v.rule}: {v.condition}" for v in others)
            raise ScenarioError(
                f"the last action breaks more than {rule}{under}: {listed}; an illegal fixture breaks its named "
                "rule only, so that an implementation refusing it for another reason is not taken to know the rule",
                path=at,
            )
        if kind == "place" and 0 <= seat < hand.seats and not hand.can_place(seat):
            raise ScenarioError(
                f"seat {seat} holds no legal placement here{under}: an implementation that wants a draw first "
                f"would refuse this placement without knowing {rule}; give the actor a tile that plays",
                path=at,
            )


def check_illegal(fx: Fixture) -> None:
    """The loader's checks of an illegal fixture beyond its position: its twin, and the
    lint for a rule-text fixture."""
    if fx.origin == "rule-text":
        lint_illegal(fx)
    check_twin(fx)
