"""What every card does, written with the vocabulary of effects.py, choices.py and
permanents.py so that each line reads like the card's text. Joined to the card facts
(data/cards.json) by card id at import.

`instant`: once, when the card is summoned (or copied by Scorch).
`permanent`: while the card is in its owner's area.
`active`: once per round at resolution (hourglass), mandatory when it can be applied.
"""

from __future__ import annotations

from typing import Final

from eterna.games.vale.cards import (
    BLUE,
    CARD_BY_NAME,
    DECK_SIZE,
    FAMILIES,
    HAS_ACTIVE,
    HAS_INSTANT,
    HAS_PERMANENT,
    PURPLE,
    RED,
)
from eterna.games.vale.choices import (
    choose,
    copy_active_of_other_card,
    copy_instant_of_other_card,
    discard_another_from_own_area,
    discard_from_hand,
    discard_from_hand_then_summon_free,
    discard_self_then_summon_free,
    discard_up_to_from_hand,
    discard_up_to_from_own_area,
    named_player_discards,
    put_a_card_from_hand_on_deck,
    return_to_hand,
    steal_points,
    take_from_discard,
    use_active_effects_of_other_cards,
)
from eterna.games.vale.effects import (
    Effect,
    an_opponent_has_more_points,
    area_has_written_costs,
    card_test,
    cards_in_area,
    cards_in_area_with_active,
    cards_in_area_with_permanent,
    cards_in_hand,
    counts_as,
    discard_self,
    draw,
    exchange,
    families_in_area,
    families_in_hand,
    half_of,
    hand_size_equals_area_size,
    hand_smaller_than,
    holds,
    holds_stones,
    lose_points,
    no_card_in_area,
    points,
    points_per,
    put_self_on_deck,
    recover,
    replace_every_stone_with,
    require,
    return_all_stones,
    return_stone,
    show_hand,
    stones,
    stones_held,
    upgrade,
    value_of_stones,
    when,
)
from eterna.games.vale.permanents import (
    WATCH_BLUE_GAINED,
    WATCH_DREW,
    WATCH_POINTS_LOST,
    WATCH_STONES_4,
    Permanent,
    blue_and_purple_values_swapped,
    cheaper,
    cost_exactly,
    counts_as_any_family_on_your_turn,
    kept_from_the_discard_pile,
    returns_to_hand_whenever,
    stone_limit_raised_by,
    stone_values,
    whenever_another_card_is_discarded,
    whenever_you_sell_upgrade_a_stone_it_gives,
    whenever_you_summon,
    whenever_you_tame,
)
from eterna.games.vale.summons import (
    summon_free_from_discard,
    summon_free_from_hand_for_its_cost,
    swap_with_a_player,
)

UPGRADE_A_STONE: Final = choose(("red", (upgrade(RED),)), ("blue", (upgrade(BLUE),)))

