"""The Vale of Eternity game object: identity, options (the digest's open questions), new games."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar, Final

from eterna.core.agent import Agent
from eterna.core.game import Action, AgentParam, Game, JsonObject
from eterna.core.legacy import game_generator
from eterna.core.options import Option, option_word, option_words
from eterna.core.rng import RECORD_VERSION, Rng
from eterna.games.vale.artifacts import (
    CREATURES_ONLY,
    artifact_action_words,
    choose_glade,
    end_score,
    tiles_in_play,
)
from eterna.games.vale.cards import (
    ALL_CHOICES,
    CARD_NAME,
    CHOOSE,
    CLAIM,
    COLOURS,
    COPY,
    DISCARD,
    DISCARD_STONE,
    DONE,
    END_TURN,
    EXPANSIONS,
    PAYMENTS,
    PICK,
    PUT_ON_DECK,
    RECOVER,
    REMOVE,
    RESOLVE,
    SELL_,
    STARTING_POINTS,
    SUMMON,
    SUMMON_FREE,
    SWAP,
    TAKE,
    TAME,
    TARGET,
    ValeAction,
    cards_in_play,
    parse_action,
)
from eterna.games.vale.deal import parse_setup
from eterna.games.vale.state import ValeStart, ValeState

if TYPE_CHECKING:
    from eterna.core.encoding import Encoding

OPTIONS: dict[str, Option] = {
    opt.name: opt
    for opt in (
        Option(
            "dragon_attack_targets",
            "any",
            "Who Leviathan, Ember, Marina, Boulder and Gust may name (digest Q2): 'any' player "
            "with a card of the attacked family, yourself included (the literal wording), or "
            "'opponents' only.",
            choices=("any", "opponents"),
        ),
        Option(
            "young_spirit_area_limit",
            "required",
            "Young Forest Spirit's free summon (digest Q3): 'required' needs a free area slot; "
            "'ignored' lets the free card in even when the area is full.",
            choices=("required", "ignored"),
        ),
        Option(
            "free_summon_triggers",
            "fire",
            "Whether free summons (Young Forest Spirit, Dragon Egg) fire 'whenever you summon' "
            "permanents (digest Q4): 'fire' (Sylph gives its point; the stone-based ones give "
            "nothing since no stone is spent) or 'none'.",
            choices=("fire", "none"),
        ),
        Option(
            "exalted_recover",
            "copied",
            "Genie Exalted copying a 'Recover' effect (Imp, Undine, Mud Slime, Dandelion Spirit; "
            "digest Q11): 'copied' returns the copied card to hand; 'copier' returns Genie "
            "Exalted itself.",
            choices=("copied", "copier"),
        ),
        Option(
            "expansions",
            [],
            "The expansions played with the base game: [] the base game alone; ['artifacts'] "
            "plays The Vale of Eternity: Artifacts: its 28 creatures shuffled into the deck (98 "
            "cards), the artifact round before each hunt, and 80 points to end (see "
            "end_threshold; artifact_set 'creatures' plays the creatures alone). On the "
            "command line: -o expansions=artifacts.",
            kind=list,
            items=EXPANSIONS,
        ),
        Option(
            "swap_dragon_targets",
            "opponents",
            "Who Deepdive, Pyro, Whisper and Rockscale (Artifacts) may name for their swap "
            "(digest Q-C9): 'opponents' only (a swap with yourself does nothing, so with no "
            "opponent holding a card of the family the summon is refused), or 'any' player with "
            "a card of the family, yourself included (the two cards then only trade places).",
            choices=("opponents", "any"),
        ),
        Option(
            "allow_superfluous_payment",
            False,
            "Payments (digest Q15): False, a payment may not include a stone the cost does not "
            "need (one large stone is fine); True, any stones worth at least the cost.",
        ),
        Option(
            "artifact_set",
            "basic",
            "Which artifact tiles are in the glade (digest Q-A1, unverified): 'basic', the three "
            "2-player tiles, Seven-League Boots from 3 players and Golden Fleece at 4 (players "
            "+ 1 tiles); 'advanced', the same plus 3 tiles drawn from the other six; "
            f"'{CREATURES_ONLY}', no tiles at all: the Artifacts' 28 creatures alone, no "
            "artifact round, no shelter, and 60 points to end (digest Q-A9).",
            choices=("basic", "advanced", CREATURES_ONLY),
        ),
        Option(
            "end_threshold",
            0,
            "The score that ends the game after its round (digest Q-A9): 0 chooses it from "
            "the tiles, 80 with artifact tiles in play and 60 without (the base game, or the "
            "Artifacts' creatures alone); any other number is used as it is.",
            minimum=0,
            maximum=1000,
        ),
        Option(
            "artifact_block",
            "chosen",
            "The tile a player may not pick again next round (digest Q-A4): 'chosen', the tile "
            "picked this round, used or not; 'held', only a tile still held when the action "
            "phase ends (an action tile used and given back blocks nothing).",
            choices=("chosen", "held"),
        ),
        Option(
            "bought_area_limit",
            2,
            "How many extra areas a player may buy with tiles in a game (digest Q-A5): 2, or "
            "up to 10 for the reading with no limit.",
            minimum=0,
            maximum=10,
        ),
        Option(
            "thoth_same_stone",
            False,
            "Book of Thoth (digest Q-A7): False, two different stones one step each; True, the "
            "same stone may go up twice (red to purple).",
        ),
        Option(
            "ring_of_wishes",
            "again",
            "Ring of Wishes (digest Q-A8): 'again', the card it activates still resolves in "
            "the resolution phase; 'spent', that card counts as resolved this round.",
            choices=("again", "spent"),
        ),
    )
}


class Vale(Game):
    id: ClassVar[str] = "vale"
    name: ClassVar[str] = "The Vale of Eternity"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    declared_options: ClassVar[Mapping[str, Option]] = OPTIONS

    def new_game(
        self,
        players: object,  # each checked here, BadSetup naming it (core/game.py, Game.new_game)
        seed: object = None,
        options: object = None,
        setup: object = None,
        *,
        version: object = RECORD_VERSION,
    ) -> ValeState:
        n = self.check_players(players)
        opts = self.resolve_options(options)
        in_play = cards_in_play(option_words(opts, "expansions"))
        arts = tiles_in_play(opts)  # checks `expansions`
        fixed = parse_setup(setup, n, in_play, arts)
        seed = self.check_seed(seed)
        version = self.check_version(version)
        rng = game_generator(seed, version)  # the first player, then the opening deck
        first = fixed.first_player if fixed.first_player is not None else rng.below(n)
        placed = fixed.placed()
        rest = [c for c in in_play if c not in placed]
        # then the generator's state for the reshuffles (version 1: `seed + (k << 62)`, k = 0)
        if isinstance(rng, Rng):
            rng.deal(rest)
            stream = rng.state
        else:
            rng.shuffle(rest)
            stream = seed
        glade: tuple[int, ...] = ()
        if arts:  # after the deal, so a base game draws exactly as before
            glade, stream = choose_glade(
                n, option_word(opts, "artifact_set"), stream, fixed.glade, version
            )
        top = fixed.deck or []
        empty: tuple[tuple[int, ...], ...] = ((),) * n
        start = ValeStart(
            game=self,
            players=n,
            seed=seed,
            version=version,
            options=opts,
            setup=None if setup is None else json.loads(json.dumps(setup)),
            end_score=end_score(opts),
            stream=stream,
            first=first,
            round=fixed.round,
            deck=tuple(rest + top[::-1]),
            discard=tuple(fixed.discard or ()),
            hands=tuple(tuple(sorted(h)) for h in fixed.hands) if fixed.hands else empty,
            areas=tuple(map(tuple, fixed.areas)) if fixed.areas else empty,
            stones=tuple(k for row in fixed.stones for k in row)
            if fixed.stones
            else (0,) * (3 * n),
            scores=tuple(fixed.scores) if fixed.scores is not None else _starting_points(first, n),
            claimed=None if fixed.claimed is None else tuple(map(tuple, fixed.claimed)),
            revealed=None if fixed.revealed is None else tuple(sorted(fixed.revealed)),
            glade=glade,
            artifacts=fixed.artifacts,
        )
        return ValeState(start)

    def from_position(self, position: object, *, narrate: bool = False) -> ValeState:
        """The state a position describes (docs/vale.md#positions)."""
        from eterna.games.vale.position import read_position

        return read_position(self, position, narrate)

    def parse_action(self, text: object) -> ValeAction:
        return parse_action(text)

    def action_words(self, action: Action) -> tuple[str, JsonObject]:
        """`vale.action.<verb>` and its parameters: `card` (an id), `payment` (a {red, blue,
        purple} mapping), `target` (a seat), `stone` (a colour), `choice` (a `vale.choice`
        name)."""
        act = action if isinstance(action, ValeAction) else parse_action(str(action))
        kind = act.kind
        if kind in _CARD_VERBS:
            return f"vale.action.{_CARD_VERBS[kind]}", {"card": CARD_NAME[act.card]}
        if kind in (SUMMON, REMOVE):
            pay = PAYMENTS[act.pay]
            params: JsonObject = {"card": CARD_NAME[act.card]}
            if kind == SUMMON and not any(pay):
                return "vale.action.summon", params
            params["payment"] = dict(zip(COLOURS, pay, strict=True))
            return ("vale.action.summon_pay" if kind == SUMMON else "vale.action.remove"), params
        if kind == DISCARD_STONE:
            return "vale.action.discard_stone", {"stone": COLOURS[act.arg]}
        if kind == TARGET:
            return "vale.action.target", {"target": act.arg}
        if kind == CHOOSE:
            return "vale.action.choose", {"choice": ALL_CHOICES[act.arg]}
        if kind >= PICK:
            return artifact_action_words(act)
        if kind == END_TURN:
            return "vale.action.end_turn", {}
        if kind == DONE:
            return "vale.action.done", {}
        return super().action_words(act)

    def make_heuristic(self, seed: int | None = None, **params: AgentParam) -> Agent:
        """The Vale's own heuristic agent (spec `heuristic`)."""
        from eterna.games.vale.heuristic import ValeHeuristic

        # its keywords are named floats: a spec's other values are refused by the call itself
        make: Callable[..., Agent] = ValeHeuristic
        return make(seed=seed, **params)

    def search_defaults(self) -> dict[str, AgentParam]:
        from eterna.games.vale.heuristic import ValeHeuristic

        return dict(ValeHeuristic.search_defaults)

    def encoding_class(self) -> type[Encoding]:
        from eterna.games.vale.encoding import ValeEncoding

        return ValeEncoding


_CARD_VERBS: dict[int, str] = {
    CLAIM: "claim",
    SELL_: "sell",
    TAME: "tame",
    RESOLVE: "resolve",
    RECOVER: "recover",
    DISCARD: "discard",
    TAKE: "take",
    COPY: "copy",
    SUMMON_FREE: "summon_free",
    SWAP: "swap",
    PUT_ON_DECK: "put_on_deck",
}


def _starting_points(first: int, players: int) -> tuple[int, ...]:
    """§3.5: 1, 2, 3, 4 points from the first player clockwise."""
    scores = [0] * players
    for i in range(players):
        scores[(first + i) % players] = STARTING_POINTS[i]
    return tuple(scores)


GAME: Final = Vale()
