"""Setup and Game Preparation (rulebook: Setup 1-7, Game Preparation)."""

from __future__ import annotations

import pytest
from eternitium_helpers import legal, make
from tests.typed_dicts import check_typed

from eterna.core.errors import BadSetup
from eterna.games.eternitium import GAME
from eterna.games.eternitium.cards import VISIBLE
from eterna.games.eternitium.setup import SETUP_KEYS, EternitiumSetup, parse_setup

SHAPES = ("circle", "square", "triangle", "diamond")


def _play_picks(state):
    while state.phase == "pick":
        state.apply(state.legal_actions()[0])


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_starting_cards_one_portal_of_each_shape_and_a_droid(players):
    """Setup 2: five starting cards; Game Preparation: the pick makes 6, 5 drawn, 1 left."""
    state = GAME.new_game(players, seed=players)
    for seat in range(players):
        assert sorted(state.deck(seat)) == sorted(
            ["portal-circle", "portal-square", "portal-triangle", "portal-diamond", "droid"]
        )
    _play_picks(state)
    for seat in range(players):
        assert len(state.hand(seat)) + (1 if seat == state.current_player else 0) >= 5
        assert len(state.deck(seat)) == 1
        assert sum(1 for c in state.hand(seat) + state.deck(seat) if c == "droid") >= 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_starting_sets_are_numbered_by_seat_from_the_first_player(players):
    """Game Preparation: the first player takes set 1, then clockwise."""
    state = GAME.new_game(players, seed=3, setup={"first_player": 1})
    view = state.view(0)
    assert view["first_player"] == 1
    assert view["starting_sets"][1] == 1
    assert view["starting_sets"][0] == players


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_portal_reserve_two_per_player_per_shape(players):
    """Setup 3: 2 x players Portal cards of each shape, the rest in the box."""
    state = GAME.new_game(players, seed=1)
    assert state.view(None)["portal_reserve"] == {s: 2 * players for s in SHAPES}


def test_portal_reserve_is_limited():
    """Setup 3: the number of Portal cards is limited: an empty stack cannot be taken."""
    state = make(2, portals={"circle": 1}, hands=[[], []], era=[["circle"] * 3, ["square"] * 3])
    assert legal(state) == ["take portal-circle"]
    state.apply("take portal-circle")
    assert state.view(None)["portal_reserve"]["circle"] == 0


@pytest.mark.parametrize("seed", range(20))
def test_markets_show_three_different_cards(seed):
    """Setup 4-5: three face-up Basic and three Advanced cards, all different."""
    state = GAME.new_game(3, seed=seed)
    view = state.view(None)
    assert len(set(view["basic_row"])) == 3
    assert len(set(view["advanced_row"])) == 3
    assert view["basic_deck_size"] == 24 - 3
    assert view["advanced_deck_size"] == 16 - 3


def test_market_all_different_rule_throughout_the_game():
    """Setup 5 'this applies throughout the game': refills after a take stay all different."""
    state = make(
        2,
        hands=[["futuristic-smartphone"], []],
        basic_row=["droid", "transporter", "digital-wallet"],
        basic_deck=["droid", "transporter", "data-analyser"],
        era=[["circle"] * 4, ["square"] * 4],
        era_display=["circle", "square"],
    )
    state.apply("end")
    state.apply("acquire digital-wallet")
    assert state.view(None)["basic_row"] == ["droid", "transporter", "data-analyser"]
    # Setup 5: the duplicates went to the bottom of the deck, in the order they were revealed
    assert state.market_deck("basic")[-2:] == ["droid", "transporter"]


def test_market_shows_a_duplicate_when_no_different_card_is_left():
    """R14: 'except when there are not enough cards': the duplicate is shown."""
    state = make(
        2,
        hands=[["droid"], []],
        decks=[["portal-circle"] * 5, []],
        era=[["circle"] * 4, ["square"] * 4],
        era_display=["circle", "square"],
        basic_row=["droid", "transporter", "digital-wallet"],
        basic_deck=["droid"],
        exact=["basic_deck"],  # the whole deck: one Droid
    )
    state.apply("end")
    state.apply("acquire transporter")
    assert state.view(None)["basic_row"] == ["droid", "digital-wallet", "droid"]


