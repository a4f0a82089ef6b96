"""Properties of whole Eternity games under seeded random play (Hypothesis).

Hypothesis draws the player count, the seed, the options and the random choices; each property
then holds at every step of the game: length, conservation of cards, no leak of hidden hands,
refusals that change nothing, replays, determinization and clone independence.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eterna
from eterna.games.eternity.cards import ACTIONS

GAME = eterna.load_game("eternity")
HAND = {3: 10, 4: 10, 5: 8}
ALL_CARDS = [f"{family}-{value}" for family in ("earth", "sea", "sky") for value in range(1, 15)]
CARD_RE = re.compile(r"(?:earth|sea|sky)-\d+")  # \d+ is greedy: sea-1 never matches sea-14

# A few seconds per property: whole games are cheap, views at every step less so.
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOWER = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players_st = st.sampled_from([3, 4, 5])
seeds = st.integers(min_value=0, max_value=2**62 - 1)
options_st = st.fixed_dictionaries(
    {
        "next_round_leader": st.sampled_from(["rotate", "last_trick_winner", "lowest_score"]),
        "column_order": st.sampled_from(["fixed", "shuffle_each_round"]),
        "tree_supply": st.sampled_from([0, 1, 3, 18]),
        "tie_break": st.sampled_from(["shared", "harmony_rounds"]),
    }
)


def play(players: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Any]:
    """Every state of one seeded random game, start to end (the same object, mutated)."""
    state = GAME.new_game(players, seed=seed, options=options or {})
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_terminal:
            return
        state.apply(rng.choice(state.legal_actions()))


def snapshot(state: Any) -> str:
    n = state.players
    return json.dumps(
        {
            "views": [state.view(None)] + [state.view(s) for s in range(n)],
            "hands": [state.hand(s) for s in range(n)],
            "record": state.to_record(),
            "legal": [str(a) for a in state.legal_actions()],
            "current": state.current_player,
            "scores": state.scores,
            "winners": state.winners,
        },
        sort_keys=True,
    )


def family(card: str) -> str:
    return card.split("-")[0]


@FAST
@given(players=players_st, seed=seeds, options=options_st)
def test_game_lasts_three_rounds_of_hand_size_tricks(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    """§5.6/§8: 3 x hand-size tricks (3x10 at 3-4 players, 3x8 at 5), one decision per seat
    per trick: 3 x players x hand-size decisions."""
    hand = HAND[players]
    decisions = 0
    for state in play(players, seed, options):
        if state.is_terminal:
            break
        assert state.round == 1 + decisions // (players * hand)
        decisions += 1
    view = state.view(None)
    assert decisions == 3 * players * hand == len(state.to_record()["actions"])
    assert [sum(r["tricks"] for r in rnd) for rnd in view["round_results"]] == [hand] * 3
    assert state.scores == [sum(rnd[s]["points"] for rnd in view["round_results"])
                            for s in range(players)]  # fmt: skip
    assert state.winners and max(state.scores) == state.scores[state.winners[0]]


def places(state: Any) -> Counter[str]:
    """Where every card is, from the hands and the spectator view (won tricks from the log)."""
    view = state.view(None)
    where: Counter[str] = Counter()
    for seat in range(state.players):
        where.update(state.hand(seat))
    for column in view["board"].values():
        where.update(column)
    where.update(view["display"])
    where.update(entry["card"] for entry in view["trick"])
    where.update(entry["card"] for entry in view["pledges"])
    pending: list[dict[str, Any]] = []
    completed = 0
    for entry in view["log"]:
        if "trick_won_by" in entry:
            # a finished trick: its played cards are the winner's island (its pledges are
            # already counted on the board)
            where.update(e["action"].split()[1] for e in pending if e["action"][:4] == "play")
            pending = []
            completed += 1
        else:
            pending.append(entry)
    # the log's unfinished trick is the view's current trick and pledges
    shown = [(e["seat"], "play " + e["card"]) for e in view["trick"]]
    shown += [(e["seat"], "pledge " + e["card"]) for e in view["pledges"]]
    assert sorted((e["seat"], e["action"]) for e in pending) == sorted(shown)
    assert sum(view["tricks"]) == completed
    return where


@FAST
@given(players=players_st, seed=seeds, options=options_st)
def test_every_card_in_exactly_one_place(players: int, seed: int, options: dict[str, Any]) -> None:
    """§3/§5.6: hands, board, display, the current trick and pledges, and won tricks hold
    each of the 42 cards exactly once, at every step."""
    for state in play(players, seed, options):
        where = places(state)
        assert sorted(where) == sorted(ALL_CARDS)
        assert set(where.values()) == {1}


def this_round(view: dict[str, Any]) -> dict[str, Any]:
    """The view without the previous round's last trick, which stays on show until the new
    round's first trick ends: its cards were public then and have been dealt again since."""
    if not any("trick_won_by" in entry for entry in view["log"]):
        assert view["last_trick"] is None or view["round"] > 1
        view = {k: v for k, v in view.items() if k != "last_trick"}
    return view


