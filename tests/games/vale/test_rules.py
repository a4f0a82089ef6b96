"""The phases and general rules of The Vale of Eternity, each from an exact position."""

from __future__ import annotations

import json
import random

import pytest
from vale_helpers import acting, legal, play, resolving, vale

import eterna
from eterna import BadNotation, BadSetup, IllegalAction
from eterna.games.vale import GAME
from eterna.games.vale.cards import ACTIONS, BASE_ACTIONS, BASE_DECK_SIZE, parse_action


# ============================================================================ setup (§3)
def test_the_game_is_registered_with_its_contract():
    assert "vale" in eterna.game_ids()
    assert eterna.load_game("vale") is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert set(GAME.options) == {
        "dragon_attack_targets",
        "young_spirit_area_limit",
        "free_summon_triggers",
        "exalted_recover",
        "expansions",
        "swap_dragon_targets",
        "allow_superfluous_payment",
        "artifact_set",
        "end_threshold",
        "artifact_block",
        "bought_area_limit",
        "thoth_same_stone",
        "ring_of_wishes",
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_starting_points_no_cards_no_stones(players):
    st = GAME.new_game(players, seed=5, setup={"first_player": 1})
    expected = [0] * players
    for i in range(players):
        expected[(1 + i) % players] = i + 1  # §3.5: 1, 2, 3, 4 from the first player
    assert st.scores == expected
    view = st.view(None)
    assert view["hand_sizes"] == [0] * players and view["areas"] == [[]] * players
    assert all(s == {"red": 0, "blue": 0, "purple": 0} for s in view["stones"])
    assert (
        view["deck_count"] == BASE_DECK_SIZE - 2 * players and len(view["revealed"]) == 2 * players
    )
    assert view["phase"] == "hunting" and st.current_player == 1


def test_a_random_first_player_comes_from_the_seed():
    firsts = {GAME.new_game(3, seed=s).view(None)["first_player"] for s in range(30)}
    assert firsts == {0, 1, 2}


def test_bad_setups_are_refused():
    for setup in (
        {"hands": [["kappa"], ["kappa"]]},
        {"areas": [["kappa", "imp"], []], "round": 1},
        {"stones": [["red"] * 5, []]},
        {"hands": [["nope"], []]},
        {"colour": 1},
        {"round": 11},
        {"claimed": [[], []], "revealed": []},
        {"first_player": 2},
    ):
        with pytest.raises(BadSetup):
            GAME.new_game(2, seed=1, setup=setup)
    with pytest.raises(BadSetup):
        GAME.new_game(5, seed=1)
    with pytest.raises(BadSetup):
        GAME.new_game(2, seed=1, options={"allow_superfluous_payment": "yes"})


def test_setup_deck_top_is_revealed_first():
    st = vale(deck=["tidal", "kappa", "imp", "ifrit", "goblin"])
    assert st.revealed() == ["ifrit", "imp", "kappa", "tidal"]  # sorted by family
    assert st.deck()[0] == "goblin"


# ============================================================================ hunting (§4)
def test_hunting_snake_draft_order_for_three_players():
    st = vale(3, first_player=1, deck=["imp", "ifrit", "kappa", "nessie", "goblin", "troll"])
    order = []
    while st.phase == "hunting":
        order.append(st.current_player)
        st.apply(st.legal_actions()[0])
    assert order == [1, 2, 0, 0, 2, 1]
    assert st.phase == "action" and st.current_player == 1


def test_a_claimed_card_cannot_be_claimed_again():
    st = vale(deck=["imp", "ifrit", "kappa", "nessie"])
    play(st, "claim imp")
    with pytest.raises(IllegalAction, match=r"§4\.2"):
        st.apply("claim imp")
    assert st.claimed(0) == ["imp"] and legal(st) == ["claim ifrit", "claim kappa", "claim nessie"]


def test_the_first_player_passes_left_each_round():
    st = acting(players=3, round=1)
    play(st, "end-turn", "end-turn", "end-turn")
    assert st.round == 2 and st.view(None)["first_player"] == 1 and st.current_player == 1


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out():
    names = [a.text.split()[1] for a in BASE_ACTIONS if a.text.startswith("claim ")]
    deck, discard, hands = names[:2], names[2:5], names[5:]
    st = acting(deck=deck, discard=discard, hands=[hands[:32], hands[32:]])
    play(st, "end-turn", "end-turn")  # round 4 reveals 4: 2 from the deck, then the pile
    assert set(deck) <= set(st.revealed()) and len(st.revealed()) == 4
    assert st.discard_pile() == [] and st.view(None)["deck_count"] == 1


def test_fewer_cards_than_claims_leaves_players_without_a_claim():
    names = [a.text.split()[1] for a in BASE_ACTIONS if a.text.startswith("claim ")]
    st = acting(hands=[names[:34], names[34:67]], discard=names[67:])
    play(st, "end-turn", "end-turn")  # Q20: only three cards to reveal for four claims
    assert len(st.revealed()) == 3
    play(st, *legal(st)[:1])
    play(st, *legal(st)[:1])
    play(st, *legal(st)[:1])
    assert st.phase == "action"  # the first player's second claim is skipped


# ============================================================================ actions (§5)
@pytest.mark.parametrize(
    ("card", "stones"),
    [
        ("ifrit", {"red": 3, "blue": 0, "purple": 0}),
        ("kappa", {"red": 0, "blue": 1, "purple": 0}),
        ("goblin", {"red": 4, "blue": 0, "purple": 0}),
        ("boreas", {"red": 1, "blue": 1, "purple": 0}),
        ("tidal", {"red": 0, "blue": 0, "purple": 1}),
    ],
)
def test_selling_gives_the_family_stones(card, stones):
    st = acting(claimed=[[card], []])
    play(st, f"sell {card}")
    assert st.stones(0) == stones and st.discard_pile() == [card]


def test_taming_takes_a_claimed_card_into_the_hand_face_up():
    st = acting(claimed=[["kappa"], []])
    play(st, "tame kappa")
    assert st.hand(0) == ["kappa"] and st.view(1)["known_hands"][0] == ["kappa"]


def test_the_turn_cannot_end_with_a_claimed_card_left():
    st = acting(claimed=[["kappa", "imp"], []])
    assert "end-turn" not in legal(st)
    with pytest.raises(IllegalAction, match=r"§5\.2"):
        st.apply("end-turn")
    play(st, "sell kappa", "tame imp", "end-turn")
    assert st.current_player == 1


def test_only_claimed_cards_can_be_sold():
    st = acting(hands=[["kappa"], []])
    with pytest.raises(IllegalAction, match=r"§5\.1"):
        st.apply("sell kappa")


def test_the_area_holds_as_many_cards_as_the_round_number():
    st = acting(round=2, hands=[["imp", "hestia", "succubus"], []])
    play(st, "summon imp", "summon hestia")
    assert not any(a.startswith("summon") for a in legal(st))
    with pytest.raises(IllegalAction, match="area size = round number"):
        st.apply("summon succubus")


def test_payment_needs_enough_value_and_gives_no_change():
    st = acting(hands=[["lava-giant"], []], stones=[["red", "red", "purple"], []])
    assert [a for a in legal(st) if a.startswith("summon")] == ["summon lava-giant pay purple"]
    with pytest.raises(IllegalAction, match="worth 2"):
        st.apply("summon lava-giant pay red+red")
    play(st, "summon lava-giant pay purple")
    assert st.stones(0) == {"red": 2, "blue": 0, "purple": 0}  # no change for the 6


def test_every_distinct_sufficient_payment_is_offered():
    st = acting(hands=[["poseidon"], []], stones=[["red", "blue", "blue", "purple"], []])
    pays = [a for a in legal(st) if a.startswith("summon poseidon")]
    assert pays == [
        "summon poseidon pay purple+red",
        "summon poseidon pay purple+blue",
        "summon poseidon pay blue+blue+red",
    ]


def test_payments_memo_answers_as_the_rule_computes__s5_3_2():
    """§5.3.2 and Q15: the memo of payable stone sets (keyed by its arguments packed into one
    int) gives what the computation gives, for every argument it packs and for ones too large
    to pack (not memoised)."""
    from eterna.games.vale.payments import _payments, payments

    rng = random.Random(5)
    cases = [
        (
            rng.randrange(12),
            tuple(rng.randrange(6) for _ in range(3)),
            (1, 3, 6),
            rng.random() < 0.5,
        )
        for _ in range(400)
    ]
    cases += [
        (70, (2, 2, 2), (1, 3, 6), False),
        (5, (1, 64, 0), (1, 3, 6), True),
        (5, (1, 1, 1), (1, 3, 99), False),
    ]
    for cost, held, values, superfluous in cases:
        assert payments(cost, held, values, superfluous) == _payments(
            cost, held, values, superfluous
        )  # type: ignore[arg-type]


def test_a_superfluous_stone_is_refused_unless_the_option_allows_it():
    st = acting(hands=[["lava-giant"], []], stones=[["blue", "red"], []])
    with pytest.raises(IllegalAction, match="Q15"):
        st.apply("summon lava-giant pay blue+red")
    st = acting(
        hands=[["lava-giant"], []],
        stones=[["blue", "red"], []],
        options={"allow_superfluous_payment": True},
    )
    play(st, "summon lava-giant pay blue+red")
    assert st.stones(0) == {"red": 0, "blue": 0, "purple": 0}


def test_cost_reductions_stack_and_never_go_below_zero():
    st = acting(
        round=4,
        hands=[["sylph", "kappa"], []],
        areas=[["pegasus", "hippogriff"], []],
        stones=[["red"], []],
    )
    assert "summon sylph pay red" in legal(st)  # 4 - 1 - 2
    assert "summon kappa" in legal(st)  # 1 - 1 = 0


def test_removing_a_card_costs_the_round_number():
    st = acting(round=4, areas=[["imp"], []], stones=[["blue", "red", "purple"], []])
    removals = [a for a in legal(st) if a.startswith("remove")]
    assert removals == ["remove imp pay purple", "remove imp pay blue+red"]
    play(st, "remove imp pay blue+red")
    assert st.area(0) == [] and st.discard_pile() == ["imp"]


def test_the_stone_limit_applies_at_once_and_blocks_other_actions():
    st = acting(claimed=[["goblin", "kappa"], []], stones=[["blue"], []])
    play(st, "sell goblin")  # 5 stones
    assert legal(st) == ["discard-stone red", "discard-stone blue"]
    with pytest.raises(IllegalAction, match="stone limit"):
        st.apply("sell kappa")
    play(st, "discard-stone blue")
    assert st.stones(0) == {"red": 4, "blue": 0, "purple": 0}
    assert "sell kappa" in legal(st)


def test_a_card_whose_instant_cannot_apply_is_not_summoned():
    st = acting(hands=[["aeris"], []], stones=[["purple", "purple"], []])
    with pytest.raises(IllegalAction, match="instant effect cannot be applied in full"):
        st.apply("summon aeris pay purple+purple")


def test_whenever_you_summon_fires_after_the_instant_for_free_summons_too():
    st = acting(round=4, hands=[["young-forest-spirit", "imp", "kappa"], []], areas=[["sylph"], []])
    play(st, "summon young-forest-spirit", "discard kappa", "summon imp free")
    assert st.scores[0] == 2  # Q4: sylph for both summons
    st = acting(
        round=4,
        hands=[["young-forest-spirit", "imp", "kappa"], []],
        areas=[["sylph"], []],
        options={"free_summon_triggers": "none"},
    )
    play(st, "summon young-forest-spirit", "discard kappa", "summon imp free")
    assert st.scores[0] == 1


# ============================================================================ resolution (§6)
def test_resolution_is_mandatory_in_the_chosen_order_then_passes_on():
    st = resolving(areas=[["salamander", "burning-skull"], ["undine-queen"]])
    assert legal(st) == ["resolve burning-skull"] or legal(st) == [
        "resolve salamander",
    ]  # burning skull needs a red stone first
    play(st, "resolve salamander", "resolve burning-skull")
    assert st.current_player == 1 and legal(st) == ["resolve undine-queen"]
    play(st, "resolve undine-queen")
    assert st.round == 4 and st.phase == "hunting"
    assert st.scores == [4, 0]


def test_a_card_resolves_once_per_round():
    st = resolving(areas=[["salamander", "imp"], []])
    play(st, "resolve salamander")
    with pytest.raises(IllegalAction, match="once per round"):
        st.apply("resolve salamander")


# ============================================================================ end (§9, §10)
def test_the_game_ends_after_the_round_in_which_someone_reaches_60():
    st = acting(scores=[59, 0], areas=[["salamander"], []])
    play(st, "end-turn", "end-turn")
    assert not st.is_terminal  # 60 is checked only after the resolution phase
    play(st, "resolve salamander")
    assert st.is_terminal and st.scores == [60, 0] and st.winners == [0]
    assert st.current_player is None and st.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        st.apply("end-turn")


def test_a_player_pulled_back_under_60_does_not_end_the_game():
    st = acting(scores=[60, 0], areas=[["goblin-soldier"], []])
    play(st, "end-turn", "end-turn", "resolve goblin-soldier")
    assert st.scores[0] == 56 and not st.is_terminal  # Q16


def test_the_game_ends_after_round_ten():
    st = acting(round=10, scores=[3, 5])
    play(st, "end-turn", "end-turn")
    assert st.is_terminal and st.winners == [1]


def test_a_tie_goes_to_more_cards_in_the_area_then_is_shared():
    st = acting(round=10, scores=[5, 5], areas=[["imp", "hestia"], ["kappa", "agni"]])
    play(st, "end-turn", "end-turn", "resolve imp")
    assert st.winners == [1]  # imp went back to hand: 1 card against 2
    st = acting(round=10, scores=[5, 5], areas=[["hestia", "succubus"], ["kappa"]])
    play(st, "end-turn", "end-turn")
    assert st.winners == [0]
    st = acting(round=10, scores=[5, 5], areas=[["hestia"], ["kappa"]])
    play(st, "end-turn", "end-turn")
    assert st.winners == [0, 1]


# ============================================================================ notation, errors
def test_every_action_round_trips_through_its_notation():
    for action in ACTIONS:
        assert parse_action(action.text) is action
        assert GAME.parse_action(action.text.upper()) is action


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dance",
        "summon",
        "summon dragon",
        "summon kappa pay gold",
        "claim",
        "target seat-9",
        "choose nothing",
        "remove kappa",
        "summon kappa pay " + "+".join(["red"] * 7),
        "discard-stone",
    ],
)
def test_malformed_notation_raises_bad_notation(text):
    st = acting(hands=[["kappa"], []])
    before = json.dumps(st.view(0))
    with pytest.raises(BadNotation):
        st.apply(text)
    assert json.dumps(st.view(0)) == before