@pytest.mark.parametrize(("players", "dealt"), [(1, 10), (2, 10), (3, 10), (4, 9), (5, 8)])
def test_era_cards_dealt_by_player_count_top_revealed(players, dealt):
    """Setup 6: 10 / 9 / 8 Era cards, the top card revealed."""
    state = GAME.new_game(players, seed=5)
    view = state.view(None)
    for seat in range(players):
        assert view["era_counts"][seat] == dealt
        assert view["era"][seat][0] != "hidden"
        assert all(c == "hidden" for c in view["era"][seat][1:])


@pytest.mark.parametrize("players", [1, 3, 5])
def test_common_era_deck_with_two_visible_cards(players):
    """Setup 7: the remaining Era cards form the common deck; two cards are revealed."""
    state = GAME.new_game(players, seed=2)
    view = state.view(None)
    dealt = {1: 10, 3: 10, 5: 8}[players]
    assert len(view["era_display"]) == 2
    assert view["era_deck_size"] == 60 - players * dealt - 2


def test_initial_pick_in_turn_order_visible_or_blind():
    """Game Preparation: from the first player clockwise, a visible card or the blind top."""
    state = GAME.new_game(3, seed=4, setup={"first_player": 2})
    assert state.current_player == 2
    actions = legal(state)
    assert "pick blind-basic" in actions
    assert all(a.startswith("pick ") for a in actions)
    row = state.view(None)["basic_row"]
    state.apply(f"pick {row[0]}")
    assert len(state.view(None)["basic_row"]) == 3  # replaced at once
    assert state.current_player == 0
    state.apply("pick blind-basic")
    assert state.current_player == 1
    state.apply(state.legal_actions()[0])
    assert state.phase == "portal" and state.current_player == 2
    assert len(state.hand(2)) == 5


def test_picked_card_is_shuffled_into_the_deck():
    """Game Preparation: the new card goes into the deck, which is shuffled; 5 are drawn."""
    state = GAME.new_game(1, seed=9)
    row = state.view(None)["basic_row"]
    state.apply(f"pick {row[0]}")
    assert sorted(state.hand(0) + state.deck(0)) == sorted(
        ["portal-circle", "portal-square", "portal-triangle", "portal-diamond", "droid", row[0]]
    )


def test_first_player_from_the_seed_when_not_given():
    """Game Preparation: 'if no one is designated, randomly determine the first player'."""
    firsts = {GAME.new_game(4, seed=s).view(None)["first_player"] for s in range(30)}
    assert firsts == {0, 1, 2, 3}


def test_composition_option_changes_counts():
    """cards.json counts marked unconfirmed are defaults: option composition corrects them."""
    state = GAME.new_game(2, seed=1, options={"composition": {"ultimate-portal": 4}})
    assert state.census()["ultimate-portal"] == 4
    state = GAME.new_game(2, seed=1, options={"composition": {"era-circle": 20}})
    assert state.census()["era-circle"] == 20


@pytest.mark.parametrize(
    ("options", "setup", "message"),
    [
        ({"composition": {"warp-drive": 1}}, None, "unknown count"),
        ({"composition": {"droid": -1}}, None, "must be a count"),
        ({"mission": 3}, None, "solo"),
        ({}, {"first_player": 7}, "first_player"),
        ({}, {"hands": [["dragon"], []]}, "not an Eternitium card"),
        ({}, {"era": [["hexagon"], ["circle"]]}, "shapes"),
        ({}, {"colour": 1}, "unknown setup key"),
        ({}, {"hands": [["ultimate-portal"] * 4, []]}, "no ultimate-portal is left"),
        ({}, {"basic_row": ["ultimate-portal"]}, "not a Basic"),
    ],
)
def test_bad_setup_or_options_raise_badsetup(options, setup, message):
    with pytest.raises(BadSetup, match=message):
        GAME.new_game(2, seed=1, options=options, setup=setup)


