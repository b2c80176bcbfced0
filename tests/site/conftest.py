from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import bundled_corpus


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site of the bundled corpus, built once per session (``horserace site``'s
    build, in process): read-only for the tests that share it."""
    from horserace.site.build import build_site

    out = tmp_path_factory.mktemp("site")
    build_site(out, bundled_corpus().fixtures)
    return out
