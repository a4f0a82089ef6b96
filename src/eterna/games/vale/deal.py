"""Reading the `setup` that fixes an exact position (format in docs/vale.md).

Every key is optional; what is left out comes from the seed:

    {"first_player": 0,                  # seat that is first player in the starting round
     "round": 3,                          # starting round (area limit = round)
     "scores": [1, 2],                    # default: 1, 2, 3, 4 from the first player (§3.5)
     "deck": ["kappa", "imp", ...],       # the top of the deck, top card first; the cards no
                                          # key places are shuffled in below them
     "discard": ["ifrit"],                # the discard pile, bottom card first
     "hands": [["agni"], []],             # one list per seat
     "areas": [["hestia"], []],           # one list per seat, in the order summoned
     "stones": [["red", "blue"], []],     # one list of colours per seat
     "revealed": ["kappa", "imp", ...],   # start in the hunting phase with these cards out
     "claimed": [["kappa"], []]}          # start in the action phase with these claims

With the Artifacts (option expansions ["artifacts"]) five more keys (docs/vale.md "Setup"):
"glade" (the tiles in play), "artifacts" (the tile each seat holds, or null), "blocked" (the
tile each seat may not pick), "shelters" (card lists per seat), "bought_areas" (per seat).

Without "claimed" or "revealed" the game starts with the hunting phase of `round`, revealing
from the top of the deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from eterna.core.errors import BadNotation, BadSetup
from eterna.core.frozen import Frozen
from eterna.core.jsonvalue import JsonValue
from eterna.games.vale.artifacts import SETUP_KEYS as ARTIFACT_KEYS
from eterna.games.vale.artifacts import ArtSetup, parse_artifact_setup
from eterna.games.vale.cards import (
    CARD_BY_NAME,
    CARD_NAME,
    CARD_SET,
    COLOUR_INDEX,
    PICKS,
    ROUNDS,
    SET_CARDS,
    STONE_LIMIT,
    card_id,
)

SETUP_KEYS: Final = (
    "first_player",
    "round",
    "scores",
    "deck",
    "discard",
    "hands",
    "areas",
    "stones",
    "revealed",
    "claimed",
)
HESTIA = CARD_BY_NAME["hestia"]


@dataclass(frozen=True, slots=True)
class Setup(Frozen):
    """What a setup fixes, card ids checked: each key None (or its default) when not given."""

    first_player: int | None = None
    round: int = 1
    scores: list[int] | None = None
    deck: list[int] | None = None  # top first
    discard: list[int] | None = None
    hands: list[list[int]] | None = None
    areas: list[list[int]] | None = None
    stones: list[list[int]] | None = None  # per seat: red, blue, purple counts
    revealed: list[int] | None = None
    claimed: list[list[int]] | None = None
    glade: tuple[int, ...] | None = None
    artifacts: ArtSetup | None = None

    def placed(self) -> set[int]:
        out: set[int] = set()
        for part in (self.deck, self.discard, self.revealed):
            out.update(part or ())
        for parts in (self.hands, self.areas, self.claimed, self._shelters()):
            for part in parts or ():
                out.update(part)
        return out

    def _shelters(self) -> list[list[int]] | None:
        return None if self.artifacts is None else [list(s) for s in self.artifacts.shelters]


NO_SETUP: Final = Setup()  # a game with no setup: everything from the seed


def _cards(value: JsonValue, where: str, in_play: frozenset[int]) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise BadSetup(f"setup {where} must be a list of card ids like 'kappa'")
    names = [c for c in value if isinstance(c, str)]  # every one (checked above)
    try:
        out = [card_id(c) for c in names]
    except BadNotation as exc:
        raise BadSetup(f"setup {where}: {exc}") from None
    for c in out:
        if c not in in_play:
            raise BadSetup(
                f"setup {where}: {CARD_NAME[c]} is a card of the {CARD_SET[c]} expansion, not in "
                f"this game (option expansions)"
            )
    return out


def _per_seat(value: JsonValue, players: int, where: str) -> list[JsonValue]:
    if not isinstance(value, list) or len(value) != players:
        raise BadSetup(f"setup {where} must hold one entry per seat ({players})")
    return value


def _int(value: JsonValue, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadSetup(f"setup {where} must be an integer from {low} to {high}, not {value!r}")
    return value


def parse_setup(
    setup: object,
    players: int,
    cards: tuple[int, ...] = SET_CARDS["base"],
    artifacts: bool = False,
) -> Setup:
    """The setup's keys read and checked; `cards` are the cards of this game's sets, and
    `artifacts` admits the artifact round's keys."""
    in_play = frozenset(cards)
    if setup is None:
        return NO_SETUP
    keys = SETUP_KEYS + ARTIFACT_KEYS if artifacts else SETUP_KEYS
    if not isinstance(setup, Mapping):
        raise BadSetup(f"setup must be an object with keys {', '.join(keys)}")
    unknown = sorted(set(setup) - set(keys))
    if unknown:
        raise BadSetup(
            f"unknown setup key(s) {', '.join(map(str, unknown))}; known: {', '.join(keys)}"
        )
    given: Mapping[str, JsonValue] = setup  # a JSON object: each value is checked as it is read
    glade, arts = parse_artifact_setup(given, players) if artifacts else (None, None)
    first_player = None
    if given.get("first_player") is not None:
        first_player = _int(given["first_player"], "first_player", 0, players - 1)
    round_ = 1
    if given.get("round") is not None:
        round_ = _int(given["round"], "round", 1, ROUNDS)
    scores = None
    if given.get("scores") is not None:
        scores = [
            _int(s, "scores", 0, 10**6) for s in _per_seat(given["scores"], players, "scores")
        ]
    piles: dict[str, list[int]] = {}  # deck, discard, revealed
    for key in ("deck", "discard", "revealed"):
        if given.get(key) is not None:
            piles[key] = _cards(given[key], key, in_play)
    rows: dict[str, list[list[int]]] = {}  # hands, areas, claimed
    for key in ("hands", "areas", "claimed"):
        if given.get(key) is not None:
            seats = _per_seat(given[key], players, key)
            rows[key] = [_cards(r, f"{key}[{s}]", in_play) for s, r in enumerate(seats)]
    stones = None
    if given.get("stones") is not None:
        stones = [
            _colours(row, s) for s, row in enumerate(_per_seat(given["stones"], players, "stones"))
        ]
    out = Setup(
        first_player=first_player,
        round=round_,
        scores=scores,
        deck=piles.get("deck"),
        discard=piles.get("discard"),
        hands=rows.get("hands"),
        areas=rows.get("areas"),
        stones=stones,
        revealed=piles.get("revealed"),
        claimed=rows.get("claimed"),
        glade=glade,
        artifacts=arts,
    )
    _check(out, players)
    return out


