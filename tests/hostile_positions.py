"""Hostile positions: every crafted payload the position readers must refuse cheaply (issue 36),
for the engine's tests and the server's (import `payloads()`).

`payloads()` maps a name to what a client would send: a text (a position's JSON or a share code,
as posted) or an object (a position already parsed, as a record holds one). Each must load,
through `load()` (what every entry point does: `parse` for a text, then the game's
`from_position`), within a small time and memory bound, as a state or a `BadPosition`, never
another exception. `ACCEPTED` names the payloads that are legal positions (the control group);
every other one is refused.

Payloads are built from seeded games: the same on every run.
"""

from __future__ import annotations

import base64
import json
import random
import zlib
from collections.abc import Callable
from typing import Any

from eterna.core.game import GameState
from eterna.core.position import SHARE_PREFIX, parse, share_code
from eterna.core.registry import load_game

Payload = str | dict[str, Any]

ACCEPTED = frozenset({"eternitium-seat-control", "vale-whole-control", "eternity-seat-control"})


def load(payload: Payload) -> GameState:
    """What every entry point does with a posted position (BadPosition if it is refused)."""
    from eterna.core.errors import BadPosition

    position = parse(payload) if isinstance(payload, str) else payload
    if not isinstance(position, dict) or not isinstance(position.get("game"), str):
        raise BadPosition("a position is a JSON object with a 'game' id", field="game")
    if position["game"] not in ("eternity", "vale", "eternitium"):
        raise BadPosition("position game: unknown", field="game")
    return load_game(position["game"]).from_position(position)


def raw_share_code(text: str) -> str:
    """Any text as a share code (the JSON need not be valid, nor small once inflated)."""
    packed = zlib.compress(text.encode("utf-8"), 9)
    return SHARE_PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def played(game_id: str, players: int, seed: int, plies: int, **options: Any) -> GameState:
    """A game after `plies` random legal moves (fewer if it ends)."""
    state = load_game(game_id).new_game(players=players, seed=seed, options=options or None)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def _located_bomb(seat: int | None) -> dict[str, Any]:
    """Issue 36, High 1: `knowledge.located[s][card] = 1000000` for 8 cards of seats 0 and 2
    (each inside the old 1e6 limit): the old guess dealt 8 million cards to each pile."""
    position = played("eternitium", 3, 11, 40).to_position(seat)
    cards = ["droid", "portal-circle", "portal-square", "portal-triangle"]
    cards += ["portal-diamond", "data-analyser", "transporter", "laboratory"]
    for s in (0, 2):
        for card in cards:
            position["knowledge"]["located"][s][card] = 1_000_000
            position["knowledge"]["known"][s][card] = 1_000_000
    return position


def _solo(mission: int, seed: int, plies: int) -> dict[str, Any]:
    return played("eternitium", 1, seed, plies, mission=mission).to_position()


def _crafted_solo() -> dict[str, Payload]:
    """Solo Eternitium positions inconsistent in ways the old reader took (issue 36, Medium 2
    and Low 8): each made a search or a table fail later, or stick."""
    out: dict[str, Payload] = {}
    mission_swap = _solo(5, 388, 30)  # a reserve under mission 4's Portal deck: no move left
    mission_swap["options"]["mission"] = 4
    out["eternitium-solo-mission-swapped"] = mission_swap
    era = _solo(5, 7, 12)
    era["knowledge"]["era_known"][0] = {"circle": 3, "square": 3}  # more than face down
    out["eternitium-solo-era-known-excess"] = era
    bomb = _solo(0, 3, 9)
    bomb["knowledge"]["known"][0]["droid"] = 1_000_000
    bomb["knowledge"]["located"][0]["droid"] = 1_000_000
    out["eternitium-solo-located-bomb"] = bomb
    peek = _solo(0, 3, 9)
    peek["knowledge"]["peeks"] = [{"thief": 0, "victim": 0, "known": {}, "located": {}}]
    out["eternitium-solo-self-peek"] = peek
    late = _solo(0, 3, 9)
    late["turn"] = 500  # past the solo game's end, yet not over
    out["eternitium-solo-past-its-end"] = late
    foreign = _solo(0, 4, 6)
    foreign["ai_deck"] = ["giga-droid", *foreign["ai_deck"][1:]]
    out["eternitium-solo-ai-deck-foreign"] = foreign
    rows = _solo(0, 4, 6)
    rows["portal_row"] = ["portal-circle"]  # a Portal row without mission 4
    out["eternitium-solo-portal-row-without-mission"] = rows
    return out


def _rng_oddities() -> dict[str, Payload]:
    base = played("eternity", 3, 2, 5).to_position()
    out: dict[str, Payload] = {}
    for name, rng in [
        ("0x", "0x1"),
        ("underscore", "1_2"),
        ("spaces", " 12 "),
        ("sign", "+123456789abcdef"),
        ("fullwidth", "\uff11" * 16),
        ("long", "0" * 17),
        ("short", "ff"),
        ("huge", "f" * 5000),
        ("number", 12),  # a number, not a string
    ]:
        out[f"rng-{name}"] = {**base, "rng": rng}
    return out


