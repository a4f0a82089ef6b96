"""Suite-wide settings.

Under CI (the CI environment variable is set) Hypothesis runs derandomized: every run explores
the same examples, so a submission's CI result does not depend on luck. Locally it explores new
examples every run, which is where new failures are found.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
