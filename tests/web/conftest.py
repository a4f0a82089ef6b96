"""Fixtures of the browser tests: the real server (`python -m eterna serve`) and Debian's Chromium.

The server runs as a subprocess on a free port with its own SQLite database and no bot pacing, so
bots answer at once. Chromium is Debian's (`/usr/bin/chromium`, installed with apt-get when
missing, as CI runs as root): Playwright's own browser download does not work here. Screenshots
go to `test-output/screenshots/` at the repository root; the run's summary lists them
(tests/conftest.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import socket
import subprocess
import tarfile
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from eterna.server.launch import serve_command, wait_until_serving

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
# A JavaScript value shown as text (e.g. `append(null)` writes "null"): a page shows words only
STRAY_VALUE = re.compile(r"\b(?:null|undefined|NaN)\b|\[object Object\]")
CHROMIUM = "/usr/bin/chromium"
# axe-core, the accessibility checker the tests inject into the pages (never served by the app):
# fetched once from the npm registry into test-output/cache/, checked against its pinned digest.
AXE_VERSION = "4.14.1"
AXE_TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{AXE_VERSION}.tgz"
AXE_SHA256 = "e6b0ce02b84d892e2e33e403485e7f3d6c29e2be6df65daf44d89ba564139745"
AXE_CACHE = ROOT / "test-output" / "cache"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def ensure_chromium() -> str:
    """Debian's Chromium, installed with apt-get when missing (CI runs as root)."""
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-q", "chromium"]
        if subprocess.run(install, env=env, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
            subprocess.run(install, env=env, capture_output=True, check=False)
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing and could not be installed (apt-get install chromium)")
    return CHROMIUM


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """The running server: its base URL and a small JSON client for the API."""

    def __init__(self, base: str) -> None:
        self.base = base

    def url(self, path: str) -> str:
        return self.base + path

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url(path), timeout=60) as response:
            return json.loads(response.read())

    def post(self, path: str, body: Any) -> Any:
        request = urllib.request.Request(
            self.url(path),
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=60) as response:  # a worker may start
            return json.loads(response.read())

    def create(self, game: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
        body = {"game": game, "players": len(seats), "seats": seats, "bot_delay": 0, **extra}
        return self.post("/api/tables", body)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("eterna-web")
    port = free_port()
    command = serve_command(
        port,
        database_url=f"sqlite:///{data / 'db.sqlite'}",
        bot_delay=0,
        hint_iterations=60,
        limits=False,
    )
    log = open(data / "server.log", "w")  # noqa: SIM115 (closed below, after the process)
    process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_until_serving(base, process, timeout=60)
        except RuntimeError as exc:
            log.flush()
            pytest.fail(f"{exc}:\n" + (data / "server.log").read_text())
        yield Server(base)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


# Scoped to this package (tests/web has an __init__.py for it), not to the session: between its
# calls Playwright's sync API marks its own asyncio loop as the running loop of the thread, so
# while it lives any later test of the same process that calls `asyncio.run` fails ("cannot be
# called from a running event loop"). Stopped after the last browser test, it leaves no loop.
@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = ensure_chromium()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


DESKTOP = {"width": 1280, "height": 900}
PHONE_OPTIONS = {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


# A page's script runs after the page has loaded: its main() fetches the page's language (and
# more) before it binds its controls, then marks body[data-ready]. A test that typed or clicked
# before that would reach a bare form (a click on "Open" then submits it natively and reloads the
# page): on a loaded machine that is seconds after "load". A page without a script is ready at once.
_READY = (
    "!!document.body && (!document.querySelector('script[type=module]') || "
    "document.body.dataset.ready === '1')"
)


def _goto_until_ready(page: Any) -> Callable[..., Any]:
    """page.goto that returns once the page's script is ready (body[data-ready])."""
    goto = page.goto

    def goto_until_ready(url: str, **options: Any) -> Any:
        response = goto(url, **options)
        page.wait_for_function(_READY)
        return response

    return goto_until_ready


@contextmanager
def browser_page(browser: Any, **options: Any) -> Iterator[Any]:
    """A page in a context of its own (desktop size and en-US unless `options` say otherwise),
    failing the test on any JavaScript error. Playwright evaluates its string predicates with
    eval, which the server's content security policy forbids: the pages themselves are checked
    under it in test_csp.py."""
    settings: dict[str, Any] = {"viewport": DESKTOP, "locale": "en-US", **options}
    context = browser.new_context(bypass_csp=True, **settings)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.goto = _goto_until_ready(page)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def open_page(browser: Any) -> Callable[..., AbstractContextManager[Any]]:
    """open_page(**context options): `browser_page` for tests that need other settings
    (`open_page(locale="fr-FR")`, `open_page(**PHONE_OPTIONS)`)."""
    return lambda **options: browser_page(browser, **options)


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with browser_page(browser) as page:
        yield page


def _axe_tarball() -> bytes:
    cached = AXE_CACHE / f"axe-core-{AXE_VERSION}.tgz"
    if cached.exists() and hashlib.sha256(cached.read_bytes()).hexdigest() == AXE_SHA256:
        return cached.read_bytes()
    with urllib.request.urlopen(AXE_TARBALL, timeout=60) as response:
        data: bytes = response.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != AXE_SHA256:
        pytest.fail(f"{AXE_TARBALL}: sha256 {digest}, expected {AXE_SHA256}")
    AXE_CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_bytes(data)
    return data


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe.min.js of the pinned axe-core release (downloaded once, then from the cache)."""
    try:
        data = _axe_tarball()
    except (urllib.error.URLError, OSError) as exc:
        pytest.fail(f"axe-core could not be fetched from the npm registry ({AXE_TARBALL}): {exc}")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None
        return member.read().decode()


# axe reads an SVG card face's texts as one word ("1313Earth": corner, centre and footer run
# together), so a card button named "Earth 13" fails its label-in-name rule. The rule's intent is
# checked here instead: every word drawn on the card appears in the card's name (numbers aside:
# a corner's points or value, which the name says in words, "Basic", or as the card's value; a
# cut line of effect text without its ellipsis).
_AXE_RUN = """async () => {
    const r = await axe.run(document, {resultTypes: ['violations']});
    const drawnInName = (target) => {
        const node = document.querySelector(target.join(' '));
        if (!node || !node.classList.contains('card')) return false;
        const name = (node.getAttribute('aria-label') || '').toLowerCase();
        return [...node.querySelectorAll('svg text')]
            .map((t) => t.textContent.trim().replace(/…$/, '').toLowerCase())
            .filter((text) => /\\p{L}/u.test(text)).every((text) => name.includes(text));
    };
    return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({...v, nodes: v.id === 'label-content-name-mismatch'
            ? v.nodes.filter((n) => !drawnInName(n.target)) : v.nodes}))
        .filter((v) => v.nodes.length)
        .map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: '
                + (n.failureSummary || '').slice(0, 200))}));
}"""


def axe_violations(page: Any, axe_source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it stands."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source)
    result: list[dict[str, Any]] = page.evaluate(_AXE_RUN)
    return result


def _assert_accessible(page: Any, axe_source: str, where: str) -> None:
    violations = axe_violations(page, axe_source)
    assert not violations, f"{where}: " + "\n".join(
        f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in violations
    )


@pytest.fixture
def axe(axe_source: str) -> Any:
    """axe(page, where): fails on any serious or critical axe-core violation on the page."""
    return lambda page, where: _assert_accessible(page, axe_source, where)


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A 390x844 touch phone."""
    with browser_page(browser, **PHONE_OPTIONS) as page:
        yield page


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# --------------------------------------------------------------------------- driving the pages