@SLOWER
@given(players=players_st, seed=seeds)
def test_no_view_names_another_seats_unplayed_card(players: int, seed: int) -> None:
    """Views: view(seat) never names a card still in another seat's hand, anywhere in its
    JSON text; the spectator's names no card in any hand."""
    for state in play(players, seed):
        hands = [set(state.hand(s)) for s in range(players)]
        named = set(CARD_RE.findall(json.dumps(this_round(state.view(None)))))
        assert not named & set().union(*hands)
        for seat in range(players):
            view = state.view(seat)
            assert view["hand"] == state.hand(seat)
            named = set(CARD_RE.findall(json.dumps(this_round(view))))
            hidden = set().union(*(hands[s] for s in range(players) if s != seat))
            assert not named & hidden


@SLOWER
@given(players=players_st, seed=seeds, data=st.data())
def test_refused_action_leaves_state_unchanged(players: int, seed: int, data: Any) -> None:
    """Any of the 84 actions not legal now raises IllegalAction naming a rule section and
    changes nothing; the game then plays on."""
    for step, state in enumerate(play(players, seed)):
        if step % 5:
            continue
        legal = set(state.legal_actions())
        illegal = [a for a in ACTIONS if a not in legal]
        before = snapshot(state)
        for action in data.draw(st.lists(st.sampled_from(illegal), max_size=3)):
            with pytest.raises(eterna.IllegalAction, match="rules §"):
                state.apply(action if data.draw(st.booleans()) else str(action))
            assert snapshot(state) == before


@FAST
@given(players=players_st, seed=seeds, text=st.text(max_size=20))
def test_arbitrary_text_is_bad_notation_or_an_action(players: int, seed: int, text: str) -> None:
    """Fuzzed notation: arbitrary text raises BadNotation or IllegalAction (never anything
    else) and leaves the state unchanged, unless it is a legal action's notation."""
    state = GAME.new_game(players, seed=seed)
    legal = {str(a) for a in state.legal_actions()}
    before = snapshot(state)
    try:
        state.apply(text)
    except (eterna.BadNotation, eterna.IllegalAction):
        assert snapshot(state) == before
    else:
        assert " ".join(text.lower().split()) in legal


@SLOWER
@given(players=players_st, seed=seeds, options=options_st)
def test_same_record_same_game(players: int, seed: int, options: dict[str, Any]) -> None:
    """Records: replaying a record reproduces every view at every step."""
    seen = []
    for state in play(players, seed, options):
        seen.append([state.view(s) for s in (None, *range(players))])
    record = json.loads(json.dumps(state.to_record()))
    replay = GAME.new_game(
        record["players"], seed=record["seed"], options=record["options"], setup=record["setup"]
    )
    for step, views in enumerate(seen):
        assert [replay.view(s) for s in (None, *range(players))] == views
        if step < len(record["actions"]):
            replay.apply(record["actions"][step])
    assert snapshot(GAME.from_record(record)) == snapshot(state) == snapshot(replay)


def void_tracker(players: int, seed: int, stop: int) -> tuple[Any, list[set[str]]]:
    """Play `stop` random decisions; return the state and each seat's revealed voids in the
    current round, worked out independently of the engine from the plays themselves."""
    state = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    voids: list[set[str]] = [set() for _ in range(players)]
    led = ""
    for count in range(stop):
        if state.is_terminal:
            break
        seat, trump = state.current_player, state.trump
        action = rng.choice(state.legal_actions())
        verb, card = str(action).split()
        if count % players == 0:  # every seat acts once per trick: this one leads
            led = family(card)
        elif verb == "play" and family(card) != led:
            voids[seat].add(led)
            if family(card) != trump:
                voids[seat].add(trump)
        rnd = state.round
        state.apply(action)
        if state.round != rnd:  # a new deal: nothing revealed yet
            voids = [set() for _ in range(players)]
    return state, voids


