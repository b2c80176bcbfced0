"""A wheel carries the specification, the corpus and the examples, so that an installed
horserace (not only a source checkout) can replay and conform; an sdist is a checkout
without git, from which the test suite runs with the same skips as from a clone; both
carry the licence."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.helpers import NOT_SOURCES

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def source_tree(tmp_path_factory) -> Path:
    """A copy of the checkout as a fresh clone has it, without any earlier build's output."""
    copy = tmp_path_factory.mktemp("source") / "horserace"
    shutil.copytree(ROOT, copy, ignore=NOT_SOURCES)
    return copy


@pytest.fixture(scope="module")
def wheel(tmp_path_factory, source_tree) -> Path:
    """The wheel pip builds from the checkout, once for the module's tests."""
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(source_tree)],
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
        "horserace/site/static/style.css",  # horserace site
        "horserace/site/static/search.js",
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
    (fake_package / "_examples").mkdir()
    # Some distributions install a top-level examples/ into site-packages: not ours.
    (fake_package.parent / "examples" / "python").mkdir(parents=True)
    monkeypatch.delenv("HORSERACE_SPEC", raising=False)
    # An installed package: no spec/ beside it, and importlib.resources finds it in site/.
    monkeypatch.setattr(paths, "source_root", lambda: fake_package.parent)
    monkeypatch.setattr(paths, "installed_package", lambda: fake_package)
    assert paths.spec_dir() == fake_package / "_spec"
    assert paths.default_corpus() == fake_package / "_scenarios"
    assert paths.examples_dir() == fake_package / "_examples"


def test_a_checkout_finds_its_own_folders():
    from horserace.resources import paths

    assert paths.examples_dir() == ROOT / "examples"
    assert paths.default_corpus() == ROOT / "scenarios"


def test_wheel_carries_the_examples(wheel):
    from horserace.cli.commands.examples import example_files

    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"horserace/_examples/{r.as_posix()}" for r in example_files(ROOT / "examples")}
    assert "horserace/_examples/python/horse_race.py" in expected
    assert "horserace/_examples/javascript/horse-race.js" in expected
    assert {n for n in names if n.startswith("horserace/_examples/")} == expected


def test_wheel_carries_the_perft_tables(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    tables = {p.name for p in (ROOT / "scenarios" / "generated" / "perft").glob("*.yaml")}
    assert len(tables) == 5
    assert {Path(n).name for n in names if n.startswith("horserace/_scenarios/generated/perft/")} == tables


def test_wheel_carries_nothing_the_package_data_does_not_name(wheel):
    """No cache, no stray file of the checkout: include-package-data is off, so the wheel
    is the modules and the package data of pyproject.toml."""
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".DS_Store"))]
    assert not [n for n in names if n.startswith("horserace/_scenarios/") and not n.endswith((".yaml", ".md"))]


