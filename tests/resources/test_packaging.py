"""A wheel carries the specification and the corpus, so that an installed horserace
(not only a source checkout) can replay and conform."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel pip builds from the checkout, once for the module's tests."""
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (built,) = out.glob("horserace-*.whl")
    return built


def test_wheel_carries_spec_and_corpus(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in (
        "horserace/_spec/rules.md",
        "horserace/_spec/schema/fixture.schema.json",
        "horserace/_spec/schema/protocol/answer.json",
        "horserace/_spec/rulesets/canonical.yaml",
        "horserace/verify/proofs.py",
    ):
        assert required in names, required
    corpus = {p.name for p in (ROOT / "scenarios" / "rule-text").glob("*.yaml")}
    assert corpus == {Path(n).name for n in names if n.startswith("horserace/_scenarios/rule-text/")}


def test_wheel_carries_every_module_of_the_package(wheel):
    # The packages are listed one by one in pyproject.toml: a new subpackage left out of
    # the list works in a checkout and an editable install, and is missing from the wheel.
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {str(p.relative_to(ROOT)) for p in (ROOT / "horserace").rglob("*.py")}
    assert modules - names == set()


def _metadata(wheel: Path) -> str:
    (name,) = (n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/METADATA"))
    return zipfile.ZipFile(wheel).read(name).decode("utf-8")


def test_wheel_carries_the_licence_as_an_spdx_expression(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    (licence,) = (n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
    assert zipfile.ZipFile(wheel).read(licence).decode("utf-8") == (ROOT / "LICENSE").read_text(encoding="utf-8")
    headers = _metadata(wheel).split("\n\n", 1)[0].splitlines()
    assert "License-Expression: MIT" in headers
    assert "License-File: LICENSE" in headers
    # PEP 639: no deprecated licence form beside the expression.
    assert not [h for h in headers if h.startswith(("License:", "Classifier: License ::"))]


def test_installed_layout_is_found_without_a_checkout(tmp_path, monkeypatch):
    from horserace.resources import paths

    fake_package = tmp_path / "site" / "horserace"
    (fake_package / "_spec").mkdir(parents=True)
    (fake_package / "_scenarios").mkdir()
    monkeypatch.delenv("HORSERACE_SPEC", raising=False)
    # An installed package: no spec/ beside it, and importlib.resources finds it in site/.
    monkeypatch.setattr(paths, "source_root", lambda: fake_package.parent)
    monkeypatch.setattr(paths, "installed_package", lambda: fake_package)
    assert paths.spec_dir() == fake_package / "_spec"
    assert paths.default_corpus() == fake_package / "_scenarios"
