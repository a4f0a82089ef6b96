"""Eternitium positions (docs/positions.md; the body: docs/eternitium.md, 'Positions'): every
state of random games round-trips, a seat's position never leaks, the documented example loads,
and every class of malformed position is refused naming its field."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from eternitium_helpers import make
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.positions import assert_round_trip, assert_seat_position_hides, unknowns

from eterna.core.errors import BadPosition, EternaError
from eterna.core.position import parse, share_code
from eterna.games.eternitium import GAME

DOC = Path(__file__).parents[3] / "docs" / "eternitium.md"

# (players, options) covering every player count and the options and missions that change play
TABLES = [
    (2, {"round_limit": 8}),
    (3, {"round_limit": 5, "double_portal_luck": True}),
    (4, {"round_limit": 4, "basic_market_distinct": "printed"}),
    (5, {"round_limit": 3}),
    (1, {}),
    (1, {"mission": 4}),
    (1, {"mission": 5}),
    (1, {"mission": 6}),
    (1, {"mission": 8}),
    (1, {"mission": 9}),
]


def _states(players: int, options: dict[str, Any], seed: int):
    """Every state of one random game, with the moves that followed each."""
    state = GAME.new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    states = []
    while True:
        states.append(state.clone())
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    moves = [str(a) for a in state.to_record()["actions"]]
    return [(s, moves[i : i + 3]) for i, s in enumerate(states)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), table=st.integers(0, len(TABLES) - 1))
def test_every_state_of_a_random_game_round_trips(seed, table):
    """Positions: the whole position of every state loads back as the same game (legal moves,
    every view, scores, the same future) and is written again identically."""
    players, options = TABLES[table]
    for state, future in _states(players, options, seed):
        assert_round_trip(state, future)


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_every_table_round_trips_one_game(players, options):
    """Positions, each table once: player counts 1-5, options and missions."""
    for state, future in _states(players, options, 11):
        assert_round_trip(state, future)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), table=st.integers(0, len(TABLES) - 1))
def test_a_seat_position_never_leaks(seed, table):
    """Positions: a seat's position is a function of what the seat knows (adversarial:
    determinized states that differ in what it cannot see write the same text); loading it
    gives the same view, the same legal moves on its turn, and a guess whose whole position
    loads again."""
    players, options = TABLES[table]
    for i, (state, _future) in enumerate(_states(players, options, seed)):
        if i % 2:
            continue
        for seat in range(players):
            assert_seat_position_hides(state, seat, draws=2)
        guess = GAME.from_position(state.to_position(0))
        assert guess._determinized
        with pytest.raises(EternaError):
            guess.to_record()
        assert_round_trip(guess)


def test_a_seat_position_hides_other_hands_decks_and_face_down_era_cards():
    """Positions: hidden cards are "?" and keep their number; the seat's own deck is "?" in
    order but its cards are listed (deck_cards)."""
    state = GAME.new_game(3, seed=5)
    while state.phase == "pick":
        state.apply(state.legal_actions()[0])
    mine = state.to_position(1)
    assert mine["rng"] is None and mine["seat"] == 1
    assert mine["hands"][0] == ["?"] * 5 and "?" not in mine["hands"][1]
    assert mine["decks"][1] == ["?"] * len(state.deck(1))
    assert sorted(mine["deck_cards"]) == sorted(state.deck(1))
    assert mine["era"][2][0] != "?" and mine["era"][2][1] == "?"
    assert mine["era_faces"][2][:2] == ["up", "down"]
    assert mine["era_deck"] == ["?"] * state.view(None)["era_deck_size"]
    assert unknowns(mine) > 20


def _doc_position() -> dict[str, Any]:
    part = DOC.read_text(encoding="utf-8").split("## Positions")[1]
    return json.loads(part.split("```json")[1].split("```")[0])


def test_the_documented_example_loads_and_is_written_again():
    """docs/eternitium.md 'Positions': its example is a whole position the engine reads and
    writes back unchanged; seat 0 is to play."""
    doc = _doc_position()
    state = GAME.from_position(doc)
    assert state.to_position() == doc
    assert state.current_player == 0 and state.phase == "play"
    assert state.view(None)["turn"] == 4
    assert "play ultimate-portal" in [str(a) for a in state.legal_actions()]
    assert GAME.from_position(share_code(doc)).to_position() == doc
    assert parse(share_code(doc)) == doc


def test_a_game_played_on_from_a_position_has_a_record_and_a_story():
    """docs/positions.md: a record that starts from the position, replayed to the same state;
    the story is told from the position."""
    state = GAME.from_position(_doc_position())
    rng = random.Random(2)
    for _ in range(25):
        state.apply(rng.choice(state.legal_actions()))
    record = state.to_record()
    assert record["position"] == _doc_position()
    again = GAME.from_record(json.loads(json.dumps(record)))
    assert again.to_position() == state.to_position()
    assert state.event_count() > 0


def test_solo_turn_counter_and_mission_4_portal_deck_survive():
    """The setup could not say 'turn 8' of a solo game, nor mission 4's revealed Portal cards:
    a position does (turns_left, the Portal deck and row, the AI deck and cards revealed)."""
    state = GAME.new_game(1, seed=3, options={"mission": 4})
    rng = random.Random(4)
    while state.view(None)["turn"] < 2 and not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    loaded = GAME.from_position(json.loads(json.dumps(state.to_position())))
    view = loaded.view(0)
    assert view["turns_left"] == state.view(0)["turns_left"] < 8
    assert view["portal_row"] == state.view(0)["portal_row"]
    assert loaded.to_position()["portal_deck"] == state.to_position()["portal_deck"]
    assert view["ai_cards"] == state.view(0)["ai_cards"]


def test_a_pending_laboratory_gift_survives():
    """Laboratory: the gifts still to come and the seat deciding are part of the position."""
    state = make(
        3,
        hands=[["laboratory"], [], []],
        era=[["circle"] * 3, ["square"], ["diamond"]],
        basic_row=["transporter", "droid", "data-analyser"],
    )
    state.apply("play laboratory blind-basic")
    pos = state.to_position()
    assert pos["phase"] == "gift" and pos["current"] == 1 and pos["pending"]["gifts"] == [2]
    loaded = assert_round_trip(state, ["gift droid", "gift transporter"])
    assert loaded.current_player == 0


# ---------------------------------------------------------------------------- bad positions
def _whole() -> dict[str, Any]:
    return copy.deepcopy(_doc_position())


def _refused(position: Any, field: str) -> BadPosition:
    with pytest.raises(EternaError) as caught:
        GAME.from_position(position)
    assert type(caught.value) is BadPosition, caught.value
    assert caught.value.field == field, caught.value
    return caught.value


def _edit(path: str, value: Any) -> dict[str, Any]:
    pos = _whole()
    *head, last = path.split(".")
    target: Any = pos
    for key in head:
        target = target[int(key)] if key.isdigit() else target[key]
    if last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return pos


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("turn", "4", "turn"),  # wrong type
        ("hands", {"0": []}, "hands"),
        ("step.played", 1, "step.played"),
        ("era_faces.0.0", "UP", "era_faces[0][0]"),  # case decides nothing: a word
        ("hands.0.0", "Droid", "hands[0][0]"),
        ("era.0.0", "CIRCLE", "era[0][0]"),
        ("phase", "lunch", "phase"),
    ],
)
def test_a_value_of_the_wrong_type_or_word_is_refused(path, value, field):
    _refused(_edit(path, value), field)


def test_an_unknown_key_is_refused():
    _refused(_edit("tempo", 3), "")  # the document itself
    _refused(_edit("step.tempo", 3), "step")
    _refused(_edit("knowledge.tempo", 3), "knowledge")


def test_a_card_in_two_places_is_refused():
    pos = _whole()
    pos["discards"][1] = [pos["hands"][0][0]]  # a copy of a card seat 0 holds
    _refused(pos, "box")


def test_cards_that_do_not_add_up_are_refused():
    pos = _whole()
    pos["hands"][0].pop()
    _refused(pos, "box")
    era = _whole()
    era["era_deck"].pop()
    _refused(era, "era_box")


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("era_display", ["circle", "square", "diamond"], "era_display"),
        ("basic_row", ["droid", "transporter", "digital-wallet", "data-analyser"], "basic_row"),
        ("pending.pay_left", 3, "pending.pay_left"),
        ("first_player", 2, "first_player"),
        ("knowledge.market_bottom", [99, 0], "knowledge.market_bottom[0]"),
        ("turn", -1, "turn"),
    ],
)
def test_a_bound_exceeded_is_refused(path, value, field):
    _refused(_edit(path, value), field)


def test_an_impossible_seat_to_move_is_refused():
    _refused(_edit("current", 1), "current")  # the play step is the active seat's
    _refused(_edit("current", None), "current")  # only a finished game has none
    over = _edit("phase", "over")
    _refused(over, "current")
    gift = _edit("phase", "gift")
    _refused(gift, "current")  # a gift is another seat's decision


def test_a_wrong_tier_or_kind_is_refused():
    _refused(_edit("basic_row.0", "giga-droid"), "basic_row[0]")
    _refused(_edit("portal_row", ["droid"]), "portal_row")


def test_unknown_cards_only_in_a_seat_position():
    """Unknown ("?") is for a seat's position; a whole position names every card."""
    _refused(_edit("hands.1.0", "?"), "hands[1][0]")
    _refused(_edit("rng", None), "rng")
    mine = GAME.from_position(_whole()).to_position(0)
    bad = copy.deepcopy(mine)
    bad["hands"][0][0] = "?"  # its own hand is no secret to the seat
    _refused(bad, "hands[0][0]")
    face = copy.deepcopy(mine)
    face["era"][0][0] = "?"  # a face-up card is public
    _refused(face, "era[0][0]")
    short = copy.deepcopy(mine)
    short["deck_cards"] = short["deck_cards"][1:]
    _refused(short, "deck_cards")


def test_not_a_position_at_all_is_refused():
    _refused("not json", "")
    _refused([1, 2], "")
    _refused({**_whole(), "game": "vale"}, "game")
    _refused({**_whole(), "players": 7}, "players")
    _refused({**_whole(), "options": {"mission": 3}}, "options")


def test_a_pending_decision_that_could_not_arise_is_refused():
    """A decision belongs to its card (steal: a Thieving Robot in play and its victim; a gift:
    a Laboratory), and a position must leave the seat to move something to do."""
    steal = _edit("phase", "steal")
    _refused(steal, "pending.in_play")
    steal["pending"]["in_play"] = "thieving-robot"
    _refused(steal, "pending.target")
    _refused(_edit("pending.in_play", "droid"), "pending.in_play")
    stuck = _edit("phase", "era")  # nothing to pay, yet a payment awaited
    stuck["pending"]["pay_left"] = 1
    stuck["era_deck"] += stuck["era_display"]
    stuck["era_display"] = []
    _refused(stuck, "phase")