# True once the page waits for nothing: the game is over, or it is the seat's turn and no move
# is on its way to the server.
# Both are asked while a click's navigation may still be parsing the next page, whose body
# does not exist yet: null-safe, so the wait goes on instead of failing.
_SETTLED = (
    "!!document.body && (document.body.dataset.status === 'over' || "
    "(document.body.dataset.myTurn === '1' && !document.body.dataset.sending))"
)


class UI:
    """Steps a test takes through the pages, as a player would."""

    def __init__(self, server: Server, shots: Path) -> None:
        self.server = server
        self.shots = shots

    def shot(self, page: Any, name: str) -> Path:
        """A full-page screenshot; the page must show words, never a program's empty value."""
        leaked = STRAY_VALUE.findall(page.inner_text("body"))
        assert not leaked, f"{name}: the page shows {leaked}"
        path = self.shots / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        print(f"screenshot: {path}")
        return path

    def create_from_lobby(self, page: Any, game: str, players: int, seed: int | None = None) -> str:
        """Fill the lobby's form (seat 0 human, the others heuristic bots), create, take seat 0."""
        page.goto(self.server.url("/"))
        page.select_option("#game-select", game)
        page.select_option("#players-select", str(players))
        page.fill("#player-name", "Ada")
        rows = page.locator("#seat-rows .seat-row")
        assert rows.count() == players
        for seat in range(1, players):
            assert page.locator(f"[data-seat-kind='{seat}']").input_value() == "bot"
            assert page.locator(f"[data-seat-agent='{seat}']").input_value() == "heuristic"
        page.click("#options-box summary")
        page.fill("#bot-delay", "0")
        if seed is not None:
            page.fill("#seed", str(seed))
        page.click("#create-button")
        page.wait_for_selector("#created:not([hidden])")
        table_id: str = page.get_attribute("#created", "data-table-id")
        assert page.locator("#created [data-seat-link='0']").count() == 1
        assert page.locator("#created [data-watch-link]").count() == 1
        page.click("#created [data-seat-link='0']")
        page.wait_for_url(f"**/table/{table_id}?token=*")
        page.wait_for_function(_SETTLED)
        return table_id

    def open_moves(self, page: Any) -> None:
        """Open the moves panel if it is folded (a phone folds it while the cards are the
        moves), as a player taps its Show button to reach a move or the Hint."""
        toggle = page.locator("#moves-toggle")
        if toggle.count() and toggle.get_attribute("aria-expanded") == "false":
            toggle.click()

    def wait_settled(self, page: Any) -> None:
        page.wait_for_function(_SETTLED)

    def state(self, page: Any) -> dict[str, str]:
        data: dict[str, str] = page.evaluate("({...document.body.dataset})")
        return data

    def move(self, page: Any, button: Any, choice: str | None = None) -> None:
        """Click a move (an action button or a card) and wait until the server answered.

        A card several moves name opens a menu: `choice` is the prefix of the one to take.
        """
        ply = self.state(page).get("ply", "")
        if button.evaluate("n => !!n.closest('#moves-body')"):
            self.open_moves(page)
        button.click()
        if choice is not None:
            menu = page.locator("#choice")
            if menu.count():
                menu.locator(f"[data-choice^='{choice}']").first.click()
        page.wait_for_function(
            "ply => document.body.dataset.ply !== ply || document.body.dataset.status === 'over'",
            arg=ply,
        )
        self.wait_settled(page)

    def play_to_end(self, page: Any, name: str | None = None, limit: int = 600) -> int:
        """Click the first legal move until the score sheet shows; a screenshot half-way."""
        moves = 0
        self.wait_settled(page)
        while self.state(page).get("status") != "over":
            assert moves < limit, "the game did not end"
            self.move(page, page.locator("#action-list button[data-action]").first)
            moves += 1
            if name and moves == 12:
                self.shot(page, f"{name}-mid")
        page.wait_for_selector("#scoresheet:not([hidden])")
        return moves

    def scoresheet(self, page: Any) -> tuple[dict[int, int], list[int]]:
        rows = page.locator("#scoresheet tr[data-seat]")
        scores: dict[int, int] = {}
        winners: list[int] = []
        for i in range(rows.count()):
            row = rows.nth(i)
            seat = int(row.get_attribute("data-seat"))
            scores[seat] = int(row.locator("td.score").inner_text())
            if row.get_attribute("data-winner") == "1":
                winners.append(seat)
        return scores, sorted(winners)


@pytest.fixture
def ui(server: Server, screenshots: Path) -> UI:
    return UI(server, screenshots)
