"""The Vale of Eternity game object: identity, options (the digest's open questions), new games."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from eterna.core.agent import Agent
from eterna.core.game import Game
from eterna.core.options import Option
from eterna.games.vale.cards import DECK_SIZE, FAMILIES, STARTING_POINTS, ValeAction, parse_action
from eterna.games.vale.deal import parse_setup
from eterna.games.vale.state import ACTION, HUNT, ValeState

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
            "allow_superfluous_payment",
            False,
            "Payments (digest Q15): False, a payment may not include a stone the cost does not "
            "need (one large stone is fine); True, any stones worth at least the cost.",
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
        players: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> ValeState:
        n = self.check_players(players)
        opts = self.resolve_options(options)
        fixed = parse_setup(setup, n)
        seed = self.check_seed(seed)
        rng = random.Random(seed)  # shuffle 0: the first player, then the opening deck
        first = fixed.first_player if fixed.first_player is not None else rng.randrange(n)
        placed = fixed.placed()
        rest = [c for c in range(DECK_SIZE) if c not in placed]
        rng.shuffle(rest)
        top = fixed.deck or []

        st = object.__new__(ValeState)
        st._game = self
        st._n = n
        st._seed = seed
        st._options = opts
        st._setup = None if setup is None else json.loads(json.dumps(setup))
        st._round = fixed.round
        st._first = first
        st._turn = first
        st._current = first
        st._hands = [sorted(h) for h in fixed.hands] if fixed.hands else [[] for _ in range(n)]
        st._areas = [list(a) for a in fixed.areas] if fixed.areas else [[] for _ in range(n)]
        st._claimed = [list(c) for c in fixed.claimed] if fixed.claimed else [[] for _ in range(n)]
        st._revealed = []
        st._stones = [k for row in fixed.stones for k in row] if fixed.stones else [0] * (3 * n)
        st._value = [0] * (3 * n)
        st._limit = [0] * n
        st._cut = [0] * (len(FAMILIES) * n)
        if fixed.scores is not None:
            st._scores = list(fixed.scores)
        else:  # §3.5: 1, 2, 3, 4 points from the first player clockwise
            st._scores = [0] * n
            for i in range(n):
                st._scores[(first + i) % n] = STARTING_POINTS[i]
        st._deck = rest + top[::-1]
        st._discard = list(fixed.discard or [])
        st._shuffles = 0
        st._deck_top_known = -1
        st._secret = 0
        st._picks = ()
        st._pick_i = 0
        st._activated = 0
        st._work = []
        st._choice = None
        st._dirty = True
        st._legal = None
        st._history = []
        st._actors = []
        st._round_start = 0
        st._winners = []
        st._determinized = False
        st.is_terminal = False
        for seat in range(n):
            st._area_changed(seat)
        if fixed.claimed is not None:
            st._phase = ACTION
        elif fixed.revealed is not None:
            st._phase = HUNT
            st._revealed = sorted(fixed.revealed)
            order = [(first + i) % n for i in range(n)]
            st._picks = tuple(order + order[::-1])
        else:
            st._start_hunt()
        st._run()
        return st

    def parse_action(self, text: str) -> ValeAction:
        return parse_action(text)

    def make_heuristic(self, seed: int | None = None, **params: Any) -> Agent:
        """The Vale's own heuristic agent (spec `heuristic`)."""
        from eterna.games.vale.heuristic import ValeHeuristic

        return ValeHeuristic(seed=seed, **params)

    def search_defaults(self) -> dict[str, Any]:
        from eterna.games.vale.heuristic import ValeHeuristic

        return dict(ValeHeuristic.search_defaults)

    def encoding_class(self) -> type[Encoding]:
        from eterna.games.vale.encoding import ValeEncoding

        return ValeEncoding


GAME = Vale()
