"""The Vale's numeric rules tested at exactly their threshold and one step on each side
(issue 34): payments and the superfluous stone (rules §5.3.2, digest Q15), the area limit
(§5.3.1), the price of a removal (§5.4), the stone limit and Hestia's (§7, Q8), the end at 60
points (§9, Q16), the ten rounds (§9), the tie-break (§10, Q6), the claims (§4.2). Each test
names its rule in its name or docstring."""

from __future__ import annotations

import pytest
from vale_helpers import acting, legal, play

from eterna.core.errors import IllegalAction

PURPLE_BLUE_RED = [["purple", "blue", "red"], []]


def summons(st: object) -> list[str]:
    return [a for a in legal(st) if a.startswith("summon")]  # type: ignore[arg-type]


# ---------------------------------------------------------------- payments (§5.3.2, Q15)
@pytest.mark.parametrize(
    ("card", "cost", "offered"),
    [
        ("surtr", 4, ["summon surtr pay purple", "summon surtr pay blue+red"]),  # 4: blue+red exact
        ("valkyrie", 5, ["summon valkyrie pay purple"]),  # 5: only the purple covers it
        ("stone-golem", 6, ["summon stone-golem pay purple"]),  # 6: purple exactly
        ("freyja", 7, ["summon freyja pay purple+red", "summon freyja pay purple+blue"]),
    ],
)
def test_payments_hold_no_superfluous_stone_q15(card: str, cost: int, offered: list[str]) -> None:
    """Q15: a payment from which a stone could be taken away while still covering the cost is
    not offered, with a purple stone to spare: at cost 4 and 5 the purple alone pays, never
    purple + red; at exactly 6 the purple alone; at 7 purple + red (7) and purple + blue (9,
    neither stone can go) both pay."""
    st = acting(hands=[[card], []], stones=PURPLE_BLUE_RED)
    assert summons(st) == offered
    if cost < 7:  # the purple covers it alone: a red beside it is spare
        with pytest.raises(IllegalAction, match="Q15"):
            st.apply(f"summon {card} pay purple+red")
        assert st.hand(0) == (card,) or list(st.hand(0)) == [card]  # nothing changed


@pytest.mark.parametrize(("held", "ok"), [(["blue"], False), (["blue", "red"], True)])
def test_a_payment_must_reach_the_cost_rules_5_3_2(held: list[str], ok: bool) -> None:
    """§5.3.2: stones worth at least the cost: Surtr (4) with 3 is refused, with exactly 4 paid."""
    st = acting(hands=[["surtr"], []], stones=[held, []])
    text = "summon surtr pay " + "+".join(held)
    if ok:
        play(st, text)
        assert "surtr" in st.area(0)
    else:
        with pytest.raises(IllegalAction, match=r"§5\.3\.2"):
            st.apply(text)


# ---------------------------------------------------------------- the area (§5.3.1)
@pytest.mark.parametrize(("in_area", "ok"), [(1, True), (2, True), (3, False)])
def test_the_area_holds_as_many_cards_as_the_round_number_rules_5_3_1(
    in_area: int, ok: bool
) -> None:
    """§5.3.1: in round 3 a third card may be summoned (2 in the area), a fourth not."""
    area = ["firefox", "salamander", "goblin"][:in_area]
    st = acting(round=3, hands=[["imp"], []], areas=[area, []])
    assert ("summon imp" in legal(st)) is ok
    if not ok:
        with pytest.raises(IllegalAction, match=r"§5\.3\.1"):
            st.apply("summon imp")


# ---------------------------------------------------------------- removal (§5.4)
@pytest.mark.parametrize(("held", "ok"), [(["red", "red", "red"], False), (["blue", "red"], True)])
def test_removing_pays_at_least_the_round_number(held: list[str], ok: bool) -> None:
    """§5.4 (Remove): pay at least the round number: in round 4, 3 is refused, 4 accepted."""
    st = acting(round=4, areas=[["imp"], []], stones=[held, []])
    text = "remove imp pay " + "+".join(held)
    assert (text in legal(st)) is ok
    if not ok:
        with pytest.raises(IllegalAction):
            st.apply(text)
        assert st.area(0) == ["imp"]


# ---------------------------------------------------------------- stone limit (§7, Q8)
@pytest.mark.parametrize(("reds", "over"), [(3, False), (4, False), (5, True)])
def test_the_stone_limit_is_4_rules_7(reds: int, over: bool) -> None:
    """§7: 4 stones may be held; a fifth must be discarded at once. Selling Salamander (a Fire
    card: 3 red) from reds - 3 red held reaches `reds`."""
    st = acting(claimed=[["salamander"], []], stones=[["red"] * (reds - 3), []])
    play(st, "sell salamander")
    assert (legal(st) == ["discard-stone red"]) is over


@pytest.mark.parametrize(("reds", "over"), [(5, False), (6, False), (7, True)])
def test_hestia_raises_the_stone_limit_to_6_rules_7(reds: int, over: bool) -> None:
    """§7 with Hestia in the area: 6 may be held, a seventh is discarded at once."""
    st = acting(
        claimed=[["salamander"], []], areas=[["hestia"], []], stones=[["red"] * (reds - 3), []]
    )
    play(st, "sell salamander")
    assert (legal(st) == ["discard-stone red"]) is over


# ---------------------------------------------------------------- the end (§9, §10)
@pytest.mark.parametrize(("score", "over"), [(59, False), (60, True), (61, True)])
def test_a_base_game_ends_after_the_round_someone_has_60_rules_9_q16(
    score: int, over: bool
) -> None:
    """§9 (Q16: checked once, after the resolution phase): 59 plays on, 60 and 61 end it."""
    st = acting(scores=[1, score], round=3)
    play(st, "end-turn", "end-turn")
    assert st.is_terminal is over


@pytest.mark.parametrize(("rnd", "over"), [(9, False), (10, True)])
def test_the_game_ends_after_round_10_rules_9(rnd: int, over: bool) -> None:
    st = acting(scores=[1, 2], round=rnd)
    play(st, "end-turn", "end-turn")
    assert st.is_terminal is over
    if not over:
        assert st.round == 10


@pytest.mark.parametrize(
    ("scores", "areas", "winners"),
    [
        ([61, 60], [["hestia"], ["kappa", "firefox"]], [0]),  # one point more wins
        ([60, 60], [["hestia"], ["kappa", "firefox"]], [1]),  # tie: one card more in the area
        ([60, 60], [["hestia", "ifrit"], ["kappa", "firefox"]], [0, 1]),  # shared (Q6)
    ],
)
def test_the_tie_break_most_cards_in_the_area_then_shared_rules_10_q6(
    scores: list[int], areas: list[list[str]], winners: list[int]
) -> None:
    st = acting(scores=scores, areas=areas, round=3)
    play(st, "end-turn", "end-turn")
    assert st.is_terminal and st.winners == winners


# ---------------------------------------------------------------- claims (§4.2)
def test_each_seat_claims_exactly_2_cards_rules_4_2() -> None:
    """§4.2: 2 players claim P1 P2 P2 P1: each seat 2 cards, then the action phase."""
    from eterna.games.vale import GAME

    st = GAME.new_game(2, seed=5, setup={"first_player": 0})
    order = []
    while st.view(None)["phase"] == "hunting":
        order.append(st.current_player)
        st.apply(legal(st)[0])
    assert order == [0, 1, 1, 0]
    assert [len(c) for c in st.view(None)["claimed"]] == [2, 2]
