"""Eternity's rules: one scenario per rule of the digest (shared/reference/eternity/rules.md).

Every test is named after the rule it checks and cites the digest's section (§) or open question
(Q) in its docstring. Positions are built with `setup` (DESIGN.md: columns, first_leader, deals),
so each outcome asserted below (legal-move lists, trick winners, trump, trees, scores, refusals)
was worked out by hand from the rules, not read back from the engine.

Card shorthand used throughout: `e` earth, `s` sea, `k` sky; `e3-5` means earth-3, earth-4,
earth-5. In trick scripts `s14` is `play sea-14` and `+k5` is `pledge sky-5`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

import eterna
from eterna.core.game import Action
from eterna.games.eternity.cards import ACTIONS, CARD_NAME, CARD_TREES, parse_action

GAME = eterna.load_game("eternity")
FAMILY = {"e": "earth", "s": "sea", "k": "sky"}
ALL_CARDS = [f"{family}-{value}" for family in ("earth", "sea", "sky") for value in range(1, 15)]
HAND = {3: 10, 4: 10, 5: 8}


# ---------------------------------------------------------------------------------- helpers
def cards(text: str | Sequence[str]) -> list[str]:
    """'e1-3 s14' -> ['earth-1', 'earth-2', 'earth-3', 'sea-14']; full ids and lists pass."""
    if not isinstance(text, str):
        return list(text)
    out = []
    for token in text.split():
        if token in ALL_CARDS:
            out.append(token)
            continue
        low, _, high = token[1:].partition("-")
        out += [f"{FAMILY[token[0]]}-{v}" for v in range(int(low), int(high or low) + 1)]
    return out


def move(token: str) -> str:
    """'s14' -> 'play sea-14'; '+k5' -> 'pledge sky-5'."""
    if token.startswith("+"):
        return "pledge " + cards(token[1:])[0]
    return "play " + cards(token)[0]


def plays(text: str) -> list[str]:
    return ["play " + c for c in cards(text)]


def pledges(text: str) -> list[str]:
    return ["pledge " + c for c in cards(text)]


def deal(hands: Sequence[Any], board: Any, display: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": [cards(h) for h in hands], "board": cards(board)}
    if display is not None:
        out["display"] = cards(display)
    return out


def start(
    hands: Sequence[Any],
    board: Any,
    *,
    display: Any = None,
    columns: str = "earth sea sky",
    first_leader: int = 0,
) -> Any:
    """A game whose first round is exactly this deal (later rounds shuffled from the seed)."""
    setup = {
        "columns": columns.split(),
        "first_leader": first_leader,
        "deals": [deal(hands, board, display)],
    }
    return GAME.new_game(len(hands), seed=1, setup=setup)


def fill(players: int, fixed: dict[int, str], board: str | None = None) -> dict[str, Any]:
    """A full deal where only `fixed` matters: other cards go out in card order."""
    taken = {c for text in fixed.values() for c in cards(text)} | set(cards(board or ""))
    rest = [c for c in ALL_CARDS if c not in taken]
    hands = []
    for seat in range(players):
        hand = cards(fixed.get(seat, ""))
        need = HAND[players] - len(hand)
        hands.append(hand + rest[:need])
        rest = rest[need:]
    return {"hands": hands, "board": cards(board) if board else rest[:2]}


def legal(state: Any) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def run(state: Any, *tokens: str) -> None:
    for token in tokens:
        state.apply(move(token))


def snapshot(state: Any) -> str:
    """Everything observable about a state, as one JSON text."""
    n = state.players
    return json.dumps(
        {
            "spectator": state.view(None),
            "seats": [state.view(s) for s in range(n)],
            "hands": [state.hand(s) for s in range(n)],
            "record": state.to_record(),
            "legal": legal(state),
            "current": state.current_player,
            "scores": state.scores,
            "winners": state.winners,
            "terminal": state.is_terminal,
        },
        sort_keys=True,
    )


def assert_refused(state: Any, action: Any, error: type, *fragments: str) -> str:
    """`action` raises `error`, whose message holds every fragment; the state is untouched."""
    before = snapshot(state)
    with pytest.raises(error) as caught:
        state.apply(action)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert snapshot(state) == before
    return message


def board_of(state: Any) -> dict[str, list[str]]:
    board: dict[str, list[str]] = state.view(None)["board"]
    return board


# ------------------------------------------------------------------------- standard deals
# BASE4: 4 players, columns earth|sea|sky, board sea-1 sky-1: sea and sky tie at one card, earth
# has none, so trump is sea (the leftmost tied column). Seat 1 holds all three families, seat 2
# no earth (sea and sky), seat 3 no sea (earth and sky).
BASE4 = (["e11-14 s12-14 k12-14", "e1-4 s2-4 k2-4", "s5-11 k5-7", "e5-10 k8-11"], "s1 k1")

# BASE4B: board earth-1 earth-2, so trump is earth. Seat 1 holds no earth (sea and sky).
BASE4B = (["e3-12", "s1-5 k1-5", "e13-14 s6-9 k6-9", "s10-14 k10-14"], "e1 e2")

# DEAL_T: trump sea (board sea-1 sky-1). Seat 1 holds only sky: void of earth and of trump.
DEAL_T = (["e1-5 s2-6", "k5-14", "e10-13 s7-12", "e6-9 e14 s13-14 k2-4"], "s1 k1")

# DEAL_R: trump sea (board sea-1 sky-1); pledges move trump from trick to trick.
DEAL_R = (["e1-8 s2-3", "e9-14 k2-5", "s9-14 k11-14", "s4-8 k6-10"], "s1 k1")

# BASE3: 3 players, board sky-1 sky-2 (trump sky), the display holds ten earth cards.
BASE3 = (["e11-14 s1-6", "s7-14 k3-4", "k5-14"], "k1 k2", "e1-10")

# BASE5: 5 players, columns sea|sky|earth, board earth-1 sky-1: sky and earth tie, sky is left.
BASE5 = (["e2-9", "e10-14 s1-3", "s4-11", "s12-14 k2-6", "k7-14"], "e1 k1")


# ------------------------------------------------------------------------- whole-round scripts
@dataclass(frozen=True)
class Script:
    """A whole 4-player round as tricks of role:move tokens, leader first, '> R' the winner.

    Roles are placed on seats by a mapping string (role of seat 0, seat 1, ...). Within a trick
    the moves are applied in seating order, whoever the engine says is to move, so the script
    also checks that the winner of each trick leads the next one.
    """

    board: str
    tricks: tuple[str, ...]

    def parsed(self) -> list[tuple[list[tuple[str, str]], str]]:
        out = []
        for line in self.tricks:
            moves, _, winner = line.partition(">")
            pairs = [tuple(item.split(":")) for item in moves.split()]
            out.append(([(role, move(token)) for role, token in pairs], winner.strip()))
        return out

    def hands(self, mapping: str) -> list[list[str]]:
        held: dict[str, list[str]] = {role: [] for role in mapping}
        for moves, _ in self.parsed():
            for role, action in moves:
                held[role].append(action.split()[1])
        return [held[role] for role in mapping]

    def deal(self, mapping: str) -> dict[str, Any]:
        return {"hands": self.hands(mapping), "board": cards(self.board)}


# ROUND_P: trump earth all round (board earth-1 earth-2; the pledges add earth-3, sea-10, sea-11,
# sky-5, sky-12: earth keeps the most or ties leftmost). Outcome per role:
#   A: 2 trees (sea-10), 2 tricks -> T == K: 2 + bonus
#   B: 1 tree (sky-5), 6 tricks   -> T < K: 1
#   C: 4 trees (sky-12, sea-11), 2 tricks -> T > K: 0
#   D: 0 trees (pledged earth-3, no tree), 0 tricks -> T == K == 0: the bonus
ROUND_P = Script(
    board="e1 e2",
    tricks=(
        "A:s14 B:s2 C:s3 D:s4 > A",
        "A:k14 B:+k5 C:k2 D:k3 > A",
        "A:s5 B:s13 C:+k12 D:s6 > B",
        "B:e14 C:e4 D:e5 A:+s10 > B",
        "B:e13 C:e6 D:+e3 A:e7 > B",
        "B:k13 C:+s11 D:k4 A:k6 > B",
        "B:s12 C:s7 D:s8 A:s9 > B",
        "B:k11 C:k7 D:k8 A:k9 > B",
        "B:e8 C:e12 D:e9 A:e10 > C",
        "C:e11 D:k1 A:k10 B:s1 > C",
    ),
)
P_POINTS = {"A": lambda b: 2 + b, "B": lambda b: 1, "C": lambda b: 0, "D": lambda b: b}

# ROUND_Q: no pledge at all; board earth-1 sea-1 ties, so trump is earth (leftmost). W and V win
# five tricks each with no tree (T < K: 0); X and Y win nothing and take nothing (T == K == 0:
# the bonus). The last trick is won by W trumping with earth-2: with sea as trump, X would win.
ROUND_Q = Script(
    board="e1 s1",
    tricks=(
        "W:e14 X:e3 V:e4 Y:e5 > W",
        "W:s14 X:s3 V:s4 Y:s5 > W",
        "W:k14 X:k3 V:k4 Y:k5 > W",
        "W:e13 X:e6 V:e7 Y:e8 > W",
        "W:s6 X:s7 V:s13 Y:s8 > V",
        "V:k13 Y:k6 W:k7 X:k8 > V",
        "V:e12 Y:e9 W:e10 X:e11 > V",
        "V:s12 Y:s9 W:s10 X:s2 > V",
        "V:k12 Y:k9 W:k10 X:k11 > V",
        "V:k1 Y:k2 W:e2 X:s11 > W",
    ),
)

BONUS = (2, 4, 7)


def play_tricks(
    state: Any, script: Script, mapping: str, count: int | None = None, skip: int = 0
) -> None:
    """Play tricks skip..count-1 (all by default) of `script`, checking leaders and winners."""
    seat_of = {role: seat for seat, role in enumerate(mapping)}
    for moves, winner in script.parsed()[skip:count]:
        assert state.current_player == seat_of[moves[0][0]], "the wrong seat leads"
        todo = dict(moves)
        for _ in range(state.players):
            state.apply(todo.pop(mapping[state.current_player]))
        assert state.view(None)["last_trick"]["winner"] == seat_of[winner]


def scripted_game(
    scripts: Sequence[Script], mappings: Sequence[str], options: dict[str, Any] | None = None
) -> Any:
    """A game whose three deals are the scripts' hands; round 1 led by the first role."""
    first_role = scripts[0].parsed()[0][0][0][0]
    setup = {
        "columns": ["earth", "sea", "sky"],
        "first_leader": mappings[0].index(first_role),
        "deals": [s.deal(m) for s, m in zip(scripts, mappings, strict=True)],
    }
    return GAME.new_game(4, seed=3, options=options or {}, setup=setup)


