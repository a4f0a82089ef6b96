"""Typed moves: exact notation, bare cards, prefixes, ambiguity and refusals naming the rule."""

from __future__ import annotations

import pytest

import eterna
from eterna.cli.moves import AmbiguousMove, resolve_move

VERBS = ("play", "pledge")

# Seat 0 leads; seat 1 holds sky-1 and sky-12 (for the prefix trap), one sea card, five earth.
HANDS = [
    ["sea-1", "sea-2", "sea-4", "sea-5", "sea-6", "sea-7", "sea-8", "sea-9", "sea-10", "sea-11"],
    [
        "sea-3",
        "sky-1",
        "sky-12",
        "earth-1",
        "earth-2",
        "earth-3",
        "earth-4",
        "earth-5",
        "earth-6",
        "earth-7",
    ],
    ["sky-2", "sky-3", "sky-4", "sky-5", "sky-6", "sky-7", "sky-8", "sky-9", "sky-10", "sky-11"],
    [
        "earth-8",
        "earth-9",
        "earth-10",
        "earth-11",
        "earth-12",
        "earth-13",
        "earth-14",
        "sea-12",
        "sea-13",
        "sea-14",
    ],
]
SETUP = {
    "columns": ["sea", "earth", "sky"],
    "first_leader": 0,
    "deals": [{"hands": HANDS, "board": ["sky-13", "sky-14"]}],
}


def resolve(state: eterna.GameState, text: str) -> str:
    return str(resolve_move(state, text, VERBS, "play"))


@pytest.fixture
def leading() -> eterna.GameState:
    """Seat 0 to lead the first trick."""
    return eterna.load_game("eternity").new_game(players=4, seed=1, setup=SETUP)


@pytest.fixture
def following() -> eterna.GameState:
    """Seat 1 to answer a sea lead: it must play sea-3 or pledge."""
    state = eterna.load_game("eternity").new_game(players=4, seed=1, setup=SETUP)
    state.apply("play sea-1")
    return state


def test_exact_and_case_insensitive(following: eterna.GameState) -> None:
    assert resolve(following, "play sea-3") == "play sea-3"
    assert resolve(following, "  PLAY   Sea-3 ") == "play sea-3"
    assert resolve(following, "Pledge SKY-12") == "pledge sky-12"


def test_bare_card_means_play(following: eterna.GameState) -> None:
    assert resolve(following, "sea-3") == "play sea-3"


def test_abbreviated_verb(following: eterna.GameState) -> None:
    assert resolve(following, "ple sky-12") == "pledge sky-12"
    assert resolve(following, "pla sea-3") == "play sea-3"


def test_unique_prefix_completes(following: eterna.GameState) -> None:
    # only one play is legal (sea-3), so 'play' alone and 'pla s' complete to it
    assert resolve(following, "play") == "play sea-3"
    assert resolve(following, "pla s") == "play sea-3"
    assert resolve(following, "ple sky-1") == "pledge sky-1"


def test_ambiguous_prefix_lists_the_moves(following: eterna.GameState) -> None:
    with pytest.raises(AmbiguousMove) as caught:
        resolve(following, "pl s")
    assert "play sea-3" in str(caught.value)
    assert "pledge sky-12" in str(caught.value)
    with pytest.raises(AmbiguousMove):
        resolve(following, "pledge sky")
    with pytest.raises(AmbiguousMove):
        resolve(following, "ple e")


def test_complete_card_is_never_extended(leading: eterna.GameState) -> None:
    state = leading
    for move in ("play sea-1", "play sea-3", "play sky-2"):
        state.apply(move)
    # seat 3 holds sea-12, sea-13 and sea-14 but not sea-1: 'sea-1' is that card, never sea-1x
    assert state.current_player == 3
    for text in ("pledge sea-1", "ple sea-1", "sea-1"):
        with pytest.raises(eterna.IllegalAction) as caught:
            resolve(state, text)
        assert "does not hold sea-1" in str(caught.value)
    assert resolve(state, "sea-12") == "play sea-12"
    assert resolve(state, "ple sea-14") == "pledge sea-14"


def test_leader_may_not_pledge(leading: eterna.GameState) -> None:
    with pytest.raises(eterna.IllegalAction) as caught:
        resolve(leading, "pledge sea-2")
    assert "§5.2" in str(caught.value)
    with pytest.raises(eterna.IllegalAction) as caught:
        resolve(leading, "pledge")
    assert "may not pledge" in str(caught.value)


def test_must_follow_names_the_rule_and_the_pledge(following: eterna.GameState) -> None:
    with pytest.raises(eterna.IllegalAction) as caught:
        resolve(following, "earth-2")
    message = str(caught.value)
    assert "must follow sea" in message and "§5.3" in message
    assert "pledge earth-2" in message
    with pytest.raises(eterna.IllegalAction) as caught:
        resolve(following, "play ear")  # no earth play is legal: explained, not 'no match'
    assert "must follow sea" in str(caught.value)


def test_bad_notation(following: eterna.GameState) -> None:
    for text in ("dance", "play sea-15", "", "jump over"):
        with pytest.raises(eterna.BadNotation):
            resolve(following, text)


def test_refusals_leave_the_state_alone(following: eterna.GameState) -> None:
    before = following.to_record()
    for text in ("earth-2", "pledge sky-11", "pl s", "dance"):
        with pytest.raises(eterna.EternaError):
            resolve(following, text)
    assert following.to_record() == before