# fmt: off
INSTANTS: Final[dict[str, Effect]] = {
    # Fire
    "firefox": (points_per(1, cards_in_hand),),
    "ifrit": (points_per(1, cards_in_area()),),
    "imp": (stones(red=2),),
    "incubus": (points_per(2, cards_in_area(cost_max=2)),),
    "lava-giant": (points_per(2, cards_in_area("fire")),),
    "succubus": (when(area_has_written_costs(1, 2, 3, 4), points(10)),),
    "surtr": (points_per(2, families_in_area),),
    # Water
    "hydra": (choose(("purple", (stones(purple=1),)), ("draw", (draw(),)),
                     ("blue", (stones(blue=2),)), ("points", (points(4),)), picks=2),),
    "leviathan": (points(7), named_player_discards("dragon")),
    "poseidon": (points_per(3, cards_in_area("water")),),
    "undine": (stones(blue=1),),
    "water-giant": (stones(blue=2),),
    "yuki-onna": (points_per(1, value_of_stones()), return_all_stones()),
    "yuki-onna-exalted": (points_per(1, value_of_stones(BLUE)),),
    # Earth
    "behemoth": (points_per(3, families_in_area),),
    "cerberus": (discard_up_to_from_own_area(3),),
    "forest-spirit": (discard_from_hand(gain_cost=True),),
    "mud-slime": (points(6),),
    "rock-golem": (points_per(1, value_of_stones(PURPLE)),),
    "sand-giant": (points_per(4, cards_in_area("earth")),),
    "stone-golem": (replace_every_stone_with(PURPLE),),
    "young-forest-spirit": (discard_from_hand_then_summon_free(),),
    # Wind
    "boreas": (points_per(1, cards_in_area("wind")), recover()),
    "dandelion-spirit": (draw(),),
    "genie": (use_active_effects_of_other_cards(),),
    "gi-rin": (points_per(2, cards_in_area()),),
    "hippogriff": (draw(),),
    "pegasus": (draw(),),
    "rudra": (points_per(2, cards_in_hand),),
    "sylph": (draw(),),
    "tengu": (points(6), put_self_on_deck()),
    # Dragon
    "aeris": (return_to_hand(gain_cost=True),),
    "boulder": (points(8), named_player_discards("wind")),
    "dragon-egg": (discard_self_then_summon_free("dragon"),),
    "ember": (points(7), named_player_discards("water")),
    "eternity": (points_per(4, families_in_area),),
    "gust": (points(8), named_player_discards("earth")),
    "marina": (points(7), named_player_discards("fire")),
    "scorch": (copy_instant_of_other_card(),),
    "tidal": (points_per(5, cards_in_area("dragon")),),
    "willow": (stones(red=1, blue=1, purple=1), points(3), draw()),
    # the Artifacts creatures (option expansions)
    "belphegor": (stones(red=1),),
    "fire-rat": (points_per(1, cards_in_area(cost_max=3)),),
    "fireblast": (points_per(1, half_of(cards_in_area("fire"))),
                  when(holds_stones(4), recover())),  # Q-C4: also as it enters
    "akhlut": (summon_free_from_discard(card_test("dragon")),),
    "kraken": (choose(*((f, (points_per(2, cards_in_area(f)),)) for f in FAMILIES)),),
    "melusine": (discard_up_to_from_hand(3, points(4)),),
    "taweret": (discard_up_to_from_hand(None, stones(blue=1)),),
    "thalassa": (points_per(1, cards_in_area("water")),),
    "anubis": (discard_another_from_own_area(gain_cost=True),),
    "duduri": (lose_points(1), UPGRADE_A_STONE),
    "mandrake": (points(3),),
    "wendigo": (points_per(2, cards_in_area("earth")),),
    "anzu": (show_hand(), points_per(3, families_in_hand)),
    "banshee": (points_per(1, families_in_area),),
    "horus": (summon_free_from_hand_for_its_cost(),),
    "nurikabe": (draw(),),
    "deepdive": (points(7), swap_with_a_player("water")),
    "pyro": (points(7), swap_with_a_player("fire")),
    "whisper": (points(8), swap_with_a_player("wind")),
    "rockscale": (points(8), swap_with_a_player("earth")),
}

PERMANENTS: Final[dict[str, Permanent]] = {
    "agni": stone_values(red=1),
    "hestia": stone_limit_raised_by(2),
    "phoenix": whenever_you_summon(points_per_red_spent=1),
    "hae-tae": blue_and_purple_values_swapped(),
    "kappa": whenever_you_summon(points=2, if_paid_with=BLUE),
    "triton": whenever_you_tame("water", blue=2),
    "water-giant": stone_values(blue=1, purple=1),
    "gargoyle": whenever_you_summon(points=3, if_paid_with=PURPLE),
    "hippogriff": cheaper(2, "wind"),
    "pegasus": cheaper(1),
    "sylph": whenever_you_summon(points=1),
    # the Artifacts creatures
    "ash": kept_from_the_discard_pile(),
    "belphegor": cost_exactly(1, "fire"),
    "fireblast": returns_to_hand_whenever(WATCH_STONES_4),
    "thalassa": returns_to_hand_whenever(WATCH_BLUE_GAINED),
    "duduri-king": whenever_you_sell_upgrade_a_stone_it_gives(),
    "totem-pole": whenever_another_card_is_discarded(purple=1),
    "wendigo": returns_to_hand_whenever(WATCH_POINTS_LOST),
    "banshee": returns_to_hand_whenever(WATCH_DREW),
    "loki": counts_as_any_family_on_your_turn(),
}