def _installed(wheel: Path, target: Path) -> dict[str, str]:
    """Install the wheel into ``target`` alone (no dependencies, no index); the
    environment in which ``python -m horserace`` runs that installation."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    env = {**os.environ, "PYTHONPATH": str(target)}
    env.pop("HORSERACE_SPEC", None)
    return env


def test_an_installed_wheel_writes_the_examples_without_a_checkout(wheel, tmp_path):
    site = tmp_path / "site"
    env = _installed(wheel, site)

    def horserace(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "horserace", *argv], cwd=tmp_path, env=env, capture_output=True, text=True
        )

    where = subprocess.run(
        [sys.executable, "-c", "import horserace; print(horserace.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr
    out = tmp_path / "my-examples"
    first = horserace("examples", str(out))
    assert first.returncode == 0, first.stdout + first.stderr
    for name in ("python/horse_race.py", "python/README.md", "javascript/horse-race.js", "javascript/README.md"):
        assert (out / name).read_bytes() == (ROOT / "examples" / name).read_bytes()
    assert not list(out.rglob("__pycache__"))  # pip compiled the wheel's .py files: not examples
    again = horserace("examples", str(out))
    assert again.returncode == 4 and "--force" in again.stderr
    assert horserace("examples", "--force", str(out)).returncode == 0


def test_an_installed_wheel_builds_the_site_without_a_checkout(wheel, tmp_path):
    """``horserace site`` from a wheel: the spec and the corpus it carries, its own
    stylesheet and script; the changelog, which only a checkout has, is said missing."""
    env = _installed(wheel, tmp_path / "installed")
    out = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "horserace", "site", str(out)], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (out / "search.js").read_bytes() == (ROOT / "horserace" / "site" / "static" / "search.js").read_bytes()
    assert (out / "rules" / "HR-COUNT-4.html").is_file() and (out / "export" / "manifest.json").is_file()
    assert "carries no CHANGELOG.md" in (out / "changelog.html").read_text(encoding="utf-8")


def test_an_installed_wheel_finds_the_perft_tables_by_name(wheel, tmp_path):
    """The README's scenarios/generated/perft is a folder of the checkout: from a wheel
    the tables are found by name, in the package's data."""
    site = tmp_path / "installed"
    env = _installed(wheel, site)

    def horserace(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "horserace", *argv], cwd=tmp_path, env=env, capture_output=True, text=True
        )

    listed = horserace("perft", "--tables", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    doc = json.loads(listed.stdout)
    assert (site / "horserace" / "_scenarios" / "generated" / "perft").samefile(tmp_path / doc["folder"])
    assert [t["name"] for t in doc["tables"]] == sorted(
        p.stem for p in (ROOT / "scenarios/generated/perft").glob("*.yaml")
    )
    shown = horserace("perft", "--table", "seed-1-players-3", "--format", "json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["nodes"]["11"] == 245_764
    counted = horserace("perft", "table:seed-1-players-3", "--depth", "4", "--format", "json")
    assert counted.returncode == 0 and json.loads(counted.stdout)["nodes"] == 121
    conform = horserace("replay", doc["tables"][0]["file"])
    assert conform.returncode == 0, conform.stdout + conform.stderr


# ---------------------------------------------------------------------- the build
def test_the_build_prints_no_warning(source_tree, tmp_path):
    """``python -m build`` (the sdist, then the wheel from it) as a release makes it: no
    line of setuptools' output is a warning.  Before, a build printed eight (each data
    folder "absent from the `packages` configuration", include-package-data taking what
    MANIFEST.in grafted) and three more from MANIFEST.in's global-exclude, which matched
    nothing in a clean clone.  PYTHONDONTWRITEBYTECODE is the test runner's own setting
    (setuptools then says byte-compiling is disabled), not a release's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(tmp_path), str(source_tree)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    said = result.stdout + result.stderr
    warnings = [line for line in said.splitlines() if "warning" in line.lower()]
    assert warnings == [], "\n".join(warnings)
    assert len(list(tmp_path.glob("horserace-*.whl"))) == len(list(tmp_path.glob("horserace-*.tar.gz"))) == 1


# ---------------------------------------------------------------------- the long description
def _first_code_block(markdown: str) -> list[str]:
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("```"))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    return lines[start + 1 : end]


def test_the_long_description_starts_with_what_a_user_types(wheel):
    headers, body = _metadata(wheel).split("\n\n", 1)
    assert "Description-Content-Type: text/markdown" in headers.splitlines()
    assert body == (ROOT / "PYPI.md").read_text(encoding="utf-8")
    first = next(line for line in body.splitlines() if line.strip() and not line.startswith(("#", "```")))
    assert first == "pip install horserace"
    assert _first_code_block(body) == [
        "pip install horserace",
        "horserace conform",
        'horserace conform --impl "python3 my_adapter.py"',
        "horserace examples my-examples/",
    ]
    for document in ("rules.md", "protocol.md", "fixture-format.md", "interpretations.md", "glossary.md"):
        assert f"](https://github.com/horserace/horserace/blob/main/spec/{document})" in body, document
    # The repository's README stays the developer's: its first lines are the two commands.
    readme = _first_code_block((ROOT / "README.md").read_text(encoding="utf-8"))
    assert [line.split(" && ")[0] for line in readme] == ["python3 -m venv .venv"] * 2
    assert "pip install horserace" not in readme


# ---------------------------------------------------------------------- the sdist
#: What a checkout holds beside the package, that the sdist must hold too: the test suite
#: (every subfolder), what the tests read (the examples, the tools, the documents), and
#: the licence.
SDIST_FOLDERS = ("tests", "examples", "tools", "spec", "scenarios", "action", "docs")
SDIST_FILES = ("LICENSE", "README.md", "PYPI.md", "CHANGELOG.md", "CONTRIBUTING.md", "pyproject.toml")


def _is_cache(path: Path) -> bool:
    return "__pycache__" in path.parts or path.suffix == ".pyc"


@pytest.fixture(scope="module")
def sdist(tmp_path_factory, source_tree) -> set[str]:
    """The paths the sdist of the checkout holds, relative to its top folder."""
    try:
        import build  # noqa: F401  (the [test] extra has it)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("build is not installed; the [test] extra must provide it")
        pytest.skip("build is not installed (pip install build)")
    out = tmp_path_factory.mktemp("sdist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(source_tree)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    (built,) = out.glob("horserace-*.tar.gz")
    with tarfile.open(built) as archive:
        names = [m.name for m in archive.getmembers() if m.isfile()]
    top = {n.split("/", 1)[0] for n in names}
    assert len(top) == 1, top
    return {n.split("/", 1)[1] for n in names}


def test_sdist_holds_the_whole_test_suite_and_what_it_reads(sdist):
    on_disk = {
        str(p.relative_to(ROOT))
        for folder in SDIST_FOLDERS
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and not _is_cache(p.relative_to(ROOT))
    }
    assert {"tests/engine/test_hand.py", "tests/resources/test_packaging.py", "tests/conftest.py"} <= on_disk
    assert on_disk - sdist == set()
    assert set(SDIST_FILES) - sdist == set()
    assert {n for n in sdist if _is_cache(Path(n))} == set()


def test_sdist_carries_the_licence(sdist):
    assert "LICENSE" in sdist
    assert "examples/python/horse_race.py" in sdist and "examples/javascript/horse-race.js" in sdist
