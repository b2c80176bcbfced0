"""pytest plugin: ``pytest --horserace-impl "COMMAND"`` collects the scenario corpus as
test items, one per fixture named by its ID, and runs each against the implementation
through the conformance protocol (spec/protocol.md).

Registered through the ``pytest11`` entry point, so installing horserace is enough; it
does nothing unless ``--horserace-impl`` is given.  pytest's own ``--junitxml``, ``-k``
and ``-x`` then work as usual; ``-k HR-SETTLE-3`` selects by rule.
"""

from __future__ import annotations

import json
import shlex

import pytest

from horserace.conformance.runner import Options, Worker, applicable
from horserace.corpus.fixture import Fixture
from horserace.corpus.loader import load_paths
from horserace.corpus.status import Status
from horserace.engine.ruleset import Ruleset
from horserace.errors import ImplementationUnusable

__all__ = ["pytest_addoption", "pytest_collection", "pytest_configure", "pytest_unconfigure"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("horserace", "Horse Race conformance")
    group.addoption(
        "--horserace-impl",
        metavar="COMMAND",
        default=None,
        help="run the horserace corpus against this implementation command",
    )
    group.addoption(
        "--horserace-corpus",
        metavar="PATH",
        action="append",
        default=None,
        help="fixture files or folders (default: the bundled corpus)",
    )
    group.addoption("--horserace-one-shot", action="store_true", help="start the implementation once per message")
    group.addoption("--horserace-timeout", type=float, default=10.0, metavar="S", help="seconds per fixture")
    group.addoption(
        "--horserace-strict-rule-ids", action="store_true", help="illegal fixtures must name the same rule ID"
    )


class HorseRaceFailure(Exception):
    pass


class _Session:
    """The implementation process shared by all items of one pytest session."""

    def __init__(self, config: pytest.Config) -> None:
        self.argv = shlex.split(config.getoption("horserace_impl"))
        self.options = Options(
            timeout=config.getoption("horserace_timeout"),
            one_shot=config.getoption("horserace_one_shot"),
            strict_rule_ids=config.getoption("horserace_strict_rule_ids"),
        )
        self.worker: Worker | None = None
        self.unusable: str | None = None
        self.count = 0

    def ensure(self) -> tuple[Worker, dict, Ruleset]:
        """The shared worker with its hello and readings; a handshake first when its
        process is not running (the first item, or after a crash or a timeout)."""
        if self.unusable:
            raise HorseRaceFailure(f"implementation unusable: {self.unusable}")
        if self.worker is None:
            self.worker = Worker(self.argv, self.options)
        try:
            hello, ruleset = self.worker.ready()
        except ImplementationUnusable as exc:
            self.unusable = str(exc)
            raise HorseRaceFailure(f"implementation unusable: {exc}") from None
        return self.worker, hello, ruleset

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()


#: The session's implementation process, kept on the pytest config.
_STATE = pytest.StashKey[_Session]()


class FixtureItem(pytest.Item):
    def __init__(self, *, fixture: Fixture, state: _Session, **kwargs) -> None:
        super().__init__(**kwargs)
        self.fixture = fixture
        self.state = state
        self.add_marker(pytest.mark.horserace)
        self.extra_keyword_matches.update({*fixture.rules, fixture.kind})  # -k HR-SETTLE-3, -k settlement

    def runtest(self) -> None:
        worker, hello, ruleset = self.state.ensure()
        reason = applicable(self.fixture, hello, ruleset)
        if reason:
            pytest.skip(reason)
        self.state.count += 1
        outcome = worker.run_one(self.fixture, f"{self.fixture.id}/{self.state.count}")
        if outcome.status is not Status.PASS:
            lines = [f"{outcome.status}: {outcome.message}".rstrip(": ")]
            lines += [
                f"{d.path}: expected {json.dumps(d.expected)}, got {json.dumps(d.actual)}" for d in outcome.differences
            ]
            raise HorseRaceFailure("\n".join(lines))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, HorseRaceFailure):
            fx = self.fixture
            return f"{fx.id} ({fx.primary_rule}) {fx.file}:{fx.line}: {fx.description}\n{excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return (
            self.fixture.file,
            self.fixture.line - 1,
            f"{self.fixture.id} [{self.fixture.kind}] {self.fixture.primary_rule}",
        )


class CorpusCollector(pytest.Collector):
    def __init__(self, *, paths, state: _Session, **kwargs) -> None:
        super().__init__(**kwargs)
        self.paths = paths
        self.state = state

    def collect(self):
        corpus = load_paths(self.paths)
        if corpus.errors:
            raise pytest.UsageError("invalid fixtures:\n" + "\n".join(e.render() for e in corpus.errors))
        for fx in corpus.fixtures:
            yield FixtureItem.from_parent(self, name=fx.id, fixture=fx, state=self.state)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "horserace: a horserace conformance fixture")


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session: pytest.Session):
    """With --horserace-impl, the session collects the corpus (and nothing else)."""
    if not session.config.getoption("horserace_impl"):
        return None
    state = _Session(session.config)
    session.config.stash[_STATE] = state
    collector = CorpusCollector.from_parent(
        session, name="horserace", paths=session.config.getoption("horserace_corpus"), state=state
    )
    session.items = []
    report = pytest.CollectReport(collector.nodeid, "passed", None, [])
    items = []
    session.ihook.pytest_collectstart(collector=collector)
    try:
        items = list(collector.collect())
    except pytest.UsageError:
        raise
    session.ihook.pytest_collectreport(report=report)
    session.config.hook.pytest_collection_modifyitems(session=session, config=session.config, items=items)
    session.items = items
    session.testscollected = len(items)
    session.config.hook.pytest_collection_finish(session=session)
    return True


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()
