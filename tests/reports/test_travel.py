"""Reports that travel: a report folder copied elsewhere (a CI artefact, a folder sent on)
holds no path of the machine that made it, and every link in report.md, report.html and
the comparison page resolves in the copy, or goes to the ``--link-base`` chosen.

The runs start from a project folder of their own outside the clone (as an implementer's
repository is), the adapter given by a relative command; each report folder is copied
elsewhere and the original removed before it is checked.  Fixture locations are the
repository's (``scenarios/rule-text/layout.yaml:43``) and, for a corpus of the user's,
relative to the folder given (or to its repository)."""

from __future__ import annotations

import json
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from horserace.cli.main import main
from horserace.reports.links import RULES_COPY, Links, links_for
from horserace.resources.locations import fixture_location
from horserace.resources.paths import source_root
from tests.reports.travel import markdown_links, travel_problems

REPO = source_root()
EXAMPLE = REPO / "examples" / "python" / "horse_race.py"
SELECT = ["--select", "kind:settlement", "--select", "kind:illegal", "--select", "kind:layout"]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """An implementer's project outside the clone, the working folder, with the Python
    example as its adapter."""
    folder = tmp_path / "project"
    folder.mkdir()
    shutil.copy(EXAMPLE, folder / "adapter.py")
    monkeypatch.chdir(folder)
    return folder


def _moved(folder: Path, tmp_path: Path) -> Path:
    """The report folder copied elsewhere, the original removed."""
    copy = tmp_path / "elsewhere" / "copied"
    shutil.copytree(folder, copy)
    shutil.rmtree(folder)
    return copy


def _forbidden(tmp_path: Path) -> list[str]:
    return [str(tmp_path), str(REPO), str(Path.home()) if str(Path.home()) != "/" else str(tmp_path)]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _conform(*extra: str) -> int:
    return main(["conform", "--impl", f"{Path(sys.executable).name} adapter.py", *SELECT, *extra])


def test_a_report_folder_copied_elsewhere_has_no_machine_path_and_no_dead_link(project, tmp_path):
    assert _conform("--report-dir", "out") == 1  # the example's deliberate error fails some fixtures
    folder = _moved(project / "out", tmp_path)
    assert (folder / RULES_COPY).is_file()  # no spec beside the folder: the rules travel with it
    assert travel_problems(folder, _forbidden(tmp_path)) == []
    text = (folder / "report.md").read_text(encoding="utf-8")
    rule_links = [link for link in markdown_links(text) if "#hr-" in link]
    assert rule_links and all(link.startswith(f"{RULES_COPY}#hr-") for link in rule_links)
    # Locations are the repository's, in every report.
    record = next(json.loads(line) for line in _lines(folder / "results.jsonl") if '"status": "fail"' in line)
    assert record["file"].startswith("scenarios/rule-text/") and record["file"].endswith(".yaml")
    assert f"`{record['file']}:{record['line']}`" in text
    assert f"{record['file']}:{record['line']}" in (folder / "report.html").read_text(encoding="utf-8")
    header = json.loads(_lines(folder / "results.jsonl")[0])
    assert header["command"] == f"{Path(sys.executable).name} adapter.py"


def test_links_go_to_the_link_base_chosen(project, tmp_path):
    base = "https://example.org/horserace/blob/v0.1.0/spec/"
    assert _conform("--report-dir", "out", "--link-base", base) == 1
    folder = _moved(project / "out", tmp_path)
    assert not (folder / RULES_COPY).exists()
    assert travel_problems(folder, _forbidden(tmp_path), link_base=base) == []
    links = [link for link in markdown_links((folder / "report.md").read_text(encoding="utf-8")) if "#hr-" in link]
    assert links and all(link.startswith(base + "rules.md#hr-") for link in links)
    junit = (folder / "junit.xml").read_text(encoding="utf-8")
    assert f"text: {base}rules.md#hr-" in junit


def test_a_template_link_base_names_each_rule(project, tmp_path):
    base = "https://example.org/site/rules/{rule}.html"
    assert _conform("--report-dir", "out", "--link-base", base) == 1
    links = [link for link in markdown_links((project / "out" / "report.md").read_text()) if "/rules/" in link]
    assert "https://example.org/site/rules/HR-SETTLE-1.html" in links


