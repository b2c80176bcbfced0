"""pytest plugin: ``pytest --horserace-impl "COMMAND"`` adds the scenario corpus to the
session as test items, one per fixture, beside the user's own tests, and runs each
against the implementation through the conformance protocol (spec/protocol.md).

It behaves as a pytest plugin should:

- registered through the ``pytest11`` entry point and inert without
  ``--horserace-impl``: at import it loads pytest and the standard library only, so
  installing horserace costs nothing in other pytest runs (``horserace bench
  --pytest-plugin`` measures it);
- the corpus is collected through the standard hooks, after the user's tests and
  before ``-k`` / ``-m`` deselect, so "collected N items" counts it, ``-k HR-SETTLE-3``
  (a rule), ``-k settlement`` (a kind) and ``-k 2DNZSQ`` (an ID) select, and so do node
  IDs: ``horserace::HR-SETTLE-3::2DNZSQ``, or ``horserace::2DNZSQ`` and
  ``horserace::HR-SETTLE-3`` for short (given only node IDs of the corpus, pytest runs
  only those);
- items are grouped by primary rule (``horserace::RULE::ID``), so JUnit XML's classname
  is ``horserace.RULE``; a skip points at the fixture's file and line;
- an implementation that cannot be used ends the session once, with the reason, and
  exit code 3 (as ``horserace conform``), instead of failing every item;
- its options are checked as ``conform``'s are (``--horserace-timeout``: finite seconds
  above 0, at most an hour, by the same function), and what the implementation wrote
  reaches the terminal with its control characters made visible, by the function that
  escapes conform's terminal output (an ESC sequence is shown, not obeyed).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from horserace.conformance.runner import Worker
    from horserace.conformance.scope import Scope
    from horserace.corpus.fixture import Fixture

__all__ = [
    "pytest_addoption",
    "pytest_collection_modifyitems",
    "pytest_configure",
    "pytest_ignore_collect",
    "pytest_unconfigure",
]

#: The first word of the corpus's node IDs.
ROOT = "horserace"
#: pytest's exit code for an unusable implementation: the one of ``horserace conform``.
UNUSABLE_EXIT = 3


def _seconds(text: str) -> float:
    """``--horserace-timeout``, checked as ``conform --timeout`` is."""
    from horserace.cli._options import seconds  # noqa: PLC0415  (start-up: only when given)

    return seconds(text)


def _visible(text: str) -> str:
    """Text of the implementation's for the terminal, as conform shows it."""
    from horserace.reports.escape import for_terminal  # noqa: PLC0415  (start-up: only on a failure)

    return for_terminal(text)


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
    group.addoption(
        "--horserace-timeout", type=_seconds, default=10.0, metavar="S", help="seconds per fixture (default: 10)"
    )
    group.addoption(
        "--horserace-strict-rule-ids", action="store_true", help="illegal fixtures must name the same rule ID"
    )
    group.addoption(
        "--horserace-select",
        action="append",
        metavar="WHAT",
        default=None,
        help="only the fixtures matching WHAT, as 'horserace conform --select': a fixture ID, rule ID or kind, "
        "each may be a glob (HR-COUNT-*), or reading:FIELD=VALUE; the others are deselected (repeatable)",
    )
    group.addoption(
        "--horserace-deselect",
        action="append",
        metavar="WHAT",
        default=None,
        help="deselect the fixtures matching WHAT",
    )


class HorseRaceFailure(Exception):
    pass