def _colours(row: JsonValue, seat: int) -> list[int]:
    """One seat's stones: red, blue and purple counts."""
    if not isinstance(row, list) or any(c not in COLOUR_INDEX for c in row):
        raise BadSetup(f"setup stones[{seat}] must be a list of colours red/blue/purple")
    counts = [0, 0, 0]
    for c in row:
        if isinstance(c, str):  # every one is a colour's name (checked above)
            counts[COLOUR_INDEX[c]] += 1
    return counts


def _check(out: Setup, players: int) -> None:
    """What the keys must agree on: one copy of each card (§2), areas within the round's
    limit, stones within the limit, one starting phase, the hunt's sizes."""
    seen: dict[int, int] = {}
    total = 0
    for part in (out.deck, out.discard, out.revealed):
        for c in part or ():
            seen[c] = seen.get(c, 0) + 1
            total += 1
    for parts in (out.hands, out.areas, out.claimed, out._shelters()):
        for part in parts or ():
            for c in part:
                seen[c] = seen.get(c, 0) + 1
                total += 1
    twice = sorted(CARD_NAME[c] for c, k in seen.items() if k > 1)
    if twice:
        raise BadSetup(
            f"setup places these cards more than once: {', '.join(twice)} (§2: one copy each)"
        )
    if out.areas:
        for s, area in enumerate(out.areas):
            limit = out.round + (out.artifacts.bought[s] if out.artifacts else 0)
            if len(area) > limit:
                raise BadSetup(
                    f"setup areas[{s}] holds {len(area)} cards; round {out.round} allows "
                    f"{limit} (§5.3.1)"
                )
    if out.stones:
        for s, counts in enumerate(out.stones):
            limit = STONE_LIMIT + (2 if out.areas and HESTIA in out.areas[s] else 0)
            if sum(counts) > limit:
                raise BadSetup(
                    f"setup stones[{s}]: {sum(counts)} stones, over the limit {limit} (§7)"
                )
    if out.revealed is not None and out.claimed is not None:
        raise BadSetup("setup gives both revealed (hunting phase) and claimed (action phase)")
    if out.revealed is not None and len(out.revealed) > PICKS * players:
        raise BadSetup(f"setup revealed holds at most {PICKS * players} cards (§4.1)")
    if out.claimed is not None:
        for s, cl in enumerate(out.claimed):
            if len(cl) > PICKS:
                raise BadSetup(f"setup claimed[{s}] holds at most {PICKS} cards (§4.2)")
