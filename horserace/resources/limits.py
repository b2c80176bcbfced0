"""The limits on every document horserace reads, in one place."""

from __future__ import annotations

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES", "MAX_STREAM_BYTES"]

#: Files larger than this are refused before parsing (hostile or broken input).
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Deepest nesting a fixture needs is about 8; anything far deeper is refused.
MAX_DEPTH = 64
#: A stored result stream (``horserace report``): a run of the bundled corpus writes
#: about 0.1 MB, one of 10,000 generated fixtures a few MB; far more is not a stream.
MAX_STREAM_BYTES = 256 * 1024 * 1024
