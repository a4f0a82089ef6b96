"""The rules one game is played by: the base game's, changed by a solo Special Mission's flags in
the card data (data/cards.json, `missions`) and by the options that change play. The engine reads
`rules.must_play`, never a mission number (rules: Solo Mode Special Missions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from eterna.core.frozen import Frozen
from eterna.core.options import OptionValue, option_flag, option_number
from eterna.games.eternitium.cards import (
    CARD_NAME,
    ERA_DEALT,
    FIRST_HAND,
    MISSIONS,
    RESERVE_PER_PLAYER,
    SOLO_AI_KINDS,
    SOLO_TURNS,
    TECHNOLOGY,
)
from eterna.games.eternitium.typeddicts import EternitiumMission

# What makes two market cards "identical" (rules: Setup 4-5), per option basic_market_distinct:
# the technology (the six Double Portals are one), or the printed card (each pair its own).
SAME_BY_TECHNOLOGY: Final = TECHNOLOGY
SAME_BY_PRINT: Final = tuple(range(len(TECHNOLOGY)))


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules(Frozen):
    """What a mission or an option changes; the defaults are the base game's."""

    mission: int = 0  # the Special Mission played (0: none); shown in the view, never tested
    # the setup
    starting_droid: bool = True  # mission 2: the starting set has no Droid
    starting_portals_per_shape: int = 1  # mission 10: two of each shape
    first_hand: int = FIRST_HAND  # mission 2: 4
    reserve_per_shape: int | None = None  # None: RESERVE_PER_PLAYER per player
    era_dealt: int | None = None  # None: by player count (ERA_DEALT)
    portal_deck: bool = False  # mission 4: a face-down Portal deck, 3 revealed, not a reserve
    advanced_market: bool = True  # mission 1: no Advanced Technology market
    ai_deck: tuple[str, ...] = tuple(CARD_NAME[k] for k in SOLO_AI_KINDS)  # mission 1
    removed: tuple[str, ...] = ()  # mission 10: cards left in the box
    # play
    turns: int = SOLO_TURNS  # the solo game's length in turns (mission 3: 4)
    flip_era_each_turn: bool = False  # mission 5 (R10): reverse and turn the Era pile
    destroy_each_turn: bool = False  # mission 6: destroy a card before step 1
    add_era_each_turn: bool = False  # mission 7: a face-down Era card on top each turn
    paid_era_face_down: bool = False  # mission 8: Era cards paid go face down
    must_play: bool = False  # mission 9: play as many cards as possible, never skip
    # options
    luck_any: bool = False  # option double_portal_luck (R6 alternative)
    limit_rounds: int = 0  # option round_limit (0: none)
    same: tuple[int, ...] = SAME_BY_TECHNOLOGY  # option basic_market_distinct: kind -> identity

    def reserve(self, players: int) -> int:
        """Portal cards per shape in the reserve (rules: Setup 3)."""
        return (
            RESERVE_PER_PLAYER * players
            if self.reserve_per_shape is None
            else self.reserve_per_shape
        )

    def dealt(self, players: int) -> int:
        """Era cards dealt to each player (rules: Setup 6)."""
        return ERA_DEALT[players] if self.era_dealt is None else self.era_dealt


_FLAGS: Final = {
    "starting_droid": bool,
    "starting_portals_per_shape": int,
    "first_hand": int,
    "reserve_per_shape": int,
    "era_dealt": int,
    "portal_deck": bool,
    "advanced_market": bool,
    "turns": int,
    "flip_era_each_turn": bool,
    "destroy_each_turn": bool,
    "add_era_each_turn": bool,
    "paid_era_face_down": bool,
    "must_play": bool,
}


def make_rules(players: int, mission: int, options: Mapping[str, OptionValue]) -> Rules:
    """The rules of a game: a mission's flags apply to the solo game only."""
    entry: EternitiumMission = {"title": ""}  # the base game: no flag
    if players == 1 and mission in MISSIONS:
        entry = MISSIONS[mission]
    unknown = set(entry) - _FLAGS.keys() - {"title", "ai_deck", "removed"}
    if unknown:  # a flag the engine would not read
        raise ValueError(f"mission {mission}: unknown rule flag(s) {sorted(unknown)}")
    flags: Mapping[str, Any] = entry  # read by name from _FLAGS
    given: dict[str, Any] = {key: kind(flags[key]) for key, kind in _FLAGS.items() if key in flags}
    if "ai_deck" in entry:
        given["ai_deck"] = tuple(entry["ai_deck"])
    if "removed" in entry:
        given["removed"] = tuple(entry["removed"])
    return Rules(
        mission=mission if players == 1 else 0,
        luck_any=option_flag(options, "double_portal_luck"),
        limit_rounds=option_number(options, "round_limit"),
        same=SAME_BY_PRINT if options["basic_market_distinct"] == "printed" else SAME_BY_TECHNOLOGY,
        **given,
    )
