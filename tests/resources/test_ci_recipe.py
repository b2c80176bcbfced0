"""The CI recipe for an implementer's repository: the composite action
``action/action.yml``, whose steps call one script, ``action/conform-ci.sh``; the script
run here on the bundled Python example, as the action runs it in a CI job."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action" / "action.yml"
SCRIPT = ROOT / "action" / "conform-ci.sh"
EXAMPLE = shlex.join([sys.executable, str(ROOT / "examples" / "python" / "horse_race.py")])

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a bash script")


def conform_ci(cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The script, as the action's step runs it: the inputs in the environment; the
    horserace of this interpreter (HORSERACE_PACKAGE empty: nothing installed)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("HORSERACE_", "GITHUB_"))}
    full = {**base, "HORSERACE_PACKAGE": "", "HORSERACE_PYTHON": sys.executable, **env}
    return subprocess.run([str(SCRIPT)], cwd=cwd, env=full, capture_output=True, text=True, timeout=300)


REPORTS = ("report.html", "report.md", "report.json", "junit.xml", "results.jsonl", "badge.svg", "badge.json")


def test_the_example_with_its_deliberate_error_fails_and_keeps_its_reports(tmp_path):
    output, summary = tmp_path / "github-output", tmp_path / "summary.md"
    done = conform_ci(
        tmp_path,
        HORSERACE_IMPL=EXAMPLE,
        HORSERACE_REPORT_DIR="reports",
        GITHUB_OUTPUT=str(output),
        GITHUB_STEP_SUMMARY=str(summary),
    )
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    for name in REPORTS:
        assert (tmp_path / "reports" / name).is_file(), name
    assert output.read_text() == "exit-code=1\n"
    assert summary.read_text(encoding="utf-8") == (tmp_path / "reports" / "report.md").read_text(encoding="utf-8")
    assert "horserace conform exited 1; the reports are in reports/" in done.stdout


def test_the_example_without_its_error_passes_with_the_options_given(tmp_path):
    done = conform_ci(
        tmp_path, HORSERACE_IMPL=EXAMPLE, HORSERACE_EXAMPLE_CORRECT="1", HORSERACE_ARGS="--strict-rule-ids --one-shot"
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert all((tmp_path / "horserace-report" / name).is_file() for name in REPORTS)
    assert '"mode": "one-shot"' in (tmp_path / "horserace-report" / "results.jsonl").read_text(encoding="utf-8")


def test_an_unusable_implementation_exits_3_and_no_implementation_exits_4(tmp_path):
    assert conform_ci(tmp_path, HORSERACE_IMPL="no-such-engine-anywhere").returncode == 3
    missing = conform_ci(tmp_path)
    assert missing.returncode == 4 and "set HORSERACE_IMPL" in missing.stderr


def test_the_action_is_composite_and_its_steps_call_the_one_script():
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    assert action["inputs"]["impl"]["required"] is True
    steps = action["runs"]["steps"]
    runs = [step for step in steps if "run" in step]
    assert [step["run"] for step in runs] == ['"$GITHUB_ACTION_PATH/conform-ci.sh"']
    (conform,) = runs
    # Every input reaches the script through its environment, none through the shell line.
    assert set(conform["env"].values()) == {
        "${{ inputs." + name + " }}" for name in ("impl", "package", "args", "report-dir")
    }
    assert action["outputs"]["exit-code"]["value"] == "${{ steps." + conform["id"] + ".outputs.exit-code }}"
    (upload,) = [step for step in steps if str(step.get("uses", "")).startswith("actions/upload-artifact@")]
    assert upload["if"] == "always()" and upload["with"]["path"] == "${{ inputs.report-dir }}"
    assert os.access(SCRIPT, os.X_OK)
