"""Eternity's rules engine. Section numbers (§) refer to shared/reference/eternity/rules.md,
reproduced in docs/eternity.md.

Hot path: `legal_actions`, `apply` and `clone` use only ints, bit masks and short lists.
Views, logs and error messages are built only when asked for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final, Self

from eterna.core.errors import IllegalAction
from eterna.core.events import Event
from eterna.core.fields import Copied
from eterna.core.game import JsonObject, Record
from eterna.core.options import option_number, option_word
from eterna.core.state import BaseState, GameStart
from eterna.games.eternity.cards import (
    CARD_FAMILY,
    CARD_NAME,
    FAMILIES,
    HARMONY_BONUS,
    PLAY_ROWS,
    PLAYS_EARTH,
    PLAYS_SEA,
    PLAYS_SKY,
    PLEDGES_EARTH,
    PLEDGES_SEA,
    PLEDGES_SKY,
    ROUNDS,
    EternityAction,
    join_chunks,
    names_of,
)
from eterna.games.eternity.deal import RoundDeal
from eterna.games.eternity.story import tell_board, tell_round_start, tell_trick
from eterna.games.eternity.views import (
    EternityRoundResult,
    EternityView,
)

# Final: the compiled build reads these as static values, not through the module's dict
_NF: Final = len(FAMILIES)  # hands are stored as _NF chunks per seat: _hands[seat * _NF + family]
_TRUMP_BONUS: Final = 64  # a trump outranks every card of the led family (§5.5)


def must_follow(hands: list[int], b: int, led: int, trump: int) -> int:
    """§5.3 participate: the family a follower must play, or -1 when any card may be played.

    The led family (`led` >= 0: callers ask only of a follower, a leader plays any card, §5.2)
    if the seat holds any, else trump if it holds any, else -1. `hands[b + f]` is the seat's
    chunk of family f. The one statement of the rule: `apply` (through `_apply_if_legal`)
    calls it; `legal_actions` and the random playout hold its fast form, generated from it
    (core/inline.py: the call cost them 300-500 instructions a follower's move on the pure
    build, 2% of the contract loop; docs/performance.md).
    """
    return led if hands[b + led] else trump if hands[b + trump] else -1


@dataclass(frozen=True, slots=True, kw_only=True)
class EternityStart(GameStart):
    """What a game of Eternity never changes: the table and every round's deal."""

    deals: tuple[RoundDeal, ...]  # drawn at the start (the future is hidden state like a deck)
    first_leader: int
    hand_size: int
    max_pledges: int
    next: tuple[int, ...]  # the seat after each seat, clockwise (Q3)
    # Loaded from a position: how many history entries came with it (position.py), not played
    preplayed: int = 0

    def with_deals(self, deals: tuple[RoundDeal, ...]) -> EternityStart:
        """`dataclasses.replace(self, deals=deals)`, written out: every determinization makes
        one, and `replace` (interpreted on both builds) costs 19 us where this costs 10 us pure
        (a test checks every field is carried)."""
        return EternityStart(
            game=self.game,
            players=self.players,
            seed=self.seed,
            options=self.options,
            setup=self.setup,
            version=self.version,
            position=self.position,
            deals=deals,
            first_leader=self.first_leader,
            hand_size=self.hand_size,
            max_pledges=self.max_pledges,
            next=self.next,
            preplayed=self.preplayed,
        )


def winners_of(scores: list[int], bonus_rounds: list[int], tie_break: str) -> list[int]:
    """The seats with the best score (§8), the tie broken by harmony rounds if asked."""
    best = max(scores)
    tied = [s for s in range(len(scores)) if scores[s] == best]
    if len(tied) > 1 and tie_break == "harmony_rounds":
        most = max(bonus_rounds[s] for s in tied)
        tied = [s for s in tied if bonus_rounds[s] == most]
    return tied