@FAST
@given(players=players_st, seed=seeds, stop=st.integers(0, 130), seat_pick=st.integers(0, 4))
def test_determinize_respects_what_the_seat_knows(
    players: int, seed: int, stop: int, seat_pick: int
) -> None:
    """determinize(seat, rng) keeps the seat's hand, every hand size, every public card and
    the pool of unseen cards, and never gives a seat a family it revealed a void in."""
    state, voids = void_tracker(players, seed, stop)
    seat = seat_pick % players
    others = [s for s in range(players) if s != seat]
    pool = sorted(c for s in others for c in state.hand(s))
    view = state.view(seat)
    for k in range(6):
        guess = state.determinize(seat, random.Random(k))
        assert guess.hand(seat) == state.hand(seat)
        assert [len(guess.hand(s)) for s in range(players)] == view["hand_sizes"]
        assert guess.view(seat) == view  # board, display, trick, pledges, log, counts
        assert sorted(c for s in others for c in guess.hand(s)) == pool
        for other in others:
            assert not {family(c) for c in guess.hand(other)} & voids[other], (other, voids)


def test_determinize_actually_resamples() -> None:
    """determinize draws different hands for the others (it does not return the truth)."""
    state = GAME.new_game(4, seed=1)
    deals = {
        tuple(tuple(state.determinize(0, random.Random(k)).hand(s)) for s in (1, 2, 3))
        for k in range(10)
    }
    assert len(deals) == 10


def test_determinize_redraws_future_deals() -> None:
    """The next rounds' deals are hidden too: a determinized state deals them afresh."""
    state = GAME.new_game(4, seed=2)
    rng = random.Random(2)
    while len(state.to_record()["actions"]) < 39:  # one decision before round 2
        state.apply(rng.choice(state.legal_actions()))
    last = state.legal_actions()[0]
    guesses = [state.determinize(0, random.Random(k)) for k in range(8)]
    state.apply(last)
    assert state.round == 2
    for guess in guesses:
        guess.apply(str(last))
        assert guess.round == 2
        assert guess.hand(0) != state.hand(0)


@FAST
@given(players=players_st, seed=seeds, stop=st.integers(0, 130))
def test_clone_is_independent(players: int, seed: int, stop: int) -> None:
    """clone(): playing the copy to the end leaves the original exactly as it was, and the
    other way round."""
    state, _ = void_tracker(players, seed, stop)
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    rng = random.Random(seed)
    while not twin.is_terminal:
        twin.apply(rng.choice(twin.legal_actions()))
    assert snapshot(state) == before
    if not state.is_terminal:
        twin = state.clone()
        state.apply(state.legal_actions()[-1])
        assert snapshot(twin) == before


@FAST
@given(
    players=players_st,
    seed=seeds,
    options=options_st,
    stop=st.integers(0, 130),
    limit=st.sampled_from([-1, 0, 1, 7, 40]),
)
def test_fast_random_playout_is_the_contract_loop(
    players: int, seed: int, options: dict[str, Any], stop: int, limit: int
) -> None:
    """Eternity's own `random_playout` (no action lists, playout.py) picks the k-th legal
    action from its tables: the same moves and the same draws as `GameState`'s loop over
    `legal_actions()`, from any position of any table (pledge caps, limited tree supply,
    follow/trump/any, the leader's turn, round ends)."""
    from eterna.core.game import GameState

    for step, state in enumerate(play(players, seed, options)):
        if step == stop or state.is_terminal:
            break
    fast, slow = state.clone(), state.clone()
    draws, twin = random.Random(seed), random.Random(seed)
    played = fast.random_playout(draws.random, limit)
    assert played == GameState.random_playout(slow, twin.random, limit)
    assert fast.to_record() == slow.to_record()
    assert fast.view(None) == slow.view(None)
    assert draws.getstate() == twin.getstate()
