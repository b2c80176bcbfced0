"""horserace: the specification suite and reference engine for Horse Race.

The package is laid out along the data flow, one room per stage (docs/architecture.md):
``engine`` (the rules, no I/O) < ``resources`` (the bundled spec/ and scenarios/) <
``corpus`` (fixtures: loading, observing, comparing, replaying) < ``conformance`` (the
protocol, the runner, the reference server) < ``quality`` (mutants, fuzzing, the
rule-change diff, benchmarks; ``verify`` and ``strategies`` beside it) < ``reports`` <
``cli``.  A room imports only rooms below it; import-linter keeps it so.

The engine's public API is re-exported here; see spec/rules.md for the rules every module
cites by ID.
"""

from typing import TYPE_CHECKING

from horserace._lazy import lazy_attributes
from horserace._version import __version__

if TYPE_CHECKING:
    from horserace.engine import CANONICAL, Hand, Layout, Match, Ruleset
    from horserace.errors import HorseRaceError, IllegalAction, NotationError, RuleError, SetupError

# Imported on first use (PEP 562): the pytest plugin, which pytest imports in every
# session of an environment where horserace is installed, must not import the engine.
__getattr__ = lazy_attributes(
    "horserace",
    {
        **dict.fromkeys(("CANONICAL", "Hand", "Layout", "Match", "Ruleset"), "horserace.engine"),
        **dict.fromkeys(
            ("HorseRaceError", "IllegalAction", "NotationError", "RuleError", "SetupError"), "horserace.errors"
        ),
    },
)

__all__ = [
    "CANONICAL",
    "Hand",
    "HorseRaceError",
    "IllegalAction",
    "Layout",
    "Match",
    "NotationError",
    "RuleError",
    "Ruleset",
    "SetupError",
    "__version__",
]
