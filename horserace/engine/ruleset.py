"""The ruleset: canonical rules plus every variant of the interpretations register.

Each field is one register entry of spec/interpretations.md whose readings change
outcomes; its default is the canonical reading.  The target score is a parameter
(HR-MATCH-1).  A :class:`Ruleset` is frozen, hashable and cheap to compare.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from horserace.errors import InputError

__all__ = [
    "CANONICAL",
    "VARIANT_FIELDS",
    "BlockDetection",
    "BranchUse",
    "Continuation",
    "ContinuationWithoutTile",
    "DrawnTileScope",
    "OpeningContinuation",
    "Ruleset",
]


class ContinuationWithoutTile(str, Enum):
    """HRI-1: a continuation was earned but no tile in hand plays."""

    DRAW = "draw"  #: canonical: the ordinary rule applies (draw, place, or pass)
    END_TURN = "end-turn"  #: the turn passes at once, without drawing


class Continuation(str, Enum):
    """HRI-2: whether a continuation is compulsory when the player can place."""

    COMPULSORY = "compulsory"  #: canonical: must-play holds at every step
    OPTIONAL = "optional"  #: the player may end the turn instead


class OpeningContinuation(str, Enum):
    """HRI-3: whether the opening tile can earn a continuation.  (The readings avoid
    "yes" and "no", which YAML 1.1 reads as booleans.)"""

    EARNED = "earned"  #: canonical: it is a tile played from hand, like any other
    NEVER = "never"  #: the opening tile never earns a continuation


class DrawnTileScope(str, Enum):
    """HRI-4: which drawn tiles the drawn-tile exception (HR-TURN-3) covers."""

    SAME_TURN = "same-turn"  #: canonical: only the tile drawn and placed this turn
    WHOLE_HAND = "whole-hand"  #: any tile drawn during the hand


class BlockDetection(str, Enum):
    """HRI-5: when a blocked hand is recognised."""

    IMMEDIATE = "immediate"  #: canonical: as soon as nobody can place and the boneyard is empty
    ROUND_OF_PASSES = "round-of-passes"  #: after every seat has passed in turn


class BranchUse(str, Enum):
    """HRI-10: how many branches of an interior spinner may be started."""

    BOTH = "both"  #: canonical
    ONE = "one"


@dataclass(frozen=True)
class Ruleset:
    """Canonical Horse Race, or a named variant of it (spec/interpretations.md)."""

    continuation_without_tile: ContinuationWithoutTile = ContinuationWithoutTile.DRAW
    continuation: Continuation = Continuation.COMPULSORY
    opening_continuation: OpeningContinuation = OpeningContinuation.EARNED
    drawn_tile_scope: DrawnTileScope = DrawnTileScope.SAME_TURN
    block_detection: BlockDetection = BlockDetection.IMMEDIATE
    branch_use: BranchUse = BranchUse.BOTH
    #: Displayed points that end the match (HR-MATCH-1).
    target: int = 61

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name == "target":
                continue
            value = getattr(self, f.name)
            enum_type = type(f.default)
            if not isinstance(value, enum_type):
                warnings.warn(
                    "Ruleset(field='reading') with strings is deprecated: use "
                    "Ruleset.from_readings(field='reading') or the field's enum",
                    DeprecationWarning,
                    stacklevel=3,
                )
                object.__setattr__(self, f.name, _reading(f.name, value))
        if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:
            raise InputError(f"ruleset target must be a positive whole number, not {self.target!r}")

    @classmethod
    def from_readings(cls, readings: Mapping[str, str] | None = None, /, *, target: int = 61, **named: str) -> Ruleset:
        """A ruleset from register readings by name, ``{field: reading}`` as fixtures,
        rulesets files and the protocol write them (a mapping, or keywords, or both);
        fields left out are canonical.  An unknown field or reading is an
        :class:`~horserace.errors.InputError`."""
        chosen: dict[str, Any] = {}
        for field_name, reading in {**(readings or {}), **named}.items():
            if field_name not in _ENUMS:
                raise InputError(f"no register variant is named {field_name!r}; known: {', '.join(_ENUMS)}")
            chosen[field_name] = _reading(field_name, reading)
        return cls(target=target, **chosen)

    @property
    def variants(self) -> dict[str, str]:
        """The non-canonical readings in force, as ``{field: reading}``."""
        canonical = CANONICAL
        return {
            f.name: getattr(self, f.name).value
            for f in fields(self)
            if f.name != "target" and getattr(self, f.name) != getattr(canonical, f.name)
        }

    @property
    def readings(self) -> dict[str, str]:
        """Every register field and its reading, canonical ones included."""
        return {f.name: getattr(self, f.name).value for f in fields(self) if f.name != "target"}

    def with_variant(self, field: str, reading: str) -> Ruleset:
        """A copy with one register field set to ``reading``."""
        if field not in _ENUMS:
            raise InputError(f"no register variant is named {field!r}; known: {', '.join(_ENUMS)}")
        changes: dict[str, Any] = {field: _reading(field, reading)}
        return replace(self, **changes)


#: The enum of each register field.
_ENUMS: dict[str, type[Enum]] = {f.name: type(f.default) for f in fields(Ruleset) if f.name != "target"}


def _reading(field_name: str, value: object) -> Enum:
    enum_type = _ENUMS[field_name]
    try:
        return enum_type(value)
    except ValueError:
        choices = ", ".join(m.value for m in enum_type)
        raise InputError(f"ruleset field {field_name!r} has no reading {value!r}; choose one of {choices}") from None


CANONICAL = Ruleset()

#: Register variant fields and their readings, canonical first.
VARIANT_FIELDS: dict[str, tuple[str, ...]] = {
    name: tuple(m.value for m in enum_type) for name, enum_type in _ENUMS.items()
}
