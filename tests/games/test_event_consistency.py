"""Consistency (issue 14): for every step of random games, the public deltas the events tell
equal the difference between the spectator's views before and after.

Each game has a projection of its spectator view (the public figures below) and a fold: the
model starts as the projection of the view before an action, takes the action's spectator
events in order, and must equal the projection of the view after. The fold reads the events
only (and the published card data: a card's family, tier or shape is no secret).

What is modelled, and from which events:

Eternity: `round`, `trump`, `board` (per column), `hand_sizes`, `trees`, `tree_supply`,
`tricks`, `scores`, `round_results`, `winners`. `round_started` sets the round, board and trump,
clears the round's trees and tricks and refills the tree supply (to the game's public option
`tree_supply`); `hand_dealt` sets a hand size; `card_played` and `card_pledged` take a card
from a hand (a pledge adds its `trees`, taken from a limited supply); `trick_won` adds a trick
(its `tricks` is checked); `pledges_to_board` puts each pledged card in its family's column;
`trump_changed` sets the trump; `round_scored` adds each seat's `points` and records its result
(its `scores` is checked); `game_over` names the winners.

The Vale: `round`, `scores`, `stones` (per colour), `hand_sizes`, `areas`, `claimed`,
`revealed`, `discard`, `deck_count`. Points: `points_gained`, `points_lost` (the amount lost,
never below 0), `points_stolen` (from the victim to the thief), each `score` checked. Stones:
`stones_gained`, `stones_returned`, `stone_discarded`, a summon's or a removal's `paid`,
`stones_converted` (every stone becomes `count` of one colour). Cards: `card_claimed` (revealed
to claimed), `card_sold` (claimed to discard), `card_tamed` (claimed to hand), `summoned` (hand
to area), `card_removed` (area to discard), `card_returned` (area to hand), `card_discarded`
(from its `zone`), `card_put_on_deck` (area to deck), `card_taken` (discard to hand),
`card_drawn` (deck to hand), `deck_reshuffled` (the discard pile becomes the deck: `count`
checked), `round_started` (its `revealed` cards come off the deck).
Left out: `stone_limits`, `stone_values`, `cost_reductions` follow from the cards in the areas
(permanent effects, data), not from a delta an event could tell.

Eternitium: `round`, `hand_sizes`, `deck_sizes`, discard sizes, `era_counts`, `gem`,
`portal_reserve`, `portal_row`, `portal_deck_size`, both market rows and deck sizes,
`era_display`, `era_deck_size`, `era_discard`, `ai_deck_size`, `ai_cards`, `scores` and
`advanced_counts` (technology points: a card's tier is data), `in_play`. `card_played` takes the
card from the hand into play (it still counts for its player's points); `card_resolved` puts it
on a discard pile (the Thieving Robot's: its victim's, `target`), which may come several
actions later, while its effect waits for a decision (Data Analyser, Thieving Robot,
Laboratory). Hands, decks and piles: `cards_drawn`, `deck_reshuffled` (`count` checked against
the pile), `card_discarded`, `cards_discarded`, `hand_discarded`, `card_destroyed`,
`card_recycled`, `card_stolen`, `technology_destroyed`, `portal_taken`; markets:
`market_refilled`, `portal_revealed` and the technology takes (`technology_picked` and
`technology_acquired` onto the deck, `technology_gained` and `technology_gifted` into the hand);
Era cards: `era_discarded`, `era_added`, `era_taken`, `era_placed`, `era_reshuffled`,
`gem_found` (and `era_hidden`, `era_flipped`: their `count` checked); the solo AI:
`ai_strike`.

Engine gaps this test found, now told: a played card reaching its discard pile after a decision
(`done` ending a Data Analyser told nothing at all) is `card_resolved`; the common Era discard
pile shuffled into a new Era deck is `era_reshuffled`; a card taken blind names its `deck`, and
a technology the AI destroys its `points` (both public: the deck sizes and scores show them).
In the Vale, `done` ending Cerberus's discards was a move told by nothing: `discarding_ended`.

Left out: the order of face-up and hidden cards in an Eternitium Era pile (`era`: the fold
checks the counts), Eternitium's turn counters (`turn`, `turns_left`: `turn_started` numbers the
turns, but the count also moves at the game's last turn, which starts none), what each seat
knows of hands, and the decision under way (`pending`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import eterna
from eterna.games.eternitium.cards import CARD_NAME as TECH_NAME
from eterna.games.eternitium.cards import TIER, TIER_ADVANCED

Step = tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], str]
Model = dict[str, Any]


def steps(
    game: str, players: int, seed: int, options: dict[str, Any] | None = None
) -> Iterator[Step]:
    """(view before, events, view after, the action's notation) for every action of a seeded
    random game, all as a spectator sees them."""
    state = eterna.load_game(game).new_game(players, seed=seed, options=options)
    told = state.event_count()  # narrate from the start
    rng = random.Random(seed)
    before = state.view(None)
    while not state.is_terminal:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        after = state.view(None)
        events = state.events_since(told, None)
        told += len(events)
        yield before, events, after, str(action)
        before = after


def check_game(
    game: str,
    players: int,
    seed: int,
    project: Callable[[dict[str, Any]], Model],
    fold: Callable[[Model, dict[str, Any]], None],
    options: dict[str, Any] | None = None,
) -> int:
    """Every step: the projection before, with the step's events folded in, is the projection
    after. Returns how many steps were checked."""
    count = 0
    for before, events, after, action in steps(game, players, seed, options):
        model = project(before)
        for event in events:
            fold(model, event)
        expected = project(after)
        if model != expected:
            wrong = {k: (model.get(k), v) for k, v in expected.items() if model.get(k) != v}
            raise AssertionError(
                f"{game} players={players} seed={seed} options={options} step {count} "
                f"({action}): events {events} leave (model, view) {wrong}"
            )
        count += 1
    return count


# ---------------------------------------------------------------------------------- Eternity
def eternity_project(view: dict[str, Any]) -> Model:
    return {
        "round": view["round"],
        "trump": view["trump"],
        "board": {family: sorted(cards) for family, cards in view["board"].items()},
        "hand_sizes": list(view["hand_sizes"]),
        "trees": list(view["trees"]),
        "tree_supply": view["tree_supply"],
        "tricks": list(view["tricks"]),
        "scores": list(view["scores"]),
        "round_results": [[dict(r) for r in rnd] for rnd in view["round_results"]],
        "winners": list(view["winners"]),
    }


def eternity_fold_with(tree_supply: int | None) -> Callable[[Model, dict[str, Any]], None]:
    """The fold for a game whose option `tree_supply` is `tree_supply` (public: an option)."""

    def fold(m: Model, e: dict[str, Any]) -> None:
        if e["kind"] == "round_started":
            m["tree_supply"] = tree_supply  # every round starts with the full supply
        elif e["kind"] == "card_pledged" and m["tree_supply"] is not None:
            m["tree_supply"] -= e["trees"]  # the trees taken, after a capped supply
            assert m["tree_supply"] >= 0, e
        eternity_fold(m, e)

    return fold


def eternity_fold(m: Model, e: dict[str, Any]) -> None:
    kind = e["kind"]
    if kind == "round_started":
        m["round"], m["trump"] = e["round"], e["trump"]
        m["board"] = {family: [] for family in m["board"]}
        for card in e["board"]:
            m["board"][card.split("-")[0]].append(card)
        m["board"] = {family: sorted(cards) for family, cards in m["board"].items()}
        m["trees"] = [0] * len(m["trees"])
        m["tricks"] = [0] * len(m["tricks"])
    elif kind == "hand_dealt":
        m["hand_sizes"][e["seat"]] = e["count"]
    elif kind in ("card_played", "card_pledged"):
        m["hand_sizes"][e["seat"]] -= 1
        m["trees"][e["seat"]] += e.get("trees", 0)
    elif kind == "trick_won":
        m["tricks"][e["seat"]] += 1
        assert m["tricks"][e["seat"]] == e["tricks"], e
    elif kind == "pledges_to_board":
        for card in e["cards"]:
            column = m["board"][card.split("-")[0]]
            column.append(card)
            column.sort()
    elif kind == "trump_changed":
        assert m["trump"] == e["previous_trump"], e
        m["trump"] = e["trump"]
    elif kind == "round_scored":
        results = sorted(e["results"], key=lambda r: r["seat"])
        for r in results:
            m["scores"][r["seat"]] += r["points"]
            assert (r["trees"], r["tricks"]) == (m["trees"][r["seat"]], m["tricks"][r["seat"]])
        assert m["scores"] == e["scores"], e
        m["round_results"].append(
            [{k: r[k] for k in ("trees", "tricks", "points")} for r in results]
        )
    elif kind == "game_over":
        m["winners"] = list(e["winners"])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_eternity_events_tell_every_public_change(players: int) -> None:
    total = 0
    for seed in range(6):
        total += check_game("eternity", players, seed, eternity_project, eternity_fold_with(None))
    for seed, supply in ((7, 6), (8, 3)):  # Q6: a limited supply caps the trees taken
        fold = eternity_fold_with(supply)
        options = {"tree_supply": supply}
        total += check_game("eternity", players, seed, eternity_project, fold, options)
    assert total > 150 * players


# ---------------------------------------------------------------------------------- the Vale
COLOURS = ("red", "blue", "purple")


def vale_project(view: dict[str, Any]) -> Model:
    return {
        "round": view["round"],
        "scores": list(view["scores"]),
        "stones": [dict(s) for s in view["stones"]],
        "hand_sizes": list(view["hand_sizes"]),
        "areas": [sorted(a) for a in view["areas"]],
        "claimed": [sorted(c) for c in view["claimed"]],
        "revealed": sorted(view["revealed"]),
        "discard": sorted(view["discard"]),
        "deck_count": view["deck_count"],
        "winners": list(view["winners"]),
    }


def _move(cards: list[str], card: str, into: list[str] | None = None) -> None:
    cards.remove(card)
    if into is not None:
        into.append(card)
        into.sort()


def vale_points(m: Model, e: dict[str, Any]) -> None:
    kind, seat = e["kind"], e["seat"]
    if kind == "points_gained":
        m["scores"][seat] += e["points"]
    elif kind == "points_lost":
        m["scores"][seat] -= e["points"]
    else:  # points_stolen
        m["scores"][seat] += e["points"]
        m["scores"][e["victim"]] -= e["points"]
    assert min(m["scores"]) >= 0, e
    if "score" in e:
        assert m["scores"][seat] == e["score"], e


def vale_stones(m: Model, e: dict[str, Any]) -> None:
    kind, stones = e["kind"], m["stones"][e["seat"]]
    if kind == "stones_converted":
        assert sum(stones.values()) == e["count"], e
        stones.update(dict.fromkeys(COLOURS, 0), **{e["colour"]: e["count"]})
        return
    sign = 1 if kind == "stones_gained" else -1
    for colour in COLOURS:
        stones[colour] += sign * e[colour]


def vale_cards(m: Model, e: dict[str, Any]) -> None:
    kind = e["kind"]
    seat = e.get("seat")
    if kind == "card_claimed":
        _move(m["revealed"], e["card"], m["claimed"][seat])
    elif kind == "card_sold":
        _move(m["claimed"][seat], e["card"], m["discard"])
    elif kind == "card_tamed":
        _move(m["claimed"][seat], e["card"])
        m["hand_sizes"][seat] += 1
    elif kind == "summoned":
        m["hand_sizes"][seat] -= 1
        m["areas"][seat] = sorted([*m["areas"][seat], e["card"]])
        if "paid" in e:
            for colour in COLOURS:
                m["stones"][seat][colour] -= e["paid"][colour]
    elif kind == "card_removed":
        _move(m["areas"][seat], e["card"], m["discard"])
        for colour in COLOURS:
            m["stones"][seat][colour] -= e["paid"][colour]
    elif kind == "card_returned":
        _move(m["areas"][seat], e["card"])
        m["hand_sizes"][seat] += 1
    elif kind == "card_discarded":
        if e["zone"] == "area":
            _move(m["areas"][seat], e["card"])
        else:
            m["hand_sizes"][seat] -= 1
        m["discard"] = sorted([*m["discard"], e["card"]])
    elif kind == "card_put_on_deck":
        _move(m["areas"][seat], e["card"])
        m["deck_count"] += 1
    elif kind == "card_taken":
        _move(m["discard"], e["card"])
        m["hand_sizes"][seat] += 1
    elif kind == "card_drawn":
        m["hand_sizes"][seat] += 1
        m["deck_count"] -= 1
    elif kind == "deck_reshuffled":
        assert len(m["discard"]) == e["count"], e
        m["discard"] = []
        m["deck_count"] += e["count"]


def vale_fold(m: Model, e: dict[str, Any]) -> None:
    kind = e["kind"]
    if kind in ("points_gained", "points_lost", "points_stolen"):
        vale_points(m, e)
    elif kind in ("stones_gained", "stones_returned", "stone_discarded", "stones_converted"):
        vale_stones(m, e)
    elif kind == "round_started":
        m["round"] = e["round"]
        m["revealed"] = sorted(e["revealed"])
        m["deck_count"] -= len(e["revealed"])
        assert m["scores"] == e["scores"], e
    elif kind in ("round_ended", "game_over"):
        assert m["scores"] == e["scores"], e
        if kind == "game_over":
            m["winners"] = list(e["winners"])
    else:
        vale_cards(m, e)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_vale_events_tell_every_public_change(players: int) -> None:
    total = sum(check_game("vale", players, seed, vale_project, vale_fold) for seed in range(10))
    assert total > 250 * players


# ---------------------------------------------------------------------------------- Eternitium
TECH_TIER = dict(zip(TECH_NAME, TIER, strict=True))
MARKET = {1: "basic", TIER_ADVANCED: "advanced"}


def eternitium_project(view: dict[str, Any]) -> Model:
    return {
        "round": view["round"],
        "hand_sizes": list(view["hand_sizes"]),
        "deck_sizes": list(view["deck_sizes"]),
        "discard_sizes": list(view["discard_sizes"]),
        "in_play": view["in_play"],
        "era_counts": list(view["era_counts"]),
        "gem": list(view["gem"]),
        "portal_reserve": dict(view["portal_reserve"]),
        "portal_row": sorted(view["portal_row"]),
        "portal_deck_size": view["portal_deck_size"],
        "basic_row": sorted(view["basic_row"]),
        "basic_deck_size": view["basic_deck_size"],
        "advanced_row": sorted(view["advanced_row"]),
        "advanced_deck_size": view["advanced_deck_size"],
        "era_display": sorted(view["era_display"]),
        "era_deck_size": view["era_deck_size"],
        "era_discard": dict(view["era_discard"]),
        "ai_deck_size": view["ai_deck_size"],
        "ai_cards": list(view["ai_cards"]),
        "scores": list(view["scores"]),
        "advanced_counts": list(view["advanced_counts"]),
        "winners": list(view["winners"]),
    }


def _owns(m: Model, seat: int, tier: int, sign: int = 1) -> None:
    m["scores"][seat] += sign * tier
    m["advanced_counts"][seat] += sign * (tier == TIER_ADVANCED)


def _technology_taken(m: Model, e: dict[str, Any]) -> None:
    """A technology out of a market row (a face-up card) or off a market deck (blind)."""
    if e.get("blind"):
        market = e["deck"]
        m[f"{market}_deck_size"] -= 1
        tier = 1 if market == "basic" else TIER_ADVANCED
    else:
        tier = TECH_TIER[e["card"]]
        _move(m[f"{MARKET[tier]}_row"], e["card"])
    _owns(m, e["seat"], tier)
    if e["kind"] in ("technology_picked", "technology_acquired"):
        m["deck_sizes"][e["seat"]] += 1  # onto the deck
    else:
        m["hand_sizes"][e["seat"]] += 1  # into the hand


def eternitium_cards(m: Model, e: dict[str, Any]) -> None:
    kind, seat = e["kind"], e.get("seat")
    hands, decks, piles = m["hand_sizes"], m["deck_sizes"], m["discard_sizes"]
    if kind == "card_played":
        hands[seat] -= 1
        m["in_play"] = e["card"]
    elif kind == "card_resolved":
        assert m["in_play"] == e["card"], e
        m["in_play"] = None
        owner = e.get("target", seat)  # the Thieving Robot goes to its victim's pile
        piles[owner] += 1
        tier = TECH_TIER[e["card"]]
        _owns(m, seat, tier, -1)
        _owns(m, owner, tier)
    elif kind in ("card_discarded", "cards_discarded", "hand_discarded"):
        count = e.get("count", len(e.get("cards", ())) if kind == "cards_discarded" else 1)
        hands[seat] -= count
        piles[seat] += count
    elif kind == "cards_drawn":
        hands[seat] += e["count"]
        decks[seat] -= e["count"]
    elif kind == "deck_reshuffled":
        assert piles[seat] == e["count"], e
        piles[seat] = 0
        decks[seat] += e["count"]
    elif kind == "card_destroyed":
        hands[seat] -= 1
        _owns(m, seat, TECH_TIER[e["card"]], -1)
    elif kind == "card_recycled":
        piles[seat] -= 1
        hands[seat] += 1
    elif kind == "card_stolen":
        hands[seat] += 1
        victim, tier = e["victim"], TECH_TIER[e["card"]]
        _owns(m, seat, tier)
        _owns(m, victim, tier, -1)
        piles[victim] -= 1
    elif kind == "technology_destroyed":
        piles[seat] -= 1
        _owns(m, seat, e["points"], -1)
    elif kind == "portal_taken":
        hands[seat] += 1
        if e["card"] in m["portal_row"]:
            _move(m["portal_row"], e["card"])
        else:
            m["portal_reserve"][e["card"].removeprefix("portal-")] -= 1
    elif kind == "portal_revealed":
        m["portal_row"] = sorted(m["portal_row"] + e["cards"])
        m["portal_deck_size"] -= len(e["cards"])
    elif kind == "market_refilled":
        for card in e["cards"]:
            market = MARKET[TECH_TIER[card]]
            m[f"{market}_row"] = sorted([*m[f"{market}_row"], card])
            m[f"{market}_deck_size"] -= 1
    elif kind.startswith("technology_"):
        _technology_taken(m, e)


def eternitium_eras(m: Model, e: dict[str, Any]) -> None:
    kind, seat = e["kind"], e.get("seat")
    eras = m["era_counts"]
    if kind == "era_discarded":
        eras[seat] -= 1
        m["era_discard"][e["shape"]] += 1
    elif kind == "gem_found":
        assert eras[seat] == 0, e
        m["gem"] = sorted({*m["gem"], seat})
    elif kind == "era_added":
        eras[seat] += 1
        m["era_deck_size"] -= 1
        m["gem"] = [s for s in m["gem"] if s != seat]
    elif kind == "era_placed":
        m["era_display"] = sorted([*m["era_display"], e["shape"]])
        m["era_deck_size"] -= 1
    elif kind == "era_taken":
        _move(m["era_display"], e["shape"])
        eras[seat] += 1
    elif kind in ("era_hidden", "era_flipped"):
        assert eras[seat] == e["count"], e
    elif kind == "era_reshuffled":
        assert sum(m["era_discard"].values()) == e["count"], e
        m["era_discard"] = dict.fromkeys(m["era_discard"], 0)
        m["era_deck_size"] += e["count"]


ERA_KINDS = {
    "era_discarded", "gem_found", "era_added", "era_placed", "era_taken", "era_hidden",
    "era_flipped", "era_reshuffled",
}  # fmt: skip


def eternitium_fold(m: Model, e: dict[str, Any]) -> None:
    kind = e["kind"]
    if kind in ERA_KINDS:
        eternitium_eras(m, e)
    elif kind == "turn_started":
        m["round"] = e["round"]
    elif kind == "ai_strike":
        m["ai_deck_size"] -= 1
        m["ai_cards"].append(e["card"])
    elif kind in ("round_ended", "game_over"):
        assert m["scores"] == e["scores"], e
        if kind == "round_ended":
            m["round"] = e["round"] + 1
        else:
            m["winners"] = list(e["winners"])
    else:
        eternitium_cards(m, e)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_eternitium_events_tell_every_public_change(players: int) -> None:
    total = sum(
        check_game("eternitium", players, seed, eternitium_project, eternitium_fold)
        for seed in range(6)
    )
    assert total > 300 * players


@pytest.mark.parametrize("mission", range(11))
def test_eternitium_solo_events_tell_every_public_change(mission: int) -> None:
    options = {"mission": mission}
    total = sum(
        check_game("eternitium", 1, seed, eternitium_project, eternitium_fold, options)
        for seed in range(6)
    )
    assert total > 60
