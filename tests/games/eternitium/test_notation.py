"""Notation, bad input, views, records and the contract (docs/eternitium.md)."""

from __future__ import annotations

import json
import random

import pytest
from eternitium_helpers import legal, make

from eterna.core.errors import BadNotation, EternaError, IllegalAction
from eterna.core.registry import load_game
from eterna.games.eternitium import GAME, parse_action
from eterna.games.eternitium.cards import ACTIONS


def test_registered_as_eternitium():
    assert load_game("eternitium") is GAME
    assert (GAME.min_players, GAME.max_players) == (1, 5)
    assert set(GAME.options) == {
        "mission",
        "composition",
        "double_portal_luck",
        "basic_market_distinct",
        "round_limit",
    }


def test_every_action_round_trips_through_its_notation():
    for action in ACTIONS:
        assert parse_action(str(action)) is action
        assert str(action) == str(action).lower()
    assert len({str(a) for a in ACTIONS}) == len(ACTIONS)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("  PLAY   Droid ", "play droid"),
        (
            "play transporter discard portal-triangle portal-diamond",
            "play transporter discard portal-triangle portal-diamond",
        ),
        (
            "play transporter discard portal-diamond portal-triangle",
            "play transporter discard portal-triangle portal-diamond",
        ),
        ("acquire blind-advanced", "acquire blind-advanced"),
        ("play temporal-blaster seat-2", "play temporal-blaster seat-2"),
        ("era circle", "era circle"),
        ("keep none", "keep none"),
    ],
)
def test_notation_is_forgiving_but_canonical(text, canonical):
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "dance", "play", "play warp-drive", "take portal-hexagon", "era octagon", "play droid 3"],
)
def test_malformed_notation_raises_badnotation(text):
    with pytest.raises(BadNotation):
        parse_action(text)
    state = GAME.new_game(2, seed=1)
    before = state.to_record()
    with pytest.raises(BadNotation):
        state.apply(text)
    assert state.to_record() == before


@pytest.mark.parametrize("thing", [None, 3, 2.5, ["play droid"]])
def test_non_actions_raise_eterna_errors(thing):
    state = GAME.new_game(2, seed=1)
    with pytest.raises(EternaError):
        state.apply(thing)


def test_illegal_action_names_the_rule_and_changes_nothing():
    state = make(2, hands=[["portal-square", "droid"], []], era=[["circle"], ["square"]])
    before = state.to_record(), state.view(None)
    with pytest.raises(IllegalAction, match=r"portal-square does not match .*R15"):
        state.apply("play portal-square")
    with pytest.raises(IllegalAction, match="holds no ultimate-portal"):
        state.apply("play ultimate-portal")
    with pytest.raises(IllegalAction, match="step 2"):
        state.apply("acquire droid")
    assert (state.to_record(), state.view(None)) == before


def test_current_player_answers_sub_decisions_in_another_players_turn():
    """DESIGN: every decision is an action of the player who makes it (Laboratory gifts)."""
    state = make(
        3,
        hands=[["laboratory"], [], []],
        era=[["circle"] * 2, ["square"], ["diamond"]],
        basic_row=["droid"],
    )
    state.apply("play laboratory blind-basic")
    assert state.current_player == 1
    assert "legal_actions" in state.view(1) and "legal_actions" not in state.view(0)


def test_view_keys_and_hidden_information():
    state = make(
        2,
        hands=[["droid", "transporter"], ["ultimate-portal"]],
        decks=[["portal-circle"], ["laboratory"]],
        discards=[["portal-square"], ["giga-droid"]],
        era=[["circle", "square"], ["diamond", "triangle"]],
        advanced_row=["time-bomb", "recycler-robot", "quantum-clock"],
    )
    view = state.view(0)
    json.dumps(view)
    assert view["hand"] == ["droid", "transporter"]
    assert view["discard"] == ["portal-square"]
    assert view["hand_sizes"] == [2, 1] and view["deck_sizes"] == [1, 1]
    assert view["discard_sizes"] == [1, 1]
    assert view["era"] == [["circle", "hidden"], ["diamond", "hidden"]]
    assert view["era_counts"] == [2, 2]
    text = json.dumps(view)
    for secret in ("ultimate-portal", "laboratory", "giga-droid"):
        assert secret not in text
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["discard"] is None
    with pytest.raises(EternaError):
        state.view(2)


def test_record_replays_to_the_same_state():
    state = GAME.new_game(3, seed=42)
    rng = random.Random(0)
    for _ in range(120):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.to_record()))
    again = GAME.from_record(record)
    assert [again.view(s) for s in range(3)] == [state.view(s) for s in range(3)]
    assert legal(again) == legal(state)


def test_clone_is_independent():
    state = GAME.new_game(2, seed=5)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.to_record()["actions"] == []
    assert copy.to_record()["actions"] != []


def test_determinize_keeps_what_the_seat_knows():
    state = make(
        2,
        hands=[["droid", "transporter"], ["ultimate-portal", "laboratory"]],
        decks=[["portal-circle", "portal-square"], ["giga-droid"]],
        era=[["circle", "square", "triangle"], ["diamond", "triangle", "circle"]],
    )
    guess = state.determinize(0, random.Random(3))
    assert guess.view(0) == state.view(0)
    assert sorted(guess.deck(0)) == sorted(state.deck(0))
    with pytest.raises(EternaError):
        guess.to_record()


def test_same_seed_same_game():
    a = GAME.new_game(4, seed=99)
    b = GAME.new_game(4, seed=99)
    assert a.view(None) == b.view(None)
    assert [a.deck(s) for s in range(4)] == [b.deck(s) for s in range(4)]
