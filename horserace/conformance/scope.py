"""What an implementation takes part in, from its hello (spec/protocol.md, "Handshake"):
the protocol version both sides speak, the fixture kinds, the readings of each register
field it follows or can be switched to, the tables it plays and the match targets it
accepts.

From protocol 1.1 on, a hello may declare a *list* of readings per register field and
the targets it accepts; each ``run`` then carries the readings the fixture needs.  From
1.2 on it may declare the seatings it plays and targets as ranges.  An implementation
that speaks 1.0, or declares one reading per field, is run as in 1.0: a fixture that
holds only under readings it does not follow is skipped, with the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from horserace.corpus.fixture import Fixture
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.errors import ImplementationUnusable

__all__ = [
    "SEATINGS_DECLARED",
    "SEATING_NAMES",
    "SWITCHING",
    "Scope",
    "TargetRange",
    "Targets",
    "fixture_seating",
    "fixture_target",
    "minor",
]

#: The first protocol version in which readings are switched per request and targets
#: are declared (the runner sends the new fields only when both sides speak it).
SWITCHING = (1, 1)
#: The first version in which a hello declares its seatings and targets as ranges.
SEATINGS_DECLARED = (1, 2)
#: The seatings a hello names (protocol 1.2), in the order of the rules (HR-SEAT-1).
SEATING_NAMES = ("2-players", "3-players", "4-players", "partnership")


def minor(version: str) -> tuple[int, int]:
    """``"1.1"`` as ``(1, 1)``; the hello's schema has checked the ``N.N`` form."""
    major, _, rest = version.partition(".")
    return int(major), int(rest or 0)


def fixture_seating(fx: Fixture) -> str | None:
    """The table a fixture is played at, as a hello names seatings (``"3-players"``,
    ``"partnership"``), or ``None`` for a kind that has no table (``layout``)."""
    seats, mode = fx.input.get("seats"), fx.input.get("mode")
    if not isinstance(seats, int) or isinstance(seats, bool):
        return None
    return "partnership" if mode == "partnership" else f"{seats}-players"


class TargetRange(NamedTuple):
    """Targets from ``low`` to ``high``, both included (``high`` ``None``: no upper end)."""

    low: int
    high: int | None

    def __str__(self) -> str:
        if self.high is None:
            return f"{self.low} and over"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Targets:
    """The match targets an implementation accepts: numbers and ranges (protocol 1.2),
    kept as ranges merged in order, so that ``[10, 11, ..., 200]`` and ``{"min": 10,
    "max": 200}`` are one range and read alike: ``10-200``."""

    ranges: tuple[TargetRange, ...]

    @classmethod
    def from_hello(cls, declared: Iterable[Any]) -> Targets:
        spans = []
        for item in declared:
            if isinstance(item, dict):
                spans.append((int(item["min"]), None if item.get("max") is None else int(item["max"])))
            else:
                spans.append((int(item), int(item)))
        spans.sort(key=lambda s: s[0])
        merged: list[TargetRange] = []
        for low, high in spans:
            if merged:
                last = merged[-1]
                if last.high is None or low <= last.high + 1:
                    top = None if last.high is None or high is None else max(last.high, high)
                    merged[-1] = TargetRange(last.low, top)
                    continue
            merged.append(TargetRange(low, high))
        return cls(tuple(merged))

    def __contains__(self, target: object) -> bool:
        return isinstance(target, int) and any(
            r.low <= target and (r.high is None or target <= r.high) for r in self.ranges
        )

    def __str__(self) -> str:
        return ", ".join(str(r) for r in self.ranges)


def fixture_target(fx: Fixture) -> int | None:
    """The match target a fixture plays to (its input's ``target``, part of the table),
    or ``None`` for a kind that has no table (``layout``)."""
    target = fx.input.get("target")
    return target if isinstance(target, int) and not isinstance(target, bool) else None


