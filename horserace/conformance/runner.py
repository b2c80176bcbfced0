"""``horserace conform``: run the corpus against an implementation through the protocol.

Each applicable fixture ends as one outcome (spec/protocol.md, "Outcomes"); the
implementation cannot crash or hang the runner: a dead or stuck process is killed,
restarted with a new handshake, and the run goes on with the next fixture.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from horserace._version import __version__
from horserace.conformance.bounds import OBSERVATIONS_LIMIT, answer_size_problems, bounded, cut, hello_problems
from horserace.conformance.messages import Answer, Error, HelloRequest, Rejected, RunRequest, answer_from_json
from horserace.conformance.process import Implementation
from horserace.conformance.protocol import (
    MAX_HELLO_BYTES,
    PROTOCOL_VERSION,
    answer_problems,
    problems,
    same_major,
    unknown_fields,
)
from horserace.conformance.scope import Scope
from horserace.conformance.supervisor import Supervisor
from horserace.corpus.compare import Difference, diff, diff_prefix
from horserace.corpus.fixture import Fixture
from horserace.corpus.status import FAILING, Status
from horserace.errors import ImplementationFailure, ImplementationUnusable

__all__ = [
    "HelloChanged",
    "Options",
    "Outcome",
    "Twin",
    "Worker",
    "conformant",
    "counts",
    "evaluate",
    "plan",
    "run",
    "with_twin",
]

#: Requests sent ahead of their answers in persistent mode.
WINDOW = 16
#: The window is refilled once this few requests are outstanding (see Worker.run_many).
REFILL = WINDOW // 2


@dataclass
class Options:
    timeout: float = 10.0
    handshake_timeout: float = 10.0
    one_shot: bool = False
    strict_rule_ids: bool = False
    jobs: int = 1
    expected_failures: dict[str, str] = field(default_factory=dict)
    #: Stop after this many failing outcomes (``-x`` is 1), counted in fixture order;
    #: the fixtures after the last of them are left out.  ``None``: run them all.
    max_fail: int | None = None


@dataclass
class Outcome:
    fixture: Fixture
    status: Status
    message: str = ""
    differences: list[Difference] = field(default_factory=list)
    seconds: float = 0.0
    observations: dict[str, Any] | None = None
    stderr: str = ""
    #: For ``rejected``: the index of the action the implementation refused, if it said.
    refused_at: int | None = None
    #: The implementation's refusal, when it refused an action (its index, rule, message).
    refusal: Rejected | None = None
    #: For an ``illegal`` fixture with a legal twin: the implementation's answer to the twin.
    twin: Twin | None = None
    #: For ``xfail``: the outcome the expectations file turned into an expected failure.
    was: Status | None = None

    def record(self) -> dict[str, Any]:
        fx = self.fixture
        rec = {
            "record": "result",
            "id": fx.id,
            "kind": fx.kind,
            "file": fx.file,
            "line": fx.line,
            "rule": fx.primary_rule,
            "rules": fx.rules,
            "description": fx.description,
            "status": str(self.status),
            "message": self.message,
            "differences": [d.to_record() for d in self.differences],
            "seconds": round(self.seconds, 4),
        }
        if self.status is Status.REJECTED:
            rec["refused_at"] = self.refused_at
        if fx.kind == "illegal":
            rec["breaks"] = fx.expected.get("rule")
        if self.refusal is not None:
            rec["refusal"] = {"at": self.refusal.at, "rule": self.refusal.rule, "message": self.refusal.message}
        if self.twin is not None:
            rec["twin"] = self.twin.record()
        if self.was is not None:
            rec["was"] = str(self.was)
        if self.status in FAILING or self.status is Status.XFAIL:
            rec["why"] = fx.why  # the hand arithmetic behind the expected values
            rec["input"] = fx.input
            if fx.twin_input is not None:
                rec["twin_input"] = fx.twin_input  # what the legal twin was: the diagnosis reads it
            rec["expected"] = fx.expected
            rec["variants"] = fx.variants
            if self.observations is not None:
                rec["observations"] = self.observations
            if self.stderr:
                rec["stderr"] = self.stderr
        return rec


def check_hello(answer: dict[str, Any]) -> Scope:
    """What an implementation takes part in, from its hello (kinds, readings, targets,
    the protocol version both sides speak); raises :class:`ImplementationUnusable` for a
    wrong or foreign answer."""
    if answer.get("type") != "hello":
        raise ImplementationUnusable(f"the first answer must be a hello, not {str(answer)[:120]}")
    too_large = hello_problems(answer)
    if too_large:
        raise ImplementationUnusable("hello too large: " + "; ".join(too_large[:3]))
    if not same_major(answer.get("protocol")):
        raise ImplementationUnusable(
            f"the implementation speaks protocol {answer.get('protocol')!r}; this runner speaks {PROTOCOL_VERSION}"
        )
    issues = problems("hello-response", answer)
    if issues:
        raise ImplementationUnusable("invalid hello: " + "; ".join(issues[:3]))
    return Scope.from_hello(answer, PROTOCOL_VERSION)


@dataclass(frozen=True)
class Twin:
    """The implementation's answer to the legal twin of an illegal fixture (the same
    position with the one broken condition repaired; spec/fixture-format.md): accepted
    (every action), refused (at ``at``, naming ``rule``), or an ``error``, ``crash`` or
    ``timeout`` of the implementation (``status``)."""

    status: str  #: ``accepted``, ``refused``, ``error``, ``crash`` or ``timeout``
    at: int | None = None
    rule: str | None = None
    message: str = ""

    @property
    def accepted(self) -> bool:
        return self.status == "accepted"

    def record(self) -> dict[str, Any]:
        return {"status": self.status, "at": self.at, "rule": self.rule, "message": self.message}

    def text(self) -> str:
        if self.accepted:
            return "accepted"
        if self.status == "refused":
            where = f"action {self.at}" if self.at is not None else "an action"
            said = f" ({self.rule})" if self.rule else ""
            return f"refused {where}{said}" + (f": {self.message}" if self.message else "")
        return f"{self.status}: {self.message}".rstrip(": ")


def _twin_of(answer: Answer) -> Twin:
    """What an answer to a legal twin says: accepted, refused, or the implementation's failure."""
    if isinstance(answer, Error):
        return Twin("error", message=cut(answer.message, 400))
    if isinstance(answer, Rejected):
        return Twin("refused", answer.at, answer.rule, cut(answer.message or "", 400))
    rejected_at = answer.observations.get("rejected_at")
    if isinstance(rejected_at, int) and not isinstance(rejected_at, bool):
        return Twin("refused", rejected_at, None, "answered a result with rejected_at")
    return Twin("accepted")


