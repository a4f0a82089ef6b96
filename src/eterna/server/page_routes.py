"""The client's pages (`/`, `/table/...`, `/history`, `/replay/...`, `/rules/...`) as an
`APIRouter`: static HTML files from the web folder (`app.state.web_dir`), GET and HEAD."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from eterna.core.registry import game_ids

PAGES = {
    "index": "index.html",
    "table": "table.html",
    "history": "history.html",
    "replay": "replay.html",
    "rules": "rules.html",
}
NOT_FOUND_PAGE = (
    "<!doctype html><meta charset=utf-8><title>Not found · Eterna</title>"
    "<h1>Not found</h1><p>There is nothing here. <a href='/'>Back to the lobby</a>.</p>"
)

router = APIRouter()


# ---------------------------------------------------------------- pages
def page(request: Request, name: str) -> Response:
    web: Path = request.app.state.web_dir
    path = web / PAGES[name]
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(NOT_FOUND_PAGE, status_code=404)


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


@router.api_route("/rules/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
async def rules_page(request: Request, game_id: str) -> Response:
    if game_id not in game_ids():
        return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
    return page(request, "rules")