def _big_numbers() -> dict[str, Payload]:
    """Integers past Python's 4,300-digit conversion limit (raw text and in a share code), and
    past any count a game has."""
    out: dict[str, Payload] = {}
    head = '{"format":"eterna-position","version":1,"game":"eternity","players":'
    out["integer-4301-digits"] = head + "9" * 4301 + "}"
    # 2.5 KB of share code inflating to 1.9 MB (issue 36, Medium 2)
    out["integer-in-share-code"] = raw_share_code(head + "1" + "0" * 1_900_000 + "}")
    out["integer-huge-object"] = {**played("eternity", 3, 2, 5).to_position(), "players": 10**5000}
    out["float-long"] = head + "3." + "1" * 5000 + "}"
    out["nan"] = head + "NaN}"
    out["infinity"] = head + "-Infinity}"
    trees = played("eternity", 3, 2, 5).to_position()
    trees["trees"] = [10**14, 0, 0]
    out["eternity-trees-huge"] = trees
    return out


def _sizes() -> dict[str, Payload]:
    out: dict[str, Payload] = {}
    out["json-5999-deep"] = "[" * 5999 + "]" * 5999
    deep: Any = 0
    for _ in range(5999):
        deep = [deep]
    out["object-5999-deep"] = {"format": "eterna-position", "game": "vale", "options": deep}
    # a 3.4 KB share code whose refusal once quoted all of its 1.9 MB
    out["share-code-echo"] = raw_share_code(json.dumps({"format": "x" * 1_900_000}))
    out["share-code-inflates-to-30-mb"] = raw_share_code(" " * 30_000_000)
    out["share-code-too-long"] = SHARE_PREFIX + "A" * 100_000
    out["share-code-truncated"] = share_code({"format": "eterna-position"})[:-6]
    out["text-too-long"] = " " * 300_000 + "{}"
    out["list-of-100000"] = {**played("vale", 2, 1, 3).to_position(), "log": [0] * 100_000}
    out["key-of-100000"] = {**played("vale", 2, 1, 3).to_position(), "k" * 100_000: 1}
    out["long-string-field"] = {**played("vale", 2, 1, 3).to_position(), "phase": "x" * 250_000}
    out["many-keys"] = {
        **played("vale", 2, 1, 3).to_position(),
        "options": {f"opt{i}": i for i in range(5000)},
    }
    many_unknown = played("eternity", 3, 2, 5).to_position()
    many_unknown.update({f"unknown-{i}-{'x' * 60}": 0 for i in range(1500)})
    out["many-unknown-keys"] = many_unknown
    return out


def _vale_steps() -> dict[str, Payload]:
    out: dict[str, Payload] = {}
    for name, step in [("5000-digits", "points:" + "9" * 5000), ("arabic", "points:\u0663")]:
        position = played("vale", 2, 1, 3).to_position()
        position["work"] = [{"step": step, "seat": 0}]
        out[f"vale-points-step-{name}"] = position
    return out


def _eternitium_counts() -> dict[str, Payload]:
    """Eternitium counts each in its old 1e6 bound, none checked against the piles."""
    out: dict[str, Payload] = {}
    base = played("eternitium", 3, 5, 30)
    for seat in (None, 1):
        position = base.to_position(seat)
        position["knowledge"]["era_deck_known"] = {"circle": 900_000}
        out[f"eternitium-era-deck-known-{'whole' if seat is None else 'seat'}"] = position
        tiers = base.to_position(seat)
        tiers["knowledge"]["unknown_tiers"][0] = [0, 900_000, 900_000]
        out[f"eternitium-unknown-tiers-{'whole' if seat is None else 'seat'}"] = tiers
    for seat in (None, 1):  # each count within the game's cards, but not within the pile
        inside = base.to_position(seat)
        inside["knowledge"]["located"][0] = {"droid": 2, "transporter": 1}
        inside["knowledge"]["known"][0] = {"droid": 2, "transporter": 1}
        out[f"eternitium-located-past-the-pile-{'whole' if seat is None else 'seat'}"] = inside
    whole = base.to_position()  # a known card of seat 0 located in its pile, where it is not
    card = next(c for c in whole["knowledge"]["known"][0] if c not in whole["discards"][0])
    whole["knowledge"]["located"][0] = {card: 1}
    out["eternitium-located-card-not-in-pile"] = whole
    box = base.to_position(1)
    box["box"] = {"droid": 900_000}
    out["eternitium-box-huge"] = box
    big_pile = base.to_position(1)
    big_pile["discards"][0] = ["?"] * 2000
    out["eternitium-pile-past-the-cards"] = big_pile
    reserve = base.to_position(1)
    reserve["portal_reserve"] = {"circle": 999_999}
    out["eternitium-reserve-huge"] = reserve
    return out


def payloads() -> dict[str, Payload]:
    """Every named payload, built afresh (a caller may change it)."""
    out: dict[str, Payload] = {
        "eternitium-located-bomb-seat": _located_bomb(1),
        "eternitium-located-bomb-whole": _located_bomb(None),
        "eternitium-seat-control": played("eternitium", 3, 11, 40).to_position(1),
        "vale-whole-control": played("vale", 2, 1, 3).to_position(),
        "eternity-seat-control": share_code(played("eternity", 4, 3, 9).to_position(2)),
    }
    builders: list[Callable[[], dict[str, Payload]]] = [
        _crafted_solo,
        _rng_oddities,
        _big_numbers,
        _sizes,
        _vale_steps,
        _eternitium_counts,
    ]
    for build in builders:
        out.update(build())
    return out