@pytest.mark.parametrize("players", [0, 6, "2", True])
def test_player_count_is_1_to_5(players):
    with pytest.raises(BadSetup):
        GAME.new_game(players, seed=1)


def _doc_setup_example() -> dict:
    import json
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "eternitium.md").read_text(encoding="utf-8")
    part = doc.split("**Which Era cards are face up: one way per pile.**")[1]
    return json.loads(part.split("```json")[1].split("```")[0])


def test_era_faces_the_docs_example_comes_out_as_written():
    """Setup 6 and the setup format: a pile written with upper case is read by case alone (the
    default era_visible of 1 no longer turns its lower-case top card face up); a pile all in
    lower case takes era_visible's count (docs/eternitium.md, 'Which Era cards are face up')."""
    state = GAME.new_game(2, seed=3, setup=_doc_setup_example())
    assert state.era_pile(0) == ["circle", "SQUARE", "triangle"]
    assert state.era_pile(1) == ["DIAMOND", "SQUARE", "circle"]
    assert state.view(1)["era"][0] == ["hidden", "square", "hidden"]
    # the main example's first pile, without a count: by case as well
    case_only = GAME.new_game(2, seed=3, setup={"era": [["circle", "SQUARE"], ["diamond"]]})
    assert case_only.era_pile(0) == ["circle", "SQUARE"]
    assert case_only.era_pile(1) == ["DIAMOND"]  # all lower case: the top card, by default


@pytest.mark.parametrize("count", [1, 2])
def test_era_faces_a_count_that_contradicts_the_case_is_refused(count):
    """Setup format: case and era_visible must not disagree on a pile; the same count passes."""
    setup = {"era": [["CIRCLE", "square"], ["diamond"]], "era_visible": [count, 1]}
    if count == 1:
        assert GAME.new_game(2, seed=3, setup=setup).era_pile(0) == ["CIRCLE", "square"]
        return
    with pytest.raises(BadSetup, match=r"era_visible\[0\] says 2"):
        GAME.new_game(2, seed=3, setup=setup)


def _double_portal_market(options):
    state = make(
        2,
        options=options,
        hands=[["futuristic-smartphone"], []],
        basic_row=["double-portal-circle-square", "transporter", "digital-wallet"],
        basic_deck=["double-portal-circle-triangle", "data-analyser"],
        exact=["basic_deck"],
        era=[["circle"] * 4, ["square"] * 4],
        era_display=["circle", "square"],
    )
    state.apply("end")
    state.apply("acquire digital-wallet")
    return state


def test_market_different_means_different_technologies_one_double_portal_at_most():
    """Setup 4: 'the 3 Basic Technology cards ... must be different. If there are at least 2
    identical cards, return all but one': the card list names one technology, Double Portal, in
    6 copies, so a second Double Portal (of another pair) goes to the bottom of the deck."""
    state = _double_portal_market({})
    row = state.view(None)["basic_row"]
    assert row == ["double-portal-circle-square", "transporter", "data-analyser"]
    assert state.market_deck("basic") == ["double-portal-circle-triangle"]


def test_market_option_printed_keeps_the_reading_by_printed_card():
    """Option basic_market_distinct 'printed': two Double Portals of different pairs differ."""
    state = _double_portal_market({"basic_market_distinct": "printed"})
    row = state.view(None)["basic_row"]
    assert row == ["double-portal-circle-square", "transporter", "double-portal-circle-triangle"]


def test_market_fresh_deals_show_at_most_one_double_portal_by_default():
    """Setup 4-5, by technology: no fresh market shows two Double Portals (by printed card,
    about one two-player game in six did)."""

    def doubles(state):
        return sum(c.startswith("double-portal") for c in state.view(None)["basic_row"])

    seeds = range(200)
    assert max(doubles(GAME.new_game(2, seed=s)) for s in seeds) == 1
    printed = {"basic_market_distinct": "printed"}
    assert max(doubles(GAME.new_game(2, seed=s, options=printed)) for s in seeds) >= 2