def play_game(scripts: Sequence[Script], mappings: Sequence[str], **options: Any) -> Any:
    state = scripted_game(scripts, mappings, options)
    for script, mapping in zip(scripts, mappings, strict=True):
        play_tricks(state, script, mapping)
    return state


def first_legal_until(state: Any, stop: Any) -> None:
    while not state.is_terminal and not stop(state):
        state.apply(state.legal_actions()[0])


# =========================================================================== §2.2 components
def test_tree_values_per_card__s2_2() -> None:
    """§2.2 / Q11: values 1-4 show no tree, 5-9 one, 10-14 two, in every family (45 in all)."""
    expected = {v: 0 if v <= 4 else 1 if v <= 9 else 2 for v in range(1, 15)}
    assert {CARD_NAME[c]: CARD_TREES[c] for c in range(42)} == {
        card: expected[int(card.split("-")[1])] for card in ALL_CARDS
    }
    assert sum(CARD_TREES) == 45
    assert sorted(CARD_NAME) == sorted(ALL_CARDS)


@pytest.mark.parametrize("value", range(1, 15))
@pytest.mark.parametrize("family", ["earth", "sea", "sky"])
def test_tree_values_per_card_when_pledged__s2_2(family: str, value: int) -> None:
    """§2.2: a pledge of each card yields exactly the trees printed on it."""
    card = f"{family}-{value}"
    setup = {"columns": ["earth", "sea", "sky"], "first_leader": 0, "deals": [fill(4, {1: card})]}
    state = GAME.new_game(4, seed=1, setup=setup)
    state.apply(state.legal_actions()[0])
    state.apply(f"pledge {card}")
    assert state.view(None)["trees"] == [0, 0 if value <= 4 else 1 if value <= 9 else 2, 0, 0]


# ===================================================================================== §3 deal
@pytest.mark.parametrize("seed", range(4))
def test_deal_4_players_10_cards_each_2_to_board__s3(seed: int) -> None:
    """§3: at 4 players every seat gets 10 cards and the 2 left start the trump board."""
    state = GAME.new_game(4, seed=seed)
    view = state.view(None)
    board = [c for column in view["board"].values() for c in column]
    assert view["hand_sizes"] == [10, 10, 10, 10]
    assert len(board) == 2 and view["display"] == []
    assert sorted(sum((state.hand(s) for s in range(4)), board)) == sorted(ALL_CARDS)


@pytest.mark.parametrize("seed", range(4))
def test_deal_5_players_8_cards_each_2_to_board__s3(seed: int) -> None:
    """§3: at 5 players every seat gets 8 cards and the 2 left start the trump board."""
    state = GAME.new_game(5, seed=seed)
    view = state.view(None)
    board = [c for column in view["board"].values() for c in column]
    assert view["hand_sizes"] == [8] * 5
    assert len(board) == 2 and view["display"] == []
    assert sorted(sum((state.hand(s) for s in range(5)), board)) == sorted(ALL_CARDS)


@pytest.mark.parametrize("seed", range(4))
def test_deal_3_players_10_cards_each_10_display_2_to_board__s3(seed: int) -> None:
    """§3: at 3 players 10 cards each, a fourth hand of 10 face up (display), 2 to the board."""
    state = GAME.new_game(3, seed=seed)
    view = state.view(None)
    board = [c for column in view["board"].values() for c in column]
    assert view["hand_sizes"] == [10, 10, 10]
    assert len(board) == 2 and len(view["display"]) == 10
    everything = sum((state.hand(s) for s in range(3)), board + view["display"])
    assert sorted(everything) == sorted(ALL_CARDS)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("kind", ["game", "agent"])
def test_deal_chunks_is_deal_round_as_masks__s3(players: int, kind: str) -> None:
    """§3: every game start and determinization deals through `deal_chunks`, which must cut the
    same shuffle as `deal_round` (the general dealer, used when a setup fixes cards): hands in
    seat order, then the display, then the board, from the game's generator or an agent's."""
    from eterna.core.rng import Rng
    from eterna.games.eternity.cards import mask_of, split_mask
    from eterna.games.eternity.deal import deal_chunks, deal_round

    for seed in range(20):
        one: Rng | random.Random = Rng(seed) if kind == "game" else random.Random(seed)
        two: Rng | random.Random = Rng(seed) if kind == "game" else random.Random(seed)
        hands, board, display = deal_round(one, players, None)
        chunks, board2, display2 = deal_chunks(two, players)
        assert chunks == [c for hand in hands for c in split_mask(mask_of(hand))]
        assert (board2, display2) == (board, mask_of(display))
        if isinstance(one, Rng) and isinstance(two, Rng):
            assert one.state == two.state  # the same draws taken
        else:
            assert one.getstate() == two.getstate()


