"""Reports that travel, from a wheel: the wheel built from a copy of the checkout,
installed into a fresh virtual environment (its dependencies from pip's configured
index), ``conform`` run there from a project folder of its own against the Python
example; the report folder, copied elsewhere, holds no path of the machine (no
``site-packages``, no temporary folder, not the clone's) and no dead link.  A build and an
install: some 12 s on the 2-core machine (under the 20 s of the ``slow`` mark)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from horserace.reports.links import RULES_COPY
from horserace.resources.paths import source_root
from tests.helpers import NOT_SOURCES
from tests.reports.travel import travel_problems

REPO = source_root()


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The ``horserace`` command of a fresh virtual environment holding the wheel."""
    work = tmp_path_factory.mktemp("wheel")
    shutil.copytree(REPO, work / "source", ignore=NOT_SOURCES)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work / "dist"), str(work / "source")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (work / "dist").glob("horserace-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True, timeout=120)
    bin_dir = work / "venv" / ("Scripts" if os.name == "nt" else "bin")
    done = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0 and "No matching distribution" in done.stderr:
        pytest.skip(f"the wheel's dependencies cannot be installed here: {done.stderr.strip()[-300:]}")
    assert done.returncode == 0, done.stderr[-2000:]
    return bin_dir / "horserace"


def test_a_report_made_from_a_wheel_travels(installed, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(REPO / "examples" / "python" / "horse_race.py", project / "adapter.py")
    env = {k: v for k, v in os.environ.items() if k not in ("HORSERACE_SPEC", "PYTHONPATH")}
    where = subprocess.run(
        [str(installed.parent / "python"), "-c", "import horserace; print(horserace.__file__)"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    site = Path(where.stdout.strip()).parent
    assert "site-packages" in site.parts and not site.is_relative_to(REPO), where.stdout + where.stderr
    run = subprocess.run(
        [str(installed), "conform", "--impl", "python3 adapter.py", "--report-dir", "out"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]  # the example's deliberate error
    assert str(site) not in run.stdout and "site-packages" not in run.stdout
    copy = tmp_path / "elsewhere" / "out"
    shutil.copytree(project / "out", copy)
    shutil.rmtree(project / "out")
    assert (copy / RULES_COPY).read_text(encoding="utf-8") == (REPO / "spec" / "rules.md").read_text(encoding="utf-8")
    assert travel_problems(copy, [str(tmp_path), str(REPO), str(site), str(installed.parent)]) == []
    files = {json.loads(line).get("file") for line in (copy / "results.jsonl").read_text().splitlines()} - {None}
    assert files and all(f.startswith("scenarios/") for f in files)
