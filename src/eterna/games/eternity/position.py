"""Eternity's positions (docs/eternity.md#positions): any moment of a game as one JSON object.

A position holds the round being played (hands, trump board, display, the round's finished
tricks and the trick in progress, in order), the previous round's last trick while the round has
none of its own, the per-round results, and the deals of the rounds still to come (Eternity
draws every deal when the game starts: they are hidden state like a deck). The counters the
view shows (tricks, trees, tokens left, voids, scores, the seat to move) are written too, and
checked against the round's tricks: a position whose numbers do not add up is refused.

Loading builds the state directly: the round's tricks are read once to check them and to find
trump, voids and the trick's best card; no deal is needed and nothing is replayed. Inside the
state, the history holds the actions a view reads (this round's, and the last trick) behind
placeholders for the tricks before them, so every index the engine keeps from the game's start
stays right; `EternityStart.preplayed` counts them, and the record leaves them out.

This module reads positions; position_write.py writes them.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from eterna.core.errors import BadNotation, EternaError
from eterna.core.options import option_number, option_word
from eterna.core.position import (
    ENVELOPE,
    MAX_QUOTE,
    UNKNOWN,
    Envelope,
    Reader,
    dumps,
    quote,
)
from eterna.core.position_rest import ends_with_rest
from eterna.games.eternity.cards import (
    BOARD_START,
    CARD_FAMILY,
    CARD_NAME,
    CARD_TREES,
    CARD_VALUE,
    DISPLAY_SIZE,
    FAMILIES,
    FAMILY_INDEX,
    FAMILY_MASK,
    FULL_DECK,
    HAND_SIZE,
    HARMONY_BONUS,
    PLAY,
    PLEDGES_PER_TRICK,
    ROUNDS,
    EternityAction,
    card_id,
    cards_of,
    names_of,
    parse_action,
    split_mask,
)
from eterna.games.eternity.deal import RoundDeal, draw_deals
from eterna.games.eternity.sampling import sample_hands
from eterna.games.eternity.state import EternityStart, EternityState, winners_of

if TYPE_CHECKING:
    from eterna.games.eternity.game import Eternity

BODY: Final = (
    "first_leader",
    "round",
    "leader",
    "to_move",
    "columns",
    "board",
    "display",
    "hands",
    "played",
    "trick",
    "last_trick",
    "tricks",
    "trees",
    "tree_supply",
    "voids",
    "round_results",
    "scores",
    "future",
)
_NF: Final = len(FAMILIES)
_TRUMP_BONUS: Final = 64  # as in state.py: a trump outranks every card of the led family (§5.5)
_MAX_TREES: Final = 2 * 10 * ROUNDS * 14  # far above any reachable count: a bound, not a rule


# ---------------------------------------------------------------------- reading: pieces
def _card(r: Reader, unknown_ok: bool) -> int:
    """A card id (-1 for "?" where the position may not know it)."""
    text = r.text()
    if text == UNKNOWN:
        if not unknown_ok:
            r.fail("is '?': only other seats' cards and the future are '?' (a seat's position)")
        return -1
    if len(text) > MAX_QUOTE:  # no card id is that long: say so without quoting it all
        r.fail(f"is not a card: {quote(text)}")
    try:
        return card_id(text)
    except BadNotation as exc:
        r.fail(str(exc))


def _action(r: Reader) -> EternityAction:
    text = r.text()
    if len(text) > 2 * MAX_QUOTE:
        r.fail(f"is not an action: {quote(text)}")
    try:
        return parse_action(text)
    except BadNotation as exc:
        r.fail(str(exc))


def _columns(r: Reader, unknown_ok: bool = False) -> tuple[int, ...] | None:
    """A column order (None: "?" x3, allowed where the position may not know it)."""
    given = r.list(_NF)
    if unknown_ok and all(v == UNKNOWN for v in given):
        return None
    if sorted(map(str, given)) != sorted(FAMILIES):
        r.fail(f"must list {', '.join(FAMILIES)} once each, left to right")
    return tuple(FAMILY_INDEX[str(f)] for f in given)  # each a family's name: checked above


class _Cards:
    """Where each card of one deal is: two places for one card is an error naming both."""

    def __init__(self) -> None:
        self.seen: dict[int, str] = {}

    def claim(self, r: Reader, card: int) -> int:
        if card >= 0:
            if card in self.seen:
                r.fail(f"{CARD_NAME[card]} is also in {self.seen[card]}: a card is in one place")
            self.seen[card] = r.path
        return card

    def cards(self, r: Reader, length: int | None, unknown_ok: bool) -> list[int]:
        return [self.claim(item, _card(item, unknown_ok)) for item in r.items(length)]


@dataclass
class _Round:
    """The round being played, as read and checked."""

    n: int
    columns: tuple[int, ...]
    leader: int
    board: int = 0  # mask
    start_board: int = 0  # the board before this round's pledges joined it
    display: int = 0
    hands: list[list[int]] = field(default_factory=list)  # -1: unknown
    played: list[list[EternityAction]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    trick: list[EternityAction] = field(default_factory=list)
    trick_leader: int = 0
    trump: int = 0
    voids: list[int] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)
    trees: list[int] = field(default_factory=list)
    supply: int = -1
    led: int = -1
    best_key: int = -1
    best_seat: int = -1
    pledges: int = 0


def _trump(board: int, columns: tuple[int, ...]) -> int:
    """§4: most cards in its column; ties go to the leftmost column (as state.py)."""
    counts = [(board & FAMILY_MASK[f]).bit_count() for f in range(_NF)]
    best = columns[0]
    for family in columns[1:]:
        if counts[family] > counts[best]:
            best = family
    return best


def _read_trick(rd: _Round, r: Reader, actions: list[EternityAction], leader: int) -> None:
    """Check one trick's actions against the rules a position can see; update voids, trees,
    the led family and the best card (the winner is `rd.best_seat` once it is complete)."""
    rd.led = rd.best_key = rd.best_seat = -1
    rd.pledges = 0
    cap = PLEDGES_PER_TRICK[rd.n]
    for i, act in enumerate(actions):
        where = r[i]
        p = (leader + i) % rd.n
        if rd.voids[p] >> act.family & 1:
            where.fail(
                f"seat {p} showed earlier in the round that it holds no {FAMILIES[act.family]}"
            )
        if act.pledge:
            if i == 0:
                where.fail("the leader must play a card, not pledge (rules §5.2)")
            rd.pledges += 1
            if rd.pledges > cap:
                where.fail(f"only {cap} pledge(s) per trick at {rd.n} players (rules §5.4)")
            trees = CARD_TREES[act.card]
            if rd.supply >= 0:
                trees = min(trees, rd.supply)
                rd.supply -= trees
            rd.trees[p] += trees
            continue
        key = CARD_VALUE[act.card]
        if rd.led < 0:
            rd.led = act.family
        elif act.family != rd.led:
            if act.family == rd.trump:
                rd.voids[p] |= 1 << rd.led
            else:
                key = 0  # §5.5: a card of a third family never wins
                rd.voids[p] |= (1 << rd.led) | (1 << rd.trump)
        if act.family == rd.trump:
            key += _TRUMP_BONUS
        if key > rd.best_key:
            rd.best_key, rd.best_seat = key, p


def _read_actions(r: Reader, length: int | None, cards: _Cards) -> list[EternityAction]:
    actions = []
    for item in r.items(length):
        act = _action(item)
        actions.append(act)
        cards.claim(item, act.card)
    return actions


def _read_play(rd: _Round, r: Reader, cards: _Cards, tree_supply: int) -> None:
    """The round's finished tricks and the trick in progress (checked, in order)."""
    n = rd.n
    rd.voids, rd.tricks, rd.trees = [0] * n, [0] * n, [0] * n
    rd.supply = tree_supply or -1
    tricks = list(r["played"].items())
    if len(tricks) > HAND_SIZE[n]:
        r["played"].fail(f"holds {len(tricks)} tricks: a round has {HAND_SIZE[n]}")
    pledged = 0
    for t in tricks:
        t.object(("actions", "winner"))
        actions = [_action(item) for item in t["actions"].items(n)]
        for i, act in enumerate(actions):
            if act.pledge:
                pledged |= 1 << act.card
            else:
                cards.claim(t["actions"][i], act.card)
        rd.played.append(actions)
    if pledged & ~rd.board:
        missing = names_of(pledged & ~rd.board)
        r["board"].fail(f"lacks {', '.join(missing)}: a pledged card joins the board (§5.6)")
    rd.start_board = rd.board & ~pledged
    if rd.start_board.bit_count() != BOARD_START[n]:
        r["board"].fail(
            f"holds {rd.board.bit_count()} cards: the round's {BOARD_START[n]} starting cards "
            f"and its {pledged.bit_count()} pledged cards (rules §3, §5.6)"
        )
    board, leader = rd.start_board, rd.leader
    for t, actions in zip(tricks, rd.played, strict=True):
        rd.trump = _trump(board, rd.columns)
        _read_trick(rd, t["actions"], actions, leader)
        winner = t["winner"].number(0, n - 1)
        if winner != rd.best_seat:
            t["winner"].fail(f"is seat {winner}, but seat {rd.best_seat} won this trick (§5.5)")
        rd.winners.append(winner)
        rd.tricks[winner] += 1
        board |= sum(1 << a.card for a in actions if a.pledge)
        leader = winner
    rd.trump = _trump(board, rd.columns)
    rd.trick_leader = leader
    rd.trick = _read_actions(r["trick"], None, cards)
    if len(rd.trick) >= n or (len(tricks) == HAND_SIZE[n] and rd.trick):
        r["trick"].fail(f"holds {len(rd.trick)} actions: a trick in progress has 0 to {n - 1}")
    _read_trick(rd, r["trick"], rd.trick, leader)


