"""The pages run under the server's content security policy: no violation, no script error."""

from __future__ import annotations

from typing import Any


def test_pages_run_under_the_content_security_policy(ui: Any, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot"}, {"kind": "bot"}]
    created = ui.server.create("eternity", seats, seed=3, public=True)
    table_url = created["seats"][0]["url"]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    problems: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on(
            "console",
            lambda msg: (
                problems.append(msg.text) if "Content Security Policy" in msg.text else None
            ),
        )
        for path in ("/", "/history", table_url, "/rules/eternity", "/position"):
            page.goto(ui.server.url(path))
            page.wait_for_load_state("networkidle")
        page.goto(ui.server.url(table_url))
        page.locator("#seats .seat-chip.me").wait_for(timeout=15_000)
    finally:
        context.close()
    assert not problems, problems