def test_board_cards_go_to_their_family_column__s3() -> None:
    """§3.4: the two remaining cards go in the column of their own family."""
    state = start(*BASE4, columns="sky earth sea")
    view = state.view(None)
    assert view["columns"] == ["sky", "earth", "sea"]
    assert view["board"] == {"sky": ["sky-1"], "earth": [], "sea": ["sea-1"]}
    assert [state.hand(s) for s in range(4)] == [
        sorted(cards(h), key=ALL_CARDS.index) for h in BASE4[0]
    ]


def test_three_player_display_visible_to_all_and_not_counted_for_trump__s3_q5() -> None:
    """§3.5 / Q5: the 3-player display is public, out of play and not counted for trump."""
    state = start(*BASE3[:2], display=BASE3[2])
    display = cards("e1-10")
    for seat in (None, 0, 1, 2):
        assert state.view(seat)["display"] == display
    # ten earth cards on display, two sky on the board: trump is still sky
    assert state.trump == "sky" and state.view(None)["trump"] == "sky"
    assert_refused(state, "play earth-1", eterna.IllegalAction, "does not hold earth-1", "§5")
    run(state, "s1", "s7", "k5")  # seat 2 void of sea must trump with sky, and wins
    view = state.view(None)
    assert view["last_trick"]["winner"] == 2
    assert view["display"] == display
    assert view["board"] == {"earth": [], "sea": [], "sky": ["sky-1", "sky-2"]}


# ===================================================================================== §4 trump
@pytest.mark.parametrize(
    ("columns", "board", "trump"),
    [
        ("earth sea sky", "s1 s2", "sea"),  # most cards
        ("sky earth sea", "e1 e2", "earth"),  # most cards, whatever the column
        ("earth sea sky", "s1 k1", "sea"),  # tie: sea is left of sky
        ("sky sea earth", "s1 k1", "sky"),  # tie: sky is left of sea
        ("sea earth sky", "e1 k1", "earth"),
        ("sky earth sea", "e1 k1", "sky"),
    ],
)
def test_trump_most_cards_leftmost_breaks_ties__s4(columns: str, board: str, trump: str) -> None:
    """§4: trump is the family with most board cards; a tie goes to the leftmost column."""
    setup = {"columns": columns.split(), "first_leader": 0, "deals": [fill(4, {}, board)]}
    state = GAME.new_game(4, seed=2, setup=setup)
    assert state.trump == trump
    assert all(state.view(s)["trump"] == trump for s in (None, 0, 1, 2, 3))


def test_trump_reevaluated_before_every_trick__s4() -> None:
    """§4: pledged cards change the board, and trump is recomputed before each trick."""
    state = start(*DEAL_R)
    assert state.trump == "sea"
    run(state, "e1", "+e14")  # earth now has a card too, but only after the trick
    assert legal(state) == plays("s9-14")  # void of earth: trump sea
    run(state, "s14", "s4")
    # earth, sea, sky one card each: earth is leftmost
    assert state.trump == "earth" and state.current_player == 2
    run(state, "k14", "+k10")  # sky will have two cards
    assert legal(state) == plays("e2-8")  # seat 0, void of sky: the new trump earth
    run(state, "e2", "k5")
    assert state.view(None)["last_trick"]["winner"] == 0  # earth-2 trumps sky-14
    assert state.trump == "sky"
    run(state, "e3", "e9")
    # seat 2, void of earth: must play the new trump sky (it may still pledge anything)
    assert legal(state) == plays("k11-13") + pledges("s9-13 k11-13")
    run(state, "k11", "k6")
    assert state.view(None)["last_trick"]["winner"] == 2
    assert state.trump == "sky"


# ================================================================================== §5 tricks
def test_play_goes_clockwise_from_the_leader__s5_1_q3() -> None:
    """§5.1 / Q3: the leader plays first, then the others clockwise (seat s, s+1, ...)."""
    state = start(*BASE4, first_leader=2)
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [2, 3, 0, 1]
    assert state.view(None)["last_trick"]["leader"] == 2


def test_leader_must_play_may_not_pledge__s5_2() -> None:
    """§5.2: the leader plays any card of the hand to the trick and may not pledge."""
    state = start(*BASE4)
    assert legal(state) == plays("e11-14 s12-14 k12-14")
    assert state.view(0)["legal_actions"] == plays("e11-14 s12-14 k12-14")
    assert_refused(state, "pledge earth-11", eterna.IllegalAction, "leader", "rules §5.2")
    run(state, "s12")  # any card may lead: here a trump
    assert state.view(None)["led"] == "sea"


def test_leader_of_later_tricks_may_not_pledge_either__s5_2() -> None:
    """§5.2: the rule binds every trick's leader, e.g. the winner of the previous trick."""
    state = start(*BASE4)
    run(state, "e11", "e1", "s5", "e5")  # seat 2 trumps and wins
    assert state.current_player == 2
    assert legal(state) == plays("s6-11 k5-7")
    assert_refused(state, "pledge sea-6", eterna.IllegalAction, "rules §5.2")


def test_participate_follow_led_family__s5_3() -> None:
    """§5.3 participate: holding the led family, a player must play that family."""
    state = start(*BASE4)
    run(state, "e11")
    assert legal(state) == plays("e1-4") + pledges("e1-4 s2-4 k2-4")
    assert_refused(
        state, "play sea-2", eterna.IllegalAction,
        "must follow earth", "earth-1, earth-2, earth-3, earth-4", "rules §5.3",
    )  # fmt: skip
    assert_refused(state, "play sky-2", eterna.IllegalAction, "must follow earth", "§5.3")


def test_participate_else_trump__s5_3() -> None:
    """§5.3 participate: without the led family, a player holding trump must play trump."""
    state = start(*BASE4)
    run(state, "e11", "e1")
    assert legal(state) == plays("s5-11") + pledges("s5-11 k5-7")
    assert_refused(
        state, "play sky-5", eterna.IllegalAction, "must play trump sea", "sea-5", "rules §5.3"
    )


def test_participate_else_any__s5_3() -> None:
    """§5.3 participate: with neither the led family nor trump, any card may be played."""
    state = start(*BASE4)
    run(state, "s12", "s2", "s5")  # sea is led and is trump; seat 3 holds neither
    assert legal(state) == plays("e5-10 k8-11") + pledges("e5-10 k8-11")
    run(state, "k8")
    assert state.view(None)["last_trick"]["winner"] == 0
    state = start(*BASE4B)
    run(state, "e3")  # earth led and trump; seat 1 holds only sea and sky
    assert legal(state) == plays("s1-5 k1-5") + pledges("s1-5 k1-5")


def test_pledge_any_card_ignores_follow__s5_3() -> None:
    """§5.3 pledge: any card may be pledged, whatever the follow and trump duties."""
    state = start(*BASE4)
    run(state, "e11", "+k2")  # seat 1 holds earth but pledges a sky card
    view = state.view(None)
    assert view["pledges"] == [{"seat": 1, "card": "sky-2"}]
    assert view["trick"] == [{"seat": 0, "card": "earth-11"}]
    assert view["led"] == "earth"
    assert "sky-2" not in state.hand(1)


