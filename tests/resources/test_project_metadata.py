"""The package's metadata as PyPI shows it: Project-URLs, classifiers, and a long
description (PYPI.md) whose every link works on PyPI's page, where a relative link 404s."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.helpers import markdown_links as links

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_every_link_of_the_pypi_page_is_absolute_or_an_anchor():
    targets = links((ROOT / "PYPI.md").read_text(encoding="utf-8"))
    assert len(targets) >= 8
    relative = [t for t in targets if not t.startswith(("https://", "http://", "#"))]
    assert relative == []


def test_the_links_finder_sees_a_relative_link():
    assert links("[a](spec/rules.md) ![b](badge.svg) [c][r] <https://x.org>\n\n[r]: ../c.md\n") == [
        "spec/rules.md",
        "badge.svg",
        "../c.md",
        "https://x.org",
    ]


def test_the_pypi_page_links_into_the_repository_the_metadata_names():
    repository = PROJECT["urls"]["Repository"]
    ours = [t for t in links((ROOT / "PYPI.md").read_text(encoding="utf-8")) if "github.com" in t]
    assert ours and all(t.startswith(f"{repository}/blob/main/") for t in ours)
    for target in ours:  # each names a file of the checkout
        assert (ROOT / target.removeprefix(f"{repository}/blob/main/")).is_file(), target


def test_the_project_urls_and_classifiers():
    urls = PROJECT["urls"]
    assert set(urls) == {"Homepage", "Documentation", "Repository", "Issues", "Changelog"}
    assert all(url.startswith("https://") for url in urls.values())
    classifiers = set(PROJECT["classifiers"])
    for needed in (
        "Intended Audience :: Developers",
        "Operating System :: OS Independent",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3 :: Only",
        "Topic :: Games/Entertainment :: Board Games",
        "Topic :: Software Development :: Testing",
        "Typing :: Typed",
    ):
        assert needed in classifiers, needed
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    # The licence is the SPDX expression (PEP 639): setuptools refuses a License classifier beside it.
    assert PROJECT["license"] == "MIT" and not any(c.startswith("License ::") for c in classifiers)
    assert "build>=1.2" in PROJECT["optional-dependencies"]["dev"]
