"""Replays of finished games (docs/web-protocol.md, `GET /api/tables/{id}/replay...`): a step
is the spectator view after a ply, every seat's own view (its hand: the game is over, nothing
is secret any more), the action that led there and the events it made, told in words; the move
list is every ply's label. Only ever built for a finished table (api_routes.py checks), in the
replay thread, not on the loop."""

from __future__ import annotations

import json
import logging
from typing import Any

from eterna.core.game import GameState
from eterna.server.live import start_state
from eterna.server.protocol import move_items, told_items
from eterna.server.storage import TableData
from eterna.server.told import seat_labels

log = logging.getLogger("eterna.server")


def _encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _event_count(state: GameState) -> int | None:
    try:
        return state.event_count()
    except Exception:
        return None


def replay_step(data: TableData, ply: int, lang: str = "en") -> dict[str, Any]:
    """The step after `ply` actions of a finished table: `view` (the spectator's), `views`
    (each seat's own), `seat` and `action` of the ply (None at 0) and `told`, its events."""
    state = start_state(data)
    for _seat, notation in data.actions[: max(0, ply - 1)]:
        state.apply(notation)
    seat: int | None = None
    action: str | None = None
    told: list[dict[str, Any]] = []
    if ply > 0:
        seat, action = data.actions[ply - 1]
        before = _event_count(state)
        state.apply(action)
        if before is not None:
            try:
                events = state.events_since(before, None)
                names = seat_labels(data, lang)
                told = told_items(data.game, events, before, lang, names)
            except Exception:  # an engine's story must not stop the replay
                log.exception("table %s: no events to tell at ply %d", data.id, ply)
    return {
        "ply": ply,
        "plies": len(data.actions),
        "seat": seat,
        "action": action,
        "view": state.view(None),
        "views": [state.view(s) for s in range(data.players)],
        "told": told,
    }


def replay_json(data: TableData, ply: int, lang: str = "en") -> bytes:
    """`replay_step` as the JSON the API serves."""
    return _encode(replay_step(data, ply, lang))


def moves_json(data: TableData, lang: str = "en") -> bytes:
    """Every ply of a finished table: `{"plies", "moves": [{"ply", "seat", "action",
    "label"}]}`, the label in `lang`."""
    names = seat_labels(data, lang)
    notations = [notation for _seat, notation in data.actions]
    items = move_items(data.game, notations, lang, names)
    moves = [
        {"ply": n, "seat": seat, "action": notation, "label": item["label"]}
        for n, ((seat, notation), item) in enumerate(zip(data.actions, items, strict=True), 1)
    ]
    return _encode({"plies": len(moves), "moves": moves})