@pytest.mark.parametrize(
    ("card", "trees"),
    [("earth-4", 0), ("earth-5", 1), ("sea-9", 1), ("sea-10", 2), ("sky-14", 2), ("sky-1", 0)],
)
def test_pledge_takes_trees_0_1_2__s5_3(card: str, trees: int) -> None:
    """§5.3 pledge: the pledger takes at once as many trees as the card shows (0, 1 or 2)."""
    setup = {"columns": ["earth", "sea", "sky"], "first_leader": 3, "deals": [fill(4, {0: card})]}
    state = GAME.new_game(4, seed=5, setup=setup)
    state.apply(state.legal_actions()[0])
    state.apply(f"pledge {card}")
    assert state.view(None)["trees"] == [trees, 0, 0, 0]  # before the trick is over
    assert state.view(None)["tree_supply"] is None


@pytest.mark.parametrize("players", [3, 4])
def test_pledge_cap_one_at_3_and_4_players__s5_4(players: int) -> None:
    """§5.4: at 3 and 4 players at most one pledge per trick; the others must participate."""
    if players == 3:
        state = start(*BASE3[:2], display=BASE3[2])
        run(state, "s1", "+s14")
        assert legal(state) == plays("k5-14")
    else:
        state = start(*BASE4)
        run(state, "e11", "+e1")
        assert legal(state) == plays("s5-11")
    assert state.view(None)["pledges_left"] == 0
    assert_refused(
        state, state.legal_actions()[0].text.replace("play", "pledge"), eterna.IllegalAction,
        f"only 1 pledge per trick at {players} players", "rules §5.4",
    )  # fmt: skip
    while state.view(None)["trick_number"] == 1:
        assert not any(a.startswith("pledge") for a in legal(state))
        state.apply(state.legal_actions()[0])
    # the next trick allows a pledge again
    state.apply(state.legal_actions()[0])
    assert state.view(None)["pledges_left"] == 1
    assert any(a.startswith("pledge") for a in legal(state))


def test_pledge_cap_two_at_5_players__s5_4() -> None:
    """§5.4: at 5 players two pledges per trick are allowed, not three."""
    state = start(*BASE5, columns="sea sky earth")
    assert state.trump == "sky"
    run(state, "e2", "+e14", "+s11")
    assert state.view(None)["trees"] == [0, 2, 2, 0, 0]
    assert legal(state) == plays("k2-6")  # void of earth, holds trump sky; no pledge left
    assert_refused(
        state, "pledge sea-12", eterna.IllegalAction,
        "only 2 pledges per trick at 5 players", "rules §5.4",
    )  # fmt: skip
    run(state, "k2")
    assert legal(state) == plays("k7-14")
    run(state, "k7")
    view = state.view(None)
    assert view["last_trick"]["winner"] == 4
    # earth-14 joined earth: two cards, the most; trump is earth now
    assert view["trump"] == "earth" and view["pledges_left"] == 2
    run(state, "k8")
    assert legal(state) == plays("e3-9") + pledges("e3-9")


def test_trick_may_have_no_pledge__s5_4() -> None:
    """§5.4 ([P-FR]: 'un pli peut n'avoir aucun engagement'): nobody has to pledge."""
    state = start(*BASE4)
    run(state, "e11", "e1", "s5", "e5")
    view = state.view(None)
    assert view["last_trick"]["pledges"] == [] and view["trees"] == [0, 0, 0, 0]
    assert board_of(state) == {"earth": [], "sea": ["sea-1"], "sky": ["sky-1"]}


def test_trick_highest_trump_wins__s5_5() -> None:
    """§5.5: the highest trump wins, over any card of the led family."""
    state = start(*BASE5, columns="sea sky earth")
    run(state, "e2", "e14", "s11", "k2", "k7")  # two trumps: sky-7 beats sky-2 and earth-14
    view = state.view(None)
    assert view["last_trick"]["winner"] == 4
    assert view["tricks"] == [0, 0, 0, 0, 1]


def test_trick_single_trump_beats_higher_led_card__s5_5() -> None:
    """§5.5: one low trump beats the highest card of the led family."""
    state = start(*BASE4)
    run(state, "e11", "e1", "s5", "e10")
    assert state.view(None)["last_trick"]["winner"] == 2


def test_trick_highest_led_family_wins_without_trump__s5_5() -> None:
    """§5.5: with no trump in the trick, the highest card of the led family wins."""
    state = start(*DEAL_T)
    run(state, "e1", "k5", "e13", "e9")
    assert state.view(None)["last_trick"]["winner"] == 2
    assert state.current_player == 2


def test_third_family_never_wins__s5_5() -> None:
    """§5.5: a card of neither the led family nor trump never wins, even the 14."""
    state = start(*DEAL_T)
    run(state, "e1", "k14", "e10", "e6")
    assert state.view(None)["last_trick"]["winner"] == 2
    # in any position: played last, sky-14 still loses to the led family
    state = start(*DEAL_T, first_leader=2)
    run(state, "e10", "e14", "e1", "k14")
    assert state.view(None)["last_trick"]["winner"] == 3


@pytest.mark.parametrize("pledge", ["+s14", "+e14"])
def test_pledged_card_does_not_count_for_trick__s5_5(pledge: str) -> None:
    """§5.3/§5.5: a pledged card, even the top trump or top led card, takes no part."""
    state = start(*DEAL_T)
    run(state, "e1", "k14", "e13", pledge)
    view = state.view(None)
    assert view["last_trick"]["winner"] == 2
    assert view["tricks"] == [0, 0, 1, 0]
    assert view["trees"] == [0, 0, 0, 2]


def test_trump_of_trick_is_trump_at_its_start__s5_5() -> None:
    """§5.5: a pledge during a trick does not change this trick's trump, only the next."""
    state = start(*DEAL_R)
    run(state, "e1", "+k5")  # sky will have two cards on the board: trump for the next trick
    assert state.trump == "sea" and state.view(None)["trump"] == "sea"
    assert legal(state) == plays("s9-14")  # still sea, not sky
    run(state, "s9")
    assert legal(state) == plays("s4-8")
    run(state, "s8")
    assert state.view(None)["last_trick"]["winner"] == 2
    assert state.trump == "sky"


def test_pledged_cards_join_board_after_trick__s5_6() -> None:
    """§5.6: pledged cards wait face up in front of the pledger until the trick is over."""
    state = start(*BASE5, columns="sea sky earth")
    run(state, "e2", "+e14", "+s11")
    view = state.view(None)
    assert view["pledges"] == [{"seat": 1, "card": "earth-14"}, {"seat": 2, "card": "sea-11"}]
    assert view["board"] == {"sea": [], "sky": ["sky-1"], "earth": ["earth-1"]}
    assert "earth-14" not in state.hand(1) and "sea-11" not in state.hand(2)
    run(state, "k2", "k7")
    view = state.view(None)
    assert view["board"] == {"sea": ["sea-11"], "sky": ["sky-1"], "earth": ["earth-1", "earth-14"]}
    assert view["pledges"] == [] and view["trick"] == []
    assert view["last_trick"]["pledges"] == [
        {"seat": 1, "card": "earth-14"},
        {"seat": 2, "card": "sea-11"},
    ]


