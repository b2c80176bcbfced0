"""A named deviation of the reference engine, and what it observes of a fixture's input.

A deviation is a :class:`~horserace.engine.hand.Hand` subclass through the engine's
seams, with the rule of spec/rules.md it departs from.  Two families share the one
registry, :data:`horserace.quality.mutants.MUTANTS`:

- **misreadings** (:mod:`horserace.quality.mutants`): the rule's text read wrong, as an
  implementer might;
- **house rules** (:mod:`horserace.quality.house_rules`): a rule as another game of the
  Fives family plays it (All Fives, Muggins, Sniff, Fives-and-Threes, the draw games),
  or as real engines of them do.

Each one plays its departure everywhere it applies and refuses what its engine would
refuse, deterministically, on every fixture kind, so that a diagnosis may replay a
failing fixture under every deviation and keep those that reproduce an implementation's
answer exactly (:func:`observe_deviation`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from horserace.corpus.observers import observe
from horserace.engine.hand import Hand
from horserace.errors import ScenarioError

__all__ = ["FAMILIES", "HOUSE_RULE", "MISREADING", "Deviation", "Observed", "observe_deviation"]

#: The family of a misreading of the rule's text.
MISREADING = "misreading"
#: The family of a house rule that a published rule set or a real engine plays.
HOUSE_RULE = "house rule"
FAMILIES = (MISREADING, HOUSE_RULE)


@dataclass(frozen=True)
class Deviation:
    """One named deviation: ``engine`` departs from ``rule`` as ``description`` says."""

    name: str
    rule: str  #: the rule of spec/rules.md it departs from (misreads, or plays otherwise)
    description: str
    #: The engine: a :class:`Hand` subclass through the seams :class:`Hand` documents.
    engine: type[Hand]
    family: str = MISREADING
    #: Where it comes from: the rule set, game or kind of engine that plays it.
    source: str = "a misreading of the rule's text"


@dataclass(frozen=True)
class Observed:
    """What a deviation makes of a fixture's input: its observations, or its refusal of
    the input (``refused`` set): at the listed action ``at`` (a placement of a ``play`` or
    ``layout`` input, counted as the kind counts them), or of the position itself
    (``at`` is ``None``), with the rule it names.  An ``illegal`` input's refusal is an
    observation (``rejected_at``), as the reference engine's is."""

    observations: dict[str, Any] | None
    refused: bool = False
    at: int | None = None
    rule: str | None = None
    message: str = ""


def observe_deviation(
    deviation: Deviation, kind: str, inp: dict[str, Any], variants: Mapping[str, str] | None = None
) -> Observed:
    """The deviation's observations of a fixture input of ``kind`` under ``variants``, or
    its refusal.  Perft moves are named as the reference engine names them
    (spec/fixture-format.md, ``perft``), with two moves more where a house rule has them:
    ``"draw"``, a draw by choice (``draw-while-playable``), and the second port of a
    mirror-image pair named by itself (``mirror-moves-distinct``: ``"[2|5] [5|5]
    linear-b"`` beside ``"... linear-a"``)."""
    try:
        return Observed(observe(kind, inp, variants, engine=deviation.engine))
    except ScenarioError as exc:
        return Observed(None, refused=True, at=exc.at, rule=exc.rule, message=exc.message)
