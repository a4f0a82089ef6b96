"""The Vale's positions (docs/vale.md#positions): every state of random games round-trips,
seat positions hide what the seat cannot see, the doc's example loads, and each class of
malformed position is refused with BadPosition naming its field."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_
from tests.positions import assert_round_trip, assert_seat_position_hides, unknowns
from vale_helpers import acting, play, vale

from eterna import BadPosition, EternaError
from eterna.core.position import UNKNOWN, share_code
from eterna.games.vale import GAME, ValeState
from eterna.games.vale.cards import CARD_BY_NAME

GAME_CARD_ORDER = CARD_BY_NAME.__getitem__  # hands and shelters are sorted by card index

DOC = Path(__file__).parents[3] / "docs" / "vale.md"
VARIANT = {
    "dragon_attack_targets": "opponents",
    "young_spirit_area_limit": "ignored",
    "free_summon_triggers": "none",
    "exalted_recover": "copier",
    "allow_superfluous_payment": True,
}


def doc_example() -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8").split("## Positions", 1)[1]
    block = re.search(r"```json\n(.*?)```", text, re.S)
    assert block is not None
    loaded: dict[str, Any] = json.loads(block.group(1))
    return loaded


def random_actions(st: ValeState, rng: random.Random, k: int) -> list[str]:
    probe = st.clone()
    out = []
    for _ in range(k):
        if probe.is_terminal:
            break
        action = rng.choice(probe.legal_actions())
        out.append(str(action))
        probe.apply(action)
    return out


# ============================================================================ round trips
ART_VARIANT = {
    "thoth_same_stone": True,
    "ring_of_wishes": "spent",
    "artifact_block": "held",
    "swap_dragon_targets": "any",
    "bought_area_limit": 10,
    "end_threshold": 100,
}
SETS = {
    "base": {},
    "artifacts-basic": {"expansions": ["artifacts"]},
    "artifacts-advanced": {"expansions": ["artifacts"], "artifact_set": "advanced"},
}


def play_checking_positions(st: ValeState, seed: int) -> None:
    """Every state round-trips; every few states, and at every question an effect asks, no
    seat's position leaks."""
    rng = random.Random(seed)
    k = 0
    while True:
        assert_round_trip(st, random_actions(st, rng, 2))
        choice = st.choice
        if k % 25 == 0 or (choice is not None and choice.step.kind != "stone_limit"):
            for seat in range(st.players):
                assert_seat_position_hides(st, seat, draws=1)
        if st.is_terminal:
            break
        st.apply(rng.choice(st.legal_actions()))
        k += 1


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("cards", list(SETS))
@settings(max_examples=2, deadline=None)
@given(seed=st_.integers(0, 2**62 - 1), variant=st_.booleans())
def test_every_state_of_a_random_game_round_trips(
    cards: str, players: int, seed: int, variant: bool
) -> None:
    options = dict(SETS[cards])
    if variant:
        options.update(VARIANT)
        if options.get("expansions"):
            options.update(ART_VARIANT)
    st = GAME.new_game(players, seed=seed, options=options)
    play_checking_positions(st, seed)


def test_the_docs_example_loads_as_described() -> None:
    position = doc_example()
    st = GAME.from_position(position)
    assert st.phase == "action" and st.round == 4 and st.current_player == 0
    assert [str(a) for a in st.legal_actions()] == position["pending"]["options"]
    view = st.view(0)
    assert view["pending"]["kind"] == "choose_one" and view["log"] == position["log"]
    assert st.deck()[0] == "stone-golem" and st.discard_pile()[-1] == "leviathan"
    assert_round_trip(st, ["choose draw", "choose points"])
    st.apply("choose draw")  # draws the deck's top card, then asks for the second reward
    assert "stone-golem" in st.hand(0)
    before = st.scores[0]
    st.apply("choose points")  # 4 points, then the summon's permanents: none in the area
    assert st.scores[0] == before + 4 and st.choice is None


def test_a_position_loads_from_its_share_code_and_its_record_replays() -> None:
    st = GAME.from_position(share_code(doc_example()))
    play(st, "choose blue", "choose draw")
    record = st.to_record()
    assert record["position"] == doc_example() and record["actions"] == [
        "choose blue",
        "choose draw",
    ]
    again = GAME.from_record(record)
    assert again.view(None) == st.view(None)
    story = st.events_since(0, None)  # told from the position on
    assert story[0]["kind"] == "round_started"
    assert [e["kind"] for e in story].count("effect_choice") == 1


