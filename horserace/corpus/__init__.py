"""The corpus: scenario fixtures (spec/fixture-format.md) from files to verdicts.

The strict loader (:mod:`~horserace.corpus.loader`) reads fixture files into
:class:`Fixture` values; the observers (:mod:`~horserace.corpus.observers`) run a fixture's
input through the reference engine and give its observations in the canonical encoding
(:mod:`~horserace.corpus.encoding`); :mod:`~horserace.corpus.compare` compares them with
``expected``; :mod:`~horserace.corpus.replay` does both in process.  Beside them: fixture
IDs, selection, rule coverage, generated fixtures and the JSON export.
"""

from horserace.corpus.compare import Difference, diff
from horserace.corpus.fixture import KINDS, Corpus, Fixture
from horserace.corpus.loader import load_paths, load_text
from horserace.corpus.observers import observe
from horserace.corpus.replay import Result, replay_fixture
from horserace.corpus.selection import select

__all__ = [
    "KINDS",
    "Corpus",
    "Difference",
    "Fixture",
    "Result",
    "diff",
    "load_paths",
    "load_text",
    "observe",
    "replay_fixture",
    "select",
]
