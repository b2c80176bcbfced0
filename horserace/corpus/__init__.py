"""The corpus: scenario fixtures (spec/fixture-format.md) from files to verdicts.

The strict loader (:mod:`~horserace.corpus.loader`) reads fixture files into
:class:`Fixture` values; the observers (:mod:`~horserace.corpus.observers`) run a fixture's
input through the reference engine and give its observations in the canonical encoding
(:mod:`~horserace.corpus.encoding`); :mod:`~horserace.corpus.compare` compares them with
``expected``; :mod:`~horserace.corpus.replay` does both in process.  Beside them: fixture
IDs, selection, rule coverage, generated fixtures and the JSON export.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from horserace._lazy import lazy_attributes

if TYPE_CHECKING:
    from horserace.corpus.compare import Difference, diff
    from horserace.corpus.fixture import KINDS, Corpus, Fixture
    from horserace.corpus.loader import load_paths, load_text
    from horserace.corpus.observers import observe
    from horserace.corpus.replay import Result, replay_fixture
    from horserace.corpus.selection import select
    from horserace.corpus.status import Status

#: Where each name of this room lives; imported on first use (PEP 562), so that importing one
#: module of the room (``horserace serve`` needs a few) does not import the others, YAML and
#: the schema validator with them.
_EXPORTS = {
    "Difference": "horserace.corpus.compare",
    "diff": "horserace.corpus.compare",
    "KINDS": "horserace.corpus.fixture",
    "Corpus": "horserace.corpus.fixture",
    "Fixture": "horserace.corpus.fixture",
    "load_paths": "horserace.corpus.loader",
    "load_text": "horserace.corpus.loader",
    "observe": "horserace.corpus.observers",
    "Result": "horserace.corpus.replay",
    "replay_fixture": "horserace.corpus.replay",
    "select": "horserace.corpus.selection",
    "Status": "horserace.corpus.status",
}

__all__ = [
    "KINDS",
    "Corpus",
    "Difference",
    "Fixture",
    "Result",
    "Status",
    "diff",
    "load_paths",
    "load_text",
    "observe",
    "replay_fixture",
    "select",
]

__getattr__ = lazy_attributes(__name__, _EXPORTS)
