"""Hypothesis profiles: CI runs a bounded number of examples; `HYPOTHESIS_PROFILE=soak` a long run."""

import os

from hypothesis import settings

settings.register_profile("ci", max_examples=12, deadline=None)
settings.register_profile("soak", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Compiled playouts: every script's kernel at optimisation level 0, the same games compiled in a
# tenth of the time (tests/test_compiled.py plays the shipped games at the default level too).
os.environ.setdefault("CARDGAME_KERNEL_OPT", "0")