def test_non_actions_raise_eterna_errors():
    st = acting()
    for bad in (None, 3, ["end-turn"]):
        with pytest.raises(eterna.EternaError):
            st.apply(bad)


def test_answers_outside_a_choice_are_refused_with_the_rule():
    st = acting()
    for text in ("done", "copy imp", "target seat-1", "choose red", "discard-stone red"):
        with pytest.raises(IllegalAction, match="§11"):
            st.apply(text)


# ============================================================================ views
def test_view_keys_and_hidden_hands():
    st = acting(hands=[["kappa"], ["imp"]], deck=["tidal"])
    play(st, "end-turn")
    view = st.view(0)
    for key in (
        "hand",
        "hand_sizes",
        "known_hands",
        "areas",
        "stones",
        "claimed",
        "scores",
        "deck_count",
        "discard",
        "revealed",
        "phase",
        "round",
        "pending",
        "log",
    ):
        assert key in view
    assert view["hand"] == ["kappa"] and view["hand_sizes"] == [1, 1]
    assert st.view(None)["hand"] is None
    assert "legal_actions" in st.view(1) and "legal_actions" not in st.view(0)
    json.dumps(st.view(None))


def test_pending_options_are_shown_only_to_the_chooser():
    st = acting(hands=[["forest-spirit", "behemoth"], []], stones=[["red", "red"], []])
    play(st, "summon forest-spirit pay red+red")
    assert st.view(0)["pending"]["options"] == ["discard behemoth"]
    assert "options" not in st.view(1)["pending"]