class _Session:
    """The implementation process shared by all items of one pytest session (a
    conformance :class:`~horserace.conformance.session.Session`'s), and the corpus node
    IDs given on the command line."""

    def __init__(self, config: pytest.Config, selected: list[str]) -> None:
        from horserace.conformance.runner import Options  # noqa: PLC0415  (start-up: only with --horserace-impl)
        from horserace.conformance.session import Session  # noqa: PLC0415  (start-up: as above)
        from horserace.conformance.supervisor import Supervisor  # noqa: PLC0415  (start-up: as above)

        self.argv = shlex.split(config.getoption("horserace_impl"))
        self.session = Session(
            Options(
                timeout=config.getoption("horserace_timeout"),
                one_shot=config.getoption("horserace_one_shot"),
                strict_rule_ids=config.getoption("horserace_strict_rule_ids"),
            ),
            # pytest's process runs the user's tests too: it is made no subreaper, so that
            # their orphans are not left here as zombies (an implementation's are ended
            # by its reaper and its mark).
            Supervisor(subreaper=False),
        )
        self.selected = selected
        #: Only corpus node IDs were given: the user's tests are not collected.
        self.corpus_only = False
        self.worker: Worker | None = None
        self.count = 0

    def ensure(self) -> tuple[Worker, dict[str, Any], Scope]:
        """The shared worker with its hello and readings; a handshake first when its
        process is not running (the first item, or after a crash or a timeout).  An
        unusable implementation ends the session (exit 3)."""
        from horserace.errors import ImplementationUnusable  # noqa: PLC0415  (start-up: only with --horserace-impl)

        if self.worker is None:
            self.worker = self.session.worker(self.argv)
        try:
            hello, scope = self.worker.declared()
        except ImplementationUnusable as exc:
            pytest.exit(f"horserace: the implementation is unusable: {_visible(str(exc))}", returncode=UNUSABLE_EXIT)
        return self.worker, hello, scope

    def wanted(self, fx: Fixture) -> bool:
        """Whether a corpus node ID given on the command line selects ``fx`` (all of them
        when none was given)."""
        if not self.selected:
            return True
        for words in self.selected:
            parts = words.split("::")[1:]
            if not parts or all(part in (fx.id, fx.primary_rule) for part in parts):
                return True
        return False

    def close(self) -> None:
        if self.worker is not None:
            self.worker.close()
        self.session.stop()  # and any process the session still has (an interrupted item's)


#: The session's implementation process, kept on the pytest config.
_STATE = pytest.StashKey[_Session]()


class FixtureItem(pytest.Item):
    def __init__(self, *, fixture: Fixture, state: _Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fixture = fixture
        self.state = state
        self.add_marker(pytest.mark.horserace)
        self.extra_keyword_matches.update({*fixture.rules, fixture.kind})  # -k HR-SETTLE-3, -k settlement

    def runtest(self) -> None:
        from horserace.corpus.attribution import cause_of  # noqa: PLC0415  (start-up: as above)
        from horserace.corpus.status import Status  # noqa: PLC0415  (start-up: as above)
        from horserace.resources.documents import load_rules  # noqa: PLC0415  (start-up: as above)

        worker, _, scope = self.state.ensure()
        reason = scope.skip_reason(self.fixture)
        if reason:
            # Located at the fixture (its file and line), not at this line of the plugin.
            raise pytest.skip.Exception(reason, _use_item_location=True)
        self.state.count += 1
        outcome = worker.run_one(self.fixture, f"{self.fixture.id}/{self.state.count}")
        if outcome.status is not Status.PASS:
            rule = self.fixture.primary_rule
            known = load_rules().get(rule)
            lines = [f"{outcome.status}: {outcome.message}".rstrip(": ")]
            lines += [d.text() for d in outcome.differences]
            twin = outcome.twin.record()["status"] if outcome.twin is not None else None
            cause = cause_of(
                self.fixture,
                str(outcome.was or outcome.status),
                outcome.differences,
                refused_at=outcome.refused_at,
                twin_refused_at=outcome.twin.at if outcome.twin is not None and twin == "refused" else None,
            )
            if cause is not None:
                title = load_rules().get(cause.rule)
                lines.append(f"cause {cause.rule}: {title.title if title else '?'} ({cause.basis})")
            lines += [f"rule {rule}: {known.title if known else '?'}", f"why: {self.fixture.why.strip()}"]
            raise HorseRaceFailure(_visible("\n".join(lines)))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, HorseRaceFailure):
            from horserace.resources.locations import fixture_location  # noqa: PLC0415  (start-up: as above)

            fx = self.fixture
            where = fixture_location(fx.file)  # the repository's, as conform's reports say it
            return f"{fx.id} ({fx.primary_rule}) {where}:{fx.line}: {fx.description}\n{excinfo.value}"
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int, str]:
        """The fixture's location as conform's reports give it (its repository's:
        ``scenarios/rule-text/layout.yaml``), under pytest's root folder, so that pytest
        shows it relative to that root as it shows its own tests, not as a path of the
        machine (a wheel's site-packages)."""
        from horserace.resources.locations import fixture_location  # noqa: PLC0415  (start-up: as above)

        return (
            self.config.rootpath / fixture_location(self.fixture.file),
            self.fixture.line - 1,
            f"{self.fixture.id} [{self.fixture.kind}] {self.fixture.primary_rule}",
        )