@dataclass(frozen=True)
class Scope:
    """The negotiated protocol version and what the implementation declared."""

    #: The version both sides speak: the lower of the runner's and the implementation's.
    protocol: tuple[int, int]
    kinds: tuple[str, ...]
    #: Every register field with the readings the implementation follows (one, as in
    #: 1.0) or can be switched to (several, from 1.1), in the register's order, canonical
    #: first.
    readings: Mapping[str, tuple[str, ...]]
    #: The match targets it accepts (``None``: any, as in 1.0).
    targets: Targets | None = None
    #: The seatings it plays, among :data:`SEATING_NAMES` (``None``: every one, as before 1.2).
    seatings: tuple[str, ...] | None = None

    @classmethod
    def from_hello(cls, hello: Mapping[str, Any], runner: str) -> Scope:
        """The scope of a hello that passed its schema, for a runner of version ``runner``.
        A list of readings, or a ``targets`` declaration, in a hello that says 1.0 is
        an :class:`ImplementationUnusable` (they are 1.1 fields)."""
        spoken = min(minor(str(hello["protocol"])), minor(runner))
        declared = hello.get("readings") or {}
        readings: dict[str, tuple[str, ...]] = {}
        for name, all_readings in VARIANT_FIELDS.items():
            value = declared.get(name, CANONICAL.readings[name])
            if isinstance(value, list):
                if spoken < SWITCHING:
                    raise ImplementationUnusable(
                        f"readings.{name} is a list, which protocol 1.1 allows; the hello says "
                        f"protocol {hello['protocol']} (declare one reading per field, or speak 1.1)"
                    )
                readings[name] = tuple(r for r in all_readings if r in value)
            else:
                readings[name] = (value,)
        targets = hello.get("targets") if spoken >= SWITCHING else None
        if targets and spoken < SEATINGS_DECLARED and any(isinstance(t, dict) for t in targets):
            raise ImplementationUnusable(
                f"targets holds a range, which protocol 1.2 allows; the hello says protocol {hello['protocol']} "
                "(list the targets one by one, or speak 1.2)"
            )
        seatings = hello.get("seatings") if spoken >= SEATINGS_DECLARED else None
        return cls(
            spoken,
            tuple(hello.get("kinds") or ()),
            readings,
            Targets.from_hello(targets) if targets else None,
            tuple(s for s in SEATING_NAMES if s in seatings) if seatings is not None else None,
        )

    @property
    def version(self) -> str:
        return f"{self.protocol[0]}.{self.protocol[1]}"

    @property
    def switches(self) -> bool:
        """Whether each ``run`` carries its readings (both sides speak 1.1 or later)."""
        return self.protocol >= SWITCHING

    @property
    def ruleset(self) -> Ruleset:
        """The readings used where a fixture names none: the canonical one of each field
        where the implementation declares it, else the first it declares."""
        return Ruleset.from_readings({name: options[0] for name, options in self.readings.items()})

    def skip_reason(self, fx: Fixture) -> str | None:
        """Why ``fx`` is skipped for this implementation (``None``: it runs)."""
        if fx.deprecated:
            return f"deprecated: {fx.deprecated}"
        if fx.kind not in self.kinds:
            return f"kind {fx.kind} not supported"
        wanted = [f"{k}={v}" for k, v in fx.variants.items() if v not in self.readings.get(k, ())]
        if wanted:
            return f"holds only under {', '.join(wanted)}"
        seating = fixture_seating(fx)
        if self.seatings is not None and seating is not None and seating not in self.seatings:
            return f"plays the {_seating_words(seating)}; the implementation plays {self.seatings_text()}"
        target = fixture_target(fx)
        if self.targets is not None and target is not None and target not in self.targets:
            return f"plays to target {target}; the implementation accepts {self.targets} (HRI-29)"
        return None

    def seatings_text(self) -> str:
        """The seatings declared in a few words: ``2-4 players``, ``2 and 4 players,
        partnership``; ``every seating`` when none is left out."""
        if self.seatings is None or set(self.seatings) == set(SEATING_NAMES):
            return "every seating"
        players = [int(s.split("-")[0]) for s in self.seatings if s != "partnership"]
        parts = []
        if players:
            if len(players) > 1 and players == list(range(players[0], players[-1] + 1)):
                parts.append(f"{players[0]}-{players[-1]} players")
            else:
                parts.append(" and ".join(str(n) for n in players) + " players")
        if "partnership" in self.seatings:
            parts.append("partnership")
        return ", ".join(parts) or "no seating"

    def readings_for(self, fx: Fixture) -> dict[str, str]:
        """Every register field with the reading ``fx`` runs under: the one it names, else
        the default of :attr:`ruleset`.  Only for a fixture that :meth:`skip_reason` runs."""
        return {name: fx.variants.get(name, options[0]) for name, options in self.readings.items()}

    def rulesets(self) -> Iterator[Ruleset]:
        """Every combination of the readings declared, the default first."""
        names = list(self.readings)
        for combination in itertools.product(*(self.readings[n] for n in names)):
            yield Ruleset.from_readings(dict(zip(names, combination, strict=True)))

    def describe_scope(self, kinds: bool = True) -> str:
        """What the implementation takes part in, in one short line: its kinds, the
        readings it follows, and where it leaves some out, its seatings and targets
        (ranges compressed)."""
        parts = [f"kinds: {', '.join(self.kinds) or 'none'}"] if kinds else []
        parts.append(f"readings: {self.describe()}")
        if self.seatings is not None and set(self.seatings) != set(SEATING_NAMES):
            parts.append(f"seatings: {self.seatings_text()}")
        if self.targets is not None:
            parts.append(f"targets: {self.targets}")
        return "; ".join(parts)

    def describe(self) -> str:
        """The readings for a verdict line: ``canonical``, ``every reading``, or the
        fields that differ from canonical (``branch_use=both|one``)."""
        if all(options == VARIANT_FIELDS[name] for name, options in self.readings.items()):
            return "every reading"
        other = [
            f"{name}={'|'.join(options)}"
            for name, options in self.readings.items()
            if options != (CANONICAL.readings[name],)
        ]
        return ", ".join(other) if other else "canonical"


def _seating_words(seating: str) -> str:
    return "partnership game" if seating == "partnership" else f"{seating.split('-', maxsplit=1)[0]}-player game"