def test_market_records_without_the_option_replay_with_the_printed_reading():
    """A record lists every option its game resolved: one without basic_market_distinct was
    written before the option, when markets were read by printed card, and replays so."""
    import random

    seed = next(
        s
        for s in range(100)
        if GAME.new_game(2, seed=s).view(None)["basic_row"]
        != GAME.new_game(2, seed=s, options={"basic_market_distinct": "printed"}).view(None)[
            "basic_row"
        ]
    )
    old = GAME.new_game(2, seed=seed, options={"basic_market_distinct": "printed"})
    rng = random.Random(1)
    for _ in range(40):
        old.apply(rng.choice(old.legal_actions()))
    record = old.to_record()
    assert record["options"]["basic_market_distinct"] == "printed"
    del record["options"]["basic_market_distinct"]
    replayed = GAME.from_record(record)
    assert replayed.view(None) == old.view(None)
    fresh = GAME.new_game(2, seed=seed)
    assert fresh.to_record()["options"]["basic_market_distinct"] == "technology"
    assert GAME.from_record(fresh.to_record()).view(None) == fresh.view(None)


# Every refusal of a setup (setup.py, and the deal's for what it finds left), word for word: the
# typed parse (a TypedDict out of JSON narrowed by these checks) refuses the same setups alike.
KNOWN = (
    "first_player, hands, decks, discards, blind, era, era_visible, era_deck, era_display, "
    "era_discard, basic_row, basic_deck, advanced_row, advanced_deck, portals, portal_deck, "
    "ai_deck, exact"
)
NOT_CARD = (
    "is not an Eternitium card: write e.g. 'portal-circle', 'droid', "
    "'double-portal-circle-square', 'ultimate-portal'"
)


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ([1], f"setup must be an object with keys among {KNOWN}"),
        ({"colour": 1}, f"unknown setup key(s) colour; known: {KNOWN}"),
        ({"first_player": 7}, "setup first_player must be a seat 0..1, not 7"),
        ({"first_player": True}, "setup first_player must be a seat 0..1, not True"),
        ({"hands": [[]]}, "setup hands must hold one entry per seat (2)"),
        ({"hands": "droid"}, "setup hands must hold one entry per seat (2)"),
        (
            {"hands": ["droid", []]},
            "setup hands[0] must be a list of card ids like 'portal-circle'",
        ),
        ({"hands": [[1], []]}, "setup hands[0] must be a list of card ids like 'portal-circle'"),
        ({"hands": [["dragon"], []]}, f"setup hands[0]: 'dragon' {NOT_CARD}"),
        ({"hands": [[], []], "blind": [["droid"], []]}, "setup blind[0]: seat 0 holds no droid"),
        (
            {"hands": [[], []], "blind": [["portal-circle"], []]},
            "setup blind[0]: portal-circle is no technology (only those are taken blind)",
        ),
        (
            {"decks": [[], []]},
            "setup decks, discards and blind need hands too (they replace the setup pick)",
        ),
        (
            {"era": ["circle", []]},
            "setup era[0] must be a list of shapes (circle, square, triangle, diamond)",
        ),
        (
            {"era": [[1], []]},
            "setup era[0] must be a list of shapes (circle, square, triangle, diamond)",
        ),
        (
            {"era": [["hexagon"], ["circle"]]},
            "setup era[0] must be a list of shapes (circle, square, triangle, diamond)",
        ),
        (
            {"era_deck": ["hexagon"]},
            "setup era_deck must be a list of shapes (circle, square, triangle, diamond)",
        ),
        (
            {"era_discard": "circle"},
            "setup era_discard must be a list of shapes (circle, square, triangle, diamond)",
        ),
        (
            {"era_display": ["circle", "circle", "square"]},
            "setup era_display holds at most 2 Era cards (rules: Setup 7)",
        ),
        ({"era_visible": [1]}, "setup era_visible must hold one entry per seat (2)"),
        (
            {"era_visible": [-1, None]},
            "setup era_visible must give a count >= 0 (or null) per seat",
        ),
        (
            {"era_visible": [True, None]},
            "setup era_visible must give a count >= 0 (or null) per seat",
        ),
        (
            {"era_visible": ["1", None]},
            "setup era_visible must give a count >= 0 (or null) per seat",
        ),
        (
            {"basic_row": ["ultimate-portal"]},
            "setup basic_row: ultimate-portal is not a Basic Technology card",
        ),
        (
            {"advanced_deck": ["droid"]},
            "setup advanced_deck: droid is not a Advanced Technology card",
        ),
        (
            {"basic_row": ["droid", "droid", "droid", "droid"]},
            "setup basic_row holds at most 3 cards (rules: Setup 4-5)",
        ),
        (
            {"portals": {"hexagon": 1}},
            "setup portals maps shapes to reserve counts, e.g. {'circle': 2}",
        ),
        (
            {"portals": {"circle": -1}},
            "setup portals maps shapes to reserve counts, e.g. {'circle': 2}",
        ),
        (
            {"portals": {"circle": True}},
            "setup portals maps shapes to reserve counts, e.g. {'circle': 2}",
        ),
        (
            {"portals": {"circle": 1.0}},
            "setup portals maps shapes to reserve counts, e.g. {'circle': 2}",
        ),
        ({"portals": [1]}, "setup portals maps shapes to reserve counts, e.g. {'circle': 2}"),
        ({"portal_deck": ["droid"]}, "setup portal_deck holds Portal cards only"),
        (
            {"portal_deck": "portal-circle"},
            "setup portal_deck must be a list of card ids like 'portal-circle'",
        ),
        ({"exact": ["hands"]}, "setup exact lists keys among basic_deck, advanced_deck, era_deck"),
        (
            {"exact": "basic_deck"},
            "setup exact lists keys among basic_deck, advanced_deck, era_deck",
        ),
        ({"exact": [1]}, "setup exact lists keys among basic_deck, advanced_deck, era_deck"),
        ({"ai_deck": ["dragon"]}, f"setup ai_deck: 'dragon' {NOT_CARD}"),
        ({"ai_deck": [None]}, "setup ai_deck must be a list of card ids like 'portal-circle'"),
    ],
)
def test_each_bad_setup_is_refused_in_its_own_words(setup, message):
    with pytest.raises(BadSetup) as refused:
        GAME.new_game(2, seed=1, setup=setup)
    assert str(refused.value) == message


