"""A corpus of hostile payloads against the position routes (issue 36), shared by the suite
(test_hostile_positions.py) and the bench (bench/hostile_positions.py): every payload of the
issue, crafted from real positions of the three games.

A payload is a request (method, path, JSON body, headers) with a name; `corpus()` builds them
all, for each route they target (inspect, hint, play, and a finished table's position).
"""

from __future__ import annotations

import base64
import json
import random
import zlib
from dataclasses import dataclass, field
from typing import Any

import eterna
from eterna.core.game import GameState
from eterna.core.position import share_code

ROUTES = ("/api/positions/inspect", "/api/positions/hint", "/api/positions/play")
BOMB_CARDS = (
    "portal-circle",
    "portal-square",
    "portal-triangle",
    "portal-diamond",
    "droid",
    "data-analyser",
    "futuristic-smartphone",
    "digital-wallet",
)
BIG_INT = "9" * 4400  # digits: past Python's 4,300-digit conversion limit


@dataclass
class Payload:
    name: str
    method: str
    path: str
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)


def played(game_id: str, players: int, moves: int, seed: int) -> GameState:
    """A real game of `game_id`, `moves` random legal moves in (fewer if it ends)."""
    state = eterna.load_game(game_id).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def located_bomb() -> dict[str, Any]:
    """The seat-1 position of an ordinary 3-player Eternitium game, seats 0 and 2 "known" to
    hold 1,000,000 of each of 8 cards in their discard piles (issue 36, finding 1)."""
    state = played("eternitium", 3, 12, 1)
    position = state.to_position(1)
    located = position["knowledge"]["located"]
    for seat in (0, 2):
        for card in BOMB_CARDS:
            located[seat][card] = 1_000_000
    return position


def code_of(text: str) -> str:
    """A share code of any text (not only a canonical position's)."""
    raw = zlib.compress(text.encode("utf-8"), 9)
    return "ep1." + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def solo_positions() -> list[tuple[str, dict[str, Any]]]:
    """Crafted solo Eternitium positions: its AI's cards and piles where no game leaves them."""
    state = played("eternitium", 1, 10, 1)
    whole = state.to_position()
    out: list[tuple[str, dict[str, Any]]] = [("solo-seat", state.to_position(0))]
    no_ai = json.loads(json.dumps(whole))
    no_ai["ai_deck"], no_ai["ai_cards"] = [], []
    out.append(("solo-no-ai-cards", no_ai))
    stranger = json.loads(json.dumps(whole))
    stranger["ai_cards"] = ["portal-circle", "droid"]
    out.append(("solo-ai-holds-basics", stranger))
    doubled = json.loads(json.dumps(whole))
    doubled["ai_deck"] = doubled["ai_deck"] * 6
    out.append(("solo-ai-deck-sixfold", doubled))
    known = json.loads(json.dumps(whole))
    known["knowledge"]["located"] = [{"time-bomb": 50}]
    out.append(("solo-located-ai-card", known))
    return out


def with_big_int(position: dict[str, Any], key: str) -> str:
    """The position's JSON text with `key`'s value a 4,400-digit integer."""
    marker = "__big_int__"
    return json.dumps(position | {key: marker}).replace(f'"{marker}"', BIG_INT)


def position_texts() -> list[tuple[str, str]]:
    """Every hostile position text of the issue, by name."""
    bomb = located_bomb()
    eternity = played("eternity", 3, 9, 5).to_position()
    texts: list[tuple[str, str]] = [
        ("located-bomb", json.dumps(bomb)),
        ("located-bomb-code", share_code(bomb)),
        ("deep-json-5999", "[" * 5999 + "]" * 5999),
        ("deep-object-1900", '{"a":' * 1900 + "1" + "}" * 1900),
        ("int-4400-digits-raw", with_big_int(eternity, "players")),
        ("int-4400-digits-code", code_of(with_big_int(eternity, "turn"))),
        ("inflating-code-1.9MB", code_of(json.dumps({"game": "x" * 1_900_000}))),
        ("inflating-code-padding", code_of(json.dumps(eternity) + " " * 1_900_000)),
        ("not-a-code", "ep1." + "A" * 9000),
    ]
    texts += [(name, json.dumps(position)) for name, position in solo_positions()]
    for limit in (0, 1000):
        whole = played("eternitium", 3, 6, 2).to_position()
        whole["options"]["round_limit"] = limit
        texts.append((f"round-limit-{limit}", json.dumps(whole)))
    return texts


def corpus() -> list[Payload]:
    """Every payload: each position text against each position route."""
    out: list[Payload] = []
    for name, text in position_texts():
        for path in ROUTES:
            route = path.rsplit("/", 1)[1]
            out.append(Payload(f"{name}@{route}", "POST", path, {"position": text}))
    return out


def request_payloads(token_query: str) -> list[Payload]:
    """The payloads that are not positions: a token under a percent-encoded name, and a
    Host header a redirect could reflect."""
    return [
        Payload("percent-encoded-token", "GET", f"/api/tables?{token_query}"),
        Payload("host-header-redirect", "GET", "/api/tables/", headers={"host": "evil.example"}),
    ]


__all__ = ["Payload", "corpus", "located_bomb", "played", "position_texts", "request_payloads"]
