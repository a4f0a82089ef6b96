"""Eternitium's heuristic agent: a greedy racer that decides from the view and the legal actions.

Step 2 plays, in this order: Portals on a matching visible Era card, card draw, the reveal
cards when the top card is hidden, sure discards (Transporter, Ultimate Portal), attacks on the
leading opponent, then tries its luck with a Portal as the last play. It acquires technologies
while it has Era cards to spare and pays with the Era card its hand can match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from mypy_extensions import mypyc_attr

from eterna.core.agent import ViewAgent
from eterna.core.errors import EternaError
from eterna.core.game import Action, AgentParam, GameState, View
from eterna.games.eternitium.views import (
    EternitiumPolicyView,
    as_eternitium_policy_view,
    policy_view,
)

if TYPE_CHECKING:
    from eterna.games.eternitium.state import EternitiumState

DEFAULTS: dict[str, float] = {
    # acquire technology while holding at least this many Era cards
    "acquire_min_era": 4.0,
    # ... and Advanced technology while holding at least this many
    "advanced_min_era": 6.0,
    # skip step 2 when nothing can be played but a blind try, with this many cards or fewer
    "skip_hand": 0.0,
}

VALUE: dict[str, float] = {
    "ultimate-portal": 10,
    "transporter": 8,
    "laboratory": 7,
    "futuristic-smartphone": 6.5,
    "giga-droid": 6,
    "quantum-clock": 6,
    "time-bomb": 5,
    "recycler-robot": 5,
    "thieving-robot": 4.5,
    "droid": 4,
    "data-analyser": 3,
    "digital-wallet": 3,
    "temporal-blaster": 3.5,
    "blind-basic": 4.2,
    "blind-advanced": 6.5,
}


def _value(card: str) -> float:
    if card.startswith("double-portal"):
        return 5.0
    if card.startswith("portal-"):
        return 2.0
    return VALUE.get(card, 1.0)


def _valued(actions: list[str], word: int, most: bool) -> str:
    """The first action whose `word`-th word has the highest (`most`) or lowest `_value`:
    `max`/`min` with a key, written out (no lambda in the compiled class, docs/compiled.md)."""
    best = actions[0]
    best_value = _value(best.split()[word])
    for a in actions[1:]:
        v = _value(a.split()[word])
        if (v > best_value) if most else (v < best_value):
            best, best_value = a, v
    return best


def _steal_value(action: str) -> float:
    """`take <card>` from a victim's pile: never the other Robot back (two Robots could loop
    forever), else the card's value."""
    return -1.0 if action.endswith("robot") else _value(action[6:])


def _shapes_of(card: str) -> set[str]:
    if card.startswith("portal-"):
        return {card[7:]}
    if card.startswith("double-portal-"):
        return set(card[14:].split("-"))
    return set()