def test_the_comparison_folder_copied_elsewhere_keeps_its_links(project, tmp_path):
    code = main(
        [
            "conform",
            "--impl",
            "horserace serve",
            "--impl",
            f"{Path(sys.executable).name} adapter.py",
            *SELECT,
            "--report-dir",
            "compared",
        ]
    )
    assert code == 1
    folder = _moved(project / "compared", tmp_path)
    assert (folder / "index.html").is_file() and len([p for p in folder.iterdir() if p.is_dir()]) == 2
    assert travel_problems(folder, _forbidden(tmp_path)) == []
    # The command of the reference engine is said as given, not as the interpreter's path.
    headers = [json.loads(_lines(p)[0]) for p in sorted(folder.glob("*/results.jsonl"))]
    assert "horserace serve" in {h["command"] for h in headers}


def test_report_rewrites_the_links_of_a_stored_stream(project, tmp_path):
    assert _conform("--report-dir", "out") == 1
    assert main(["report", "out", "--link-base", "https://example.org/spec"]) == 0
    links = [link for link in markdown_links((project / "out" / "report.md").read_text()) if "#hr-" in link]
    assert links and all(link.startswith("https://example.org/spec/rules.md#hr-") for link in links)


def test_a_report_folder_in_the_clone_links_the_spec_beside_it(tmp_path):
    assert links_for(REPO / "horserace-report") == Links("../spec/")
    assert links_for(REPO / "a" / "b") == Links("../../spec/")
    assert links_for(tmp_path).copy
    assert Links("../spec/").rule("HR-SETTLE-1").startswith("../spec/rules.md#hr-settle-1-")
    # the terminal says where the link goes from the folder it runs in
    assert Links("../spec/").seen_from("horserace-report").rule("HR-SETTLE-1").startswith("spec/rules.md#hr-settle-1")
    assert Links(copy=True).seen_from("out").rule("HR-SETTLE-1").startswith(f"out/{RULES_COPY}#hr-settle-1")


def test_a_spec_given_by_horserace_spec_is_beside_a_folder_of_its_repository(tmp_path, monkeypatch):
    spec = tmp_path / "repo" / "spec"
    spec.mkdir(parents=True)
    shutil.copy(REPO / "spec" / "rules.md", spec / "rules.md")
    monkeypatch.setenv("HORSERACE_SPEC", str(spec))
    assert links_for(tmp_path / "repo" / "reports") == Links("../spec/")
    assert links_for(tmp_path / "other").copy


def test_fixture_locations(tmp_path, monkeypatch):
    bundled = REPO / "scenarios" / "rule-text" / "layout.yaml"
    assert fixture_location(str(bundled)) == "scenarios/rule-text/layout.yaml"
    monkeypatch.chdir(REPO / "scenarios")
    assert fixture_location("rule-text/layout.yaml") == "scenarios/rule-text/layout.yaml"
    # inside a repository: relative to its root
    repo = tmp_path / "their-repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "tests" / "hr").mkdir(parents=True)
    mine = repo / "tests" / "hr" / "house.yaml"
    mine.write_text("[]\n")
    assert fixture_location(str(mine), [str(repo / "tests" / "hr")]) == "tests/hr/house.yaml"
    # outside any repository: relative to the folder given, or to a file's folder
    loose = tmp_path / "loose" / "sub"
    loose.mkdir(parents=True)
    (loose / "a.yaml").write_text("[]\n")
    assert fixture_location(str(loose / "a.yaml"), [str(tmp_path / "loose")]) == "sub/a.yaml"
    assert fixture_location(str(loose / "a.yaml"), [str(loose / "a.yaml")]) == "a.yaml"
    assert fixture_location(str(loose / "a.yaml")) == "a.yaml"


def test_a_corpus_of_the_users_outside_any_repository_is_located_from_the_folder_given(project, tmp_path):
    corpus = tmp_path / "my-corpus"
    shutil.copytree(REPO / "scenarios" / "rule-text", corpus / "mine", ignore=shutil.ignore_patterns("play*"))
    assert main(["conform", str(corpus), "--report-dir", "out", "--select", "kind:layout"]) == 0
    files = {json.loads(line).get("file") for line in _lines(project / "out" / "results.jsonl")} - {None}
    assert "mine/layout.yaml" in files and all(f.startswith("mine/") for f in files)
    suite = ET.parse(project / "out" / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    values = {
        p.get("value", "").rsplit(":", 1)[0] for p in suite.iter("property") if p.get("name", "").startswith("fixture:")
    }
    assert values == files