def _read_hands(rd: _Round, r: Reader, cards: _Cards, seat: int | None) -> None:
    """Every hand at its size; in a seat's position, others' hands are "?" and its own known."""
    n = rd.n
    acted = {(rd.trick_leader + i) % n for i in range(len(rd.trick))}
    for s, hand in enumerate(r.items(n)):
        size = HAND_SIZE[n] - len(rd.played) - (s in acted)
        got = cards.cards(hand, None, seat is not None and s != seat)
        if len(got) != size:
            hand.fail(f"holds {len(got)} cards: seat {s} has {size} now (rules §3, §5)")
        if seat is not None and s != seat and any(c >= 0 for c in got):
            hand.fail(f"seat {seat}'s position cannot show seat {s}'s cards: write '?'")
        for i, c in enumerate(got):
            if c >= 0 and rd.voids[s] >> CARD_FAMILY[c] & 1:
                hand[i].fail(f"seat {s} showed it holds no {FAMILIES[CARD_FAMILY[c]]} this round")
        rd.hands.append(got)


def _check(r: Reader, given: Any, derived: Any, why: str) -> None:
    if given != derived:
        r.fail(f"is {given!r}, but {why} give {derived!r}")


def _read_counters(rd: _Round, r: Reader, terminal: bool) -> None:
    """The counters the view shows, each checked against the round's tricks."""
    n = rd.n
    _check(
        r["tricks"],
        [x.number(0, HAND_SIZE[n]) for x in r["tricks"].items(n)],
        rd.tricks,
        "the played tricks' winners",
    )
    _check(
        r["trees"],
        [x.number(0, _MAX_TREES) for x in r["trees"].items(n)],
        rd.trees,
        "the round's pledges",
    )
    supply = r.get("tree_supply")
    _check(
        r["tree_supply"] if supply else Reader(None, "tree_supply"),
        supply.number(0, 1000) if supply else None,
        None if rd.supply < 0 else rd.supply,
        "the option and the round's pledges",
    )
    voids = []
    for x in r["voids"].items(n):
        names = [f.text(FAMILIES) for f in x.items()]
        if len(set(names)) != len(names):
            x.fail("names a family twice: each void once")
        voids.append(sum(1 << FAMILY_INDEX[f] for f in set(names)))
    for s, (got, want) in enumerate(zip(voids, rd.voids, strict=True)):
        if got != want:
            r["voids"][s].fail(
                f"must be {[FAMILIES[f] for f in range(_NF) if want >> f & 1]}: the families "
                f"seat {s} showed this round it holds none of (rules §5.3)"
            )
    to_move = None if terminal else (rd.trick_leader + len(rd.trick)) % n
    _check(
        r["to_move"], r["to_move"].seat(n, allow_none=True), to_move, "the trick's leader and cards"
    )