class RuleCollector(pytest.Collector):
    """The fixtures of one primary rule (``horserace::RULE``)."""

    def __init__(self, *, fixtures: list[Fixture], state: _Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fixtures = fixtures
        self.state = state

    def collect(self) -> list[pytest.Item]:
        return [FixtureItem.from_parent(self, name=fx.id, fixture=fx, state=self.state) for fx in self.fixtures]


class CorpusCollector(pytest.Collector):
    """The corpus (``horserace``), by primary rule in the specification's order."""

    def __init__(self, *, paths: list[str] | None, state: _Session, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.paths = paths
        self.state = state

    def collect(self) -> list[pytest.Collector]:
        from horserace.corpus.loader import load_paths  # noqa: PLC0415  (start-up: only with --horserace-impl)
        from horserace.resources.documents import load_rules  # noqa: PLC0415  (start-up: as above)

        corpus = load_paths(self.paths)
        if corpus.errors:
            raise pytest.UsageError("invalid fixtures:\n" + "\n".join(e.render() for e in corpus.errors))
        order = {rule: i for i, rule in enumerate(load_rules())}
        groups: dict[str, list[Fixture]] = {}
        for fx in corpus.fixtures:
            if self.state.wanted(fx):
                groups.setdefault(fx.primary_rule, []).append(fx)
        return [
            RuleCollector.from_parent(self, name=rule, fixtures=groups[rule], state=self.state)
            for rule in sorted(groups, key=lambda r: order.get(r, len(order)))
        ]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "horserace: a horserace conformance fixture")
    if not config.getoption("horserace_impl", None):
        return
    # Node IDs of the corpus are taken out of the arguments pytest resolves as paths.
    selected = [arg for arg in config.args if arg == ROOT or arg.startswith(f"{ROOT}::")]
    state = _Session(config, selected)
    if selected:
        config.args[:] = [arg for arg in config.args if arg not in selected]
        state.corpus_only = not config.args
    config.stash[_STATE] = state


def pytest_ignore_collect(collection_path: Any, config: pytest.Config) -> bool | None:
    """Given only node IDs of the corpus, nothing else is collected."""
    state = config.stash.get(_STATE, None)
    return True if state is not None and state.corpus_only else None


def _collect(collector: pytest.Collector) -> list[pytest.Item]:
    """Collect ``collector`` as pytest's own collection does, reports included (so that
    "collected N items" and ``--collect-only`` count it)."""
    ihook = collector.ihook
    ihook.pytest_collectstart(collector=collector)
    report: pytest.CollectReport = ihook.pytest_make_collect_report(collector=collector)
    ihook.pytest_collectreport(report=report)
    items: list[pytest.Item] = []
    for node in report.result if report.passed else []:
        if isinstance(node, pytest.Item):
            items.append(node)
        elif isinstance(node, pytest.Collector):
            items.extend(_collect(node))
    return items


@pytest.hookimpl(tryfirst=True)  # before -k and -m deselect, so that they apply to the corpus
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    corpus = CorpusCollector.from_parent(
        session, name=ROOT, nodeid=ROOT, paths=config.getoption("horserace_corpus"), state=state
    )
    collected = _collect(corpus)
    include, exclude = config.getoption("horserace_select"), config.getoption("horserace_deselect")
    if include or exclude:
        # The same patterns, and the same errors, as conform's --select (one selection, one place).
        from horserace.corpus.selection import SelectionError, select  # noqa: PLC0415  (start-up: only when asked)

        fixtures = [item.fixture for item in collected if isinstance(item, FixtureItem)]
        try:
            kept = {fx.id for fx in select(fixtures, include, exclude)}
        except SelectionError as exc:
            raise pytest.UsageError(f"horserace: {exc}") from None
        dropped = [item for item in collected if isinstance(item, FixtureItem) and item.fixture.id not in kept]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        collected = [item for item in collected if item not in dropped]
    items.extend(collected)


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()
