"""The Eternity game object: identity, options (the digest's open questions) and new games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final

from eterna.core.agent import Agent
from eterna.core.game import Action, AgentParam, Game, JsonObject
from eterna.core.jsonvalue import JsonValue
from eterna.core.legacy import game_generator
from eterna.core.options import Option
from eterna.core.rng import RECORD_VERSION
from eterna.games.eternity.cards import (
    CARD_NAME,
    FAMILIES,
    HAND_SIZE,
    PLEDGES_PER_TRICK,
    TREE_TOKENS_IN_BOX,
    EternityAction,
    parse_action,
)
from eterna.games.eternity.deal import draw_deals, parse_setup
from eterna.games.eternity.state import EternityStart, EternityState

if TYPE_CHECKING:
    from eterna.core.encoding import Encoding

OPTIONS: dict[str, Option] = {
    opt.name: opt
    for opt in (
        Option(
            "next_round_leader",
            "rotate",
            "Who leads the first trick of rounds 2 and 3 (digest Q2). 'rotate': the opening "
            "lead passes one seat clockwise each round; 'last_trick_winner': whoever won the "
            "last trick; 'lowest_score': the lowest total so far (ties: clockwise from the "
            "previous opener).",
            choices=("rotate", "last_trick_winner", "lowest_score"),
        ),
        Option(
            "column_order",
            "fixed",
            "The left-to-right order of the trump tiles (digest Q4): 'fixed' for the whole "
            "game, or 'shuffle_each_round'.",
            choices=("fixed", "shuffle_each_round"),
        ),
        Option(
            "tree_supply",
            0,
            "Tree tokens available per round (digest Q6): 0 for an unlimited supply, or a cap "
            f"(the box holds {TREE_TOKENS_IN_BOX}) where a pledger takes only what is left.",
            minimum=0,
            maximum=1000,
        ),
        Option(
            "tie_break",
            "shared",
            "A tie for the highest total (digest Q8): 'shared' victory, or 'harmony_rounds': "
            "most rounds scored with the harmony bonus, then shared (not in any source).",
            choices=("shared", "harmony_rounds"),
        ),
    )
}


class Eternity(Game):
    id: ClassVar[str] = "eternity"
    name: ClassVar[str] = "Eternity"
    min_players: ClassVar[int] = 3
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
    ) -> EternityState:
        n = self.check_players(players)
        opts = self.resolve_options(options)
        columns, first_leader, deals = parse_setup(setup, n)
        seed = self.check_seed(seed)
        version = self.check_version(version)
        rng = game_generator(seed, version)
        if columns is None:  # §3: the tiles are laid in any order (Q4: kept all game)
            columns = list(range(len(FAMILIES)))
            rng.shuffle(columns)
        if first_leader is None:  # Q1: a random first player
            first_leader = rng.below(n)

        start = EternityStart(
            game=self,
            players=n,
            seed=seed,
            version=version,
            options=opts,
            setup=_plain(setup),
            deals=tuple(
                draw_deals(rng, n, columns, deals, 1, opts["column_order"] == "shuffle_each_round")
            ),
            first_leader=first_leader,
            hand_size=HAND_SIZE[n],
            max_pledges=PLEDGES_PER_TRICK[n],
            next=tuple((s + 1) % n for s in range(n)),  # Q3: clockwise
        )
        return EternityState(start)

    def from_position(self, position: object, *, narrate: bool = False) -> EternityState:
        """The state a position describes (docs/eternity.md#positions), or BadPosition."""
        from eterna.games.eternity.position import read_position

        return read_position(self, position, narrate)

    def parse_action(self, text: object) -> EternityAction:
        return parse_action(text)

    def action_words(self, action: Action) -> tuple[str, JsonObject]:
        act = action if isinstance(action, EternityAction) else parse_action(str(action))
        card = CARD_NAME[act.card]
        if act.pledge:
            return "eternity.action.pledge", {"card": card, "trees": act.trees}
        return "eternity.action.play", {"card": card}

    def make_heuristic(self, seed: int | None = None, **params: AgentParam) -> Agent:
        """Eternity's own heuristic agent (spec `heuristic`)."""
        from eterna.games.eternity.heuristic import EternityHeuristic

        return EternityHeuristic(seed=seed, **params)

    def search_defaults(self) -> dict[str, AgentParam]:
        from eterna.games.eternity.heuristic import EternityHeuristic

        return dict(EternityHeuristic.search_defaults)

    def encoding_class(self) -> type[Encoding]:
        from eterna.games.eternity.encoding import EternityEncoding

        return EternityEncoding


def _plain(setup: object) -> JsonValue:
    """A JSON-ready copy of the setup, kept verbatim for the record."""
    if setup is None:
        return None
    import json

    plain: JsonValue = json.loads(json.dumps(setup, default=dict))  # default: any other Mapping
    return plain


GAME: Final = Eternity()