def _read_results(r: Reader, n: int, count: int) -> tuple[list[list[Any]], list[int], list[int]]:
    """Finished rounds' results (§7 checked), the scores, and rounds scored with the bonus."""
    results: list[list[Any]] = []
    scores, bonus_rounds = [0] * n, [0] * n
    for rnd, row in enumerate(r["round_results"].items(count)):
        out = []
        for s, x in enumerate(row.items(n)):
            x.object(("trees", "tricks", "points"))
            trees, tricks = x["trees"].number(0, _MAX_TREES), x["tricks"].number(0, HAND_SIZE[n])
            bonus = HARMONY_BONUS[rnd]
            points = 0 if trees > tricks else trees + bonus if trees == tricks else trees
            _check(x["points"], x["points"].number(0, _MAX_TREES), points, "trees, tricks and §7")
            scores[s] += points
            bonus_rounds[s] += trees == tricks
            out.append({"trees": trees, "tricks": tricks, "points": points})
        if sum(x["tricks"] for x in out) != HAND_SIZE[n]:
            row.fail(f"tricks add up to {sum(x['tricks'] for x in out)}, not {HAND_SIZE[n]}")
        results.append(out)
    _check(
        r["scores"], [x.number(0, 10**6) for x in r["scores"].items(n)], scores, "the round results"
    )
    return results, scores, bonus_rounds