def test_a_parsed_setup_is_the_typed_setup_it_declares():
    """parse_setup gives an EternitiumSetup: the keys SETUP_KEYS names, each of its declared
    type (kinds, shapes and counts as ints), here with every key given."""
    setup = {
        "first_player": 1,
        "hands": [["droid"], ["portal-circle", "transporter"]],
        "decks": [["portal-square"], []],
        "discards": [[], ["digital-wallet"]],
        "blind": [[], ["transporter"]],
        "era": [["CIRCLE", "square"], ["diamond"]],
        "era_visible": [None, 1],
        "era_deck": ["triangle"],
        "era_display": ["circle", "square"],
        "era_discard": ["diamond"],
        "basic_row": ["transporter"],
        "basic_deck": ["droid"],
        "advanced_row": ["time-bomb"],
        "advanced_deck": ["laboratory"],
        "portals": {"circle": 2},
        "portal_deck": ["portal-circle"],
        "ai_deck": ["time-bomb"],
        "exact": ["basic_deck"],
    }
    assert set(setup) == set(SETUP_KEYS) == EternitiumSetup.__optional_keys__
    parsed = parse_setup(setup, 2)
    assert set(parsed) == set(SETUP_KEYS)
    check_typed(parsed, EternitiumSetup, "setup")
    assert parsed["era"] == [[0 | VISIBLE, 1], [3]]
    assert parsed["portals"] == {0: 2}
    assert parse_setup(None, 2) == {}