ACTIVES: Final[dict[str, Effect]] = {
    # Fire
    "asmodeus": (return_to_hand(card_test(cost_max=2, has_instant=True)),),
    "balog": (return_to_hand(card_test("fire", has_instant=True)),),
    "burning-skull": (return_stone(RED), points(3)),
    "horned-salamander": (stones(red=4),),
    "imp": (recover(),),
    "salamander": (stones(red=1), points(1)),
    # Water
    "charybdis": (return_stone(BLUE), points(5)),
    "nessie": (require(no_card_in_area("dragon")), points(2)),
    "sea-spirit": (points_per(1, stones_held(BLUE)),),
    "snail-maiden": (choose(("blue-to-purple", (exchange(BLUE, purple=1),)),
                            ("purple-to-blue", (exchange(PURPLE, blue=3),))),),
    "undine": (recover(),),
    "undine-queen": (stones(blue=1),),
    # Earth
    "basilisk": (choose(("red", (stones(red=1),)),
                        ("blue", (lose_points(1), stones(blue=1))),
                        ("purple", (lose_points(2), stones(purple=1)))),),
    "goblin": (steal_points(1),),
    "goblin-soldier": (when(an_opponent_has_more_points, points(4), otherwise=(lose_points(4),)),),
    "medusa": (discard_from_hand(stones(purple=1)),),
    "mimic": (take_from_discard(card_test("earth")),),
    "mud-slime": (recover(),),
    "troll": (require(holds(PURPLE)), points(3)),
    # Wind
    "dandelion-spirit": (recover(),),
    "freyja": (points_per(1, cards_in_area_with_active),),
    "genie-exalted": (copy_active_of_other_card(),),
    "griffon": (draw(),),
    "harpy": (require(hand_size_equals_area_size), points(3)),
    "odin": (when(hand_smaller_than(6), points(2), otherwise=(stones(purple=1),)),),
    "valkyrie": (points_per(1, families_in_area),),
    # the Artifacts creatures
    "bul-gae": (when(holds_stones(4), points(2), otherwise=(stones(red=3),)),),
    "hephaestus": (choose(("blue", (stones(blue=1),)), ("three-red", (stones(red=3),)),
                          ("points", (points(2),)), picks=2),),  # give up the third
    "siren": (discard_from_hand(stones(blue=1), points(2)),),
    "duduri": (recover(),),
    "mandrake": (choose(("discard", (discard_self(),)), ("lose-points", (lose_points(2),))),
                 stones(purple=1)),
    "loki": (points_per(1, cards_in_area_with_permanent),),
    "nurikabe": (draw(), put_a_card_from_hand_on_deck()),
    "rukh": (choose(*((f, (points_per(1, cards_in_area(f)),)) for f in FAMILIES)),),
}

# Loki's owner names its family at the start of each of their turns (Q-C10)
LOKI_FAMILY: Final[Effect] = (choose(*((f, (counts_as(f),)) for f in FAMILIES)),)
# Duduri King: the stone of a sale that is upgraded, per family sold (Wind's: red or blue)
SALE_UPGRADE: Final[tuple[Effect, ...]] = (
    (upgrade(RED),),
    (upgrade(BLUE),),
    (upgrade(RED),),
    (choose(("red", (upgrade(RED),)), ("blue", (upgrade(BLUE),))),),
    (),
)
# fmt: on


def _by_card(table: dict[str, Effect]) -> tuple[Effect, ...]:
    out: list[Effect] = [()] * DECK_SIZE
    for name, effect in table.items():
        out[CARD_BY_NAME[name]] = effect
    return tuple(out)


INSTANT: Final[tuple[Effect, ...]] = _by_card(INSTANTS)
ACTIVE: Final[tuple[Effect, ...]] = _by_card(ACTIVES)
PERMANENT: Final[tuple[Permanent | None, ...]] = tuple(
    PERMANENTS.get(name) for name in CARD_BY_NAME
)
# An instant that is feasible in every position needs no check before a summon.
INSTANT_TRIVIAL: Final[tuple[bool, ...]] = tuple(all(s.trivial for s in e) for e in INSTANT)


def _check() -> None:
    """Every card's timings in the data files match the effects written here."""
    for name, card in CARD_BY_NAME.items():
        if HAS_INSTANT[card] != bool(INSTANT[card]):
            raise ValueError(f"{name}: instant effect missing or unexpected")
        if HAS_ACTIVE[card] != bool(ACTIVE[card]):
            raise ValueError(f"{name}: active effect missing or unexpected")
        if HAS_PERMANENT[card] != (PERMANENT[card] is not None):
            raise ValueError(f"{name}: permanent effect missing or unexpected")


_check()
