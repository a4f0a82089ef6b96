"""Eternity's positions (docs/eternity.md#positions): every state of random games round-trips,
a seat's position hides what the seat cannot see, records and stories start from a position,
the doc's example loads and plays to the end, and each class of malformed position is refused
with BadPosition naming the field."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.positions import assert_round_trip, assert_seat_position_hides, unknowns

import eterna
from eterna.core.errors import BadPosition, EternaError
from eterna.core.position import parse, share_code

GAME = eterna.load_game("eternity")
DOC = Path(__file__).resolve().parents[3] / "docs" / "eternity.md"

options_st = st.fixed_dictionaries(
    {
        "next_round_leader": st.sampled_from(["rotate", "last_trick_winner", "lowest_score"]),
        "column_order": st.sampled_from(["fixed", "shuffle_each_round"]),
        "tree_supply": st.sampled_from([0, 1, 3]),
        "tie_break": st.sampled_from(["shared", "harmony_rounds"]),
    }
)


def random_game(players: int, seed: int, options: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """Every state of one seeded random game (copies) and the actions between them."""
    state = GAME.new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    states, actions = [state.clone()], []
    while not state.is_terminal:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        actions.append(str(action))
        states.append(state.clone())
    return states, actions


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.sampled_from([3, 4, 5]),
    seed=st.integers(0, 2**62 - 1),
    options=options_st,
)
def test_every_state_round_trips_and_hides_what_seats_cannot_see(
    players: int, seed: int, options: dict[str, Any]
) -> None:
    states, actions = random_game(players, seed, options)
    for i, state in enumerate(states):
        assert_round_trip(state, actions[i : i + 2])
        seat = i % players
        assert_seat_position_hides(state, seat, draws=1)
        mine = state.to_position(seat)
        hidden = sum(h for s, h in enumerate(state.view(None)["hand_sizes"]) if s != seat)
        assert unknowns(mine["hands"]) == hidden


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_game_loaded_mid_trick_plays_on_as_the_original(players: int) -> None:
    states, actions = random_game(players, 11, {"tree_supply": 3})
    i = next(i for i, s in enumerate(states) if s.round == 2 and s.view(None)["pledges"])
    loaded = assert_round_trip(states[i], actions[i:])
    assert loaded.is_terminal and loaded.scores == states[-1].scores
    assert loaded.history == [GAME.parse_action(a) for a in actions[i:]]


def test_a_round_start_keeps_the_previous_rounds_last_trick() -> None:
    states, _ = random_game(3, 4, {})
    i = next(i for i, s in enumerate(states) if s.round == 2)
    position = states[i].to_position()
    assert position["played"] == [] and position["last_trick"]["winner"] in range(3)
    loaded = GAME.from_position(position)
    assert loaded.view(0)["last_trick"] == states[i].view(0)["last_trick"]
    assert loaded.view(0)["last_trick"]["round"] == 1


def test_records_and_stories_start_from_the_position() -> None:
    states, actions = random_game(4, 5, {"next_round_leader": "last_trick_winner"})
    i = 17  # inside round 1's fifth trick
    loaded = GAME.from_position(share_code(states[i].to_position()))
    for text in actions[i : i + 9]:
        loaded.apply(text)
    record = loaded.to_record()
    assert record["actions"] == actions[i : i + 9]
    assert record["position"] == states[i].to_position()
    again = GAME.from_record(json.loads(json.dumps(record)))
    assert again.view(None) == loaded.view(None) == states[i + 9].view(None)
    kinds = [e["kind"] for e in loaded.events_since(0, 1)]  # the story starts at the position
    assert kinds.count("card_played") + kinds.count("card_pledged") == 9
    assert "round_started" not in kinds[:1]


def test_a_seat_position_loads_as_a_guess_that_can_be_kept() -> None:
    states, _ = random_game(3, 8, {"column_order": "shuffle_each_round"})
    state = states[40]
    mine = state.to_position(1)
    assert mine["rng"] is None and mine["future"][0]["columns"] == ["?", "?", "?"]
    assert all(c == "?" for c in mine["hands"][0] + mine["hands"][2])
    assert mine["hands"][1] == state.hand(1)
    guess = GAME.from_position(json.dumps(mine))
    same = GAME.from_position(mine)
    assert guess.to_position() == same.to_position()  # the same text, the same guess
    with pytest.raises(EternaError, match="guess"):
        guess.to_record()
    kept = GAME.from_position(guess.to_position())
    assert kept.view(None) == guess.view(None)
    assert kept.to_record()["actions"] == []


def doc_example() -> dict[str, Any]:
    text = DOC.read_text("utf-8").split("### Example: the last two tricks of round 1")[1]
    found = re.search(r"```json\n(.*?)\n```", text, re.S)
    assert found is not None
    example: dict[str, Any] = json.loads(found.group(1))
    return example


def test_the_docs_example_loads_and_plays_to_the_end() -> None:
    state = GAME.from_position(doc_example())
    view = state.view(2)
    assert (view["round"], view["trick_number"], view["trump"]) == (1, 9, "sky")
    assert view["legal_actions"] == ["play earth-5", "play earth-11"]
    for text in ["play earth-11", "pledge sea-6", "play earth-12"]:
        state.apply(text)
    assert state.view(None)["last_trick"]["winner"] == 1
    for text in ["play sea-12", "play earth-5", "play sea-14"]:
        state.apply(text)
    results = state.view(None)["round_results"][0]
    assert [r["points"] for r in results] == [2, 0, 1] and state.round == 2
    rng = random.Random(0)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    assert state.round == 3 and state.winners
    assert GAME.from_record(state.to_record()).scores == state.scores


# ---------------------------------------------------------------------- malformed positions
def mid_round() -> dict[str, Any]:
    """Round 1 of the doc's example, one play into its ninth trick (a pledge allowed next)."""
    position = doc_example()
    state = GAME.from_position(position)
    state.apply("play earth-11")
    return state.to_position()


