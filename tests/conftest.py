"""Shared pytest set-up for the test suite.

* The tests directory and each game's test folder go on ``sys.path`` so that test
  modules can ``import naive_persian`` (a game's pure-Python reference rules) and
  the shared helpers. Test modules are imported by path (``--import-mode=importlib``),
  so two games may both have a ``test_determinism.py``.
* Hypothesis profiles: ``ci`` (the default) is derandomized with few examples so
  that a plain ``pytest`` run is fast and repeatable; ``thorough`` explores more.
  Pick one with ``HYPOTHESIS_PROFILE=thorough pytest ...``. Tests that pass their
  own ``@settings(max_examples=...)`` keep their own count.
"""

import os
import sys

from hypothesis import HealthCheck, settings

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))
for _folder in (TESTS_DIR, *(os.path.join(TESTS_DIR, d) for d in sorted(os.listdir(TESTS_DIR)))):
    if os.path.isdir(_folder) and not os.path.basename(_folder).startswith(("_", ".")) and _folder not in sys.path:
        sys.path.insert(0, _folder)

settings.register_profile(
    "ci",
    max_examples=30,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
