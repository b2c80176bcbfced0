"""``horserace impact --html``'s page in Debian's Chromium (tests/reports/devtools.py), at
1,400 and 480 pixels: no console error, no horizontal overflow of the page at 480, one
row drawn per metric and seating in the plots of the differences, each interval drawn
around its point, and the two distributions of each seating drawn with their bars; the
screenshots go to ``$HORSERACE_ARTIFACTS`` as ``impact-*.png``."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from horserace.cli import main
from tests.reports.devtools import Browser
from tests.reports.test_html_report import chromium_path

pytest.importorskip("scipy", reason="the impact extra (NumPy, SciPy) is not installed")

OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"
#: Each plotted row whose point lies outside its interval's ends (none should).
OUTSIDE = """[...document.querySelectorAll('svg.forest g.row')].filter(g => {
  const [ci] = g.querySelectorAll('line.ci'); const p = g.querySelector('circle').getBBox();
  const x = p.x + p.width / 2, b = ci.getBBox();
  return x < b.x - 0.5 || x > b.x + b.width + 0.5; }).length"""


def test_the_page_draws_every_metric_in_chromium(tmp_path):
    main(
        [
            "impact",
            "--rules",
            "canonical",
            "--rules",
            "one-branch",
            "--matches",
            "12",
            "--players",
            "2",
            "--players",
            "4",
            "--html",
            str(tmp_path / "out"),
            "--format",
            "json",
        ]
    )
    page_file = tmp_path / "out" / "impact.html"
    artifacts = os.environ.get("HORSERACE_ARTIFACTS")
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        for width in (1400, 480):
            page = browser.open(page_file.as_uri(), width=width, height=1000)
            assert page.errors == []
            assert page.evaluate("document.querySelectorAll('svg.forest g.row').length") == 2 * 13
            assert page.evaluate("document.querySelectorAll('svg.forest').length") == 2
            assert page.evaluate(OUTSIDE) == 0
            assert page.evaluate("document.querySelectorAll('svg.bars rect').length") > 2 * 2 * 8
            assert page.evaluate("document.querySelectorAll('table tbody tr').length") == 2 * 13
            if width == 480:
                assert page.evaluate(OVERFLOW) <= 0
            if artifacts:
                Path(artifacts).mkdir(parents=True, exist_ok=True)
                (Path(artifacts) / f"impact-{width}.png").write_bytes(page.screenshot())
