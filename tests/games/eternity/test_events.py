"""Eternity's events: what each rule makes happen, told to each seat (docs/events.md).

The position: 4 players, trump columns sea, earth, sky (left to right); the board starts with
sea-14 and sky-14, one card each, so the leftmost column, sea, is trump (rules §4). Seat 0 holds
earth 1-10, seat 1 sea 1-10, seat 2 sky 1-10, seat 3 earth 11-14, sea 11-13 and sky 11-13.
"""

from __future__ import annotations

import random
from typing import Any

import eterna
from eterna.games.eternity.cards import CARD_TREES, card_id

GAME = eterna.load_game("eternity")


def _range(family: str, low: int, high: int) -> list[str]:
    return [f"{family}-{v}" for v in range(low, high + 1)]


SETUP = {
    "columns": ["sea", "earth", "sky"],
    "first_leader": 0,
    "deals": [
        {
            "hands": [
                _range("earth", 1, 10),
                _range("sea", 1, 10),
                _range("sky", 1, 10),
                _range("earth", 11, 14) + _range("sea", 11, 13) + _range("sky", 11, 13),
            ],
            "board": ["sea-14", "sky-14"],
        }
    ],
}


def new_state() -> Any:
    state = GAME.new_game(4, seed=1, setup=SETUP)
    state.events_since(0, None)  # narrate from here
    return state


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["kind"] for e in events]


def test_rule_3_setup_a_round_starts_and_each_seat_is_dealt_its_hand() -> None:
    """§3: the round opens with its board and trump; each seat is told its own hand only."""
    state = new_state()
    events = state.events_since(0, 2)
    assert events[0] == {
        "kind": "round_started",
        "round": 1,
        "leader": 0,
        "board": ["sea-14", "sky-14"],
        "trump": "sea",
        "harmony_bonus": 2,
        "display": [],
    }
    dealt = [e for e in events if e["kind"] == "hand_dealt"]
    assert [e["seat"] for e in dealt] == [0, 1, 2, 3]
    assert dealt[2]["cards"] == _range("sky", 1, 10)
    assert all("cards" not in e for e in dealt if e["seat"] != 2)
    assert all("cards" not in e for e in state.events_since(0, None) if e["kind"] == "hand_dealt")


def test_rule_5_6_a_trick_is_won_pledges_join_the_board_and_the_trump_changes() -> None:
    """§5.3 play or pledge, §5.5 the trump wins, §5.6 pledges join the board, §4 new trump."""
    state = new_state()
    start = state.event_count()
    for move in ("play earth-1", "play sea-1", "pledge sky-1", "play earth-11"):
        state.apply(move)
    events = state.events_since(start, 0)
    assert events == [
        {"kind": "card_played", "seat": 0, "card": "earth-1"},
        {"kind": "card_played", "seat": 1, "card": "sea-1"},
        {"kind": "card_pledged", "seat": 2, "card": "sky-1", "trees": CARD_TREES[card_id("sky-1")]},
        {"kind": "card_played", "seat": 3, "card": "earth-11"},
        {
            "kind": "trick_won",
            "seat": 1,
            "trick": 1,
            "cards": ["earth-1", "sea-1", "earth-11"],
            "tricks": 1,
        },
        {"kind": "pledges_to_board", "cards": ["sky-1"]},
        {"kind": "trump_changed", "trump": "sky", "previous_trump": "sea"},
    ]
    assert state.view(0)["trump"] == "sky"


def test_rule_q6_a_capped_tree_supply_gives_only_what_is_left() -> None:
    """Q6 option tree_supply: a pledger takes only the trees left, and the event says so."""
    state = GAME.new_game(4, seed=1, setup=SETUP, options={"tree_supply": 1})
    state.events_since(0, None)
    for move in ("play earth-1", "play sea-1", "pledge sky-10"):
        state.apply(move)
    pledged = state.events_since(0, 2)[-1]
    assert pledged == {"kind": "card_pledged", "seat": 2, "card": "sky-10", "trees": 1}


def test_rule_7_and_8_rounds_are_scored_and_the_game_ends_with_its_winners() -> None:
    """§7 scoring (trees against tricks, harmony bonus), §8 three rounds: the events carry the
    same figures as the views."""
    state = new_state()
    rng = random.Random(4)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    events = state.events_since(0, None)
    scored = [e for e in events if e["kind"] == "round_scored"]
    view = state.view(None)
    assert [e["round"] for e in scored] == [1, 2, 3]
    assert [e["bonus"] for e in scored] == [2, 4, 7]
    for event, results in zip(scored, view["round_results"], strict=True):
        assert [
            {k: r[k] for k in ("trees", "tricks", "points")} for r in event["results"]
        ] == results
    assert scored[-1]["scores"] == view["scores"]
    assert events[-1] == {"kind": "game_over", "winners": view["winners"], "scores": view["scores"]}
    assert kinds(events).count("round_started") == 3


def test_a_late_narrator_tells_the_same_story() -> None:
    """Events derive from the actions: asking late replays them to the same events."""
    early = new_state()
    late = GAME.new_game(4, seed=1, setup=SETUP)
    rng = random.Random(9)
    for _ in range(30):
        action = rng.choice(early.legal_actions())
        early.apply(action)
        late.apply(action)
    for seat in (None, 0, 1, 2, 3):
        assert late.events_since(0, seat) == early.events_since(0, seat)
