"""horserace: the specification suite and reference engine for Horse Race.

The engine core (tiles, layout, hand, settlement, match) does no I/O; see spec/rules.md
for the rules every module cites by ID.
"""

__version__ = "0.1.0"

from horserace.errors import HorseRaceError, IllegalAction, NotationError, SetupError  # noqa: E402
from horserace.hand import Hand  # noqa: E402
from horserace.layout import Layout  # noqa: E402
from horserace.match import Match  # noqa: E402
from horserace.ruleset import CANONICAL, Ruleset  # noqa: E402

__all__ = [
    "CANONICAL",
    "Hand",
    "HorseRaceError",
    "IllegalAction",
    "Layout",
    "Match",
    "NotationError",
    "Ruleset",
    "SetupError",
    "__version__",
]