class EternityState(BaseState[EternityAction, EternityStart]):
    """A game of Eternity. Build one with `load_game("eternity").new_game(...)`.

    It plays through BaseState's `apply`; `legal_actions` and `_apply_if_legal` (the test and
    the step) are written here from the bit masks rather than through a cached legal tuple: they
    are the hot loop of every search and simulation, and a few bit tests are cheaper than
    building and searching it.
    """

    action_type: ClassVar[type[EternityAction]] = EternityAction
    not_an_action: ClassVar[str] = (
        "is not an Eternity action: pass an action from legal_actions() "
        "or its notation, e.g. 'play sea-3'"
    )

    _round_leaders: Copied[list[int]]
    # _start.hand_size, .max_pledges and .next, read in the hot loop
    _hand_size: int
    _max_pledges: int
    _next: tuple[int, ...]
    _col_order: tuple[int, ...]
    _hands: Copied[list[int]]  # _NF chunks per seat: _hands[seat * _NF + family]
    _board: Copied[list[int]]
    _board_mask: int
    _display: int
    _trump: int
    _round: int
    _trick_no: int
    _first_leader: int
    _round_leader: int
    _trick_leader: int
    _led: int
    _pledges_left: int
    _best_key: int
    _best_seat: int
    # Every action of the game, without seats: every seat acts once per trick, so trick k is
    # _history[k * _n : (k + 1) * _n], led by the previous trick's winner or the round's leader.
    _trick_winners: Copied[list[int]]
    _tricks: Copied[list[int]]
    _trees: Copied[list[int]]
    _scores: Copied[list[int]]
    _bonus_rounds: Copied[list[int]]
    _round_results: Copied[list[list[EternityRoundResult]]]  # inner lists never change
    _round_start: int
    _voids: Copied[list[int]]
    _supply_left: int

    # Generated from the fields declared above by `make fields` (core/fields.py):
    # do not edit; edit the declaration and run it again.
    __slots__ = (
        "_best_key",
        "_best_seat",
        "_board",
        "_board_mask",
        "_bonus_rounds",
        "_col_order",
        "_display",
        "_first_leader",
        "_hand_size",
        "_hands",
        "_led",
        "_max_pledges",
        "_next",
        "_pledges_left",
        "_round",
        "_round_leader",
        "_round_leaders",
        "_round_results",
        "_round_start",
        "_scores",
        "_supply_left",
        "_trees",
        "_trick_leader",
        "_trick_no",
        "_trick_winners",
        "_tricks",
        "_trump",
        "_voids",
    )

    def clone(self) -> Self:
        """An independent copy: each field as its declaration says."""
        new = super().clone()
        new._round_leaders = self._round_leaders.copy()
        new._hand_size = self._hand_size
        new._max_pledges = self._max_pledges
        new._next = self._next
        new._col_order = self._col_order
        new._hands = self._hands.copy()
        new._board = self._board.copy()
        new._board_mask = self._board_mask
        new._display = self._display
        new._trump = self._trump
        new._round = self._round
        new._trick_no = self._trick_no
        new._first_leader = self._first_leader
        new._round_leader = self._round_leader
        new._trick_leader = self._trick_leader
        new._led = self._led
        new._pledges_left = self._pledges_left
        new._best_key = self._best_key
        new._best_seat = self._best_seat
        new._trick_winners = self._trick_winners.copy()
        new._tricks = self._tricks.copy()
        new._trees = self._trees.copy()
        new._scores = self._scores.copy()
        new._bonus_rounds = self._bonus_rounds.copy()
        new._round_results = self._round_results.copy()
        new._round_start = self._round_start
        new._voids = self._voids.copy()
        new._supply_left = self._supply_left
        return new

    # End of the generated part.

    # BaseState.apply, written by `make fields` (core/fields.py):
    # do not edit; edit BaseState.apply and run it again.
    def apply(self, action: object) -> None:
        act: EternityAction = (
            action if type(action) is self._action_type else self._coerce(action)  # type: ignore[assignment]
        )
        history = self._history
        history.append(act)  # recorded first: a step reads the trick it ends from the history
        if not self._apply_if_legal(act):
            history.pop()
            raise self._refusal(act)

    # End of the written shell.

    def __init__(self, start: EternityStart | None = None, narrate: bool = False) -> None:
        super().__init__(start, narrate)
        if start is None:  # a blank (BaseState.__init__)
            return
        self._round_leaders = []
        self._hand_size = start.hand_size
        self._max_pledges = start.max_pledges
        self._next = start.next
        self._round = 1
        self._first_leader = start.first_leader
        self._led = -1
        self._best_key = -1
        self._best_seat = -1
        self._pledges_left = start.max_pledges
        self._trick_winners = []
        self._scores = [0] * start.players
        self._bonus_rounds = [0] * start.players
        self._round_results = []
        self._start_round(start.first_leader)

    # ------------------------------------------------------------------ contract: reading
    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def round(self) -> int:
        return self._round

    @property
    def trump(self) -> str:
        return FAMILIES[self._trump]

    def hand(self, seat: int) -> list[str]:
        """A seat's hand, for tests and tools that own the whole state (never for agents)."""
        return names_of(self._hand_mask(seat))

    def _hand_mask(self, seat: int) -> int:
        return join_chunks(self._hands[seat * _NF : seat * _NF + _NF])

    @property
    def history(self) -> list[EternityAction]:
        return self._history[self._start.preplayed :]

    # ------------------------------------------------------------------ positions
    def to_position(self, seat: object = None) -> JsonObject:
        from eterna.games.eternity.position_write import write_position

        return write_position(self, self.check_audience(seat))

    def to_record(self) -> Record:
        record = super().to_record()
        actions = record["actions"]
        assert isinstance(actions, list)  # the base writes a list
        del actions[: self._start.preplayed]  # they came with the position
        return record

    def _told_story(self) -> list[Event]:
        start = self._start
        if not start.preplayed or self._determinized:
            return super()._told_story()
        assert start.position is not None  # a game with preplayed actions came from a position
        told = start.game.from_position(start.position, narrate=True)
        assert isinstance(told, EternityState) and told._events is not None
        for action in self._history[start.preplayed :]:
            told.apply(action)
        return told._events

    # ------------------------------------------------------------------ contract: hot path
    def legal_actions(self) -> list[EternityAction]:
        p = self._current
        if p < 0:
            return []
        hands = self._hands
        b = p * 3
        led = self._led
        if led < 0:  # §5.2: the leader plays any card and may not pledge
            return [*PLAYS_EARTH[hands[b]], *PLAYS_SEA[hands[b + 1]], *PLAYS_SKY[hands[b + 2]]]
        # fast form of must_follow(hands, b, led, self._trump), generated (core/inline.py)
        must = led if hands[b + led] else self._trump if hands[b + self._trump] else -1
        if must >= 0:
            if self._pledges_left:  # §5.3 pledge any card, §5.4 within the cap
                return [
                    *PLAY_ROWS[must][hands[b + must]],
                    *PLEDGES_EARTH[hands[b]],
                    *PLEDGES_SEA[hands[b + 1]],
                    *PLEDGES_SKY[hands[b + 2]],
                ]
            return list(PLAY_ROWS[must][hands[b + must]])
        # §5.3 a follower with neither family: any card
        if self._pledges_left:
            return [
                *PLAYS_EARTH[hands[b]],
                *PLAYS_SEA[hands[b + 1]],
                *PLAYS_SKY[hands[b + 2]],
                *PLEDGES_EARTH[hands[b]],
                *PLEDGES_SEA[hands[b + 1]],
                *PLEDGES_SKY[hands[b + 2]],
            ]
        return [*PLAYS_EARTH[hands[b]], *PLAYS_SEA[hands[b + 1]], *PLAYS_SKY[hands[b + 2]]]

    def random_playout(self, draw: Callable[[], float], limit: int = -1) -> int:
        # The contract's loop without action lists: the same draws, the same moves (playout.py)
        from eterna.games.eternity.playout import random_playout

        return random_playout(self, draw, limit)

    def _legal(self) -> tuple[EternityAction, ...]:
        return tuple(self.legal_actions())

    def _apply_if_legal(self, act: EternityAction) -> bool:
        """Play `act` if it is legal now (the base has recorded it) and return True; else return
        False having changed nothing. The test and the step in one method: they read the same
        seat, hand and family, and a second call (`_allows`) cost the pure build about 1,100
        instructions a move (docs/performance.md)."""
        p = self._current
        if p < 0:  # §8: the game is over
            return False
        family = act.family
        hands = self._hands
        i = p * 3 + family
        chunk = hands[i]
        vbit = act.vbit
        if not chunk & vbit:  # §5: a card from the hand
            return False
        led = self._led
        if act.pledge:  # §5.3-5.4: face down, for trees
            if led < 0 or not self._pledges_left:  # §5.2: not the leader; §5.4: within the cap
                return False
            trees = act.trees
            supply = self._supply_left
            if supply >= 0:  # option tree_supply: a limited supply (Q6)
                if trees > supply:
                    trees = supply
                self._supply_left = supply - trees
            # x[i] = x[i] op v rather than x[i] op= v on list items: native reads and writes
            # when compiled (perf showed the generic in-place operators here; docs/compiled.md)
            held = self._trees
            held[p] = held[p] + trees
            self._pledges_left -= 1
            if self._events is not None:
                self._events.append(
                    Event("card_pledged", {"seat": p, "card": CARD_NAME[act.card], "trees": trees})
                )
        else:  # §5.5: to the trick
            trump = self._trump
            key = act.value
            if led < 0:
                self._led = family
            elif family != led:  # §5.3: only if the seat holds no card of the led family...
                must = must_follow(hands, i - family, led, trump)
                voids = self._voids
                if family == trump:
                    if must == led:
                        return False
                    voids[p] = voids[p] | (1 << led)
                else:  # ...nor trump; a card of a third family never wins (§5.5)
                    if must >= 0:
                        return False
                    voids[p] = voids[p] | (1 << led) | (1 << trump)
                    key = 0
            if family == trump:
                key += _TRUMP_BONUS
            if key > self._best_key:
                self._best_key = key
                self._best_seat = p
            if self._events is not None:
                self._events.append(Event("card_played", {"seat": p, "card": CARD_NAME[act.card]}))
        hands[i] = chunk ^ vbit
        p = self._next[p]
        if p == self._trick_leader:  # every seat has acted once, clockwise
            self._end_trick()
        else:
            self._current = p
        return True

    def _end_trick(self) -> None:
        """§5.5: highest trump, else highest of the led family, wins; §5.6: pledges to the
        board, trump re-evaluated (§4), the winner leads next."""
        winner = self._best_seat
        tricks = self._tricks
        tricks[winner] = tricks[winner] + 1
        if self._events is not None:
            tell_trick(self, winner)
        if self._pledges_left != self._max_pledges:
            board = self._board
            history = self._history
            for i in range(len(history) - self._n, len(history)):
                played = history[i]
                if played.pledge:
                    board[played.family] = board[played.family] + 1
                    self._board_mask |= played.bit
            trump = self._trump
            self._trump = self._compute_trump()
            self._pledges_left = self._max_pledges
            if self._events is not None:
                tell_board(self, trump)
        self._trick_winners.append(winner)
        self._led = -1
        self._best_key = -1
        self._trick_no += 1
        if self._trick_no == self._hand_size:
            self._end_round()
        else:
            self._trick_leader = self._current = winner

    # ------------------------------------------------------------------ trick and round flow
    def _compute_trump(self) -> int:
        # §4: most cards in its column; ties go to the leftmost column
        board = self._board
        order = self._col_order
        best = order[0]
        count = board[best]
        for i in range(1, len(order)):
            family = order[i]
            if board[family] > count:
                best, count = family, board[family]
        return best

    def _end_round(self) -> None:
        # §7: T > K scores 0; T == K scores T + bonus; T < K scores T
        bonus = self._game_bonus(self._round)
        results: list[EternityRoundResult] = []
        for seat in range(self._n):
            trees, tricks = self._trees[seat], self._tricks[seat]
            if trees > tricks:
                points = 0
            elif trees == tricks:
                points = trees + bonus
                self._bonus_rounds[seat] += 1
            else:
                points = trees
            self._scores[seat] += points
            results.append({"trees": trees, "tricks": tricks, "points": points})
        self._round_results.append(results)
        if self._events is not None:
            self._events.append(
                Event(
                    "round_scored",
                    {
                        "round": self._round,
                        "bonus": bonus,
                        "results": [
                            {
                                "trees": r["trees"],
                                "tricks": r["tricks"],
                                "points": r["points"],
                                "seat": s,
                            }
                            for s, r in enumerate(results)
                        ],
                        "scores": list(self._scores),
                    },
                )
            )
        if self._round == ROUNDS:  # §8: three rounds
            self._current = -1
            self.is_terminal = True
            self._trick_leader = -1
            self._winners = self._compute_winners()
            if self._events is not None:
                self._events.append(
                    Event("game_over", {"winners": list(self._winners), "scores": self.scores})
                )
            return
        self._round += 1
        self._start_round(self._next_round_leader())

    def _game_bonus(self, rnd: int) -> int:
        return HARMONY_BONUS[rnd - 1]

    def _next_round_leader(self) -> int:
        rule = self._start.options["next_round_leader"]
        n = self._n
        if rule == "last_trick_winner":
            return self._trick_winners[-1]
        if rule == "lowest_score":
            start = self._next[self._round_leader]
            seats = [(start + i) % n for i in range(n)]
            return min(seats, key=lambda s: self._scores[s])
        # Q2 default: the opening lead passes one seat clockwise each round
        return (self._first_leader + self._round - 1) % n

    def _compute_winners(self) -> list[int]:
        return winners_of(
            self._scores, self._bonus_rounds, option_word(self._start.options, "tie_break")
        )

    def _start_round(self, leader: int) -> None:
        """Lay out round `self._round`'s deal (§3) and hand the lead to `leader`."""
        deal = self._start.deals[self._round - 1]
        self._hands = list(deal.hands)
        self._col_order = deal.columns
        self._board = [0] * len(FAMILIES)
        self._board_mask = 0
        for card in deal.board:
            self._board[CARD_FAMILY[card]] += 1
            self._board_mask |= 1 << card
        self._display = deal.display
        self._trump = self._compute_trump()
        self._tricks = [0] * self._n
        self._trees = [0] * self._n
        self._voids = [0] * self._n
        self._trick_no = 0
        self._round_leader = self._trick_leader = self._current = leader
        self._round_leaders.append(leader)
        self._round_start = len(self._history)
        self._supply_left = option_number(self._start.options, "tree_supply") or -1
        if self._events is not None:
            tell_round_start(self, leader)

    def _seated(self, start: int, stop: int) -> list[tuple[int, EternityAction]]:
        """History entries start..stop-1 with the seat that took each."""
        n, per_round = self._n, self._start.hand_size
        history = self._history
        out: list[tuple[int, EternityAction]] = []
        j = start
        while j < stop:
            k = j // n  # the trick; its leader is the round's or the last trick's winner
            first = k * n
            leader = (
                self._round_leaders[k // per_round]
                if k % per_round == 0
                else self._trick_winners[k - 1]
            )
            end = min(stop, first + n)
            out += [((leader + i - first) % n, history[i]) for i in range(j, end)]
            j = end
        return out

    # ------------------------------------------------------------------ bad input, views, search
    def _refusal(self, action: EternityAction) -> IllegalAction:
        """Explain, naming the rule, why `action` is refused now (never on the hot path)."""
        from eterna.games.eternity.refusals import refusal

        return refusal(self, action)

    # The game's own view type: a TypedDict is a `View` (Mapping[str, object]), a legal override.
    def _view(self, seat: int | None) -> EternityView:
        from eterna.games.eternity.viewing import build_view

        return build_view(self, seat)

    def _determinize(self, seat: int, rng: random.Random) -> EternityState:
        """Resample every card `seat` cannot see, keeping hand sizes and revealed voids
        (viewing.py); later deals are redrawn."""
        from eterna.games.eternity.viewing import determinize

        return determinize(self, seat, rng)
