"""The Artifacts' 28 creatures without tiles: option `artifact_set` 'creatures' (docs/vale.md,
"The creatures without tiles"; digest §6 and Q-A9). No glade, no artifact round, no shelter;
the end score decided in one place (`artifacts.end_score`): 60 without tiles, 80 with them,
`end_threshold` when given; and such games write positions that read back."""

from __future__ import annotations

from typing import Any

import pytest
from tests.positions import assert_round_trip, assert_seat_position_hides
from vale_helpers import acting, legal, play

from eterna.agents import make_agent
from eterna.core.errors import BadPosition, BadSetup
from eterna.games.vale import GAME
from eterna.games.vale.artifacts import end_score

CREATURES = {"expansions": ["artifacts"], "artifact_set": "creatures"}
TILES = {"expansions": ["artifacts"]}


def test_creatures_only_deals_98_cards_and_no_tile() -> None:
    st = GAME.new_game(3, seed=4, options=CREATURES)
    assert st.arts is None and "artifacts" not in st.view(0)
    view = st.view(None)
    assert view["deck_count"] + len(view["revealed"]) == 98
    assert not any(a.split()[0] in ("pick", "use", "shelter") for a in legal(st))


@pytest.mark.parametrize(
    ("options", "end"),
    [
        ({}, 60),
        (CREATURES, 60),
        (TILES, 80),
        ({**TILES, "artifact_set": "advanced"}, 80),
        ({**CREATURES, "end_threshold": 80}, 80),
        ({**TILES, "end_threshold": 60}, 60),
        ({"end_threshold": 70}, 70),
    ],
)
def test_end_threshold_default_is_80_with_tiles_and_60_without_digest_q_a9(
    options: dict[str, Any], end: int
) -> None:
    st = GAME.new_game(2, seed=1, options=options)
    assert st.start.end_score == end == st.view(0)["end_score"]
    # the position reader takes it from the same place: a loaded game ends at the same score
    assert GAME.from_position(st.to_position()).start.end_score == end
    assert end_score(GAME.resolve_options(options)) == end


@pytest.mark.parametrize(("score", "over"), [(59, False), (60, True), (61, True)])
def test_creatures_only_ends_at_60_after_the_round_rules_9_digest_q_a9(
    score: int, over: bool
) -> None:
    """§9: the game ends after the round in which someone has the end score; without tiles
    that is the base game's 60 (59 plays on; 60 and 61 end it)."""
    st = acting(scores=[score, 1], options=CREATURES, round=3)
    play(st, "end-turn", "end-turn")  # nothing to resolve: the round ends
    assert st.is_terminal is over
    if not over:
        assert st.round == 4


@pytest.mark.parametrize(("score", "over"), [(79, False), (80, True)])
def test_with_tiles_the_game_ends_at_80_not_60_digest_section_6(score: int, over: bool) -> None:
    st = acting(scores=[score, 1], options=TILES, round=3, glade=["book-of-thoth"])
    play(st, "end-turn", "end-turn")
    assert st.is_terminal is over


def test_a_setup_with_an_empty_glade_is_refused_and_names_the_mode() -> None:
    with pytest.raises(BadSetup, match="artifact_set 'creatures'"):
        GAME.new_game(2, seed=1, options=TILES, setup={"glade": []})


@pytest.mark.parametrize("key", ["glade", "shelters", "bought_areas"])
def test_a_creatures_only_setup_has_no_tile_keys(key: str) -> None:
    value: Any = ["book-of-thoth"] if key == "glade" else [[], []] if key == "shelters" else [0, 0]
    with pytest.raises(BadSetup, match=key):
        GAME.new_game(2, seed=1, options=CREATURES, setup={key: value})


def test_creatures_only_positions_round_trip_with_lokis_family() -> None:
    st = acting(areas=[["loki"], []], options=CREATURES, hands=[["ash"], []])
    assert st.choice is not None  # Loki's family, asked at the start of its owner's turn
    assert_round_trip(st, ["choose fire"])
    play(st, "choose fire")
    position = st.to_position()
    assert position["loki"] == ["fire", None]
    assert not {"glade", "shelters", "held", "bought_areas"} & set(position)
    assert GAME.from_position(position).loki == st.loki != 0
    assert_round_trip(st, ["end-turn", "end-turn"])
    assert_seat_position_hides(st, 1)


def test_a_creatures_only_position_refuses_the_tile_keys() -> None:
    position = GAME.new_game(2, seed=2, options=CREATURES).to_position()
    with pytest.raises(BadPosition, match="glade: is only for a game with artifact tiles"):
        GAME.from_position({**position, "glade": ["book-of-thoth"]})
    without = {k: v for k, v in position.items() if k != "loki"}
    with pytest.raises(BadPosition, match="loki"):
        GAME.from_position(without)


def test_creatures_only_games_round_trip_at_every_move() -> None:
    st = GAME.new_game(2, seed=8, options=CREATURES)
    bots = [make_agent("heuristic", seed=s) for s in range(2)]
    moves = 0
    while not st.is_terminal and moves < 120:
        if moves % 7 == 0:
            assert_round_trip(st)
        st.apply(bots[st.current_player].choose(st, st.current_player))
        moves += 1
    assert_round_trip(st)


@pytest.mark.parametrize("options", [CREATURES, TILES])
def test_a_lokis_turn_cannot_start_without_its_family_question_q_c10(
    options: dict[str, Any],
) -> None:
    """Q-C10: Loki's owner names its family as each of their turns starts; a position at the
    start of that turn without the question would let Loki count as Wind all turn."""
    extra = {"glade": ["book-of-thoth"]} if options is TILES else {}
    st = acting(areas=[["loki"], []], options=options, **extra)
    position = st.to_position()
    assert position["pending"]["step"] == "loki_family[0]"
    with pytest.raises(BadPosition, match=r"pending: is null at the start of seat 0's turn"):
        GAME.from_position({**position, "pending": None})
    play(st, "choose water")  # once named (logged), the turn has begun: the family stands
    assert_round_trip(st)
    play(st, "end-turn")  # seat 1's turn: it has no Loki, nothing to ask
    assert_round_trip(st)


def test_a_hidden_card_named_twice_is_refused() -> None:
    bots = [make_agent("heuristic", seed=s) for s in range(2)]
    st = GAME.new_game(2, seed=3, options=CREATURES)
    while not any(st.to_position()["hidden"]):  # a card drawn face down (the heuristic draws)
        assert not st.is_terminal
        st.apply(bots[st.current_player].choose(st, st.current_player))
    position = st.to_position()
    seat = next(s for s, row in enumerate(position["hidden"]) if row)
    position["hidden"][seat] = [position["hidden"][seat][0]] * 2
    with pytest.raises(BadPosition, match=rf"hidden\[{seat}\]\[1\]: names .* twice"):
        GAME.from_position(position)
