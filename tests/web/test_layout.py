"""The table page's layout, checked as a demanding player sees it (issue 32): at 1366x768 (the
laptop it is designed for), 1920x1080, 1280x720, an 820x1180 tablet in portrait and a 390x844
phone, in English, French and German, for every game (Eternity, the Vale with and without the
Artifacts, Eternitium with two players and solo), mid-game at a seat and at the end:

- no text element overflows its box or is cut (its scrollWidth against its clientWidth), no
  word drawn on a card runs off the card, an Eternitium Era pile fits its seat with its count
  on it in 11 px or more, each market keeps its cards and deck in one row, and a move no card
  makes (Pass, End turn) is in sight without scrolling, in the moves or in their panel's head;
- whatever has the `hidden` attribute takes no room on the screen; the header is one line;
- the decision area is on the screen without scrolling: the hand, the play (trick, hunting
  board, markets) and the moves mid-game (on a phone, where the cards are the moves, the folded
  moves panel's head); the results panel's head at the end, each name in its ranking on at most
  two lines and its details without a sideways scroll;
- the opponents sit around the play: a seat at the top above it, on the left and right beside
  it, on a phone or a tablet all in one strip above it; your own seat and your hand below it.

One page per game goes through the sizes and languages (the language switched in the page, the
window resized, nothing loaded again), so the whole check stays short. Screenshots of each game
at each size in each language, mid-game and at the end:
test-output/screenshots/layout-<game>-<when>-<size>-<lang>.png (the screen as seen).
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.conftest import UI

HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "agent": "heuristic"}
ARTIFACTS = {"options": {"expansions": ["artifacts"], "artifact_set": "advanced"}}
# name: (game, players, extra, the play's zone in the board)
GAMES: dict[str, tuple[str, int, dict[str, Any], str]] = {
    "eternity": ("eternity", 3, {}, ".trick-zone"),
    "vale": ("vale", 2, {}, ".hunting"),
    "vale-artifacts": ("vale", 2, ARTIFACTS, ".hunting"),
    "eternitium": ("eternitium", 2, {}, ".markets"),
    "eternitium-solo": ("eternitium", 1, {"options": {"mission": 3}}, ".markets"),
}
# the laptop, a large screen, a small laptop, a tablet in portrait (or a narrow laptop window:
# the 701-899 px between a phone and a laptop) and a phone
SIZES = [(1366, 768), (1920, 1080), (1280, 720), (820, 1180), (390, 844)]
LANGUAGES = ["en", "fr", "de"]

# Text boxes whose content is wider than their box and that do not scroll it themselves; every
# [hidden] element that still takes room; the rectangles of the decision area.
_CHECK = """(play) => {
  const scrolls = (n) => ['auto', 'scroll'].includes(getComputedStyle(n).overflowX);
  const words = (n) => [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
  const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden';
  // (a box 1 px wide is a title kept for screen readers only: never drawn, so never cut)
  const overflowing = [...document.querySelectorAll('main *')]
    .filter((n) => words(n) && shown(n) && n.clientWidth > 1 && !scrolls(n)
      && n.scrollWidth > n.clientWidth + 1 && !n.closest('svg'))
    .map((n) => `${n.tagName.toLowerCase()}.${n.className}: "${n.textContent.trim().slice(0, 40)}"`
      + ` ${n.scrollWidth} > ${n.clientWidth}`);
  // a card's words inside its card (a long German name set smaller, not cut by the frame)
  const offCard = [...document.querySelectorAll('#board svg text')].filter((n) => {
    const b = n.getBBox();
    return b.width && (b.x < -0.5 || b.x + b.width > n.ownerSVGElement.viewBox.baseVal.width + 0.5);
  }).map((n) => `card text "${n.textContent}"`);
  // an Eternitium Era pile within its seat, its count on it in 11 px or more
  const piles = [...document.querySelectorAll('#board .era-row')].filter(shown).flatMap((n) => {
    const out = n.scrollWidth > n.clientWidth + 1
      ? [`an Era pile runs past its seat: ${n.scrollWidth} > ${n.clientWidth}`] : [];
    const count = n.querySelector('.card.top .badge');
    const px = count ? parseFloat(getComputedStyle(count).fontSize) : 0;
    if (n.querySelector('.card') && px < 11) out.push(`an Era pile's count at ${px} px`);
    return out;
  });
  // an Eternitium market's cards and deck in one row (a deck alone on a second line reads as
  // another market)
  const markets = [...document.querySelectorAll('#board .markets .cards')].filter(shown);
  const rows = markets.filter((n) => {
    const boxes = [...n.children].map((c) => c.getBoundingClientRect());
    return boxes.length
      && Math.max(...boxes.map((b) => b.top)) >= Math.min(...boxes.map((b) => b.bottom));
  }).map((n) => `a market's cards on several lines: ${n.closest('section').className}`);
  // a move no card makes (Pass, End turn) is in sight without scrolling: in the list's visible
  // part, or in the moves panel's head
  const list = document.querySelector('#action-list');
  const sight = list.getBoundingClientRect();
  const unseen = [...document.querySelectorAll('#moves-quick [data-action]')].filter((quick) => {
    if (shown(quick) || document.body.dataset.status === 'over') return false;
    const item = [...list.querySelectorAll('[data-action]')]
      .find((b) => b.dataset.action === quick.dataset.action);
    const r = item && shown(item) ? item.getBoundingClientRect() : null;
    return !r || r.top < sight.top - 1 || r.bottom > sight.bottom + 1 || r.bottom > innerHeight + 1;
  }).map((n) => `the move "${n.dataset.action}" is out of sight`);
  // the end: each name in the ranking on at most two lines, the details without a sideways scroll
  const lines = (n) => {
    const style = getComputedStyle(n);
    const line = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
    const pad = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    return Math.round((n.clientHeight - pad) / line);
  };
  const ranking = [...document.querySelectorAll('#scoresheet .score-table tbody th')]
    .filter(shown).filter((n) => lines(n) > 2)
    .map((n) => `a name in the ranking on ${lines(n)} lines: ${n.textContent}`);
  const details = [...document.querySelectorAll('#scoresheet .score-details .table-scroll')]
    .filter(shown)
    .filter((n) => n.scrollWidth > n.clientWidth + 1)
    .map((n) => `the details scroll sideways: ${n.scrollWidth} > ${n.clientWidth}`);
  const hiddenShown = [...document.querySelectorAll('[hidden]')]
    .filter((n) => n.getClientRects().length).map((n) => n.id || n.className || n.tagName);
  const box = (selector) => {
    const n = document.querySelector(selector);
    if (!n || !shown(n)) return null;
    const r = n.getBoundingClientRect();
    return {selector, top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  const over = document.body.dataset.status === 'over';
  const holding = document.querySelector('#board .hand-zone .cards.hand .card');
  // on a phone the moves panel folds when every move is a card to click: its head stays
  const folded = document.body.dataset.movesFolded === '1';
  const area = over ? [box('#scoresheet h2'), box('#scoresheet .winners')]
    : [holding ? box('#board .hand-zone') : null, box(`#board ${play} h3`),
       box('#actions .panel-head'), folded ? null : box('#action-list button')];
  // the seats around the play: each opponent's panel and where it sits, the play, your seat
  const rect = (n) => { const r = n.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const center = document.querySelector('#board .ring-center');
  const seats = [...document.querySelectorAll('#board .ring > .seat-panel:not(.me)')]
    .map((n) => ({at: [...n.classList].find((c) => c.startsWith('at-')), ...rect(n)}));
  const mine = document.querySelector('#board .ring > .seat-panel.me');
  return {overflowing: [...overflowing, ...offCard, ...piles, ...rows, ...unseen, ...ranking,
      ...details],
    hiddenShown, area: area.filter(Boolean), folded, holding: Boolean(holding),
    pageWidth: document.documentElement.scrollWidth,
    header: document.querySelector('header.topbar').getBoundingClientRect().height,
    seats, center: center && rect(center), mine: mine && rect(mine),
    hand: holding ? rect(document.querySelector('#board .hand-zone')) : null};
}"""


def _settled(page: Any) -> None:
    page.wait_for_function(
        "document.body.dataset.status === 'over' || (document.body.dataset.myTurn === '1'"
        " && !document.body.dataset.sending)"
    )


def _switch_language(page: Any, lang: str) -> None:
    if page.evaluate("document.documentElement.lang") == lang:
        return  # selecting it again would fire a change, and the table would reconnect
    page.select_option("#lang-select", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    # the table asks its words again in the new language: a new connection
    page.wait_for_function("lang => document.body.dataset.words === lang", arg=lang)
    _settled(page)
    page.wait_for_timeout(150)  # the board drawn again in the new words


def _around(got: dict[str, Any], width: int, players: int, seat: bool) -> list[str]:
    """The opponents' seats around the play: on a wide screen above it (top) or beside it (left,
    right), on a phone or a tablet in portrait in one strip above it; your own seat and hand
    below the play."""
    center, seats = got["center"], got["seats"]
    if center is None:
        return ["no play area in the middle of the table"]
    problems = []
    if len(seats) != players - seat:
        problems.append(f"{len(seats)} opponents' seats around the play for {players} players")
    for box in seats:
        at = "top" if width < 900 else box["at"].removeprefix("at-")
        if at == "top" and box["bottom"] > center["top"] + 1:
            problems.append(f"a seat at the {box['at']} is not above the play: {box} / {center}")
        elif at == "left" and box["right"] > center["left"] + 1:
            problems.append(f"the seat on the left is not left of the play: {box} / {center}")
        elif at == "right" and box["left"] < center["right"] - 1:
            problems.append(f"the seat on the right is not right of the play: {box} / {center}")
    if width < 900 and len({round(box["top"]) for box in seats}) > 1:
        problems.append(f"the phone's seats are not one strip: {seats}")
    if seat and (got["mine"] is None or got["mine"]["top"] < center["bottom"] - 1):
        problems.append(f"your seat is not below the play: {got['mine']} / {center}")
    hand = got["hand"]
    if hand and hand["top"] < center["top"]:
        problems.append(f"your hand is not below the play: {hand} / {center}")
    return problems


def _check(ui: UI, page: Any, name: str, when: str, play: str, players: int) -> list[str]:
    problems: list[str] = []
    for lang in LANGUAGES:
        _switch_language(page, lang)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            # the page's resize handlers ran and it was drawn again: two frames, not a fixed wait
            page.evaluate(
                "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
            )
            page.wait_for_function("document.getElementById('connection').hidden")
            where = f"{name} {when} {width}x{height} {lang}"
            got = page.evaluate(_CHECK, play)
            problems += [f"{where}: overflows: {o}" for o in got["overflowing"]]
            problems += [f"{where}: hidden but shown: {h}" for h in got["hiddenShown"]]
            if got["header"] > 50:  # its links and the language on one line, in every language
                problems.append(f"{where}: the header takes {got['header']:.0f} px (two lines)")
            if got["pageWidth"] > width:
                problems.append(f"{where}: the page is {got['pageWidth']} px wide")
            problems += [f"{where}: {p}" for p in _around(got, width, players, when == "mid")]
            needed = 2 if when == "end" else 2 + got["holding"] + (0 if got["folded"] else 1)
            if len(got["area"]) < needed:
                problems.append(f"{where}: the decision area is incomplete: {got['area']}")
            hand = next((b for b in got["area"] if "hand" in b["selector"]), None)
            for box in got["area"]:
                inside = box["top"] >= -1 and box["bottom"] <= height + 1
                if not inside or box["left"] < -1 or box["right"] > width + 1:
                    problems.append(f"{where}: off the screen: {box}")
                elif (
                    hand
                    and box is not hand
                    and box["left"] < hand["right"]
                    and (box["top"] < hand["bottom"] and box["bottom"] > hand["top"])
                ):
                    problems.append(f"{where}: under the docked hand: {box}")
            shot = ui.shots / f"layout-{name}-{when}-{width}x{height}-{lang}.png"
            page.screenshot(path=str(shot))
    return problems


@pytest.mark.parametrize("name", list(GAMES))
def test_the_table_fits_each_screen_in_each_language(ui: UI, open_page: Any, name: str) -> None:
    game, players, extra, play = GAMES[name]
    # the end: a game of bots, finished by the server while the seat's game is played
    finished = ui.server.create(game, [BOT] * players, seed=12, **extra)["table_id"]
    created = ui.server.create(game, [HUMAN] + [BOT] * (players - 1), seed=12, **extra)
    problems: list[str] = []
    # no motion: each screenshot shows the table at rest, not a card on its way
    with open_page(viewport={"width": 1366, "height": 768}, reduced_motion="reduce") as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        _settled(page)
        for _ in range(4):  # mid-game
            ui.move(page, page.locator("#action-list button[data-action]").first)
        assert ui.state(page).get("status") != "over"
        problems += _check(ui, page, name, "mid", play, players)
        for _ in range(300):
            if ui.server.get(f"/api/tables/{finished}")["status"] == "over":
                break
            page.wait_for_timeout(100)
        page.set_viewport_size({"width": 1366, "height": 768})
        page.goto(ui.server.url(f"/table/{finished}"))
        page.locator("#scoresheet").wait_for(state="visible")
        problems += _check(ui, page, name, "end", play, players)
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} problems)"
