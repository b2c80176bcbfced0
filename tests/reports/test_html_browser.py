"""The HTML report in Debian's Chromium, driven through the DevTools protocol
(tests/reports/devtools.py): at 1,400 and 480 pixels wide, no console error, no uncaught
exception, and no horizontal overflow at 480 (the page is readable on a phone); the
screenshots go to ``$HORSERACE_ARTIFACTS`` (``.ci/run`` sets it to ``ci-artefacts/``).
A canary page first shows that the checks can fail."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.reports.devtools import Browser
from tests.reports.test_html_report import chromium_path, report_page

pytestmark = pytest.mark.browser

WIDTHS = (1400, 480)
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"


def _page(tmp_path: Path) -> Path:
    page = tmp_path / "report.html"
    page.write_text(report_page(), encoding="utf-8")
    return page


def test_the_checks_can_fail(tmp_path):
    """A page that logs an error, throws, and is wider than the window: all three seen."""
    canary = tmp_path / "canary.html"
    canary.write_text(
        "<!DOCTYPE html><html><body><div style='width:900px'>wide</div><script>"
        "console.error('canary-error'); undefinedCanaryFunction();</script></body></html>",
        encoding="utf-8",
    )
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open(canary.as_uri(), width=480, height=800)
        errors = page.errors
        assert any("canary-error" in e for e in errors) and any(e.startswith("uncaught") for e in errors)
        assert page.evaluate(OVERFLOW) > 0


def test_the_report_renders_without_errors_or_overflow(tmp_path):
    report = _page(tmp_path)
    artifacts = os.environ.get("HORSERACE_ARTIFACTS")
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        for width in WIDTHS:
            page = browser.open(report.as_uri(), width=width, height=1000)
            assert page.errors == [], f"{width} px: {page.errors}"
            overflow = page.evaluate(OVERFLOW)
            wide = page.evaluate(
                "[...document.querySelectorAll('body *')]"
                ".filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)"
                ".slice(0, 5).map(e => e.tagName + '.' + e.className).join(', ')"
            )
            assert overflow <= 0, f"{width} px: {overflow} px of horizontal overflow ({wide})"
            assert page.evaluate("document.querySelectorAll('svg.hr-layout').length") == 2
            assert page.evaluate("document.querySelectorAll('script').length") == 0
            assert "Skipped" in page.evaluate("document.body.innerText")
            png = page.screenshot()
            assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 20_000  # a real rendering
            shot = tmp_path / f"report-{width}px.png"
            shot.write_bytes(png)
            if artifacts:
                Path(artifacts).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(shot, Path(artifacts) / shot.name)


def test_the_javascript_examples_report_with_its_deliberate_error(tmp_path, monkeypatch, capsys):
    """The report a new implementer meets first: the JavaScript example with its
    documented error (HR-COUNT-4) switched on, at both widths; the screenshots are kept
    as ``javascript-example-report-{width}px.png``."""
    from horserace.cli import main

    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed; .ci/run must provide it")
        pytest.skip("node is not installed")
    monkeypatch.delenv("HORSERACE_EXAMPLE_CORRECT", raising=False)
    example = Path(__file__).parents[2] / "examples" / "javascript" / "horse-race.js"
    report = tmp_path / "report"
    assert main(["conform", "--impl", f"{node} {example}", "--report-dir", str(report)]) == 1
    artifacts = os.environ.get("HORSERACE_ARTIFACTS")
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        for width in WIDTHS:
            page = browser.open((report / "report.html").as_uri(), width=width, height=1000)
            assert page.errors == [] and page.evaluate(OVERFLOW) <= 0, width
            assert page.evaluate("document.querySelectorAll('circle.claim-missing').length") >= 5
            png = page.screenshot()
            if artifacts:
                Path(artifacts).mkdir(parents=True, exist_ok=True)
                (Path(artifacts) / f"javascript-example-report-{width}px.png").write_bytes(png)