# ============================================================================ records, clone
def test_records_replay_to_the_same_state():
    st = GAME.new_game(3, seed=42)
    rng = random.Random(3)
    for _ in range(150):
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
    again = GAME.from_record(json.loads(json.dumps(st.to_record())))
    assert again.view(None) == st.view(None)
    assert all(again.view(s) == st.view(s) for s in range(3))


def test_clone_is_independent():
    st = acting(hands=[["imp"], []])
    copy = st.clone()
    play(copy, "summon imp")
    assert st.hand(0) == ["imp"] and copy.area(0) == ["imp"]


def test_determinize_keeps_what_the_seat_knows():
    st = acting(hands=[["dandelion-spirit", "kappa"], ["imp"]], stones=[["blue"], []])
    play(st, "summon dandelion-spirit pay blue")  # seat 0 draws a secret card
    drawn = [c for c in st.hand(0) if c != "kappa"]
    guess = st.determinize(1, random.Random(5))
    assert guess.hand(1) == ["imp"]
    assert "kappa" in guess.hand(0) and len(guess.hand(0)) == 2
    mine = st.determinize(0, random.Random(5))
    assert sorted(mine.hand(0)) == sorted(["kappa", *drawn])
    assert sorted(guess.deck() + guess.hand(0)) == sorted(st.deck() + st.hand(0))
    with pytest.raises(eterna.EternaError):
        guess.to_record()
