"""Hypothesis profiles: CI runs a bounded number of examples; `HYPOTHESIS_PROFILE=soak` a long run."""

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=12, deadline=None)
settings.register_profile("soak", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
