"""``junit.xml`` is valid against the Jenkins JUnit schema, xunit-plugin's ``junit-10.xsd``
(vendored in ``tests/resources/junit/`` with its MIT licence), validated by xmlschema: for
every outcome a fixture can have, for a real run of ``conform``, for the reports of the
0.1.0 stream, and pytest's own xunit2 output with the plugin's items in it.  The
fixtures' locations are in the suite's ``<properties>`` (``fixture:ID``), not in
``file``/``line`` attributes that the schema has no place for on a test case."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import xmlschema

from horserace.cli.main import main
from horserace.corpus.status import Status
from horserace.reports.junit import RUN_PROPERTIES, junit_xml
from horserace.reports.runs import load_run
from horserace.resources.paths import source_root

SCHEMA_FILE = source_root() / "tests" / "resources" / "junit" / "junit-10.xsd"
FAKE = Path(__file__).parents[1] / "conformance" / "fake_impl.py"
STREAM = Path(__file__).parent / "streams" / "python-example-suite-0.1.0.jsonl"


@pytest.fixture(scope="module")
def schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(str(SCHEMA_FILE))


def _errors(schema: xmlschema.XMLSchema, text: str) -> list[str]:
    return [f"{e.path}: {e.reason}" for e in schema.iter_errors(text)]


def _result(status: Status, n: int) -> dict:
    record = {
        "record": "result",
        "id": f"ID{n:04d}",
        "kind": "settlement",
        "file": "scenarios/rule-text/settlement.yaml",
        "line": 10 + n,
        "rule": "HR-SETTLE-1",
        "rules": ["HR-SETTLE-1"],
        "description": f"a fixture that ends {status}",
        "status": str(status),
        "message": "" if status in (Status.PASS, Status.XFAIL) else f"what {status} said <&>",
        "differences": [],
        "seconds": 0.0012,
    }
    if status in (Status.FAIL, Status.XFAIL):
        record["differences"] = [{"path": "credits[0]", "expected": 1, "actual": 2, "text": "credits[0]: 1 != 2"}]
        record["why"] = "the hand arithmetic"
    if status is Status.CRASH:
        record["stderr"] = "Traceback ...\nboom"
    return record


def test_every_outcome_is_valid_against_the_jenkins_schema(schema):
    results = [_result(status, n) for n, status in enumerate(Status)]
    header = {"suite": "0.1.0", "protocol": "1.2", "command": "python3 adapter.py", "implementation": None}
    text = junit_xml(header, results, {"counts": {}})
    assert _errors(schema, text) == []
    root = schema.to_dict(text)
    (suite,) = root["testsuite"]
    assert len(suite["testcase"]) == len(Status)
    assert not any("@file" in case or "@line" in case for case in suite["testcase"])
    properties = {p["@name"]: p["@value"] for p in suite["properties"][0]["property"]}
    assert list(properties)[: len(RUN_PROPERTIES)] == list(RUN_PROPERTIES)
    assert properties["fixture:ID0000"] == "scenarios/rule-text/settlement.yaml:10"
    assert properties["command"] == "python3 adapter.py"
    # a failure's text says where the fixture is, too
    failure = next(case for case in suite["testcase"] if "failure" in case)
    assert "at: scenarios/rule-text/settlement.yaml:" in failure["failure"][0]["$"]


def test_the_old_attributes_are_what_the_schema_refuses(schema):
    """The check catches what junit.xml carried before: ``file`` and ``line`` on each
    test case and ``skipped`` on the test suites."""
    text = junit_xml({"suite": "0.1.0"}, [_result(Status.PASS, 1)], {})
    old = text.replace('<testcase classname="HR-SETTLE-1"', '<testcase file="x.yaml" line="3" classname="HR-SETTLE-1"')
    old = old.replace('<testsuites name="horserace 0.1.0"', '<testsuites skipped="0" name="horserace 0.1.0"')
    found = _errors(schema, old)
    assert len(found) == 3 and all("not allowed" in e for e in found), found


def test_conforms_junit_xml_is_valid(schema, tmp_path):
    out = tmp_path / "out"
    code = main(["conform", "--impl", f"{sys.executable} {FAKE} settle-wrong", "--report-dir", str(out), "--jobs", "2"])
    assert code == 1
    text = (out / "junit.xml").read_text(encoding="utf-8")
    assert _errors(schema, text) == []
    assert "<failure" in text and "<skipped" in text


def test_the_junit_xml_of_a_stream_of_suite_0_1_0_is_valid(schema, tmp_path):
    run = load_run(STREAM)
    text = junit_xml(run.header, run.results, run.footer)
    assert _errors(schema, text) == []


def test_pytests_xunit2_output_with_the_plugins_items_stays_valid(schema, pytester):
    """Run outside the clone: a failure's text names the fixture by its repository's
    location, not by a path of the machine."""
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--horserace-impl",
        f"{sys.executable} {FAKE} settle-wrong",
        "-k",
        "settlement or HR-COUNT-2",
        "-o",
        "junit_family=xunit2",
        f"--junitxml={junit}",
    )
    assert result.ret == 1
    text = junit.read_text(encoding="utf-8")
    assert "horserace.HR-SETTLE-1" in text and "<failure" in text
    assert _errors(schema, text) == []
    assert "(HR-SETTLE-1) scenarios/rule-text/settlement.yaml:" in text
    assert f"{source_root()}/scenarios" not in text
