"""The client's pages (`/`, `/table/...`, `/history`, `/replay/...`, `/rules/...`,
`/position`) as an `APIRouter`: HTML files from the web folder (`app.state.web_dir`), GET and
HEAD, each with what every page shares written in once (`assemble`); and the card data the
pages draw with, in the page's language (`/cards/{game}/{lang}.json`)."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from eterna.core.registry import game_ids
from eterna.i18n.messages import LANGS, catalog

PAGES = {
    "index": "index.html",
    "table": "table.html",
    "history": "history.html",
    "replay": "replay.html",
    "rules": "rules.html",
    "position": "position.html",
}
NOT_FOUND_PAGE = (
    "<!doctype html><meta charset=utf-8><title>Not found · Eterna</title>"
    "<h1>Not found</h1><p>There is nothing here. <a href='/'>Back to the lobby</a>.</p>"
)

router = APIRouter()


# ---------------------------------------------------------------- pages
# What every page shares is written once, in the web folder's parts/ (the head's links, the top
# bar and its navigation); a page names it by a marker: `<!-- eterna:head Title -->` in its head,
# `<!-- eterna:topbar -->` where its body's top bar goes.
MARKER = re.compile(r"<!-- eterna:(head|topbar)(?: ([^<>]*?))? -->")


def assemble(web: Path, name: str) -> str | None:
    """The page `name` (a key of PAGES) with its markers replaced by the parts, or None when
    the web folder has no such page. Made once per version of its files (cached by their
    modification times, so an edited page or part is served at its next request)."""
    path = web / PAGES[name]
    try:
        stamp = tuple(
            p.stat().st_mtime_ns
            for p in (path, web / "parts" / "head.html", web / "parts" / "topbar.html")
            if p.exists()
        )
    except OSError:
        return None
    if not path.is_file():
        return None
    return _assembled(path, stamp)


@lru_cache(maxsize=32)
def _assembled(path: Path, stamp: tuple[int, ...]) -> str:
    parts = path.parent / "parts"

    def part(match: re.Match[str]) -> str:
        text = (parts / f"{match.group(1)}.html").read_text("utf-8").rstrip("\n")
        return text.replace("{title}", match.group(2) or "Eterna")

    return MARKER.sub(part, path.read_text("utf-8"))


def page(request: Request, name: str) -> Response:
    html = assemble(request.app.state.web_dir, name)
    if html is None:
        return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
    return HTMLResponse(html)


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def index_page(request: Request) -> Response:
    return page(request, "index")


@router.api_route("/table/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
async def table_page(request: Request, table_id: str) -> Response:
    return page(request, "table")


@router.api_route("/history", methods=["GET", "HEAD"], include_in_schema=False)
async def history_page(request: Request) -> Response:
    return page(request, "history")


@router.api_route("/replay/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
async def replay_page(request: Request, table_id: str) -> Response:
    return page(request, "replay")


@router.api_route("/position", methods=["GET", "HEAD"], include_in_schema=False)
async def position_page(request: Request) -> Response:
    """A pasted position (or `/position#<share code>`), drawn, hinted and played on."""
    return page(request, "position")


@router.api_route("/rules/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
async def rules_page(request: Request, game_id: str) -> Response:
    if game_id not in game_ids():
        return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
    return page(request, "rules")


# ---------------------------------------------------------------- card data
@router.api_route("/cards/{game_id}/{lang}.json", methods=["GET", "HEAD"], include_in_schema=False)
async def card_data(request: Request, game_id: str, lang: str) -> Response:
    """The client's card file of a game (`static/cards/<game>.json`) with every card's name,
    text and `short` text for its face in `lang` (the Vale's artifact `tiles` too), and
    `names`: every card id of the game's catalog with its name (Portal and Era cards
    included), so a page in French draws French card faces."""
    if game_id not in game_ids() or lang not in LANGS:
        return Response(status_code=404)
    body = translated_cards(request.app.state.web_dir, game_id, lang)
    return Response(
        body, media_type="application/json", headers={"Cache-Control": "public, max-age=3600"}
    )


@lru_cache(maxsize=16)
def translated_cards(web: Path, game: str, lang: str) -> bytes:
    """The encoded card file of `game` in `lang` (made once per game and language)."""
    path = web / "static" / "cards" / f"{game}.json"
    data: dict[str, Any] = json.loads(path.read_text("utf-8")) if path.is_file() else {}
    cat = catalog(lang)
    prefix, suffix = f"{game}.card.", ".name"
    names = {
        key[len(prefix) : -len(suffix)]: cat.text(key)
        for key in sorted(cat.keys())
        if key.startswith(prefix) and key.endswith(suffix)
    }
    cards: dict[str, dict[str, Any]] = {**data.get("cards", {}), **data.get("tiles", {})}
    for card_id, info in cards.items():  # the Vale's artifact tiles are named like its cards
        if card_id in names:
            info["name"] = names[card_id]
        if cat.has(f"{prefix}{card_id}.text"):
            info["text"] = cat.card_text(game, card_id)
        if cat.has(f"{game}.short.{card_id}"):  # the face's few words (the Vale's creatures)
            info["short"] = cat.text(f"{game}.short.{card_id}")
    data["names"] = names
    data["lang"] = lang
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
