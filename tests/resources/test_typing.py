"""The type-checking policy as `pyproject.toml` states it (CONTRIBUTING.md, "Types"):
the package under `strict = true`, the tests checked at the default level, at most five
package modules relaxed, and no `type: ignore` without its error code and a reason."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
#: A `type: ignore` as the policy allows it: an error code in brackets, then a comment.
_IGNORE = re.compile(r"#\s*type:\s*ignore(?P<code>\[[a-z-]+(?:,\s*[a-z-]+)*\])?(?P<rest>.*)$")


def test_the_package_is_strict_and_the_tests_are_checked():
    assert MYPY["strict"] is True
    assert MYPY["files"] == ["horserace", "tests"]


def test_at_most_five_package_modules_are_relaxed():
    relaxed = [
        module
        for override in MYPY.get("overrides", [])
        if any(value is False for value in override.values())
        for module in ([override["module"]] if isinstance(override["module"], str) else override["module"])
        if module.startswith("horserace")
    ]
    assert len(relaxed) <= 5, relaxed


def ignores_without_code_or_reason(root: Path) -> list[str]:
    """Each `type: ignore` under ``root`` with no error code or no comment after it."""
    bad = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found = _IGNORE.search(line)
            if found and (found["code"] is None or not re.match(r"\s*#\s*\S", found["rest"])):
                bad.append(f"{path.relative_to(root.parent)}:{number}")
    return bad


def test_every_type_ignore_names_its_code_and_a_reason():
    assert ignores_without_code_or_reason(ROOT / "horserace") == []
    assert ignores_without_code_or_reason(ROOT / "tests") == []


def test_the_ignore_check_finds_a_bare_ignore_and_one_without_a_reason(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    ignore = "# type" + ": ignore"  # written apart, or this file would hold them
    (package / "m.py").write_text(
        f"a = 1  {ignore}\nb = 2  {ignore}[assignment]\nc = 3  {ignore}[assignment]  # the reason\n",
        encoding="utf-8",
    )
    assert ignores_without_code_or_reason(package) == ["pkg/m.py:1", "pkg/m.py:2"]
