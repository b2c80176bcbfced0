"""The project's own checks that CI runs beside the tests: no function of the package over
cyclomatic complexity 20 (tools/check_complexity.py, radon's rank D or worse), and CI in
tiers (.ci/run) with a branch-coverage floor (pyproject.toml) and the README's test
command installing every extra the tests CI runs need."""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

_spec = importlib.util.spec_from_file_location("check_complexity", ROOT / "tools" / "check_complexity.py")
assert _spec is not None and _spec.loader is not None
check_complexity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_complexity)


def _function_of(branches: int) -> str:
    """A function of cyclomatic complexity ``branches + 1``: one ``if`` per branch."""
    body = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(branches))
    return f"def f(x):\n{body}    return -1\n"


def test_no_function_of_the_package_is_over_complexity_20_but_those_excepted_with_a_reason():
    over = {f"{path} {name}" for path, _, name, _ in check_complexity.over_limit(ROOT / "horserace", 20)}
    assert over - set(check_complexity.EXCEPTIONS) == set()  # a new one: split it
    assert set(check_complexity.EXCEPTIONS) - over == set()  # one split since: strike it from the list
    assert all(check_complexity.EXCEPTIONS.values())
    assert check_complexity.main([]) == 0


def test_the_check_flags_a_function_over_20_and_not_one_at_20(tmp_path, capsys):
    package = tmp_path / "pkg"
    (package / "room").mkdir(parents=True)
    (package / "room" / "over.py").write_text(_function_of(20), encoding="utf-8")  # complexity 21
    (package / "at.py").write_text(_function_of(19), encoding="utf-8")  # complexity 20
    assert check_complexity.over_limit(package, 20) == [("pkg/room/over.py", 1, "f", 21)]
    assert check_complexity.main([str(package)]) == 1
    assert capsys.readouterr().out == "pkg/room/over.py:1 f 21\n1 function(s) over complexity 20\n"
    assert check_complexity.main([str(package), "--max", "21", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"max": 21, "over": [], "excepted": [], "stale": []}


def test_the_check_names_a_method_by_its_class(tmp_path):
    method = "class C:\n" + "".join("    " + line + "\n" for line in _function_of(25).splitlines())
    (tmp_path / "m.py").write_text(method, encoding="utf-8")
    assert check_complexity.over_limit(tmp_path, 20) == [(f"{tmp_path.name}/m.py", 2, "C.f", 26)]


def test_ci_runs_the_static_checks_then_the_readme_test_command_the_fast_tier_first():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if "pip install" in line and "-m pytest" in line)
    assert '-m pytest -m "not slow" && .venv/bin/python -m pytest -m slow' in command  # the tiers, fast first
    steps = [
        "lint-imports",
        "ruff check",
        "ruff format --check",
        ".venv/bin/mypy",
        "tools/check_complexity.py",
        command,  # the README's test command, exactly
    ]
    script = CI[CI.index("set -euo pipefail") :].replace('\\"', '"')  # the commands, unquoted once
    where = [script.find(step) for step in steps]
    assert -1 not in where, [s for s, at in zip(steps, where, strict=True) if at < 0]
    assert where == sorted(where)
    # One virtualenv: built once with every extra; the README's command finds it built.
    assert script.index("python3 -m venv") < where[0] and script.count("python3 -m venv") == 2


def test_coverage_is_of_the_package_s_branches_with_a_floor():
    coverage = PYPROJECT["tool"]["coverage"]
    assert coverage["run"]["branch"] is True
    assert coverage["run"]["source"] == ["horserace"]
    assert coverage["report"]["fail_under"] > 0


def test_the_readme_test_command_installs_every_extra_the_tests_of_ci_need():
    # CI's virtualenv: its extras, less dev (the static checks' tools, which no test runs).
    ci_extras = set(re.search(r"pip install -q -e '\.\[([a-z,]+)\]'", CI).group(1).split(",")) - {"dev"}
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = next(line for line in readme.splitlines() if "pip install" in line and "-m pytest" in line)
    readme_extras = set(re.search(r"\.\[([a-z,]+)\]", command).group(1).split(","))
    assert ci_extras <= readme_extras, ci_extras - readme_extras
    assert {"test", "distributed"} <= ci_extras