@mypyc_attr(native_class=False)  # an agent: a Python class (ViewAgent is one), its code compiled
class EternitiumHeuristic(ViewAgent):
    """Greedy: discard Era cards now, reveal before guessing, buy while Era cards are few."""

    name = "heuristic"
    # The ISMCTS agent's defaults with this heuristic as its rollout policy (a spec overrides
    # them; docs/agents.md): the race is only decided at the end (technology points are a
    # tie-break), so rollouts play to the end and count wins.
    search_defaults: ClassVar[dict[str, AgentParam]] = {
        "iterations": 300,
        "depth": 0,
        "reward": "win",
    }

    def __init__(self, seed: int | None = None, **params: AgentParam) -> None:
        super().__init__(seed)
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise EternaError(
                f"unknown parameter(s) for Eternitium's heuristic: {', '.join(unknown)}; "
                f"known: {', '.join(DEFAULTS)}"
            )
        values = dict(DEFAULTS)
        for key, value in params.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise EternaError(f"heuristic parameter {key} must be a number, not {value!r}")
            values[key] = float(value)
        self.params = values
        self._turn = -1
        self._played: list[str] = []  # this turn's plays: robots are played once per turn

    def act_state(self, state: GameState, seat: int, legal: list[Action]) -> Action:
        """The move `act(state.view(seat), legal)` would make, from the seat's part of the
        view only (`policy_view`: the keys this agent reads), for search rollouts, where the
        full view is most of a move's cost. The search calls it on its own determinizations,
        never on the real game."""
        return self._act(policy_view(cast("EternitiumState", state), seat), legal)

    def act(self, view: View, legal: list[Action]) -> Action:
        return self._act(as_eternitium_policy_view(view), legal)

    def _act(self, view: EternitiumPolicyView, legal: list[Action]) -> Action:
        """`act` on the keys this agent reads (a full view or `policy_view`'s part of it)."""
        if len(legal) == 1:
            only: Action = legal[0]
            return only
        try:  # the engine's actions carry their notation; `str` is the slower same thing
            by_text = {a.text: a for a in legal}
        except AttributeError:
            by_text = {str(a): a for a in legal}
        choice = self._choose(view, [*by_text])
        if choice not in by_text:
            choice = self.rng.choice(list(by_text))
        action: Action = by_text[choice]
        return action

    # ------------------------------------------------------------------ the decision
    def _choose(self, view: EternitiumPolicyView, legal: list[str]) -> str:
        phase = view["phase"]
        seat = view["seat"]
        assert seat is not None  # the view of a seat to move, never a spectator's
        hand: list[str] = view["hand"] or []
        era: list[str] = view["era"][seat]
        top = era[0] if era else None
        if phase in ("pick", "gift"):
            return _valued(legal, 1, most=True)
        if phase == "portal":
            return self._portal(legal, hand, era)
        if phase == "play":
            if view["turn"] != self._turn:
                self._turn = view["turn"]
                self._played = []
            played = self._played
            once = (
                [a for a in legal if not any(a.startswith(p) for p in played)] if played else legal
            )
            choice = self._play(view, once or legal, hand, era)
            if "robot" in choice:
                self._played.append(" ".join(choice.split()[:2]))
            return choice
        if phase == "acquire":
            return self._acquire(view, legal, hand, era)
        if phase == "era":
            return self._era(legal, hand)
        if phase == "steal":
            best = legal[0]  # the first of the most valued (max with a key, written out)
            best_value = _steal_value(best)
            for a in legal[1:]:
                v = _steal_value(a)
                if v > best_value:
                    best, best_value = a, v
            return best
        if phase in ("destroy", "skipped", "data-analyser"):
            return self._shed(phase, legal, hand, top)
        return self.rng.choice(legal)

    def _portal(self, legal: list[str], hand: list[str], era: list[str]) -> str:
        held = set()
        for c in hand:
            held |= _shapes_of(c)
        for shape in era[:3]:
            want = f"take portal-{shape}"
            if shape != "hidden" and shape not in held and want in legal:
                return want
            if shape != "hidden":
                held.discard(shape)
        missing = [a for a in legal if a.split("-")[-1] not in held]
        return self.rng.choice(missing or legal)

    def _play(
        self, view: EternitiumPolicyView, legal: list[str], hand: list[str], era: list[str]
    ) -> str:
        """The play phase: the first of, in order, a play towards the top Era card, an
        attack, a development, a blind try at a hidden Era card; else end the step."""
        top = era[0] if era else None
        plays = [a for a in legal if a.startswith("play ")]
        if not plays:
            return "end" if "end" in legal else legal[0]
        chosen = (
            self._era_play(plays, top, era)
            or self._attack(view, plays, top)
            or self._development(plays, top, era, hand)
        )
        if chosen is not None:
            return chosen
        if top == "hidden":
            tries = [a for a in plays if a.startswith("play portal-")]
            if tries:
                if "skip" in legal and len(hand) <= self.params["skip_hand"]:
                    return "skip"
                return self.rng.choice(tries)
        return "end" if "end" in legal else self.rng.choice(plays)

    def _era_play(self, plays: list[str], top: str | None, era: list[str]) -> str | None:
        """A play that pays for, reveals or carries the top Era card, if there is one."""
        if top is not None and top != "hidden":
            for prefix in (f"play portal-{top}", "play double-portal"):
                for a in plays:
                    if a.startswith(prefix) and top in _shapes_of(a.split()[1]):
                        return a
        if "play futuristic-smartphone" in plays:
            return "play futuristic-smartphone"
        if top == "hidden":
            for name in ("play droid", "play giga-droid"):
                if name in plays:
                    return name
        if top is None:
            return None
        if "play ultimate-portal" in plays and (top == "hidden" or len(era) <= 2):
            return "play ultimate-portal"
        transports = [a for a in plays if a.startswith("play transporter discard")]
        if not transports:
            return None
        # The first of the cheapest: min with a key, written out (mypyc cannot compile a lambda
        # in a method of this interpreted-base class: an internal error)
        best = transports[0]
        least = self._loss(best.split()[3:], top)
        for a in transports[1:]:
            loss = self._loss(a.split()[3:], top)
            if loss < least:
                best, least = a, loss
        return best

    def _development(
        self, plays: list[str], top: str | None, era: list[str], hand: list[str]
    ) -> str | None:
        """A Laboratory, a Recycler worth it, a Digital Wallet or a Data Analyser."""
        labs = [a for a in plays if a.startswith("play laboratory")]
        if labs:
            return _valued(labs, -1, most=True)
        recycles = [  # never a Recycler for a Recycler: two of them would loop forever
            a
            for a in plays
            if a.startswith("play recycler-robot ") and not a.endswith(" recycler-robot")
        ]
        if recycles:  # the first of the most valued (max with a key, written out: as above)
            best = recycles[0]
            best_value = self._recycle_value(best.split()[-1], top)
            for a in recycles[1:]:
                v = self._recycle_value(a.split()[-1], top)
                if v > best_value:
                    best, best_value = a, v
            if best_value >= 5:
                return best
        if "play digital-wallet" in plays and len(era) >= self.params["acquire_min_era"]:
            return "play digital-wallet"
        if "play data-analyser" in plays and any(
            c.startswith("portal-") and c[7:] != top for c in hand
        ):
            return "play data-analyser"
        return None

    def _attack(self, view: EternitiumPolicyView, plays: list[str], top: str | None) -> str | None:
        """A play against the opponents (the leader first), if one is worth it."""
        others = self._opponents(view)
        if not others:
            return None
        counts = view["era_counts"]
        leader = others[0]  # the first with the fewest Era cards left
        for s in others[1:]:
            if counts[s] < counts[leader]:
                leader = s
        if "play quantum-clock" in plays:
            return "play quantum-clock"
        if "play time-bomb" in plays and any(
            c != "hidden" for s in others for c in view["era"][s][:3]
        ):
            return "play time-bomb"
        steal = f"play thieving-robot seat-{leader}"
        if steal in plays and view["discard_sizes"][leader] >= 3:
            return steal
        if "play giga-droid" in plays and top is not None:
            return "play giga-droid"
        return None

    @staticmethod
    def _loss(cards: list[str], top: str) -> float:
        return sum(
            (8.0 if top in _shapes_of(c) else _value(c) if not c.startswith("portal-") else 1.0)
            for c in cards
        )

    @staticmethod
    def _recycle_value(card: str, top: str | None) -> float:
        if top is not None and top in _shapes_of(card):
            return 9.0
        return _value(card)

    @staticmethod
    def _opponents(view: EternitiumPolicyView) -> list[int]:
        seat = view["seat"]
        return [s for s in range(view["players"]) if s != seat and view["era_counts"][s]]

    def _acquire(
        self, view: EternitiumPolicyView, legal: list[str], hand: list[str], era: list[str]
    ) -> str:
        buys = [a for a in legal if a.startswith("acquire ")]
        if not buys or len(era) < self.params["acquire_min_era"]:
            return "pass"
        others = self._opponents(view)
        if others and min(view["era_counts"][s] for s in others) <= 3:
            return "pass"  # the race is nearly over: Era cards cost too much now
        advanced = set(view["advanced_row"]) | {"blind-advanced"}
        too_few = len(era) < self.params["advanced_min_era"]
        best, best_score = "pass", 0.0  # the first of the best buys worth more than nothing
        for a in buys:
            card = a.split()[1]
            score = -1.0 if too_few and card in advanced else _value(card)
            if score > best_score:
                best, best_score = a, score
        return best

    @staticmethod
    def _era(legal: list[str], hand: list[str]) -> str:
        held = set()
        for c in hand:
            held |= _shapes_of(c)
        matching = [a for a in legal if a.split()[1] in held]
        return matching[0] if matching else legal[0]

    def _shed(self, phase: str, legal: list[str], hand: list[str], top: str | None) -> str:
        if phase == "data-analyser":
            discards = [
                a
                for a in legal
                if a.startswith("discard portal-") and (top is None or a[15:] != top)
            ]
            return discards[0] if discards else "done"
        if phase == "destroy":
            return _valued(legal, 1, most=False)
        keeps = [a for a in legal if a.startswith("keep ") and a != "keep none"]
        if keeps:
            best = keeps[0]  # the first of the most valued (max with a key, written out)
            best_value = self._recycle_value(best.split()[1], top)
            for a in keeps[1:]:
                v = self._recycle_value(a.split()[1], top)
                if v > best_value:
                    best, best_value = a, v
            return best
        return "keep none" if "keep none" in legal else legal[0]
