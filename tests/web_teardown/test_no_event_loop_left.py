"""After the browser tests, in the same process: no event loop is left running.

This directory is collected right after tests/web (pytest takes a folder's entries in name
order), so in a run of the whole suite, and in any process (an xdist worker) that ran browser
tests, these tests run after them. Playwright's sync API marks its asyncio loop as the thread's
running loop between its calls; while the browser fixture lived on to the session's end, every
later `asyncio.run` in the process failed ("asyncio.run() cannot be called from a running event
loop"): tests/server and tests/cluster use it. The fixture is now scoped to tests/web and stops
Playwright after its last test.
"""

from __future__ import annotations

import asyncio

import pytest


def test_no_event_loop_is_left_running_in_the_main_thread() -> None:
    with pytest.raises(RuntimeError):
        loop = asyncio.get_running_loop()
        pytest.fail(f"a loop is still running in the main thread: {loop!r}")


def test_asyncio_run_works_after_the_browser_tests() -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert asyncio.run(answer()) == 42
