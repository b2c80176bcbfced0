"""Deprecated: random play moved to :mod:`horserace.engine.playout`.

This module keeps ``horserace.playout.play_random_hand`` working for one minor version.
"""

import warnings

from horserace.engine.playout import play_random_hand

__all__ = ["play_random_hand"]

warnings.warn(
    "horserace.playout is deprecated: import play_random_hand from horserace.engine.playout (or horserace.engine)",
    DeprecationWarning,
    stacklevel=2,
)