def test_winner_leads_next_trick__s5_6() -> None:
    """§5.6: the winner takes the trick (one island) and leads the next trick."""
    state = start(*BASE4)
    run(state, "e11", "e1", "s5", "e5")
    view = state.view(None)
    assert view["tricks"] == [0, 0, 1, 0]
    assert view["current_player"] == 2 and view["leader"] == 2 and view["led"] is None
    assert view["trick_number"] == 2
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert order == [2, 3, 0, 1]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_round_lasts_hand_size_tricks__s5_6(players: int) -> None:
    """§5.6: a round is exactly hand-size tricks (10 at 3-4 players, 8 at 5); then round 2."""
    state = GAME.new_game(players, seed=11)
    rng = random.Random(players)
    hand = HAND[players]
    for trick in range(hand):
        view = state.view(None)
        assert view["round"] == 1 and view["trick_number"] == trick + 1
        assert view["hand_sizes"] == [hand - trick] * players
        for _ in range(players):
            state.apply(rng.choice(state.legal_actions()))
    view = state.view(None)
    assert view["round"] == 2 and view["trick_number"] == 1
    assert view["hand_sizes"] == [hand] * players
    assert sum(r["tricks"] for r in view["round_results"][0]) == hand


# ================================================================================= §6 trees
def test_trees_planted_automatically__s6() -> None:
    """§6: planting is bookkeeping: no planting action exists; scoring uses the counts."""
    state = scripted_game([ROUND_P] * 3, ["ABCD", "DABC", "CDAB"])
    verbs: set[str] = set()
    for moves, _ in ROUND_P.parsed():
        todo = dict(moves)
        for _ in range(4):
            verbs.update(a.split()[0] for a in legal(state))
            state.apply(todo.pop("ABCD"[state.current_player]))
    assert verbs == {"play", "pledge"}
    results = state.view(None)["round_results"][0]
    assert [(r["trees"], r["tricks"]) for r in results] == [(2, 2), (1, 6), (4, 2), (0, 0)]


# =============================================================================== §7 scoring
def test_round_scoring_three_cases_and_zero_zero_bonus__s7() -> None:
    """§7: T == K scores T + bonus (also T == K == 0), T < K scores T, T > K scores 0."""
    state = scripted_game([ROUND_P] * 3, ["ABCD", "DABC", "CDAB"])
    play_tricks(state, ROUND_P, "ABCD")
    view = state.view(None)
    assert view["round_results"] == [
        [
            {"trees": 2, "tricks": 2, "points": 4},  # A: T == K -> 2 + 2
            {"trees": 1, "tricks": 6, "points": 1},  # B: T < K -> 1
            {"trees": 4, "tricks": 2, "points": 0},  # C: T > K -> 0
            {"trees": 0, "tricks": 0, "points": 2},  # D: no trick, no tree -> the bonus
        ]
    ]
    assert view["scores"] == [4, 1, 0, 2] and state.scores == [4, 1, 0, 2]
    assert view["winners"] == [] and state.winners == []


def test_one_tree_per_trick_extra_trees_score_zero__s6_q12() -> None:
    """§6 / Q12: one tree per won trick: 4 trees on 2 islands leave 2 unplanted -> 0 points."""
    state = scripted_game([ROUND_P] * 3, ["ABCD", "DABC", "CDAB"])
    play_tricks(state, ROUND_P, "ABCD")
    assert state.view(None)["round_results"][0][2] == {"trees": 4, "tricks": 2, "points": 0}


def test_harmony_bonus_2_4_7_by_round__s7_q10() -> None:
    """§7 / Q10: the harmony bonus is 2, 4 and 7 in rounds 1, 2 and 3."""
    mappings = ["ABCD", "DABC", "CDAB"]
    state = scripted_game([ROUND_P] * 3, mappings)
    for rnd, mapping in enumerate(mappings):
        view = state.view(None)
        assert (view["round"], view["harmony_bonus"]) == (rnd + 1, BONUS[rnd])
        play_tricks(state, ROUND_P, mapping)
        points = [r["points"] for r in state.view(None)["round_results"][rnd]]
        assert points == [P_POINTS[role](BONUS[rnd]) for role in mapping]
    assert [[r["points"] for r in rnd] for rnd in state.view(None)["round_results"]] == [
        [4, 1, 0, 2],
        [4, 6, 1, 0],
        [0, 7, 9, 1],
    ]
    assert state.scores == [8, 14, 10, 3]


# ========================================================================= §8 rounds and end
def test_three_rounds_fresh_deal_two_fresh_board_cards__s8() -> None:
    """§8: three rounds, each a new deal of all 42 cards onto an emptied trump board."""
    mappings = ["ABCD", "DABC", "CDAB"]
    state = scripted_game([ROUND_P] * 3, mappings)
    for rnd, mapping in enumerate(mappings):
        view = state.view(None)
        assert view["round"] == rnd + 1
        assert view["board"] == {"earth": ["earth-1", "earth-2"], "sea": [], "sky": []}
        assert view["tricks"] == [0] * 4 and view["trees"] == [0] * 4  # Q7: all returned
        assert [state.hand(s) for s in range(4)] == [
            sorted(h, key=ALL_CARDS.index) for h in ROUND_P.hands(mapping)
        ]
        assert not state.is_terminal
        play_tricks(state, ROUND_P, mapping)
    assert state.is_terminal and state.current_player is None
    assert state.legal_actions() == []
    assert len(state.to_record()["actions"]) == 3 * 4 * 10


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_round_deals_anew_with_two_fresh_board_cards__s8(players: int) -> None:
    """§8/§3: every round reshuffles all 42 cards: full hands, a new display at 3 players,
    and a board of just the round's two new cards (so trump restarts from them)."""
    boards = [["sea-1", "sea-2"], ["earth-9", "sky-3"], ["earth-13", "earth-14"]]
    setup = {"columns": ["sky", "earth", "sea"], "deals": [{"board": b} for b in boards]}
    state = GAME.new_game(players, seed=6, setup=setup)
    displays = []
    for rnd, (board, trump) in enumerate(zip(boards, ["sea", "sky", "earth"], strict=True)):
        view = state.view(None)
        assert view["round"] == rnd + 1
        assert sorted(c for column in view["board"].values() for c in column) == board
        assert view["trump"] == trump
        assert view["hand_sizes"] == [HAND[players]] * players
        everything = sum((state.hand(s) for s in range(players)), board + view["display"])
        assert sorted(everything) == sorted(ALL_CARDS)
        displays.append(view["display"])
        first_legal_until(state, lambda s, r=rnd: s.round != r + 1)
    assert state.is_terminal
    if players == 3:
        assert all(len(d) == 10 for d in displays) and displays[0] != displays[1]
    else:
        assert displays == [[], [], []]


def test_highest_total_wins__s8() -> None:
    """§8: after round 3 the player with the highest total wins."""
    state = play_game([ROUND_P] * 3, ["ABCD", "DABC", "CDAB"])
    assert state.scores == [8, 14, 10, 3]
    assert state.winners == [1]
    assert state.view(None)["winners"] == [1] and state.view(2)["is_terminal"] is True


def test_tie_for_highest_total_is_shared__s8_q8() -> None:
    """§8 / Q8: a tie for the highest total is a shared victory (default tie_break=shared)."""
    state = play_game([ROUND_P] * 3, ["ADCB", "DACB", "CBAD"])
    assert state.scores == [8, 9, 9, 9]
    assert state.winners == [1, 2, 3]


def test_option_tie_break_harmony_rounds__q8() -> None:
    """Q8 option tie_break=harmony_rounds: most rounds scored with the bonus, then shared."""
    state = play_game([ROUND_P] * 3, ["ADCB", "DACB", "CBAD"], tie_break="harmony_rounds")
    # seat 1 had the bonus twice (D, then A); seats 2 and 3 once
    assert state.scores == [8, 9, 9, 9]
    assert state.winners == [1]
    state = play_game([ROUND_P] * 3, ["ABDC", "BACD", "BCAD"], tie_break="harmony_rounds")
    assert state.scores == [6, 7, 11, 11]
    assert state.winners == [2, 3]  # both had the bonus twice: still shared


