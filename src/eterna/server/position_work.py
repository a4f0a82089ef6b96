"""The work of posted positions, run in the positions lane's worker processes (workers.py), never
on the event loop or in a thread of the server: parsing, loading (a seat's position: guessing
what it cannot see), describing, and writing whole positions and share codes.

A worker has a memory cap and each task a time cap, so a position that costs more than any real
game needs is refused instead of stalling the server. Whatever a posted position makes the
engine raise (`BadPosition`, too deep a nesting, a number too long to convert, a lookup that
fails, the memory cap) comes back as a `RequestError` 400 `bad_position` naming the field, its
message cut short (`bounded`): a client's text is never echoed at length.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from eterna.core.errors import BadPosition, EternaError
from eterna.core.game import GameState
from eterna.core.position import parse, share_code
from eterna.core.registry import load_game
from eterna.i18n import catalog
from eterna.server.live import start_state
from eterna.server.protocol import move_items
from eterna.server.settings import RequestError
from eterna.server.storage import TableData

log = logging.getLogger("eterna.server")
T = TypeVar("T")

MAX_DETAIL = 200  # characters of an error's detail (a quoted client text is cut to fit)


def bounded(text: str, limit: int = MAX_DETAIL) -> str:
    """`text` cut to `limit` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def refused(message: str, field: str = "") -> RequestError:
    return RequestError(400, "bad_position", bounded(message), bounded(field, 100))


def position_errors(fn: Callable[..., T]) -> Callable[..., T]:
    """Turn every failure a hostile position can cause into a 400 `bad_position`."""

    @functools.wraps(fn)
    def guarded(*args: Any) -> T:
        try:
            return fn(*args)
        except RequestError:
            raise
        except BadPosition as exc:
            raise refused(str(exc), exc.field) from None
        except RecursionError:
            raise refused("the position nests too deeply") from None
        except MemoryError:
            raise refused("the position needs more memory than the server gives one") from None
        except EternaError as exc:  # a game without a position format (yet)
            raise RequestError(422, "no_position", bounded(str(exc))) from None
        except (ValueError, LookupError, TypeError, ArithmeticError) as exc:
            log.warning("a posted position failed: %s", bounded(repr(exc)))
            raise refused(f"the position is inconsistent: {exc}") from None

    return guarded


def load(text: str) -> tuple[GameState, dict[str, Any]]:
    """The state a posted position describes, and the position."""
    position = parse(text)
    if not isinstance(position, dict) or not isinstance(position.get("game"), str):
        raise BadPosition("a position is a JSON object with a 'game' id", field="game")
    try:
        game = load_game(position["game"])
    except EternaError as exc:
        raise BadPosition(f"position game: {exc}", field="game") from None
    return game.from_position(position), position


def whole_position(state: GameState) -> dict[str, Any]:
    try:
        return state.to_position()
    except EternaError as exc:
        raise RequestError(422, "no_position", bounded(str(exc))) from None


def names_of(state: GameState, lang: str) -> list[str]:
    """The seats as the page names them ("Seat 1" for seat 0)."""
    words = catalog(lang)
    return [words.text("common.seat", n=seat + 1) for seat in range(state.players)]


def described(state: GameState, position: dict[str, Any], lang: str) -> dict[str, Any]:
    """What the position page draws: the view of the position's seat (a whole position: the
    spectator's, and every seat's own in `views`), the legal moves in words when that seat (a
    whole position: anyone) is to move, and the share code."""
    seat = position.get("seat")
    names = names_of(state, lang)
    to_move = state.current_player
    moves = None
    if seat in (None, to_move) and not state.is_terminal:
        moves = move_items(state.game.id, state.legal_actions(), lang, names)
    views = None if seat is not None else [state.view(s) for s in range(state.players)]
    return {
        "game": state.game.id,
        "name": state.game.name,
        "players": state.players,
        "options": position.get("options") or {},
        "seat": seat,
        "guess": seat is not None,
        "to_move": to_move,
        "over": state.is_terminal,
        "scores": state.scores,
        "names": names,
        "view": state.view(seat),
        "views": views,
        "moves": moves,
        "code": share_code(position),
    }


# ------------------------------------------------------------------------------ the tasks


@position_errors
def inspect_task(text: str, lang: str) -> dict[str, Any]:
    """`POST /api/positions/inspect`: the position checked and described."""
    state, position = load(text)
    return described(state, position, lang)


@position_errors
def share_task(text: str) -> tuple[str, int, str]:
    """`POST /api/positions/share`: the position checked as inspect checks it; its game, its
    player count and its self-contained share code."""
    state, position = load(text)
    return state.game.id, state.players, share_code(position)


def _mover(state: GameState, position: dict[str, Any]) -> int:
    """The seat that plays on: the position's (it must be to move), else the seat to move."""
    if state.is_terminal:
        raise RequestError(409, "game_over", "the game of this position is over")
    seat = position.get("seat")
    mover = state.current_player
    if seat is not None and mover != seat:
        raise RequestError(409, "not_your_turn", f"it is seat {mover}'s turn, not seat {seat}'s")
    assert mover is not None
    return mover


@position_errors
def hint_task(text: str) -> tuple[GameState, int]:
    """`POST /api/positions/hint`, before the search: the state and the seat to advise."""
    state, position = load(text)
    return state, _mover(state, position)


@position_errors
def play_task(text: str) -> tuple[GameState, dict[str, Any], int, bool]:
    """`POST /api/positions/play`, before the table: the whole position to play on from (a
    seat's: one guess of what it cannot see), its state loaded from it, the caller's seat,
    and whether it was a guess."""
    state, position = load(text)
    if state.is_terminal:
        raise RequestError(409, "game_over", "the game of this position is over")
    seat = position.get("seat")
    seat = state.current_player if seat is None else seat
    assert seat is not None
    whole = whole_position(state)
    state = state.game.from_position(whole)
    return state, whole, seat, position.get("seat") is not None


@position_errors
def finished_task(data: TableData, ply: int) -> tuple[dict[str, Any], str]:
    """A finished table's whole position after `ply` actions, and its share code."""
    state = start_state(data)
    for _seat, notation in data.actions[:ply]:
        state.apply(notation)
    whole = whole_position(state)
    return whole, share_code(whole)


@position_errors
def seat_task(state: GameState, seat: int) -> tuple[dict[str, Any], str]:
    """A live table's position for `seat` (its own, nothing more), and its share code."""
    mine = state.to_position(seat)
    return mine, share_code(mine)


__all__ = [
    "bounded",
    "finished_task",
    "hint_task",
    "inspect_task",
    "play_task",
    "position_errors",
    "seat_task",
    "share_task",
]