def test_an_attack_waiting_on_its_victim_round_trips() -> None:
    st = acting(
        2,
        hands=[["leviathan"], []],
        areas=[[], ["boulder"]],
        stones=[["purple"], []],
    )
    play(st, "summon leviathan pay purple", "target 1")
    assert st.current_player == 1 and st.choice is not None and st.choice.seat == 0
    position = st.to_position()
    assert position["pending"]["step"] == "leviathan.instant[1]"
    assert position["pending"]["arg"] == 1  # the named player now picks the card
    assert_round_trip(st, ["discard boulder"])
    for seat in range(2):
        assert_seat_position_hides(st, seat)


def test_a_seat_position_hides_drawn_cards_and_the_deck_but_a_known_top() -> None:
    st = acting(2, hands=[["tengu"], []], stones=[["blue"], []])
    play(st, "summon tengu pay blue")  # Tengu goes back on top of the deck
    assert st.deck()[0] == "tengu"
    mine = st.to_position(1)
    assert mine["deck"][0] == "tengu" and set(mine["deck"][1:]) == {UNKNOWN}
    assert mine["deck_top_known"] is True and mine["rng"] is None
    st.apply("end-turn")
    play(st, "end-turn")
    guess = GAME.from_position(st.to_position(0))
    assert unknowns(st.to_position(0)) == len(st.deck())
    with pytest.raises(EternaError, match="guess"):
        guess.to_record()
    assert GAME.from_position(guess.to_position()).view(0) == st.view(0)


def test_a_drawn_card_is_hidden_from_the_others_only() -> None:
    st = acting(2, hands=[["sylph"], []], stones=[["purple"], []], deck=["imp", "kappa"])
    play(st, "summon sylph pay purple")  # draws imp, face down
    whole = st.to_position()
    assert whole["hidden"] == [["imp"], []]
    assert st.to_position(0)["hands"][0] == ["imp"]
    assert st.to_position(1)["hands"][0] == [UNKNOWN]
    assert st.to_position(1)["hidden"][0] == [UNKNOWN]
    assert_seat_position_hides(st, 1)


def test_version_1_games_have_no_position() -> None:
    st = GAME.new_game(2, seed=3, version=1)
    with pytest.raises(EternaError, match="version 1"):
        st.to_position()


# ============================================================================ malformed
def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(p: dict[str, Any]) -> None:
        target: Any = p
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _move_top_of_deck_to_discard(p: dict[str, Any]) -> None:
    p["discard"].insert(0, p["deck"][0])  # now in two places


def _drop_a_card(p: dict[str, Any]) -> None:
    p["deck"].pop()


def _seat_unknown_in_view(p: dict[str, Any]) -> None:
    p["seat"] = 1
    p["rng"] = None
    p["hands"][0][0] = UNKNOWN  # ... yet seat 1 saw Behemoth tamed


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("wrong type", _set(["hands"], "behemoth"), "hands"),
    ("unknown key", _set(["shelter_x"], []), ""),
    ("unknown card", _set(["areas", 0, 0], "dragon"), "areas[0][0]"),
    ("card in two places", _move_top_of_deck_to_discard, "discard[0]"),
    ("cards do not add up", _drop_a_card, "deck"),
    ("a bound exceeded", _set(["round"], 11), "round"),
    ("stones out of bounds", _set(["stones", 0, "red"], -1), "stones[0].red"),
    ("impossible seat to move", _set(["to_move"], 1), "to_move"),
    ("a hunt outside the hunt", _set(["hunt"], {"order": [0, 1, 1, 0], "picks_made": 0}), "hunt"),
    ("a step in no card", _set(["work", 0, "step"], "hydra.active[0]"), "work[0].step"),
    ("a kind not its step's", _set(["pending", "kind"], "steal_points"), "pending.kind"),
    ("options not the rules'", _set(["pending", "options"], ["choose red"]), "pending.options"),
    ("a question asked of the wrong seat", _set(["pending", "chooser"], 1), "pending.chooser"),
    ("work with nothing pending", _set(["pending"], None), "work"),
    ("unknown outside a seat's position", _set(["deck", 0], UNKNOWN), "deck[0]"),
    ("a seen card written unknown", _seat_unknown_in_view, "hidden[0]"),
    ("a bad generator state", _set(["rng"], "xyz"), "rng"),
]


