"""What an implementation takes part in, from its hello (spec/protocol.md, "Handshake"):
the protocol version both sides speak, the fixture kinds, the readings of each register
field it follows or can be switched to, and the match targets it accepts.

From protocol 1.1 on, a hello may declare a *list* of readings per register field and
the targets it accepts; each ``run`` then carries the readings the fixture needs.  An
implementation that speaks 1.0, or declares one reading per field, is run as in 1.0: a
fixture that holds only under readings it does not follow is skipped, with the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from horserace.corpus.fixture import Fixture
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.errors import ImplementationUnusable

__all__ = ["SWITCHING", "Scope", "fixture_target", "minor"]

#: The first protocol version in which readings are switched per request and targets
#: are declared (the runner sends the new fields only when both sides speak it).
SWITCHING = (1, 1)


def minor(version: str) -> tuple[int, int]:
    """``"1.1"`` as ``(1, 1)``; the hello's schema has checked the ``N.N`` form."""
    major, _, rest = version.partition(".")
    return int(major), int(rest or 0)


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
    targets: tuple[int, ...] | None = None

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
        return cls(spoken, tuple(hello.get("kinds") or ()), readings, tuple(targets) if targets else None)

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
        target = fixture_target(fx)
        if self.targets is not None and target is not None and target not in self.targets:
            accepted = ", ".join(str(t) for t in self.targets)
            return f"plays to target {target}; the implementation accepts {accepted} (HRI-29)"
        return None

    def readings_for(self, fx: Fixture) -> dict[str, str]:
        """Every register field with the reading ``fx`` runs under: the one it names, else
        the default of :attr:`ruleset`.  Only for a fixture that :meth:`skip_reason` runs."""
        return {name: fx.variants.get(name, options[0]) for name, options in self.readings.items()}

    def rulesets(self) -> Iterator[Ruleset]:
        """Every combination of the readings declared, the default first."""
        names = list(self.readings)
        for combination in itertools.product(*(self.readings[n] for n in names)):
            yield Ruleset.from_readings(dict(zip(names, combination)))

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