def evaluate(fx: Fixture, answer: Answer, strict_rule_ids: bool) -> tuple[Status, list[Difference], str, int | None]:
    """The outcome of one valid answer: status, differences, message and, for a refused
    legal action, the index of the action refused.  An ``illegal`` fixture refused at
    the right index is ``pass`` here when the refusal names its rule; otherwise its
    legal twin decides (:func:`with_twin`)."""
    if isinstance(answer, Error):
        return Status.ERROR, [], answer.message, None
    if isinstance(answer, Rejected):
        at, rule = answer.at, answer.rule
        if fx.kind == "illegal":
            diffs = []
            if at != fx.expected["rejected_at"]:
                diffs.append(Difference(("rejected_at",), fx.expected["rejected_at"], at))
            if strict_rule_ids and rule is not None and rule != fx.expected["rule"]:
                diffs.append(Difference(("rule",), fx.expected["rule"], rule))
            return (Status.FAIL if diffs else Status.PASS), diffs, answer.message or "", None
        # An action the fixture has as legal: which one, and the rule the refusal cites only
        # if it cites one (no rule is asked for here, so none missing is worth saying).
        which = {"layout": f"step {at}", "play": f"placement entry {at}"}.get(fx.kind, f"action {at}")
        note = f"refused {which}, which is legal here" if at is not None else "refused an action, all being legal"
        cited = f" (citing {rule})" if rule else ""
        message = f"{note}{cited}: {answer.message or ''}".rstrip(": ")
        before = diff_prefix(fx.canonical_expected, answer.observations) if answer.observations else []
        if answer.observations is not None:
            seen = "; the observations before it differ" if before else "; the observations before it agree"
            message += seen
        return Status.REJECTED, before, message, at
    observations = answer.observations
    if fx.kind == "illegal":
        return (
            Status.NOT_REJECTED,
            [Difference(("rejected_at",), fx.expected["rejected_at"], None)],
            f"accepted every action; action {fx.expected['rejected_at']} breaks {fx.expected['rule']}",
            None,
        )
    diffs = diff(fx.canonical_expected, observations)
    return (Status.FAIL if diffs else Status.PASS), diffs, "", None