@pytest.mark.parametrize(
    ("edit", "field"), [(e, f) for _, e, f in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_each_class_of_malformed_position_is_refused_naming_its_field(
    edit: Callable[[dict[str, Any]], None], field: str
) -> None:
    position = copy.deepcopy(doc_example())
    edit(position)
    with pytest.raises(BadPosition) as caught:  # nothing else escapes: no half-built state
        GAME.from_position(position)
    if field:
        assert caught.value.field == field, str(caught.value)


def test_refusals_name_the_exact_place() -> None:
    p = doc_example()
    p["claimed"][1] = ["undine-queen", "poseidon", "stone-golem"]
    p["deck"].remove("stone-golem")
    with pytest.raises(BadPosition) as caught:
        GAME.from_position(p)
    assert caught.value.field == "claimed[1]"
    p = doc_example()
    p["pending"]["options"] = ["choose red"]
    with pytest.raises(BadPosition) as caught:
        GAME.from_position(p)
    assert caught.value.field == "pending.options"
    p = doc_example()
    p["shelter_x"] = []
    with pytest.raises(BadPosition, match="unknown key"):
        GAME.from_position(p)


def test_a_named_player_who_is_no_seat_is_refused() -> None:
    st = acting(2, hands=[["leviathan"], []], areas=[[], ["boulder"]], stones=[["purple"], []])
    play(st, "summon leviathan pay purple", "target 1")
    position = st.to_position()
    position["pending"]["arg"] = 5  # a 2-player table: the step would look at seat 5's area
    with pytest.raises(BadPosition) as caught:
        GAME.from_position(position)
    assert caught.value.field == "pending.arg"


@pytest.mark.parametrize("start", ["revealed", "claimed"])
def test_games_from_a_setup_round_trip_through_every_phase(start: str) -> None:
    setup: dict[str, Any] = {"first_player": 1, "round": 2, "scores": [3, 4, 5]}
    setup["areas"] = [["salamander"], ["undine-queen"], ["horned-salamander"]]
    if start == "revealed":
        setup["revealed"] = ["kappa", "imp", "ifrit", "agni", "sylph", "undine"]
    else:
        setup["claimed"] = [["kappa"], ["imp", "ifrit"], []]
    st = GAME.new_game(3, seed=11, setup=setup)
    rng = random.Random(4)
    phases = set()
    while st.round == 2 and not st.is_terminal:
        phases.add(st.phase)
        assert_round_trip(st, random_actions(st, rng, 3))
        st.apply(rng.choice(st.legal_actions()))
    assert {"action", "resolution"} <= phases


def test_a_resolution_under_way_keeps_what_is_resolved() -> None:
    st = acting(2, areas=[["salamander", "undine-queen"], ["horned-salamander"]])
    play(st, "end-turn", "end-turn", "resolve salamander")
    position = st.to_position()
    assert position["phase"] == "resolution" and position["resolved"] == ["salamander"]
    loaded = GAME.from_position(position)
    assert [str(a) for a in loaded.legal_actions()] == ["resolve undine-queen"]
    assert_round_trip(st, ["resolve undine-queen", "resolve horned-salamander"])


# ============================================================================ the Artifacts
ART = {"expansions": ["artifacts"]}
TILES_2P = ["incense-burner", "monkey-kings-staff", "pied-pipers-pipe"]


def fleece() -> ValeState:
    """Seat 0 holds Golden Fleece (with Book of Thoth blocked) and has used it: its question
    (shelter the deck's top card or retrieve Kappa) waits; seat 1 shelters Imp."""
    st = acting(
        2,
        options=ART,
        glade=[*TILES_2P, "golden-fleece", "book-of-thoth"],
        artifacts=["golden-fleece", None],
        blocked=["book-of-thoth", None],
        shelters=[["kappa"], ["imp"]],
        bought_areas=[1, 0],
        hands=[["sylph"], []],
    )
    play(st, "use golden-fleece")
    return st


def test_an_artifact_tiles_question_is_named_by_its_tile() -> None:
    st = fleece()
    position = st.to_position()
    assert position["pending"]["step"] == "tile:golden-fleece[0]"
    assert position["pending"]["card"] is None
    assert position["pending"]["artifact"] == "golden-fleece"
    assert position["held"] == [None, None] and position["picked"] == ["golden-fleece", None]
    assert position["blocked"] == ["book-of-thoth", None] and position["bought_areas"] == [1, 0]
    assert position["shelters"] == [["kappa"], ["imp"]] and position["loki"] == [None, None]
    assert_round_trip(st, ["choose shelter-top", "end-turn"])
    for seat in range(2):
        assert_seat_position_hides(st, seat)


def test_a_card_sheltered_face_down_is_a_question_mark_to_the_others() -> None:
    st = fleece()
    top = st.deck()[0]
    play(st, "choose shelter-top")  # only seat 0 sees the deck's top card go in
    whole = st.to_position()
    assert whole["shelters"][0] == sorted(["kappa", top], key=GAME_CARD_ORDER)
    assert whole["shelters_hidden"] == [[top], []]
    theirs = st.to_position(1)
    assert theirs["shelters"][0] == ["kappa", UNKNOWN]  # Kappa was seen going in
    assert theirs["shelters_hidden"][0] == [UNKNOWN]
    assert st.to_position(0)["shelters"][0] == whole["shelters"][0]
    assert_seat_position_hides(st, 1)
    guess = GAME.from_position(theirs)
    assert guess.view(1)["artifacts"] == st.view(1)["artifacts"]


def test_the_tile_picks_of_a_hunt_round_trip() -> None:
    st = GAME.new_game(3, seed=5, options=ART)
    position = st.to_position()
    assert position["phase"] == "hunting" and position["hunt"]["tiles_picked"] == 0
    first = st.current_player
    play(st, str(st.legal_actions()[0]))
    position = st.to_position()
    assert position["picked"][first] is not None
    if position["pending"] is None:
        assert position["hunt"]["tiles_picked"] == 1
    assert_round_trip(st, random_actions(st, random.Random(1), 6))


def _horus_then_leviathan() -> ValeState:
    """Horus summoned, then Leviathan: two after_summon steps wait under a question."""
    st = acting(
        2,
        options=ART,
        hands=[["horus", "leviathan"], []],
        areas=[[], ["boulder"]],
        stones=[["purple", "red"], []],
    )
    play(st, "summon horus pay purple+red", "summon leviathan free")
    return st


def test_horus_points_wait_under_the_summoned_cards_question() -> None:
    st = _horus_then_leviathan()
    steps = [w["step"] for w in st.to_position()["work"]]
    assert steps == ["after_summon", "points:4", "after_summon"]  # Leviathan costs 4
    assert_round_trip(st, ["target seat-1", "discard boulder"])


def test_an_after_summon_step_without_its_payment_is_refused() -> None:
    """A hostile position: after_summon with `arg: null` was read, then crashed the game at
    its run (the step reads what the summon paid; a TypeError, later an AssertionError)."""
    position = _horus_then_leviathan().to_position()
    position["work"][0]["arg"] = None
    with pytest.raises(BadPosition, match=r"work\[0\]\.arg.*after_summon carries"):
        GAME.from_position(position)


def test_lokis_family_is_asked_then_carried() -> None:
    st = acting(
        2,
        options=ART,
        hands=[["lava-giant"], []],
        areas=[["loki", "imp"], []],
        stones=[["blue"], []],
    )
    assert st.to_position()["pending"]["step"] == "loki_family[0]"
    assert_round_trip(st, ["choose fire", "summon lava-giant pay blue"])
    play(st, "choose fire")
    assert st.to_position()["loki"] == ["fire", None]
    loaded = assert_round_trip(st, ["summon lava-giant pay blue"])  # then plays it on
    assert loaded.scores[0] == 6  # Loki counted as fire: imp, loki and lava-giant


def test_ring_of_wishes_cards_are_carried() -> None:
    st = acting(
        2,
        options={**ART, "ring_of_wishes": "spent"},
        glade=[*TILES_2P, "ring-of-wishes"],
        artifacts=["ring-of-wishes", None],
        areas=[["salamander"], []],
    )
    play(st, "use ring-of-wishes", "resolve salamander")
    assert st.to_position()["rung"] == ["salamander"]
    loaded = assert_round_trip(st, ["end-turn", "end-turn"])
    # 'spent': Salamander counts as resolved, so nothing is left to resolve and round 4 starts
    assert loaded.round == 4 and loaded.phase == "hunting"


def test_every_step_name_reads_back_as_its_step() -> None:
    from eterna.games.vale.position_steps import _registry, step_name

    _, steps = _registry()
    assert {"after_summon", "stone_limit", "recover", "keep_sold", "loki_family[0]"} <= set(steps)
    assert "tile:golden-fleece[0]" in steps and "sale_upgrade.wind[0]" in steps
    for name, step in steps.items():
        assert step_name(step) == name


# ---------------------------------------------------------------------------- malformed
def _shelter_a_hand_card(p: dict[str, Any]) -> None:
    p["shelters"][1].append("sylph")  # also in hands[0]


def _swap_pending_to_a_card(p: dict[str, Any]) -> None:
    del p["pending"]["artifact"]
    p["pending"]["card"] = "sylph"


def _hide_in_whole(p: dict[str, Any]) -> None:
    p["shelters"][1] = [UNKNOWN]
    p["deck"].append("imp")


def _keys_in_a_base_game(p: dict[str, Any]) -> None:
    p["options"]["expansions"] = []


ART_MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a tile held twice", _set(["held"], ["golden-fleece", "golden-fleece"]), "held"),
    ("a tile picked twice", _set(["picked"], ["golden-fleece", "golden-fleece"]), "picked"),
    ("a tile twice in the glade", _set(["glade", 1], "incense-burner"), "glade"),
    ("no such tile", _set(["glade", 0], "magic-lamp"), "glade[0]"),
    ("a tile not in the glade", _set(["blocked", 1], "cap-of-hades"), "blocked[1]"),
    ("a shelter card also in a hand", _shelter_a_hand_card, "shelters[1][1]"),
    ("bought above the limit", _set(["bought_areas", 0], 3), "bought_areas[0]"),
    ("held but picked another", _set(["held", 1], "book-of-thoth"), "held[1]"),
    ("unknown in a whole position", _hide_in_whole, "shelters[1][0]"),
    ("a hidden card not sheltered", _set(["shelters_hidden", 0], ["imp"]), "shelters_hidden[0][0]"),
    ("Loki names no family", _set(["loki", 0], "metal"), "loki[0]"),
    ("a shelter key missing", _set(["shelters"], None), "shelters"),
    ("a tile's step for a card", _swap_pending_to_a_card, "pending.step"),
    ("the Artifacts' keys in a base game", _keys_in_a_base_game, "glade"),
    ("a tile step in no tile", _set(["pending", "step"], "tile:golden-fleece[3]"), "pending.step"),
]


@pytest.mark.parametrize(
    ("edit", "field"), [(e, f) for _, e, f in ART_MALFORMED], ids=[m[0] for m in ART_MALFORMED]
)
def test_each_class_of_malformed_artifacts_position_is_refused_naming_its_field(
    edit: Callable[[dict[str, Any]], None], field: str
) -> None:
    position = fleece().to_position()
    GAME.from_position(copy.deepcopy(position))  # the position itself loads
    edit(position)
    with pytest.raises(BadPosition) as caught:  # nothing else escapes: no half-built state
        GAME.from_position(position)
    assert caught.value.field == field, str(caught.value)


def test_an_artifacts_setup_round_trips_through_its_hunt() -> None:
    st = vale(
        2,
        options=ART,
        revealed=["kappa", "imp", "ifrit", "agni"],
        artifacts=[None, "incense-burner"],  # a setup may give a tile before the picks
        blocked=["monkey-kings-staff", None],
        shelters=[["sylph"], []],
        bought_areas=[0, 2],
    )
    position = st.to_position()
    assert position["hunt"]["tiles_picked"] == 0 and position["held"] == [None, "incense-burner"]
    rng = random.Random(3)
    while st.round == 3:
        assert_round_trip(st, random_actions(st, rng, 2))
        st.apply(rng.choice(st.legal_actions()))


def test_a_hunt_with_the_artifacts_says_its_tile_picks() -> None:
    st = GAME.new_game(2, seed=5, options=ART)
    position = st.to_position()
    del position["hunt"]["tiles_picked"]
    with pytest.raises(BadPosition) as caught:
        GAME.from_position(position)
    assert caught.value.field == "hunt.tiles_picked"
    position = st.to_position()
    position["rung"] = ["kappa"]
    with pytest.raises(BadPosition) as caught:
        GAME.from_position(position)
    assert caught.value.field == "rung"


def test_the_docs_artifacts_example_is_seat_1s_position_and_loads() -> None:
    text = DOC.read_text(encoding="utf-8").split("## Positions", 1)[1]
    blocks = re.findall(r"```json\n(.*?)```", text, re.S)
    example = json.loads(blocks[1])
    st = fleece()
    play(st, "choose shelter-top")
    assert st.to_position(1) == example  # the doc says what the game writes
    guess = GAME.from_position(example)
    assert guess.view(1) == st.view(1)
    assert guess.to_position(1) == example
    assert guess.view(1)["artifacts"]["shelter_sizes"] == [2, 1]