def test_apply_after_game_over_is_refused__s8() -> None:
    """§8: after three rounds no action is accepted."""
    state = play_game([ROUND_P] * 3, ["ABCD", "DABC", "CDAB"])
    assert_refused(state, "play earth-1", eterna.IllegalAction, "game is over", "rules §8")


# =========================================================================== open questions
def test_first_leader_random_from_seed__q1() -> None:
    """Q1: without a fixed first leader, the seed picks one (any seat can be drawn)."""
    leaders = {seed: GAME.new_game(4, seed=seed).current_player for seed in range(40)}
    assert set(leaders.values()) == {0, 1, 2, 3}
    assert all(GAME.new_game(4, seed=s).current_player == p for s, p in leaders.items())
    assert GAME.new_game(4, seed=0, setup={"first_leader": 3}).current_player == 3


def test_next_round_leader_rotates__q2() -> None:
    """Q2 default next_round_leader=rotate: round r is led by (first_leader + r - 1) % n."""
    for first in range(4):
        mappings = [("ABCD" * 2)[4 - (first + r) % 4 :][:4] for r in range(3)]
        state = scripted_game([ROUND_P] * 3, mappings)
        leaders = []
        for mapping in mappings:
            leaders.append(state.current_player)
            play_tricks(state, ROUND_P, mapping)
        assert leaders == [first, (first + 1) % 4, (first + 2) % 4]


def test_option_next_round_leader_last_trick_winner__q2() -> None:
    """Q2 option next_round_leader=last_trick_winner: the last trick's winner leads."""
    mappings = ["ABDC", "CBDA", "ABCD"]  # C wins the last trick of each round
    state = scripted_game([ROUND_P] * 3, mappings, {"next_round_leader": "last_trick_winner"})
    play_tricks(state, ROUND_P, mappings[0])
    assert state.current_player == 3  # not seat 1 (rotate)
    play_tricks(state, ROUND_P, mappings[1])
    assert state.current_player == 0  # not seat 2 (rotate), not seat 1 (lowest score)
    play_tricks(state, ROUND_P, mappings[2])
    assert state.scores == [13, 3, 6, 13]
    assert state.winners == [0, 3]


def test_option_next_round_leader_lowest_score__q2() -> None:
    """Q2 option next_round_leader=lowest_score: the lowest total so far leads."""
    mappings = ["ABCD", "CDAB", "BCDA"]
    state = scripted_game([ROUND_P] * 3, mappings, {"next_round_leader": "lowest_score"})
    play_tricks(state, ROUND_P, mappings[0])
    assert state.scores == [4, 1, 0, 2] and state.current_player == 2
    play_tricks(state, ROUND_P, mappings[1])
    assert state.scores == [4, 5, 6, 3] and state.current_player == 3  # not 0 (last winner)
    play_tricks(state, ROUND_P, mappings[2])
    assert state.scores == [5, 5, 13, 12] and state.winners == [2]


def test_option_next_round_leader_lowest_score_tie_goes_clockwise__q2() -> None:
    """Q2 lowest_score: tied lowest totals go to the first tied seat after the last opener."""
    state = scripted_game([ROUND_Q] * 3, ["WXVY"] * 3, {"next_round_leader": "lowest_score"})
    play_tricks(state, ROUND_Q, "WXVY")
    # seats 0 and 2 both have 0; seat 0 opened round 1, so seat 2 is first clockwise after it
    assert state.scores == [0, 2, 0, 2]
    assert state.current_player == 2


def test_option_next_round_leader_alternatives_differ_after_round_q__q2() -> None:
    """Q2: after the same round, the three options name three different leaders."""
    leaders = {}
    for rule in ("rotate", "last_trick_winner", "lowest_score"):
        state = scripted_game([ROUND_Q] * 3, ["WXVY"] * 3, {"next_round_leader": rule})
        play_tricks(state, ROUND_Q, "WXVY")
        leaders[rule] = state.current_player
    assert leaders == {"rotate": 1, "last_trick_winner": 0, "lowest_score": 2}


def test_column_order_random_at_start_fixed_all_game__q4() -> None:
    """Q4 default column_order=fixed: a seeded random order, kept for the whole game."""
    orders = set()
    for seed in range(12):
        state = GAME.new_game(4, seed=seed)
        columns = state.view(None)["columns"]
        orders.add(tuple(columns))
        rng = random.Random(seed)
        seen = set()
        while not state.is_terminal:
            seen.add(tuple(state.view(None)["columns"]))
            for _ in range(40):
                state.apply(rng.choice(state.legal_actions()))
        assert seen == {tuple(columns)}
    assert len(orders) > 1


def test_option_column_order_shuffle_each_round__q4() -> None:
    """Q4 option column_order=shuffle_each_round: round 1 keeps the given order, later
    rounds are reshuffled (seeded)."""
    changed = 0
    for seed in range(10):
        state = GAME.new_game(
            4, seed=seed, options={"column_order": "shuffle_each_round"},
            setup={"columns": ["sky", "sea", "earth"]},
        )  # fmt: skip
        orders = []
        while not state.is_terminal:
            orders.append(state.view(None)["columns"])
            for _ in range(40):
                state.apply(state.legal_actions()[0])
        assert orders[0] == ["sky", "sea", "earth"]
        assert all(sorted(o) == ["earth", "sea", "sky"] for o in orders)
        changed += orders[1] != orders[0] or orders[2] != orders[0]
    assert changed >= 5


def test_tree_supply_unlimited_by_default__q6() -> None:
    """Q6 default tree_supply=0: unlimited, every pledge takes all of its card's trees."""
    assert GAME.options["tree_supply"] == 0
    state = play_game([ROUND_P] * 3, ["ABCD", "DABC", "CDAB"])
    assert [r["trees"] for r in state.view(None)["round_results"][0]] == [2, 1, 4, 0]
    assert state.view(None)["tree_supply"] is None


def test_option_tree_supply_caps_trees_per_round__q6() -> None:
    """Q6 option tree_supply=N: a pledger takes only what is left; the supply refills each
    round (Q7: every token goes back)."""
    mappings = ["ABCD", "DABC", "CDAB"]
    state = scripted_game([ROUND_P] * 3, mappings, {"tree_supply": 3})
    assert state.view(None)["tree_supply"] == 3
    play_tricks(state, ROUND_P, "ABCD", count=3)
    # B took 1 (sky-5), then C 2 of sky-12's 2: the supply is empty
    assert state.view(None)["trees"] == [0, 1, 2, 0]
    assert state.view(None)["tree_supply"] == 0
    play_tricks(state, ROUND_P, "ABCD", skip=3)  # A, D and C pledge again: nothing left
    assert state.view(None)["round_results"][0] == [
        {"trees": 0, "tricks": 2, "points": 0},  # A: no tree on 2 islands
        {"trees": 1, "tricks": 6, "points": 1},
        {"trees": 2, "tricks": 2, "points": 4},  # C: capped to 2 trees, now in harmony
        {"trees": 0, "tricks": 0, "points": 2},
    ]
    assert state.view(None)["tree_supply"] == 3  # round 2: the tokens are back
    play_tricks(state, ROUND_P, "DABC")
    assert [r["points"] for r in state.view(None)["round_results"][1]] == [4, 0, 1, 6]


def test_trees_and_tricks_reset_each_round__q7() -> None:
    """Q7: each round starts with every player at 0 trees and 0 tricks."""
    state = scripted_game([ROUND_P] * 3, ["ABCD", "DABC", "CDAB"])
    play_tricks(state, ROUND_P, "ABCD", count=9)
    assert state.view(None)["tricks"] == [2, 6, 1, 0]
    play_tricks(state, ROUND_P, "ABCD", skip=9)
    view = state.view(None)
    assert view["round"] == 2 and view["trees"] == [0] * 4 and view["tricks"] == [0] * 4