def with_twin(outcome: Outcome, twin: Twin | None, strict_rule_ids: bool) -> Outcome:
    """An illegal fixture's outcome once its legal twin is answered (spec/protocol.md,
    "Outcomes"): a refusal at the right index passes when it names the fixture's rule, or
    when the twin is accepted (the same position with the broken condition repaired: the
    refusal was for that condition); else it is ``unconfirmed``.  A twin the
    implementation crashed, timed out or erred on gives the fixture that outcome."""
    fx = outcome.fixture
    outcome.twin = twin
    refusal = outcome.refusal
    if outcome.status is not Status.PASS or refusal is None:
        return outcome
    # A note the judging added (unknown fields of the answer ignored) stays with the outcome.
    _, sep, note = outcome.message.partition("ignored the answer's unknown fields ")
    kept = f"; ignored the answer's unknown fields {note}" if sep else ""
    expected = fx.expected["rule"]
    said = f"refused action {refusal.at} ({refusal.rule or 'no rule given'})" + (
        f": {refusal.message}" if refusal.message else ""
    )
    if refusal.rule == expected:
        note = "" if twin is None or twin.accepted else f"; note: its legal twin was {twin.text()}"
        outcome.message = cut(f"{said}; the rule named is the one the action breaks{note}{kept}")
        return outcome
    if twin is None:
        outcome.message = cut(f"{said}; its reason is not checked: the fixture has no legal twin{kept}")
        return outcome
    if twin.accepted:
        how = "another rule" if refusal.rule else "no rule"
        outcome.message = cut(f"{said}; it names {how}, and its legal twin was accepted: refused for {expected}{kept}")
        return outcome
    if twin.status in ("error", "crash", "timeout"):
        outcome.status = Status(twin.status)
        outcome.message = cut(f"on the legal twin: {twin.message}; the fixture itself: {said}")
        return outcome
    outcome.status = Status.UNCONFIRMED
    outcome.message = cut(
        f"{said}; but its legal twin was {twin.text()}: the refusal is not shown to be for {expected}"
    )
    return outcome


