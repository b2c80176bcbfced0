import os

import pytest
from hypothesis import settings

from tests.helpers import bundled_corpus

# Profiles, as Hypothesis's own tests have them: quick while developing, derandomised in
# CI (.ci/run sets HYPOTHESIS_PROFILE=ci), long runs on demand.
settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("deep", max_examples=5_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

pytest_plugins = ["pytester"]


@pytest.fixture(scope="session")
def corpus():
    """The bundled corpus (scenarios/), loaded once per session: a read-only
    :class:`horserace.corpus.fixture.Corpus`, shared by every test that asks for it."""
    return bundled_corpus()