def _read_last_trick(r: Reader, rd: _Round) -> tuple[int, list[EternityAction], int]:
    r.object(("leader", "actions", "winner"))
    leader = r["leader"].number(0, rd.n - 1)
    actions = _read_actions(r["actions"], rd.n, _Cards())
    for i, act in enumerate(actions):
        if act.pledge and i == 0:
            r["actions"][0].fail("the leader must play a card, not pledge (rules §5.2)")
    winner = r["winner"].number(0, rd.n - 1)
    if actions[(winner - leader) % rd.n].pledge:
        r["winner"].fail(f"is seat {winner}, who pledged: a trick is won by a played card")
    return leader, actions, winner


def _read_future(r: Reader, rd: _Round, fixed: bool, seat: int | None) -> list[RoundDeal] | None:
    """The deals of the rounds to come (None in a seat's position: it cannot know them)."""
    n = rd.n
    deals: list[RoundDeal] = []
    for d in r.items():
        d.object(("columns", "board", "display", "hands"))
        cards = _Cards()
        columns = _columns(d["columns"], unknown_ok=seat is not None)
        if fixed and columns is not None and columns != rd.columns:
            d["columns"].fail("must be this round's columns: option column_order is fixed")
        got = [cards.cards(h, HAND_SIZE[n], seat is not None) for h in d["hands"].items(n)]
        board = cards.cards(d["board"], BOARD_START[n], seat is not None)
        display = cards.cards(d["display"], DISPLAY_SIZE[n], seat is not None)
        if seat is not None:
            if cards.seen:
                d.fail(f"seat {seat}'s position cannot know a future deal: write '?'")
            continue
        assert columns is not None
        chunks: list[int] = []
        for hand in got:
            chunks += split_mask(sum(1 << c for c in hand))
        deals.append(RoundDeal(tuple(chunks), tuple(board), sum(1 << c for c in display), columns))
    return None if seat is not None else deals