def refused(position: Any, field: str, words: str = "") -> None:
    with pytest.raises(BadPosition) as caught:
        GAME.from_position(position)
    assert caught.value.field == field, str(caught.value)
    assert words in str(caught.value)


def edit(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    position = copy.deepcopy(mid_round())
    change(position)
    return position


def test_a_whole_position_loads_and_each_edit_below_is_its_only_fault() -> None:
    assert GAME.from_position(mid_round()).current_player == 0


def test_wrong_types_and_unknown_keys() -> None:
    refused(edit(lambda p: p.update(round="1")), "round", "integer")
    refused(edit(lambda p: p.update(hands=7)), "hands", "list")
    refused(edit(lambda p: p.update(extra=1)), "", "unknown key(s) extra")
    refused(edit(lambda p: p["played"][0].update(leader=0)), "played[0]", "unknown key")
    refused(edit(lambda p: p["hands"][0].__setitem__(0, "sea-15")), "hands[0][0]", "not an")
    refused(edit(lambda p: p["trick"].__setitem__(0, "dance earth-11")), "trick[0]")
    refused("not json", "", "JSON")


def test_a_card_in_two_places() -> None:
    refused(edit(lambda p: p["hands"][1].__setitem__(1, "sea-6")), "hands[1][1]", "also in")
    refused(edit(lambda p: p["display"].__setitem__(0, "earth-11")), "trick[0]", "also in")


def test_counts_that_do_not_add_up() -> None:
    refused(edit(lambda p: p["hands"][0].pop()), "hands[0]", "holds 1 cards")
    refused(edit(lambda p: p["board"]["sky"].pop()), "board", "lacks")
    refused(edit(lambda p: p["board"]["sky"].remove("sky-8")), "board", "starting cards")
    refused(edit(lambda p: p["board"]["sea"].append("sky-8")), "board.sea[3]", "not a sea card")
    refused(edit(lambda p: p["display"].pop()), "display", "must hold 10")
    refused(edit(lambda p: p["future"][0]["hands"][0].pop()), "future[0].hands[0]", "10")


def test_bounds_exceeded() -> None:
    refused(edit(lambda p: p.update(round=4)), "round", "from 1 to 3")
    refused(edit(lambda p: p.update(players=6)), "players", "3-5")
    refused(edit(lambda p: p["played"][0].update(winner=3)), "played[0].winner", "0 to 2")
    refused(edit(lambda p: p.update(trick=p["trick"] + ["play sea-6", "play earth-12"])), "trick")


def test_counters_that_disagree_with_the_tricks() -> None:
    refused(edit(lambda p: p.update(tricks=[3, 2, 3])), "tricks", "winners")
    refused(edit(lambda p: p.update(trees=[1, 5, 2])), "trees", "pledges")
    refused(edit(lambda p: p.update(tree_supply=4)), "tree_supply")
    refused(edit(lambda p: p["voids"].__setitem__(1, [])), "voids[1]", "sky")
    refused(edit(lambda p: p.update(scores=[0, 1, 0])), "scores", "round results")
    refused(edit(lambda p: p["played"][0].update(winner=2)), "played[0].winner", "seat 0 won")


def test_an_impossible_seat_to_move_or_leader() -> None:
    refused(edit(lambda p: p.update(to_move=1)), "to_move", "give 0")
    refused(edit(lambda p: p.update(leader=1)), "leader", "led by seat 0")


def test_tricks_the_rules_could_not_produce() -> None:
    def two_pledges(p: dict[str, Any]) -> None:
        p["played"][0]["actions"][2] = "pledge earth-4"
        p["board"]["earth"].append("earth-4")

    def lead_pledge(p: dict[str, Any]) -> None:
        p["played"][0]["actions"][0] = "pledge earth-8"
        p["board"]["earth"].append("earth-8")

    refused(edit(lambda p: p.update(trick=["pledge earth-11"])), "trick[0]", "leader must play")
    refused(edit(two_pledges), "played[0].actions[2]", "only 1 pledge(s)")
    refused(edit(lead_pledge), "played[0].actions[0]", "leader must play")
    # seat 0 showed in trick 1 it holds no earth: an earth card in its hand is impossible
    refused(
        edit(
            lambda p: (
                p["hands"].__setitem__(0, ["earth-5", "sea-6"])
                or p["hands"][2].__setitem__(0, "sea-14")
            )
        ),
        "hands[0][0]",
        "no earth",
    )


def test_last_trick_out_of_place_and_future_faults() -> None:
    last = {"leader": 0, "actions": ["play sea-1", "play sea-2", "play sea-3"], "winner": 2}
    refused(edit(lambda p: p.update(last_trick=last)), "last_trick", "exactly when")
    refused(edit(lambda p: p["future"].pop()), "future", "2 deal(s)")
    refused(
        edit(lambda p: p["future"][0].update(columns=["sky", "sea", "earth"])),
        "future[0].columns",
        "fixed",
    )
    refused(edit(lambda p: p.update(rng=None)), "rng", "generator")


def test_a_seat_position_that_shows_what_the_seat_cannot_know() -> None:
    mine = GAME.from_position(mid_round()).to_position(0)
    assert GAME.from_position(mine).view(0) == GAME.from_position(mid_round()).view(0)
    shown = copy.deepcopy(mine)
    shown["hands"][1] = ["earth-12", "sea-12"]
    refused(shown, "hands[1]", "cannot show")
    future = copy.deepcopy(mine)
    future["future"][0]["board"][0] = "sea-2"
    refused(future, "future[0]", "future deal")
    own = copy.deepcopy(mine)
    own["hands"][0][0] = "?"
    refused(own, "hands[0][0]", "only other seats' cards")


def test_nothing_but_bad_position_escapes_from_random_damage() -> None:
    base = mid_round()
    texts = [json.dumps(base), json.dumps(GAME.from_position(base).to_position(1))]
    rng = random.Random(3)
    loads = 0
    for i in range(400):
        text = texts[i % 2]
        tokens = re.findall(r'"[^"]*"|-?\d+|null|true|false', text)
        damaged = text.replace(rng.choice(tokens), rng.choice(tokens), 1)
        try:
            state = GAME.from_position(parse(damaged))
        except BadPosition:
            continue
        loads += 1  # whatever loads is a whole state: it writes a position that loads again
        assert GAME.from_position(state.to_position()).view(None) == state.view(None)
    assert loads < 400


def test_a_loaded_state_feeds_the_encoding_and_the_agents_as_the_original() -> None:
    np = pytest.importorskip("numpy")
    states, _ = random_game(5, 21, {"column_order": "shuffle_each_round"})
    encoding = GAME.encoding_class()(5)
    for state in states[::7]:
        loaded = GAME.from_position(state.to_position())
        for seat in range(5):
            assert np.array_equal(encoding.observe(loaded, seat), encoding.observe(state, seat))
        if not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            agent = GAME.make_heuristic(seed=1)
            assert agent is not None
            assert agent.choose(loaded, seat) == GAME.make_heuristic(seed=1).choose(state, seat)
