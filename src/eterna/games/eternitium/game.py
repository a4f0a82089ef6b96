"""The Eternitium game object: identity, options and the setup of a new game (rules: Setup,
Game Preparation, Solo Mode, Solo Mode Special Missions)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from eterna.core.agent import Agent
from eterna.core.errors import BadSetup
from eterna.core.game import Action, AgentParam, Game, GameState, JsonObject
from eterna.core.options import Option, option_number, option_object
from eterna.core.rng import RECORD_VERSION
from eterna.games.eternitium.cards import (
    CARD_INDEX,
    DATA,
    NKINDS,
    PORTALS,
    SHAPES,
    V_ERA,
    V_KEEP,
    V_PLAY,
    EternitiumAction,
    card_name,
    default_composition,
    parse_action,
)
from eterna.games.eternitium.rules import make_rules
from eterna.games.eternitium.setup import parse_setup
from eterna.games.eternitium.state import EternitiumStart, EternitiumState

if TYPE_CHECKING:
    from eterna.core.encoding import Encoding

OPTIONS: dict[str, Option] = {
    opt.name: opt
    for opt in (
        Option(
            "mission",
            0,
            "Solo only: 0 plays the base solo game, 1-10 a Special Mission with its own setup "
            "and rules (rules: Solo Mode Special Missions).",
            minimum=0,
            maximum=10,
        ),
        Option(
            "composition",
            {},
            "Card counts that override the data file's defaults (docs/eternitium.md, "
            "'Composition'): technology ids give the copies in the market decks (droid: beside "
            "the 5 starting Droids), era-<shape> the Era cards of a shape, e.g. "
            "{'ultimate-portal': 4, 'laboratory': 1}.",
            kind=dict,
        ),
        Option(
            "double_portal_luck",
            False,
            "R6: may a Double Portal 'try its luck' on a hidden Era card? Default no (only a "
            "Portal card may).",
        ),
        Option(
            "basic_market_distinct",
            "technology",
            "Setup 4: 'the 3 Basic Technology cards must be different'. 'technology' (default): "
            "different technologies, so at most one Double Portal (the card list names one "
            "technology, Double Portal, in 6 copies); 'printed': different printed cards, so "
            "Double Portals of different pairs may sit side by side. Records written before "
            "this option replay with 'printed'.",
            choices=("technology", "printed"),
        ),
        Option(
            "round_limit",
            100,
            "Not a rule, a safety net for simulations (real games last far fewer rounds): "
            "end a multiplayer game after this many rounds even if nobody found the gem, "
            "everyone then ranked by technology points; 0: no limit.",
            minimum=0,
            maximum=100000,
        ),
    )
}


def check_composition(given: Mapping[str, object]) -> list[int]:
    """Market copies per card kind (portals: the whole 15), and Era cards per shape after."""
    counts = default_composition()
    for key, value in given.items():
        if key not in counts:
            raise BadSetup(f"option composition: unknown count {key!r}; known: {', '.join(counts)}")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 60:
            raise BadSetup(f"option composition: {key} must be a count 0..60, not {value!r}")
        counts[key] = value
    market = [0] * NKINDS
    for s in PORTALS:
        market[s] = int(DATA["portals"]["per_shape"])
    for key, value in counts.items():
        if key in CARD_INDEX:
            market[CARD_INDEX[key]] = value
    return market + [counts[f"era-{s}"] for s in SHAPES]


class Eternitium(Game):
    id: ClassVar[str] = "eternitium"
    name: ClassVar[str] = "Eternitium"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 5
    declared_options: ClassVar[Mapping[str, Option]] = OPTIONS

    def new_game(
        self,
        players: object,  # each checked here, BadSetup naming it (core/game.py, Game.new_game)
        seed: object = None,
        options: object = None,
        setup: object = None,
        *,
        version: object = RECORD_VERSION,
    ) -> EternitiumState:
        n = self.check_players(players)
        opts = self.resolve_options(options)
        mission = option_number(opts, "mission")
        if mission and n != 1:
            raise BadSetup("option mission is for the solo game (players=1) only")
        comp = check_composition(option_object(opts, "composition"))
        fixed = parse_setup(setup, n)
        seed = self.check_seed(seed)

        start = EternitiumStart(
            game=self,
            players=n,
            seed=seed,
            version=self.check_version(version),
            options=json.loads(json.dumps(opts)),
            setup=None if setup is None else json.loads(json.dumps(setup)),
            rules=make_rules(n, mission, opts),
            composition=tuple(comp),
            fixed=fixed,
        )
        return EternitiumState(start)

    def from_position(self, position: object, *, narrate: bool = False) -> EternitiumState:
        """The state a position describes (docs/eternitium.md, 'Positions'); BadPosition."""
        from eterna.games.eternitium.position import read_position

        return read_position(self, position, narrate)

    def from_record(self, record: Mapping[str, object]) -> GameState:
        """Game.from_record; a record lists every option its game resolved, so one without
        `basic_market_distinct` was written before the option existed, when the markets read
        "different" by printed card: it replays with 'printed' (docs/eternitium.md)."""
        if isinstance(record, Mapping) and record.get("position") is None:
            options = record.get("options") or {}
            if isinstance(options, Mapping) and "basic_market_distinct" not in options:
                record = {**record, "options": {**options, "basic_market_distinct": "printed"}}
        return super().from_record(record)

    def parse_action(self, text: object) -> EternitiumAction:
        return parse_action(text)

    def action_words(self, action: Action) -> tuple[str, JsonObject]:
        """`eternitium.action.<verb>` and its parameters: `card` (an id, blind picks too),
        `target` (a seat), `cards` (the Transporter's two), `chosen` (the card a Recycler
        Robot or a Laboratory takes), `shape` (the Era card taken)."""
        act = action if isinstance(action, EternitiumAction) else parse_action(str(action))
        verb = str(act).split(" ", 1)[0]
        if act.verb == V_ERA:
            return "eternitium.action.era", {"shape": SHAPES[act.shape]}
        if act.card < 0:  # end, skip, done, pass, keep none
            return f"eternitium.action.{'keep_none' if act.verb == V_KEEP else verb}", {}
        params: dict[str, Any] = {"card": card_name(act.card)}
        if act.verb != V_PLAY:
            return f"eternitium.action.{verb}", params
        if act.seat >= 0:
            return "eternitium.action.play_on", {**params, "target": act.seat}
        if act.card3 >= 0:
            cards = [card_name(act.card2), card_name(act.card3)]
            return "eternitium.action.play_discard", {**params, "cards": cards}
        if act.card2 >= 0:
            return "eternitium.action.play_with", {**params, "chosen": card_name(act.card2)}
        return "eternitium.action.play", params

    def make_heuristic(self, seed: int | None = None, **params: AgentParam) -> Agent:
        """Eternitium's own heuristic agent (spec `heuristic`)."""
        from eterna.games.eternitium.heuristic import EternitiumHeuristic

        return EternitiumHeuristic(seed=seed, **params)

    def search_defaults(self) -> dict[str, AgentParam]:
        from eterna.games.eternitium.heuristic import EternitiumHeuristic

        return dict(EternitiumHeuristic.search_defaults)

    def encoding_class(self) -> type[Encoding]:
        from eterna.games.eternitium.encoding import EternitiumEncoding

        return EternitiumEncoding


GAME: Final = Eternitium()