def _rest_of_future(r: Reader, rd: _Round, env: Envelope, rnd: int) -> list[RoundDeal] | None:
    """`"future": ["..."]` in a whole position (core/position_rest.py): the rounds to come are
    dealt by a generator seeded with the position's `rng`, as a new game deals them."""
    if not isinstance(r.value, list) or not ends_with_rest(r, env.seat):
        return None
    if len(r.value) != 1:
        r[0].fail("'...' stands for every future deal: write it alone, or every deal in full")
    assert env.rng is not None
    shuffle = env.options["column_order"] != "fixed"
    return draw_deals(random.Random(env.rng), rd.n, list(rd.columns), [], rnd + 1, shuffle)


def _read_board(rd: _Round, r: Reader, cards: _Cards) -> None:
    r.object(FAMILIES)
    for family in FAMILIES:
        for item, c in zip(r[family].items(), cards.cards(r[family], None, False), strict=True):
            if FAMILIES[CARD_FAMILY[c]] != family:
                item.fail(f"{CARD_NAME[c]} is not a {family} card: it goes in its own column")
            rd.board |= 1 << c


def _check_leader(r: Reader, rd: _Round, rnd: int, first: int, rule: str, last: Any) -> None:
    expected = None
    if rnd == 1 or rule == "rotate":
        expected = (first + rnd - 1) % rd.n
    elif rule == "last_trick_winner" and last is not None:
        expected = last[2]
    if expected is not None and rd.leader != expected:
        r["leader"].fail(f"is seat {rd.leader}, but round {rnd} is led by seat {expected} (Q2)")


def read_position(game: Eternity, position: object, narrate: bool = False) -> EternityState:
    """The state `position` describes (docs/eternity.md#positions), or BadPosition."""
    env = Envelope(game, position)
    r, n, seat = env.reader, env.players, env.seat
    r.object((*ENVELOPE, *BODY))
    rnd = r["round"].number(1, ROUNDS)
    first = r["first_leader"].number(0, n - 1)
    rd = _Round(n, _columns(r["columns"]) or (), r["leader"].number(0, n - 1))
    last_r = r.get("last_trick")
    last = None if last_r is None else _read_last_trick(last_r, rd)
    _check_leader(r, rd, rnd, first, option_word(env.options, "next_round_leader"), last)
    cards = _Cards()
    _read_board(rd, r["board"], cards)
    rd.display = sum(1 << c for c in cards.cards(r["display"], DISPLAY_SIZE[n], False))
    _read_play(rd, r, cards, option_number(env.options, "tree_supply"))
    terminal = len(rd.played) == HAND_SIZE[n]
    if terminal and rnd < ROUNDS:
        r["played"].fail(f"holds a whole round: round {rnd} is over, write round {rnd + 1}")
    _read_hands(rd, r["hands"], cards, seat)
    _read_counters(rd, r, terminal)
    results = _read_results(r, n, rnd - 1 + terminal)
    if (last_r is not None) != (not rd.played and rnd > 1):
        Reader(r.object().get("last_trick"), "last_trick").fail(
            "holds the previous round's last trick exactly when this round has no finished "
            "trick yet (rounds 2 and 3), and is null otherwise"
        )
    future = _rest_of_future(r["future"], rd, env, rnd)  # ["..."]: the rest, shuffled
    if future is None:
        future = _read_future(r["future"], rd, env.options["column_order"] == "fixed", seat)
    if future is not None and len(future) != ROUNDS - rnd:
        r["future"].fail(f"must hold the {ROUNDS - rnd} deal(s) of the rounds after {rnd}")
    if seat is None:
        assert env.rng is not None and future is not None
        return _build(game, env, rd, (rnd, first, results, last, future), env.rng, narrate)
    if len(r["future"].list()) != ROUNDS - rnd:
        r["future"].fail(f"must hold the {ROUNDS - rnd} deal(s) of the rounds after {rnd}")
    rng = random.Random(int(hashlib.sha256(dumps(env.document).encode()).hexdigest()[:16], 16))
    future = _guess(rd, r, seat, rng, rnd, env.options["column_order"] != "fixed")
    state = _build(game, env, rd, (rnd, first, results, last, future), rng.getrandbits(62), narrate)
    state._determinized = True  # a guess of what the seat cannot see: no record
    return state


