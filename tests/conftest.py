import os

from hypothesis import settings

# Profiles, as Hypothesis's own tests have them: quick while developing, derandomised in
# CI (.ci/run sets HYPOTHESIS_PROFILE=ci), long runs on demand.
settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("deep", max_examples=5_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

pytest_plugins = ["pytester"]
