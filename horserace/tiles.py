"""Deprecated: tiles moved to :mod:`horserace.engine.tiles`.

This module keeps ``horserace.tiles`` (``parse_tile``, ``NAMES`` and the rest) working for
one minor version.
"""

import warnings

from horserace.engine.tiles import *  # noqa: F403  (the whole public surface, as before)
from horserace.engine.tiles import __all__ as __all__  # noqa: PLC0414  (the explicit re-export mypy's strict mode reads)

warnings.warn(
    "horserace.tiles is deprecated: import from horserace.engine.tiles (or horserace.engine)",
    DeprecationWarning,
    stacklevel=2,
)
