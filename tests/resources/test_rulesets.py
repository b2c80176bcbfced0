"""Rulesets as data (spec/rulesets/) and the outcome diff between two of them."""

from __future__ import annotations

import json

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS
from horserace.errors import FixtureError, UsageError
from horserace.quality.ruleset_diff import run_diff
from horserace.resources.rulesets import bundled, load_ruleset, resolve

VARIANT_RULESETS = [name for name, r in bundled().items() if r.ruleset.variants]


def test_bundled_rulesets_cover_every_reading_and_a_long_match():
    rulesets = bundled()
    assert rulesets["canonical"].ruleset == CANONICAL
    assert rulesets["long-match"].ruleset.target == 121 and not rulesets["long-match"].ruleset.variants
    named = {(f, r) for rs in rulesets.values() for f, r in rs.ruleset.variants.items()}
    assert named == {(f, r) for f, readings in VARIANT_FIELDS.items() for r in readings[1:]}


def test_invalid_ruleset_is_reported_with_its_place(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ndescription: x\ntarget: 61\nreadings: {branch_use: three}\n")
    with pytest.raises(FixtureError) as err:
        load_ruleset(bad)
    assert "bad.yaml:4:" in err.value.render() and "readings/branch_use" in err.value.render()
    with pytest.raises(UsageError, match="no bundled ruleset"):  # a name that does not exist: a usage error
        resolve("no-such-ruleset")


@pytest.mark.parametrize("name", sorted(bundled()))
def test_replay_under_each_ruleset_passes_where_fixtures_apply(name, corpus):
    ruleset = resolve(name).ruleset
    statuses = [replay_fixture(fx, ruleset).status for fx in corpus.fixtures]
    assert set(statuses) <= {"pass", "skip"} and "pass" in statuses


@pytest.mark.parametrize("name", VARIANT_RULESETS)
def test_diff_against_each_variant_finds_the_fixtures_of_that_reading(name, corpus):
    variant = resolve(name)
    report = run_diff(corpus.fixtures, resolve("canonical"), variant)
    changed = {c.fixture.id for c in report.changed}
    assert changed, f"no fixture changes between canonical and {name}"
    ((field, reading),) = variant.ruleset.variants.items()
    naming = {fx.id for fx in corpus.fixtures if fx.variants.get(field) == reading}
    assert naming & changed, f"no fixture naming {field}={reading} observes differently under canonical"


def test_long_match_changes_matches_not_fixtures(corpus):
    report = run_diff(corpus.fixtures, resolve("canonical"), resolve("long-match"), play=4, seed=3)
    assert report.changed == [] and len(report.changed_matches) == 4


def test_diff_command_formats_and_exit_codes(capsys, tmp_path):
    assert main(["diff", "--rules", "canonical", "--rules", "canonical"]) == ExitCode.OK
    assert "no outcome differs" in capsys.readouterr().out
    assert main(["diff", "--rules", "canonical", "--rules", "one-branch", "--format", "json"]) == ExitCode.FAILURES
    doc = json.loads(capsys.readouterr().out)
    assert doc["b"]["readings"] == {"branch_use": "one"} and doc["changed_fixtures"]
    assert main(["diff", "--rules", "canonical", "--rules", "one-branch", "--format", "markdown"]) == ExitCode.FAILURES
    assert "## Outcome diff: `canonical` → `one-branch`" in capsys.readouterr().out
    assert main(["diff", "--rules", "canonical"]) == ExitCode.USAGE
    # A ruleset that does not exist is a usage error (4); an existing file that is invalid is 2.
    assert main(["diff", "--rules", "canonical", "--rules", "nope"]) == ExitCode.USAGE
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\ndescription: x\ntarget: 61\nreadings: {branch_use: three}\n")
    assert main(["diff", "--rules", "canonical", "--rules", str(bad)]) == ExitCode.INVALID_INPUT
    assert "bad.yaml:4:" in capsys.readouterr().err


# ---------------------------------------------------------------------- versioning and export
def test_every_corpus_fixture_is_in_the_changelog():
    import subprocess
    import sys
    from pathlib import Path

    tool = Path(__file__).resolve().parents[2] / "tools" / "changelog_ids.py"
    result = subprocess.run([sys.executable, str(tool)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_deprecated_fixtures_are_skipped_and_cover_nothing(tmp_path):
    from horserace.corpus.rule_coverage import coverage_report
    from tests.corpus.test_fixture_loader import GOOD_LAYOUT

    path = tmp_path / "d.yaml"
    path.write_text(GOOD_LAYOUT.replace("  origin:", "  deprecated: superseded by T3STAB (0.2.0)\n  origin:"))
    (fixture,) = load_paths([path]).fixtures
    assert fixture.deprecated and replay_fixture(fixture).status == "skip"
    rows = {row["rule"]: row["fixtures"] for row in coverage_report([fixture])["rules"]}
    assert rows["HR-COUNT-2"] == []


def test_export_round_trips_through_the_loader(tmp_path, capsys, corpus):
    assert main(["export", str(tmp_path)]) == ExitCode.OK
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    from horserace import __version__
    from horserace.conformance.protocol import PROTOCOL_VERSION

    assert manifest["suite"] == __version__ and manifest["protocol"] == PROTOCOL_VERSION
    exported = load_paths([tmp_path / "scenarios"])
    assert exported.errors == []
    by_id = {fx.id: fx for fx in exported.fixtures}
    assert manifest["fixtures"] == len(corpus.fixtures) == len(by_id)
    for fx in corpus.fixtures:
        twin = by_id[fx.id]
        assert (twin.kind, twin.rules, twin.variants, twin.input, twin.expected, twin.why) == (
            fx.kind,
            fx.rules,
            fx.variants,
            fx.input,
            fx.expected,
            fx.why,
        )
        assert replay_fixture(twin).status == "pass"
    for path in manifest["rulesets"]:
        named = load_ruleset(tmp_path / path)
        assert named.ruleset == resolve(named.name).ruleset
    capsys.readouterr()


def test_every_path_the_export_manifest_names_is_in_the_export(tmp_path, capsys):
    from pathlib import Path

    from horserace.resources.paths import spec_dir

    assert main(["export", "--format", "json", str(tmp_path)]) == ExitCode.OK
    assert "5 spec documents" in capsys.readouterr().out
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    named = [path for key in ("files", "rulesets", "schemas", "spec") for path in manifest[key]]
    # "format": "spec/fixture-format.md of horserace X.Y.Z" names a document too.
    named.append(manifest["format"].split(" of ", 1)[0])
    missing = [path for path in named if not (tmp_path / path).is_file()]
    assert missing == []
    # The prose spec as it is: every document of spec/, byte for byte.
    assert manifest["spec"] == [
        "spec/fixture-format.md",
        "spec/glossary.md",
        "spec/interpretations.md",
        "spec/protocol.md",
        "spec/rules.md",
    ]
    for path in manifest["spec"]:
        assert (tmp_path / path).read_bytes() == (spec_dir() / Path(path).name).read_bytes()
    # Nothing is in the export that the manifest does not name.
    written = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file()}
    assert written == {*named, "manifest.json"}
