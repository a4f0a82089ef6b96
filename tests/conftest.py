"""Suite-wide settings.

Under CI (the CI environment variable is set) Hypothesis runs derandomized: every run explores
the same examples, so a submission's CI result does not depend on luck. Locally it explores new
examples every run, which is where new failures are found.

The run's summary lists the screenshots the browser tests wrote (tests/web). The hook lives here,
in the root conftest, because under pytest-xdist only the root conftest is loaded by the process
that prints the summary.
"""

import os
import time
from pathlib import Path
from typing import Any

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The terminal table speaks the locale's language when --lang is not given: the suite reads
# English unless a test chooses otherwise (monkeypatch.setenv), whatever the machine's locale.
os.environ["ETERNA_LANG"] = "en"

SCREENSHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"
_SESSION_START = time.time()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not SCREENSHOTS.is_dir():
        return
    fresh = sorted(p for p in SCREENSHOTS.glob("*.png") if p.stat().st_mtime >= _SESSION_START)
    if fresh:
        terminalreporter.write_line(f"web screenshots ({len(fresh)}) in {SCREENSHOTS}:")
        for path in fresh:
            terminalreporter.write_line(f"  {path}")