class Worker:
    """One implementation process and the fixtures it runs."""

    def __init__(
        self,
        argv: Sequence[str],
        options: Options,
        cwd: str | None = None,
        *,
        first_hello: dict[str, Any] | None = None,
        supervisor: Supervisor | None = None,
    ) -> None:
        self.impl = Implementation(argv, one_shot=options.one_shot, cwd=cwd, supervisor=supervisor)
        self.options = options
        self.hello: dict[str, Any] | None = None
        self.scope: Scope | None = None
        #: The run's hello: every later handshake (a restart, another process) must give
        #: the same, or the implementation is unusable from then on (:class:`HelloChanged`).
        self.first_hello = first_hello

    def handshake(self) -> dict[str, Any]:
        return self._handshake()[0]

    def declared(self) -> tuple[dict[str, Any], Scope]:
        """The hello and the :class:`Scope` of the running process (what it takes part
        in: kinds, readings, targets); a handshake first when there is none (at the
        start, or after a crash or a timeout killed the process).  Raises
        :class:`ImplementationUnusable` when the handshake fails."""
        if self.hello is not None and self.scope is not None:
            return self.hello, self.scope
        return self._handshake()

    def request(self, fx: Fixture, seq: str) -> dict[str, Any]:
        """The ``run`` message for ``fx``: from protocol 1.1 on, with the readings it
        runs under."""
        assert self.scope is not None, "a request follows the handshake"
        readings = self.scope.readings_for(fx) if self.scope.switches else None
        return RunRequest(seq, fx.kind, fx.input, readings).to_json()

    def _handshake(self) -> tuple[dict[str, Any], Scope]:
        try:
            answer = self.impl.exchange(
                HelloRequest(PROTOCOL_VERSION, __version__).to_json(),
                self.options.handshake_timeout,
                max_bytes=MAX_HELLO_BYTES,
            )
        except ImplementationFailure as exc:
            self.impl.kill()
            tail = f"; stderr: {exc.stderr[-300:]}" if exc.stderr else ""
            raise ImplementationUnusable(f"handshake failed ({exc.outcome}): {exc.message}{tail}") from None
        try:
            scope = check_hello(answer)
        except ImplementationUnusable:
            self.impl.kill()
            raise
        answer = {key: bounded(value) for key, value in answer.items()}  # it goes into every report
        if self.first_hello is None:
            self.first_hello = answer
        elif answer != self.first_hello:
            self.impl.kill()
            raise HelloChanged(self.first_hello, answer)
        self.scope = scope
        self.hello = answer
        return answer, scope

    def run_one(self, fx: Fixture, seq: str) -> Outcome:
        """One fixture, one exchange (one-shot mode, and the pytest plugin)."""
        results: list[Outcome] = []
        self.run_many([(fx, seq)], results.append)
        return results[0]

    def run_many(self, items: Iterable[tuple[Fixture, str]], emit: Callable[[Outcome], None]) -> None:
        """Run fixtures in order, calling ``emit`` with each outcome.  An ``illegal``
        fixture with a legal twin is two requests, the fixture's and its twin's
        (``SEQ/twin``), sent one after the other; its outcome is emitted once both are
        answered (:func:`with_twin`).  The rest is :meth:`_run_requests`'."""
        waiting: list[Outcome] = []  # a fixture's outcome, until its twin is answered

        def requests() -> Iterator[tuple[Fixture, str]]:
            for fx, seq in items:
                yield fx, seq
                twin = _twin_fixture(fx)
                if twin is not None:
                    yield twin, f"{seq}/twin"

        def take(outcome: Outcome) -> None:
            if isinstance(outcome.fixture, _TwinFixture):
                main = waiting.pop()
                answered = outcome.twin or Twin(str(outcome.status), message=outcome.message)
                emit(with_twin(main, answered, self.options.strict_rule_ids))
            elif outcome.fixture.twin_input is not None and outcome.fixture.kind == "illegal":
                waiting.append(outcome)
            else:
                emit(outcome)

        self._run_requests(requests(), take)

    def _run_requests(self, items: Iterable[tuple[Fixture, str]], emit: Callable[[Outcome], None]) -> None:
        """Run requests in order, calling ``emit`` with each outcome.  In persistent mode
        up to ``WINDOW`` requests are sent ahead of their answers, so the runner and the
        implementation work at the same time; answers must come back in order.  The
        window is refilled once ``REFILL`` or fewer requests are outstanding, a burst of
        requests written one after another (an implementation that has caught up and
        waits for input is woken once a burst, not once a request).  After a
        crash or a timeout the process is restarted (with a new handshake) and the
        requests that were sent ahead are sent again.

        ``items`` may be a generator: each item is taken when there is room for its
        request, so a fuzzer that makes its scenarios as they are asked for keeps the
        window full while it makes the next one (and stops making them by ending the
        generator)."""
        source = iter(items)
        todo: deque[tuple[Fixture, str]] = deque()  # taken from the source (or sent back) and not yet sent

        def waiting() -> bool:
            if not todo:
                item = next(source, None)
                if item is None:
                    return False
                todo.append(item)
            return True

        if self.options.one_shot:
            while waiting():
                emit(self._exchange_one(*todo.popleft()))
            return
        sent: deque[tuple[Fixture, str]] = deque()
        while sent or waiting():
            if self.hello is None:
                try:
                    self.handshake()
                except HelloChanged:
                    raise  # the run stops: see run()
                except ImplementationUnusable as exc:
                    for fx, _ in [*sent, *todo, *source]:
                        emit(Outcome(fx, Status.CRASH, f"could not restart the implementation: {exc}"))
                    return
                extra = self.impl.unasked() if not sent else None
                if extra is not None:
                    self.impl.kill()
                    self.hello = None
                    fx, _ = todo[0]
                    emit(Outcome(fx, Status.CRASH, f"the implementation wrote a line nobody asked for: {extra!r}"))
                    todo.popleft()
                    continue
            if len(sent) <= REFILL:
                # The burst's fixtures are taken (made, by a generator) first, then sent.
                burst: list[tuple[Fixture, str]] = []
                while len(sent) + len(burst) < WINDOW and waiting():
                    burst.append(todo.popleft())
                for fx, seq in burst:
                    self.impl.send(self.request(fx, seq), self.options.timeout)
                    sent.append((fx, seq))
            fx, seq = sent.popleft()
            start = time.perf_counter()
            try:
                answer = self.impl.receive(self.options.timeout)
            except ImplementationFailure as exc:
                emit(
                    Outcome(
                        fx, Status(exc.outcome), exc.message, seconds=time.perf_counter() - start, stderr=exc.stderr
                    )
                )
                self._restart(sent, todo)
                continue
            answer, ignored = self._tolerate(answer)
            problem = answer_problems(answer, self._spoken())
            message = "invalid answer: " + "; ".join(problem[:3])
            if not problem and answer.get("seq") != seq:
                problem = [f"seq {answer.get('seq')!r}"]
                message = _out_of_turn(fx, seq, answer.get("seq"), [s for _, s in sent])
            if problem:
                emit(Outcome(fx, Status.CRASH, message, seconds=time.perf_counter() - start))
                self.impl.kill()
                self._restart(sent, todo)
                continue
            emit(self._judge(fx, answer, start, ignored))

    def _tolerate(self, answer: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """From protocol 1.1 on, the fields of an answer that its type does not know are
        ignored (and noted in the outcome); under 1.0 they make the answer invalid."""
        if self.scope is None or not self.scope.switches or answer_size_problems(answer):
            return answer, []  # an answer of too many fields is refused whole
        extra = unknown_fields(answer, self.scope.protocol)
        if not extra:
            return answer, []
        unknown = set(extra)
        return {k: v for k, v in answer.items() if k not in unknown}, extra

    def _spoken(self) -> tuple[int, int]:
        return self.scope.protocol if self.scope is not None else (1, 0)

    def _restart(self, sent: deque[tuple[Fixture, str]], todo: deque[tuple[Fixture, str]]) -> None:
        """Forget the dead process; what was sent ahead goes back to the front."""
        self.hello = None
        while sent:
            todo.appendleft(sent.pop())

    def _exchange_one(self, fx: Fixture, seq: str) -> Outcome:
        start = time.perf_counter()
        try:
            answer = self.impl.exchange(self.request(fx, seq), self.options.timeout)
        except ImplementationFailure as exc:
            return Outcome(fx, Status(exc.outcome), exc.message, seconds=time.perf_counter() - start, stderr=exc.stderr)
        answer, ignored = self._tolerate(answer)
        problem = answer_problems(answer, self._spoken())
        if not problem and answer.get("seq") != seq:
            problem = [f"answer echoes seq {answer.get('seq')!r}, expected {seq!r}"]
        if problem:
            return Outcome(
                fx, Status.CRASH, "invalid answer: " + "; ".join(problem[:3]), seconds=time.perf_counter() - start
            )
        return self._judge(fx, answer, start, ignored)

    def _judge(self, fx: Fixture, answer: dict[str, Any], start: float, ignored: list[str] | None = None) -> Outcome:
        """The outcome of a valid answer that arrived for ``fx``, judged in full and
        kept bounded (:mod:`horserace.conformance.bounds`)."""
        parsed = answer_from_json(answer)
        if isinstance(fx, _TwinFixture):
            return Outcome(fx, Status.PASS, seconds=time.perf_counter() - start, twin=_twin_of(parsed))
        status, diffs, message, refused_at = evaluate(fx, parsed, self.options.strict_rule_ids)
        observations = answer.get("observations")
        size = self.impl.answer_bytes
        if observations is not None and size > OBSERVATIONS_LIMIT:
            observations = None
            if status is not Status.PASS:
                note = f"the answer's {size:,} bytes of observations are not kept (over {OBSERVATIONS_LIMIT:,})"
                message = f"{message}; {note}" if message else note
        if ignored:
            note = "ignored the answer's unknown fields " + ", ".join(cut(name, 80) for name in ignored[:10])
            message = f"{message}; {note}" if message else note
        return Outcome(
            fx,
            status,
            cut(message),
            [replace(d, expected=bounded(d.expected), actual=bounded(d.actual)) for d in diffs],
            time.perf_counter() - start,
            observations=observations,
            refused_at=refused_at,
            refusal=(
                replace(parsed, message=cut(parsed.message or "", 2000), observations=None)
                if isinstance(parsed, Rejected)
                else None
            ),
        )

    def abandon(self) -> None:
        """Give up the requests sent ahead (their answers are not wanted): the process is
        killed, and the next request starts another, with a handshake."""
        self.impl.kill()
        self.hello = None

    def close(self) -> None:
        self.impl.stop()


class _TwinFixture(Fixture):
    """The legal twin of an illegal fixture, as the runner sends it: the fixture's ID
    and readings, the twin's input, every action expected to be accepted."""


def _twin_fixture(fx: Fixture) -> _TwinFixture | None:
    inp = fx.twin_input if fx.kind == "illegal" and not isinstance(fx, _TwinFixture) else None
    if inp is None:
        return None
    return _TwinFixture(
        fx.id,
        fx.description,
        fx.kind,
        fx.rules,
        fx.origin,
        fx.why,
        inp,
        {"rejected_at": None},
        variants=fx.variants,
        file=fx.file,
        line=fx.line,
    )


def _out_of_turn(fx: Fixture, seq: str, echoed: object, later: list[str]) -> str:
    """What an answer with another fixture's ``seq`` means (spec/protocol.md, "One
    request per fixture"): answers come in the order of the requests."""
    if echoed in later:
        return (
            f"no answer for {fx.id}: the implementation answered {echoed} in its place "
            "(answers come in the order of the requests)"
        )
    return f"answer echoes seq {cut(str(echoed), 200)!r}, expected {seq!r}: a line nobody asked for"


def run(
    argv: Sequence[str],
    fixtures: list[Fixture],
    options: Options,
    *,
    on_start: Callable[[dict[str, Any]], None] | None = None,
    on_outcome: Callable[[Outcome], None] | None = None,
    cwd: str | None = None,
    supervisor: Supervisor | None = None,
) -> list[Outcome]:
    """Run ``fixtures`` against the implementation; outcomes come back in fixture order,
    and ``on_outcome`` is called in fixture order too, whatever ``options.jobs`` is (an
    outcome that finishes before an earlier one waits for it), so that a run's stream and
    reports do not depend on how many processes ran it.  With ``options.max_fail`` the run
    stops at that failing outcome: the fixtures after it are left out (not run, or run
    ahead and not counted), and the list is shorter than ``fixtures``.
    Its processes are ``supervisor``'s (a new one if none is given: then nothing can
    stop them from outside).  Raises :class:`ImplementationUnusable` when the first
    handshake fails."""
    supervisor = supervisor if supervisor is not None else Supervisor()
    first = Worker(argv, options, cwd, supervisor=supervisor)
    hello, scope = first.declared()
    if on_start:
        on_start(hello)
    outcomes: list[Outcome | None] = [None] * len(fixtures)
    todo: list[int] = []
    for i, fx in enumerate(fixtures):
        reason = scope.skip_reason(fx)
        if reason:
            outcomes[i] = _expectation(Outcome(fx, Status.SKIP, reason), options)
        else:
            todo.append(i)
    order = _InOrder(outcomes, options.max_fail, on_outcome)
    order.flush()  # the skipped fixtures before the first that runs
    jobs = max(1, min(options.jobs, len(todo)))  # never more processes than fixtures to run
    workers = [first] + [Worker(argv, options, cwd, first_hello=hello, supervisor=supervisor) for _ in range(jobs - 1)]
    shares = [todo[w :: len(workers)] for w in range(len(workers))]

    def work(worker: Worker, indices: list[int]) -> None:
        slots = iter(indices)  # run_many emits outcomes in the order of its items

        def items() -> Iterator[tuple[Fixture, str]]:
            for n, i in enumerate(indices):
                if order.stopped.is_set():  # the stop rule was met: no more requests
                    return
                yield fixtures[i], f"{fixtures[i].id}/{n + 1}"

        def emit(outcome: Outcome) -> None:
            order.put(next(slots), _expectation(outcome, options))

        try:
            worker.run_many(items(), emit)
        except HelloChanged as exc:  # no fixture more, in any process; said once, below
            changed.append(exc)
            order.stopped.set()
        except Exception as exc:  # noqa: BLE001  (a defect of ours, whatever it is: the fixtures left still get an outcome, below)
            lost[0] = f"{type(exc).__name__}: {exc}"
        finally:
            worker.close()

    lost = [""]
    changed: list[HelloChanged] = []
    threads = [threading.Thread(target=work, args=(w, s), daemon=True) for w, s in zip(workers, shares, strict=True)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    except BaseException:
        order.flush(gaps=True)  # interrupted: what finished is not lost for one still running
        raise
    if changed:
        raise changed[0]
    if order.stopped.is_set():
        return order.emitted
    # Every fixture ends with exactly one outcome, so that a verdict never counts fewer
    # fixtures than were run: one the runner lost is a crash, with the reason.
    for i, outcome in enumerate(outcomes):
        if outcome is None:
            why = lost[0] or "no outcome was recorded"
            outcomes[i] = Outcome(
                fixtures[i],
                Status.CRASH,
                f"the runner lost this fixture ({why}); a defect of horserace, please report it",
            )
    order.flush(gaps=True)
    return order.emitted


def plan(
    argv: Sequence[str],
    fixtures: list[Fixture],
    options: Options,
    cwd: str | None = None,
    supervisor: Supervisor | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """What a run of ``fixtures`` would do, without running one: the implementation's
    hello, and for each fixture the reason it would be skipped (``""``: it would run).
    Starts the implementation for the handshake and stops it; raises
    :class:`ImplementationUnusable` as :func:`run` does."""
    worker = Worker(argv, options, cwd, supervisor=supervisor)
    try:
        hello, scope = worker.declared()
    finally:
        worker.close()
    return hello, [scope.skip_reason(fx) or "" for fx in fixtures]


class HelloChanged(ImplementationUnusable):
    """A restarted implementation (or another of its processes, with ``--jobs``) gave
    another hello than the run's first: what it declares is the run's scope, so it is
    unusable from then on, said once, with the difference."""

    def __init__(self, first: dict[str, Any], then: dict[str, Any]) -> None:
        differ = [key for key in dict.fromkeys([*first, *then]) if first.get(key) != then.get(key)]

        def shown(value: object) -> str:
            text = json.dumps(value, ensure_ascii=False) if value is not None else "(absent)"
            return text if len(text) <= 80 else text[:77] + "..."

        said = "; ".join(f"{key}: {shown(first.get(key))}, then {shown(then.get(key))}" for key in differ[:3])
        more = f"; and {len(differ) - 3} more field(s)" if len(differ) > 3 else ""
        super().__init__(f"its hello changed when it was started again ({said}{more})")


class _InOrder:
    """The outcomes of a run, handed on in fixture order as they become known, and the
    stop rule (``max_fail``) applied in that order, so that it stops at the same fixture
    whatever the number of processes."""

    def __init__(
        self, slots: list[Outcome | None], max_fail: int | None, on_outcome: Callable[[Outcome], None] | None
    ) -> None:
        self.slots = slots
        self.max_fail = max_fail
        self.on_outcome = on_outcome
        self.emitted: list[Outcome] = []
        self.next = 0
        self.failures = 0
        self.stopped = threading.Event()
        self.lock = threading.Lock()

    def put(self, i: int, outcome: Outcome) -> None:
        with self.lock:
            self.slots[i] = outcome
        self.flush()

    def flush(self, gaps: bool = False) -> None:
        """Hand on every outcome up to the first not yet known (with ``gaps``: every one
        known, past those missing)."""
        with self.lock:
            while self.next < len(self.slots) and not self.stopped.is_set():
                outcome = self.slots[self.next]
                self.next += 1
                if outcome is None:
                    if gaps:
                        continue
                    self.next -= 1
                    return
                self.emitted.append(outcome)
                if self.on_outcome:
                    self.on_outcome(outcome)
                if outcome.status in FAILING:
                    self.failures += 1
                    if self.max_fail is not None and self.failures >= self.max_fail:
                        self.stopped.set()


def _expectation(outcome: Outcome, options: Options) -> Outcome:
    """Apply the implementation's expectations file, strictly (xfail / xpass)."""
    reason = options.expected_failures.get(outcome.fixture.id)
    if reason is None or outcome.status is Status.SKIP:
        return outcome
    if outcome.status is Status.PASS:
        outcome.status = Status.XPASS
        outcome.message = f"listed as an expected failure ({reason}) but passes: remove it from the expectations file"
    else:
        outcome.message = f"expected failure ({reason}); was {outcome.status}: {outcome.message}".rstrip(": ")
        outcome.was = outcome.status
        outcome.status = Status.XFAIL
    return outcome


def counts(outcomes: list[Outcome]) -> dict[str, int]:
    """Outcomes by status, every status present, in the order of :class:`Status`."""
    tally = {str(s): 0 for s in Status}
    for o in outcomes:
        tally[o.status] += 1
    return tally


def conformant(outcomes: list[Outcome], *, require_all: bool = False, lenient_xpass: bool = False) -> bool:
    """No failure, and something ran: a run in which every fixture was skipped proves
    nothing.  ``require_all``: no fixture skipped either.  ``lenient_xpass``: an
    expected failure that now passes does not fail the run (it is still reported)."""
    ran = [o for o in outcomes if o.status is not Status.SKIP]
    failing = FAILING - {Status.XPASS} if lenient_xpass else FAILING
    if not ran or any(o.status in failing for o in ran):
        return False
    return not (require_all and len(ran) < len(outcomes))