@pytest.mark.parametrize("players", [0, 1, 2, 6, -3])
def test_no_solo_or_two_player_variant__q9(players: int) -> None:
    """Q9: only the 3-5 player game is implemented; other counts are refused."""
    with pytest.raises(eterna.BadSetup, match="3-5 players"):
        GAME.new_game(players, seed=1)
    assert (GAME.min_players, GAME.max_players) == (3, 5)


def test_pledge_allowed_on_last_trick__q13() -> None:
    """Q13: pledging on the last trick is allowed and its trees count in the round score."""
    last = ROUND_Q.tricks[-1].replace("X:s11", "X:+s11")
    script = Script(ROUND_Q.board, (*ROUND_Q.tricks[:-1], last))
    state = scripted_game([script, ROUND_Q, ROUND_Q], ["WXVY"] * 3)
    play_tricks(state, script, "WXVY", count=9)
    run(state, "k1", "k2", "e2")
    assert state.current_player == 1
    assert legal(state) == ["play sea-11", "pledge sea-11"]
    state.apply("pledge sea-11")
    view = state.view(None)
    assert view["last_trick"]["pledges"] == [{"seat": 1, "card": "sea-11"}]
    # X took 2 trees with no trick: 0 points instead of the bonus
    assert view["round_results"][0][1] == {"trees": 2, "tricks": 0, "points": 0}
    assert view["round_results"][0][3] == {"trees": 0, "tricks": 0, "points": 2}


def test_public_and_hidden_information__q14() -> None:
    """Q14: board, pledges, display, tree and trick counts and played cards are public;
    hands are hidden (each seat sees only its own)."""
    state = start(*BASE3[:2], display=BASE3[2])
    run(state, "s1", "+s14")
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert view["pledges"] == [{"seat": 1, "card": "sea-14"}]
        assert view["trick"] == [{"seat": 0, "card": "sea-1"}]
        assert view["trees"] == [0, 2, 0] and view["hand_sizes"] == [9, 9, 10]
        assert view["display"] == cards("e1-10")
        assert view["hand"] == (None if seat is None else state.hand(seat))
        text = json.dumps(view)
        for other in range(3):
            if other != seat:
                for card in state.hand(other):
                    assert f'"{card}"' not in text and f' {card}"' not in text
    assert "legal_actions" in state.view(2) and "legal_actions" not in state.view(1)
    assert "legal_actions" not in state.view(None)


def test_determinize_respects_revealed_voids__q14() -> None:
    """DESIGN (determinize): a seat that did not follow holds none of the led family; one
    that neither followed nor trumped holds neither; hands and public cards are kept."""
    state = start(*DEAL_R)
    run(state, "e1", "+e14", "s14", "s4", "k14", "+k10", "e2", "k5")
    # seat 2 and 3 showed no earth; seat 0 showed no sky
    for i in range(30):
        guess = state.determinize(1, random.Random(i))
        assert guess.view(1) == state.view(1)
        assert guess.hand(1) == state.hand(1)
        assert not any(c.startswith("sky") for c in guess.hand(0))
        for seat in (2, 3):
            assert not any(c.startswith("earth") for c in guess.hand(seat))
        pool = sorted(c for s in (0, 2, 3) for c in guess.hand(s))
        assert pool == sorted(c for s in (0, 2, 3) for c in state.hand(s))


def test_determinize_start_carries_every_field() -> None:
    """A determinization's start is the game's with other deals (`with_deals`, written out for
    speed): every other field carried, defaulted ones included."""
    from dataclasses import MISSING, fields, replace

    from eterna.games.eternity.state import EternityStart

    defaulted = {
        "options": {"probe": 1},
        "setup": "probe setup",
        "version": 1,
        "position": "probe position",
        "preplayed": 3,
    }
    names = {
        f.name
        for f in fields(EternityStart)
        if f.default is not MISSING or f.default_factory is not MISSING
    }
    assert names == set(defaulted), "a new defaulted field: carry it in with_deals and here"
    base = replace(start(*DEAL_R)._start, **defaulted)  # type: ignore[arg-type]
    deals = base.deals[::-1]
    assert base.with_deals(deals) == replace(base, deals=deals)
    assert base.with_deals(deals).deals == deals


# ============================================================================ bad input
def _refusal_cases() -> list[tuple[str, list[str], str, tuple[str, ...]]]:
    return [
        ("card not held", [], "play earth-1", ("seat 0 does not hold earth-1", "rules §5")),
        ("pledge not held", ["e11"], "pledge sky-14", ("does not hold sky-14", "rules §5")),
        ("leader pledges", [], "pledge earth-11", ("leader", "rules §5.2")),
        ("winner pledges", ["e11", "e1", "s5", "e5"], "pledge sea-6", ("rules §5.2",)),
        ("must follow", ["e11"], "play sea-2", ("must follow earth", "rules §5.3")),
        ("must follow late", ["e11", "e1", "s5"], "play sky-8", ("must follow", "rules §5.3")),
        ("must trump", ["e11", "e1"], "play sky-5", ("must play trump sea", "rules §5.3")),
        ("cap", ["e11", "+e1"], "pledge sea-5", ("only 1 pledge", "rules §5.4")),
    ]


@pytest.mark.parametrize(("before", "action", "fragments"),
                         [c[1:] for c in _refusal_cases()],
                         ids=[c[0] for c in _refusal_cases()])  # fmt: skip
def test_refusal_names_rule_and_leaves_state_unchanged__s5(
    before: list[str], action: str, fragments: tuple[str, ...]
) -> None:
    """DESIGN: every refusal raises IllegalAction naming the rule, and changes nothing."""
    state = start(*BASE4)
    run(state, *before)
    assert action not in legal(state)
    assert_refused(state, action, eterna.IllegalAction, *fragments)
    assert_refused(state, parse_action(action), eterna.IllegalAction, *fragments)
    state.apply(state.legal_actions()[0])  # the state still plays on


@pytest.mark.parametrize(
    "text",
    ["", "play", "pledge", "sea-3", "play sea", "play sea-0", "play sea-15", "play water-3",
     "discard sea-3", "play sea-3 now", "play sea3", "play sea-3-1", "pledge  ", "play -3"],
)  # fmt: skip
def test_malformed_notation_raises_bad_notation(text: str) -> None:
    """Notation: text that is no action at all raises BadNotation and changes nothing."""
    state = start(*BASE4)
    words = text.split()
    culprit = repr(words[-1] if len(words) == 2 and words[0] in ("play", "pledge") else text)
    assert_refused(state, text, eterna.BadNotation, "not an Eternity", culprit)
    with pytest.raises(eterna.BadNotation):
        GAME.parse_action(text)


@pytest.mark.parametrize(
    "thing",
    [None, 42, 3.5, b"play earth-11", ("play", "earth-11"), ["play earth-11"], object(),
     Action(0, "play earth-11")],
    ids=["none", "int", "float", "bytes", "tuple", "list", "object", "foreign-action"],
)  # fmt: skip
def test_non_action_objects_raise_illegal_action(thing: Any) -> None:
    """Contract: anything that is neither an action nor notation raises IllegalAction."""
    state = start(*BASE4)
    assert_refused(state, thing, eterna.IllegalAction, "not an Eternity action")


