"""Protocols 1.2, 1.1 and 1.0 (spec/protocol.md, "Handshake" and "Changes"): the new fields
are sent and read only once both sides have said the version that has them; a 1.0
adapter is run as before; a 1.1 adapter that declares every reading runs every fixture;
targets are declared; unknown answer fields are ignored from 1.1 on and invalid under
1.0; from 1.2 a hello declares its seatings and targets as ranges, and a refusal may
carry what was observed before it.  Each with an adapter of that minor version
(``versioned_adapter.py``)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from horserace.conformance.runner import Options, conformant, run
from horserace.conformance.scope import Scope
from horserace.conformance.server import serve
from horserace.corpus.status import Status
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.errors import ImplementationUnusable
from tests.helpers import bundled_corpus

pytestmark = pytest.mark.slow  # a process per adapter, the whole corpus through each

ADAPTER = Path(__file__).with_name("versioned_adapter.py")


def _fixtures():
    return [fx for fx in bundled_corpus().fixtures if not fx.deprecated]


def _run(mode: str, fixtures=None):
    return run([sys.executable, str(ADAPTER), mode], _fixtures() if fixtures is None else fixtures, Options(timeout=30))


def _by_status(outcomes) -> dict[str, list]:
    out: dict[str, list] = {}
    for o in outcomes:
        out.setdefault(str(o.status), []).append(o)
    return out


def test_a_strict_1_0_adapter_gets_no_1_1_field_and_skips_other_readings():
    outcomes = _run("1.0")
    statuses = _by_status(outcomes)
    # No error: the adapter answers "error" to any request with a field 1.0 lacks.
    assert set(statuses) == {"pass", "skip"}, {k: [o.message for o in v][:2] for k, v in statuses.items()}
    assert all(o.message.startswith("holds only under") for o in statuses["skip"])
    assert all(o.fixture.variants for o in statuses["skip"])
    assert conformant(outcomes) and not conformant(outcomes, require_all=True)


def test_a_1_1_adapter_that_declares_every_reading_runs_every_fixture():
    outcomes = _run("1.1")
    assert {o.status for o in outcomes} == {Status.PASS}, [o.message for o in outcomes if o.status != Status.PASS][:3]
    assert len(outcomes) == len(_fixtures())
    assert conformant(outcomes, require_all=True)


def test_targets_skip_the_fixtures_of_other_targets_with_the_register_entry():
    statuses = _by_status(_run("1.1-targets"))
    skipped = statuses.get("skip", [])
    others = {fx.input["target"] for fx in _fixtures() if fx.input.get("target", 61) != 61}
    assert skipped and others >= {1, 10, 121}, "the corpus has fixtures at targets 1, 10 and 121"
    assert {o.fixture.input["target"] for o in skipped} <= others
    assert all("HRI-29" in o.message for o in skipped)
    assert set(statuses) == {"pass", "skip"}


def test_unknown_answer_fields_are_noted_from_1_1_and_invalid_under_1_0():
    one_one = _run("1.1-extra")
    assert {o.status for o in one_one} == {Status.PASS}
    assert all("elapsed_ms" in o.message for o in one_one)
    # Under 1.0 each such answer is a crash, and each crash restarts the adapter: a few
    # canonical fixtures of each kind show it (the whole corpus took half a minute).
    canonical = [fx for fx in _fixtures() if not fx.variants]
    few = [fx for kind in ("layout", "play", "settlement") for fx in [f for f in canonical if f.kind == kind][:3]]
    one_oh = _run("1.0-extra", few)
    assert len(one_oh) == 9 and {o.status for o in one_oh} == {Status.CRASH}
    assert all("unexpected field 'elapsed_ms'" in o.message for o in one_oh)


def test_lists_of_readings_in_a_1_0_hello_make_the_implementation_unusable():
    with pytest.raises(ImplementationUnusable, match=r"protocol 1\.1 allows"):
        _run("1.0-lists")


def _hello(protocol: str) -> dict:
    out = io.BytesIO()
    serve(
        io.BytesIO(json.dumps({"type": "hello", "protocol": protocol, "suite": "x"}).encode() + b"\n"),
        out,
        every_reading=True,
    )
    return json.loads(out.getvalue())


def test_serve_answers_a_1_0_runner_in_1_0():
    """The released 1.0 runner's schema takes one reading (a string) per field and no
    lists: the reference server answers it so."""
    hello = _hello("1.0")
    assert hello["protocol"] == "1.0"
    assert all(isinstance(v, str) for v in hello["readings"].values())
    assert "targets" not in hello


def test_serve_declares_every_reading_to_a_1_1_runner():
    hello = _hello("1.1")
    assert hello["protocol"] == "1.1"
    assert {k: tuple(v) for k, v in hello["readings"].items()} == VARIANT_FIELDS


def test_a_later_minor_version_is_spoken_down_to_the_runners():
    scope = Scope.from_hello({"protocol": "1.7", "kinds": [], "readings": {"branch_use": ["one", "both"]}}, "1.1")
    assert scope.version == "1.1" and scope.switches
    assert scope.readings["branch_use"] == ("both", "one")  # the register's order: canonical first
    assert not Scope.from_hello({"protocol": "1.0", "kinds": []}, "1.1").switches


@pytest.mark.parametrize(
    ("readings", "says"),
    [({"branch_use": ["one"]}, "each reading is a string"), ({"branch_use": "two"}, "has no reading 'two'")],
)
def test_serve_answers_a_run_with_malformed_readings_with_an_error(readings, says):
    out = io.BytesIO()
    run = {"type": "run", "seq": "s", "kind": "settlement", "input": {}, "readings": readings}
    serve(io.BytesIO(json.dumps(run).encode() + b"\n"), out, every_reading=True)
    answer = json.loads(out.getvalue())
    assert answer["type"] == "error" and says in answer["message"]


def test_a_1_2_adapter_skips_the_tables_and_targets_it_does_not_play():
    outcomes = _run("1.2-table")
    statuses = _by_status(outcomes)
    skipped = statuses["skip"]
    by_seating = [o for o in skipped if "plays the" in o.message]
    by_target = [o for o in skipped if "plays to target" in o.message]
    assert by_seating and by_target
    assert all(o.fixture.input["seats"] == 4 for o in by_seating)
    assert {o.message.split("; ")[1] for o in by_seating} == {"the implementation plays 2-3 players"}
    assert all(not 50 <= o.fixture.input["target"] <= 70 for o in by_target)
    assert all(o.message.endswith("the implementation accepts 50-70 (HRI-29)") for o in by_target)
    ran = [o for o in outcomes if o.status is not Status.SKIP]
    assert ran and all(o.fixture.kind == "layout" or o.fixture.input["seats"] in (2, 3) for o in ran)
    assert set(statuses) == {"pass", "skip"}


def test_a_range_of_targets_in_a_1_1_hello_makes_the_implementation_unusable():
    with pytest.raises(ImplementationUnusable, match=r"protocol 1\.2 allows"):
        _run("1.1-range")


def test_observations_before_a_refusal_are_compared_from_1_2_and_ignored_under_1_1():
    refused = [o for o in _run("1.2-refuses") if o.status is Status.REJECTED]
    assert refused
    for o in refused:
        assert o.refused_at == 1 and "observations before it differ" in o.message
        (first,) = o.differences
        assert first.at == ("hands", 0, "events", 0) and first.fields == ("count",)
    one_one = [o for o in _run("1.1-refuses") if o.status is Status.REJECTED]
    assert len(one_one) == len(refused)
    assert all(not o.differences and "ignored the answer's unknown fields observations" in o.message for o in one_one)


def test_a_1_1_hello_may_list_its_targets_one_by_one_and_the_scope_compresses_them():
    from horserace.conformance.protocol import problems

    hello = {
        "type": "hello",
        "protocol": "1.1",
        "name": "x",
        "version": "1",
        "language": "py",
        "kinds": ["settlement"],
        "targets": list(range(10, 201)),
    }
    assert problems("hello-response", hello) == []
    scope = Scope.from_hello(hello, "1.2")
    assert str(scope.targets) == "10-200" and 61 in scope.targets and 201 not in scope.targets
    assert "targets: 10-200" in scope.describe_scope()
    assert problems("hello-response", {**hello, "targets": list(range(1, 1002))})  # bounded