def _guess(
    rd: _Round, r: Reader, seat: int, rng: random.Random, rnd: int, shuffle: bool
) -> list[RoundDeal]:
    """Deal the cards `seat` cannot see into the other hands (keeping sizes and voids), and
    draw the rounds to come, as `determinize` does."""
    unseen = FULL_DECK & ~rd.board & ~rd.display
    for hand in rd.hands:
        for c in hand:
            if c >= 0:
                unseen &= ~(1 << c)
    for actions in (*rd.played, rd.trick):
        for act in actions:
            unseen &= ~act.bit
    sizes = {s: len(h) for s, h in enumerate(rd.hands) if s != seat and h}
    try:
        hands = sample_hands(cards_of(unseen), sizes, dict(enumerate(rd.voids)), rng)
    except EternaError:
        r["hands"].fail("no deal of the unseen cards fits the hand sizes and the voids shown")
    for s, mask in hands.items():
        rd.hands[s] = cards_of(mask)
    return draw_deals(rng, rd.n, list(rd.columns), [], rnd + 1, shuffle)


_Past = tuple[int, int, tuple[list[list[Any]], list[int], list[int]], Any, list[RoundDeal]]


def _build(
    game: Eternity, env: Envelope, rd: _Round, past: _Past, seed: int, narrate: bool
) -> EternityState:
    """The state itself. Its history holds this round's actions (and the last trick, while
    the round has none) behind placeholders for the tricks before, as if played from the start."""
    rnd, first, (results, scores, bonus_rounds), last, future = past
    n, per_round = rd.n, HAND_SIZE[rd.n]
    before = per_round * (rnd - 1)  # tricks played before this round
    history = [PLAY[0]] * (n * before)
    winners = [0] * before
    if last is not None:
        history[n * (before - 1) :] = last[1]
        winners[before - 2 :] = [last[0], last[2]]  # trick k is led by trick k-1's winner
    for actions in (*rd.played, rd.trick):
        history += actions
    blank = RoundDeal((0,) * (n * _NF), (), 0, rd.columns)
    start = EternityStart(
        game=game,
        players=n,
        seed=seed,
        options=env.options,
        position=env.document,
        deals=(*[blank] * rnd, *future),
        first_leader=first,
        hand_size=per_round,
        max_pledges=PLEDGES_PER_TRICK[n],
        next=tuple((s + 1) % n for s in range(n)),
        preplayed=len(history),
    )
    hands: list[int] = []
    for hand in rd.hands:
        hands += split_mask(sum(1 << c for c in hand))
    scores, trick_no = list(scores), len(rd.played)
    terminal = trick_no == per_round
    tie_break = option_word(env.options, "tie_break")
    fields = {
        "_history": history,
        "_trick_winners": winners + rd.winners,
        "_round_leaders": [-1] * (rnd - 1) + [rd.leader],
        "_round_start": n * before,
        "_hand_size": per_round,
        "_max_pledges": start.max_pledges,
        "_next": start.next,
        "_round": rnd,
        "_first_leader": first,
        "_round_leader": rd.leader,
        "_col_order": rd.columns,
        "_display": rd.display,
        "_trump": rd.trump,
        "_board_mask": rd.board,
        "_board": [(rd.board & FAMILY_MASK[f]).bit_count() for f in range(_NF)],
        "_hands": hands,
        "_led": rd.led,
        "_best_key": rd.best_key,
        "_best_seat": rd.best_seat,
        "_pledges_left": start.max_pledges - rd.pledges,
        "_tricks": rd.tricks,
        "_trees": rd.trees,
        "_voids": rd.voids,
        "_supply_left": rd.supply,
        "_trick_no": trick_no,
        "_scores": scores,
        "_bonus_rounds": bonus_rounds,
        "_round_results": results,
        "_trick_leader": -1 if terminal else rd.trick_leader,
        "_current": -1 if terminal else (rd.trick_leader + len(rd.trick)) % n,
        "is_terminal": terminal,
        "_winners": winners_of(scores, bonus_rounds, tie_break) if terminal else [],
    }
    return EternityState.from_fields(start, fields, narrate)