def test_notation_round_trips_and_forgives_case_and_spaces() -> None:
    """Notation: str(action) is canonical and parses back; case and spacing are forgiven."""
    assert len(ACTIONS) == 84
    for action in ACTIONS:
        assert parse_action(str(action)) is action
        assert GAME.parse_action(str(action).upper()) is action
    state = start(*BASE4)
    state.apply("  PLAY   Earth-11 ")
    assert state.to_record()["actions"] == ["play earth-11"]
    assert state.view(None)["trick"] == [{"seat": 0, "card": "earth-11"}]


def _deal4(**change: Any) -> dict[str, Any]:
    base = deal(*BASE4)
    base.update(change)
    return base


BAD_SETUPS = [
    ("not a mapping", 4, "x", "setup must be an object"),
    ("unknown key", 4, {"dealz": []}, "unknown setup key(s) dealz"),
    ("two columns", 4, {"columns": ["sea", "sky"]}, "columns must list earth, sea, sky"),
    ("repeated column", 4, {"columns": ["sea", "sea", "sky"]}, "columns must list"),
    ("column text", 4, {"columns": "sea earth sky"}, "columns must list"),
    ("leader too big", 4, {"first_leader": 4}, "first_leader must be a seat 0..3"),
    ("leader negative", 4, {"first_leader": -1}, "first_leader must be a seat"),
    ("leader bool", 4, {"first_leader": True}, "first_leader must be a seat"),
    ("leader text", 4, {"first_leader": "0"}, "first_leader must be a seat"),
    ("deals not list", 4, {"deals": {"hands": []}}, "deals must be a list of at most 3"),
    ("deals empty object", 4, {"deals": {}}, "deals must be a list"),
    ("deals zero", 4, {"deals": 0}, "deals must be a list"),
    ("four deals", 4, {"deals": [None] * 4}, "at most 3 deals"),
    ("deal not mapping", 4, {"deals": ["x"]}, "round 1 must be an object"),
    ("deal unknown key", 4, {"deals": [{"hand": []}]}, "round 1 deal: unknown key(s) hand"),
    ("hands per seat", 4, {"deals": [{"hands": [[]] * 3}]}, "one list per seat (4)"),
    ("hands text", 4, {"deals": [{"hands": "abc"}]}, "one list per seat"),
    ("hand text", 4, {"deals": [{"hands": ["e1", None, None, None]}]}, "must be a list"),
    ("short hand", 4, {"deals": [{"hands": [cards("e1-9"), None, None, None]}]},
     "hand 0 has 9 cards; 4 players get 10 each (rules §3)"),
    ("5p hand", 5, {"deals": [{"hands": [cards("e1-10"), None, None, None, None]}]},
     "5 players get 8 each"),
    ("bad card", 4, {"deals": [{"hands": [[*cards("e1-9"), "sea-15"], None, None, None]}]},
     "'sea-15' is not an Eternity card"),
    ("card not text", 4, {"deals": [{"board": ["sea-1", 5]}]}, "5 is not a card id"),
    ("duplicate", 4, {"deals": [{"hands": [cards("e1-10"), cards("e10-14 s1-5"), None, None]}]},
     "a card appears twice"),
    ("board overlaps", 4, {"deals": [{"hands": [cards("e1-10"), None, None, None],
                                      "board": ["earth-1", "sea-1"]}]}, "appears twice"),
    ("board size", 4, {"deals": [{"board": ["sea-1", "sea-2", "sea-3"]}]},
     "the board starts with 2 cards (rules §3)"),
    ("display at 4", 4, {"deals": [{"display": cards("e1-10")}]},
     "only 3-player games have a display (rules §3)"),
    ("display size", 3, {"deals": [{"display": cards("e1-9")}]},
     "the display holds 10 cards (rules §3)"),
    ("round 2 bad", 4, {"deals": [None, {"board": ["sea-1"]}]}, "round 2 deal: the board"),
]  # fmt: skip


@pytest.mark.parametrize(("players", "setup", "fragment"), [c[1:] for c in BAD_SETUPS],
                         ids=[c[0] for c in BAD_SETUPS])  # fmt: skip
def test_bad_setup_raises_bad_setup(players: int, setup: Any, fragment: str) -> None:
    """Setup: a setup that cannot start a game raises BadSetup (an EternaError) saying why."""
    with pytest.raises(eterna.BadSetup) as caught:
        GAME.new_game(players, seed=1, setup=setup)
    assert fragment in str(caught.value)
    assert isinstance(caught.value, eterna.EternaError)


def test_setup_may_be_any_mapping_and_is_recorded_as_json() -> None:
    """Setup: any Mapping is accepted (the signature says Mapping) and recorded as plain
    JSON data; null parts are dealt from the seed; the record replays."""
    from types import MappingProxyType

    setup = MappingProxyType(
        {"first_leader": 1, "deals": [None, MappingProxyType({"board": ["sea-1", "sea-2"]})]}
    )
    state = GAME.new_game(4, seed=4, setup=setup)
    record = state.to_record()
    assert record["setup"] == {"first_leader": 1, "deals": [None, {"board": ["sea-1", "sea-2"]}]}
    assert json.loads(json.dumps(record)) == record
    assert state.current_player == 1
    first_legal_until(state, lambda s: s.round == 2)
    board = state.view(None)["board"]
    assert board["sea"] == ["sea-1", "sea-2"] and board["earth"] == board["sky"] == []
    assert state.trump == "sea"
    assert GAME.from_record(state.to_record()).view(None) == state.view(None)


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"colour": "red"}, "unknown option(s) colour"),
        ({"next_round_leader": "random"}, "'next_round_leader' must be one of"),
        ({"column_order": 1}, "'column_order' must be one of"),
        ({"tree_supply": -1}, "'tree_supply' must be at least 0"),
        ({"tree_supply": 1001}, "'tree_supply' must be at most 1000"),
        ({"tree_supply": True}, "'tree_supply' must be an integer"),
        ({"tree_supply": "18"}, "'tree_supply' must be an integer"),
        ({"tree_supply": 2.0}, "'tree_supply' must be an integer"),
        ({"tie_break": None}, "'tie_break' must be one of"),
    ],
)
def test_bad_options_raise_bad_setup(options: dict[str, Any], fragment: str) -> None:
    """Options: unknown names and values outside the documented ones raise BadSetup."""
    with pytest.raises(eterna.BadSetup) as caught:
        GAME.new_game(4, seed=1, options=options)
    assert fragment in str(caught.value)


@pytest.mark.parametrize("players", ["4", 4.0, True, None, [4]])
def test_bad_player_count_type_raises_bad_setup(players: Any) -> None:
    """Players: the count must be an int (bools refused), else BadSetup."""
    with pytest.raises(eterna.BadSetup, match="players must be an integer"):
        GAME.new_game(players, seed=1)


@pytest.mark.parametrize("seed", [-1, 2**62, "7", 7.0, True, [1]])
def test_bad_seed_raises_bad_setup(seed: Any) -> None:
    """Seed: an integer from 0 to 2**62 - 1, else BadSetup."""
    with pytest.raises(eterna.BadSetup, match="seed must be an integer from 0 to 2\\*\\*62 - 1"):
        GAME.new_game(4, seed=seed)


def test_options_documented_with_defaults() -> None:
    """Options: every option of OPTIONS has a documented default, matching the digest's Qs."""
    from eterna.games.eternity import OPTIONS

    assert GAME.options == {
        "next_round_leader": "rotate",
        "column_order": "fixed",
        "tree_supply": 0,
        "tie_break": "shared",
    }
    assert OPTIONS["next_round_leader"].choices == ("rotate", "last_trick_winner", "lowest_score")
    assert OPTIONS["column_order"].choices == ("fixed", "shuffle_each_round")
    assert OPTIONS["tie_break"].choices == ("shared", "harmony_rounds")
    assert all(opt.doc for opt in OPTIONS.values())
