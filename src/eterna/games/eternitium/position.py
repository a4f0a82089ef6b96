"""Eternitium positions (docs/positions.md; the body: docs/eternitium.md, 'Positions'): any
moment of a game written as JSON and read back into a state with the same legal moves, views
and future. Off the hot path: the state only gets thin hooks (`to_position`, the game's
`from_position`).

Every zone is written top first (discard piles too); a face is its own key, never a case. A
seat's position writes "?" for every card the seat cannot see and keeps the public knowledge
`determinize` reads, so loading it gives one consistent guess (drawn from a generator seeded
by the position's text) and writing that guess's seat position gives the same text again.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import TYPE_CHECKING, Any, Final

from eterna.core.position import (
    UNKNOWN,
    Envelope,
    Reader,
    dumps,
    envelope,
    parse,
    quote,
    rng_text,
)
from eterna.core.rng import RECORD_VERSION
from eterna.games.eternitium.board import PH_GIFT, PH_OVER, PH_PICK, PH_STEAL, PHASE_NAME
from eterna.games.eternitium.cards import (
    CARD_INDEX,
    CARD_NAME,
    DROID,
    ERA_KNOWN,
    NKINDS,
    NSHAPES,
    PORTALS,
    SEEN,
    SHAPE_BITS,
    SHAPE_INDEX,
    SHAPES,
    STARTING_SETS,
    TIER,
    TIER_ADVANCED,
    TIER_BASIC,
    VISIBLE,
)
from eterna.games.eternitium.position_checks import check_position
from eterna.games.eternitium.position_rest import deal_rests, split_rests

if TYPE_CHECKING:
    from eterna.games.eternitium.game import Eternitium
    from eterna.games.eternitium.state import EternitiumState

FACES: Final = ("up", "down", "known")  # face up; face down; face down but everyone saw which
CYCLE_MODES: Final = ("any", "discard", "destroy")  # the Data Analyser's mode (0: not chosen yet)
_MAX_COUNT: Final = 1_000_000  # turns and rounds (option round_limit is at most 100,000)
BODY_KEYS: Final = (
    "phase",
    "first_player",
    "active",
    "current",
    "turn",
    "round",
    "winners",
    "step",
    "pending",
    "hands",
    "decks",
    "discards",
    "era",
    "era_faces",
    "era_deck",
    "era_display",
    "era_discard",
    "portal_reserve",
    "portal_row",
    "portal_deck",
    "basic_row",
    "basic_deck",
    "advanced_row",
    "advanced_deck",
    "ai_deck",
    "ai_cards",
    "box",
    "era_box",
    "knowledge",
)
SEAT_KEYS: Final = ("deck_cards", "portal_deck_cards", "ai_deck_cards")  # a seat's position only
STEP_KEYS: Final = ("played", "skipped", "failed_luck", "smartphones", "wallet", "last_turn")
PENDING_KEYS: Final = (
    "in_play",
    "target",
    "gifts",
    "pickers",
    "cycle_mode",
    "cycle_count",
    "pay_left",
    "pay_face_down",
)
KNOWLEDGE_KEYS: Final = (
    "known",
    "located",
    "unknown_tiers",
    "era_known",
    "era_deck_known",
    "market_bottom",
    "peeks",
)


def _names(cards: list[int]) -> list[str]:
    return [CARD_NAME[k] for k in cards]


def _hand(counts: list[int]) -> list[str]:
    return [CARD_NAME[k] for k in range(NKINDS) for _ in range(counts[k])]


def _count_map(counts: list[int], names: tuple[str, ...] | list[str]) -> dict[str, int]:
    return {names[k]: c for k, c in enumerate(counts) if c}


def _face(code: int) -> str:
    return "up" if code & VISIBLE else ("known" if code & ERA_KNOWN else "down")


# ---------------------------------------------------------------------------- writing
def write_position(st: EternitiumState, seat: int | None) -> dict[str, Any]:
    """The position of `st`: whole (seat None) or what `seat` knows."""
    pos = envelope(st.game, st._n, st._start.options, seat)
    if seat is None:
        pos["rng"] = rng_text(st._rng)
    over = st._phase == PH_OVER
    pos |= {
        "phase": PHASE_NAME[st._phase],
        "first_player": st._first,
        "active": st._active,
        "current": None if over else st._current,
        "turn": st._turn,
        "round": st._round,
        "winners": list(st._winners),
        "step": {
            "played": st._played,
            "skipped": st._skipped,
            "failed_luck": st._failed,
            "smartphones": st._limited,
            "wallet": st._wallet,
            "last_turn": st._last_turn,
        },
        "pending": {
            "in_play": None if st._in_play < 0 else CARD_NAME[st._in_play],
            "target": None if st._target < 0 else st._target,
            "gifts": list(st._gifts),
            "pickers": list(st._pickers),
            "cycle_mode": CYCLE_MODES[st._cycle_mode],
            "cycle_count": st._cycle_count,
            "pay_left": st._pay_left,
            "pay_face_down": st._pay_down,
        },
    }
    _write_zones(st, seat, pos)
    pos["knowledge"] = _write_knowledge(st, seat)
    return pos


def _write_zones(st: EternitiumState, seat: int | None, pos: dict[str, Any]) -> None:
    whole = seat is None
    looking = st._target if st._phase == PH_STEAL and seat == st._active else -1

    def hidden(cards: list[int], shown: bool) -> list[str]:
        return _names(cards[::-1]) if shown else [UNKNOWN] * len(cards)

    n = st._n
    pos["hands"] = [
        _hand(st._hands[s]) if whole or s == seat else [UNKNOWN] * st._hsize[s] for s in range(n)
    ]
    pos["decks"] = [hidden(st._decks[s], whole) for s in range(n)]
    pos["discards"] = [hidden(st._discards[s], whole or s in (seat, looking)) for s in range(n)]
    pos["era"] = [
        [SHAPES[c & SHAPE_BITS] if whole or c & SEEN else UNKNOWN for c in reversed(pile)]
        for pile in st._eras
    ]
    pos["era_faces"] = [[_face(c) for c in reversed(pile)] for pile in st._eras]
    pos["era_deck"] = (
        [SHAPES[c] for c in reversed(st._era_deck)] if whole else [UNKNOWN] * len(st._era_deck)
    )
    pos["era_display"] = [SHAPES[c] for c in st._era_display]
    pos["era_discard"] = [SHAPES[c] for c in reversed(st._era_discard)]
    pos["portal_reserve"] = {SHAPES[s]: st._reserve[s] for s in range(NSHAPES)}
    pos["portal_row"] = _names(st._portal_row)
    pos["portal_deck"] = hidden(st._portal_deck, whole)
    for key, row, deck, t in (
        ("basic", st._basic_row, st._basic_deck, 0),
        ("advanced", st._adv_row, st._adv_deck, 1),
    ):
        pos[f"{key}_row"] = _names(row)
        b = st._bottom[t]  # the bottom b cards were seen put there (R14)
        pos[f"{key}_deck"] = hidden(deck[b:], whole) + _names(deck[:b][::-1])
    pos["ai_deck"] = hidden(st._ai_deck, whole)
    pos["ai_cards"] = _names(st._ai_log)
    pos["box"] = _count_map(st._box, CARD_NAME)
    pos["era_box"] = _count_map(st._era_box, SHAPES)
    if seat is not None:  # contents the seat knows, not their order: in card order
        pos["deck_cards"] = _names(sorted(st._decks[seat]))
        pos["portal_deck_cards"] = _names(sorted(st._portal_deck))
        pos["ai_deck_cards"] = _names(sorted(st._ai_deck))


def _write_knowledge(st: EternitiumState, seat: int | None) -> dict[str, Any]:
    """The public knowledge (docs/eternitium.md, Determinization): what every seat knows of
    the hidden cards; a thief's look only in the thief's own position."""
    n = st._n
    tiers: list[list[int]] = []
    for s in range(n):
        cards = st._hands[s][:]
        for c in st._decks[s] + st._discards[s]:
            cards[c] += 1
        known = st._known[s]
        peek = st._peeks.get((seat, s)) if seat is not None else None
        if peek is not None:
            known = [max(a, b) for a, b in zip(known, peek[0], strict=True)]
        row = [0, 0, 0]
        for k in range(NKINDS):
            row[TIER[k]] += cards[k] - known[k]
        tiers.append(row)
    peeks = [
        {
            "thief": thief,
            "victim": victim,
            "known": _count_map(known, CARD_NAME),
            "located": _count_map(located, CARD_NAME),
        }
        for (thief, victim), (known, located) in sorted(st._peeks.items())
        if seat is None or thief == seat
    ]
    return {
        "known": [_count_map(k, CARD_NAME) for k in st._known],
        "located": [_count_map(k, CARD_NAME) for k in st._located],
        "unknown_tiers": tiers,
        "era_known": [_count_map(k, SHAPES) for k in st._era_known],
        "era_deck_known": _count_map(st._deck_known, SHAPES),
        "market_bottom": list(st._bottom),
        "peeks": peeks,
    }


# ---------------------------------------------------------------------------- reading
class _Read:
    """One position being read: the envelope, the body's reader and whether "?" may stand."""

    def __init__(self, env: Envelope, comp: list[int]) -> None:
        self.env = env
        self.top = env.reader
        self.n = env.players
        self.seat = env.seat
        self.part = env.seat is not None  # a seat's position: "?" stands for a hidden card
        self.hidden_hands = [0] * self.n  # per seat: the "?" of its hand (a seat's position)
        self.tiers: list[list[Reader]] = []  # knowledge.unknown_tiers, per seat
        # The game's cards (option composition): no count of a position may exceed them.
        self.kinds = list(comp[:NKINDS])
        self.kinds[DROID] += STARTING_SETS
        self.shapes_total = list(comp[NKINDS:])
        self.portals = [self.kinds[s] for s in PORTALS]

    def card(self, r: Reader, unknown: bool = False) -> int:
        """A card id (-1 for "?" where a seat's position may hide it)."""
        name = r.text()
        if name == UNKNOWN and unknown and self.part:
            return -1
        if name not in CARD_INDEX:
            r.fail(f"is not an Eternitium card: {quote(name)} (e.g. 'portal-circle', 'droid')")
        return CARD_INDEX[name]

    def cards(self, r: Reader, unknown: bool = False, most: int | None = None) -> list[int]:
        """A list of cards, at most `most` (default: as many as the game has)."""
        most = sum(self.kinds) if most is None else most
        items = list(r.items())
        if len(items) > most:
            r.fail(f"holds at most {most} cards, not {len(items)}")
        return [self.card(x, unknown) for x in items]

    def shape(self, r: Reader, unknown: bool = False) -> int:
        name = r.text()
        if name == UNKNOWN and unknown and self.part:
            return -1
        if name not in SHAPE_INDEX:
            r.fail(f"must be a shape ({', '.join(SHAPES)}), not {quote(name)}")
        return SHAPE_INDEX[name]

    def shapes(self, r: Reader, unknown: bool = False) -> list[int]:
        most = sum(self.shapes_total)
        if len(r.list()) > most:
            r.fail(f"holds at most {most} Era cards (the game's), not {len(r.list())}")
        return [self.shape(x, unknown) for x in r.items()]

    def counts(self, r: Reader, names: tuple[str, ...], most: list[int]) -> list[int]:
        """A map name -> count (missing: 0), each at most `most` of that name (the game's)."""
        out = [0] * len(names)
        index = {name: i for i, name in enumerate(names)}
        for key in r.object():
            if key not in index:
                r.fail(f"has unknown key {quote(key)}; known: {', '.join(names)}")
            out[index[key]] = r[key].number(0, most[index[key]])
        return out

    def action_counts(self, r: Reader) -> list[int]:
        return self.counts(r, CARD_NAME, self.kinds)

    def era_counts(self, r: Reader) -> list[int]:
        return self.counts(r, SHAPES, self.shapes_total)

    def per_seat(self, r: Reader) -> list[Reader]:
        return list(r.items(self.n))

    def seat_or_none(self, r: Reader) -> int:
        return -1 if r.value is None else r.number(0, self.n - 1)


def read_position(game: Eternitium, position: Any, narrate: bool = False) -> EternitiumState:
    """The state a position describes (docs/eternitium.md, 'Positions'), or BadPosition."""
    from eterna.core.errors import BadPosition, BadSetup
    from eterna.games.eternitium.game import check_composition
    from eterna.games.eternitium.rules import make_rules
    from eterna.games.eternitium.state import EternitiumStart, EternitiumState

    if isinstance(position, str):
        position = parse(position)
    body, rests = split_rests(position)  # position_rest.py: decks ending with "..."
    env = Envelope(game, body)
    top = env.reader
    keys = (*("format", "version", "game", "players", "options", "seat", "rng"), *BODY_KEYS)
    top.object((*keys, *SEAT_KEYS) if env.seat is not None else keys)
    mission = env.options["mission"]
    if mission and env.players != 1:
        top["options"].fail("option mission is for the solo game (players=1) only")
    try:
        comp = check_composition(env.options["composition"])
    except BadSetup as exc:
        raise BadPosition(f"position options: {exc}", field="options") from None
    rd = _Read(env, comp)
    whole = json.loads(json.dumps(position))  # as given, "..." included: the record replays it
    start = EternitiumStart(
        game=game,
        players=rd.n,
        seed=0,
        version=RECORD_VERSION,
        options=json.loads(json.dumps(env.options)),
        rules=make_rules(rd.n, mission, env.options),
        composition=tuple(comp),
        fixed={},
        position=whole,
    )
    got: dict[str, Any] = {
        "_rules": start.rules,
        "_rng": env.rng if env.rng is not None else 0,
        "_kept": -1,
        "_src": -1,
    }
    _read_turn(rd, got)
    _read_zones(rd, got)
    _read_knowledge(rd, got)
    st = EternitiumState.from_fields(start, got, narrate)
    deal_rests(st, rd.top, rests, rd.part, comp)
    _check_bottom(rd, st)
    # Every count against the game's cards and the rest of the position, before the guess
    # (or a search's determinize) builds anything from them.
    _check_sizes(rd, st)
    check_position(st, rd.top, whole=not rd.part)  # position_checks.py: unreachable states
    if rd.part:
        from eterna.games.eternitium.guess import guess

        _check_knowledge(rd, st)
        seed = int.from_bytes(hashlib.sha256(dumps(whole).encode()).digest()[:8], "big")
        st = guess(rd, st, comp, random.Random(seed))
    else:
        _check_census(rd, st, comp)
        _check_knowledge(rd, st)
    if not st.is_terminal and not st.legal_actions():
        rd.top["phase"].fail(f"{PHASE_NAME[st._phase]} leaves seat {st._current} no legal action")
    return st


def _read_turn(rd: _Read, got: dict[str, Any]) -> None:
    """Phase, seats, counters, the step's flags and the decisions pending."""
    top, n = rd.top, rd.n
    phase = PHASE_NAME.index(top["phase"].text(PHASE_NAME))
    got["_phase"] = phase
    got["_first"] = top["first_player"].number(0, n - 1)
    active = got["_active"] = top["active"].number(0, n - 1)
    over = phase == PH_OVER
    current = top["current"]
    if over:
        if current.value is not None:
            current.fail("must be null: the game is over")
        got["_current"] = -1
    else:
        got["_current"] = current.number(0, n - 1)
        if phase not in (PH_PICK, PH_GIFT) and got["_current"] != got["_active"]:
            current.fail(
                f"must be the active seat {active} in phase {PHASE_NAME[phase]} (only a "
                "setup pick or a Laboratory gift is another seat's decision)"
            )
        if phase == PH_GIFT and got["_current"] == got["_active"]:
            current.fail("must be another seat than the active one (a Laboratory gift)")
    got["is_terminal"] = over
    got["_turn"] = top["turn"].number(0, _MAX_COUNT)
    got["_round"] = top["round"].number(0, _MAX_COUNT)
    got["_winners"] = [r.number(0, n - 1) for r in top["winners"].items()]
    if got["_winners"] and not over:
        top["winners"].fail("must be empty until the game is over")
    if len(set(got["_winners"])) != len(got["_winners"]):
        top["winners"].fail("names a seat twice")
    if over:
        got["_legal_cache"] = ()
    step = top["step"]
    step.object(STEP_KEYS)
    got["_played"] = step["played"].flag()
    got["_skipped"] = step["skipped"].flag()
    got["_failed"] = step["failed_luck"].flag()
    got["_limited"] = step["smartphones"].number(0, 100)
    got["_wallet"] = step["wallet"].flag()
    got["_last_turn"] = step["last_turn"].flag()
    pending = top["pending"]
    pending.object(PENDING_KEYS)
    in_play = pending["in_play"]
    got["_in_play"] = -1 if in_play.value is None else rd.card(in_play)
    got["_target"] = rd.seat_or_none(pending["target"])
    got["_gifts"] = [r.number(0, n - 1) for r in pending["gifts"].items()]
    got["_pickers"] = [r.number(0, n - 1) for r in pending["pickers"].items()]
    got["_cycle_mode"] = CYCLE_MODES.index(pending["cycle_mode"].text(CYCLE_MODES))
    got["_cycle_count"] = pending["cycle_count"].number(0, sum(rd.kinds))
    got["_pay_left"] = pending["pay_left"].number(0, 2)
    got["_pay_down"] = pending["pay_face_down"].flag()
    _check_pending(rd, got)


# The card whose effect a phase's decision belongs to (the other phases have none in play).
_PHASE_CARD: Final = {
    "steal": "thieving-robot",
    "data-analyser": "data-analyser",
    "gift": "laboratory",
}


def _check_pending(rd: _Read, got: dict[str, Any]) -> None:
    pending = rd.top["pending"]
    phase = PHASE_NAME[got["_phase"]]
    card = _PHASE_CARD.get(phase)
    if (card is None and got["_in_play"] >= 0) or (
        card is not None and got["_in_play"] != CARD_INDEX[card]
    ):
        want = "null" if card is None else repr(card)
        pending["in_play"].fail(f"must be {want} in phase {phase}")
    if (phase == "steal") != (got["_target"] >= 0) or got["_target"] == got["_active"]:
        pending["target"].fail(
            "names the Thieving Robot's victim (another seat), in phase steal only"
        )


def _read_zones(rd: _Read, got: dict[str, Any]) -> None:
    """Every zone (top first in the position, top last in the engine's lists)."""
    top, n = rd.top, rd.n
    got["_hands"] = []
    for s, r in enumerate(rd.per_seat(top["hands"])):
        hand = [0] * NKINDS
        for k in rd.cards(r, unknown=s != rd.seat):
            if k < 0:
                rd.hidden_hands[s] += 1  # the guess deals the seat's hidden cards
            else:
                hand[k] += 1
        got["_hands"].append(hand)
    got["_hsize"] = [sum(h) + rd.hidden_hands[s] for s, h in enumerate(got["_hands"])]
    got["_decks"] = [rd.cards(r, unknown=True)[::-1] for r in rd.per_seat(top["decks"])]
    got["_discards"] = [
        rd.cards(r, unknown=s != rd.seat)[::-1] for s, r in enumerate(rd.per_seat(top["discards"]))
    ]
    _read_era(rd, got)
    reserve = rd.counts(top["portal_reserve"], SHAPES, rd.portals)
    got["_reserve"] = reserve
    got["_portal_row"] = rd.cards(top["portal_row"], most=3)
    got["_portal_deck"] = rd.cards(top["portal_deck"], unknown=True)[::-1]
    for name, ks in (("portal_row", got["_portal_row"]), ("portal_deck", got["_portal_deck"])):
        for k in ks:
            if k >= 0 and k not in PORTALS:
                top[name].fail(f"holds Portal cards only, not {CARD_NAME[k]}")
    got["_basic_row"] = _market(rd, "basic_row", TIER_BASIC, 3)
    got["_basic_deck"] = _market(rd, "basic_deck", TIER_BASIC)[::-1]
    got["_adv_row"] = _market(rd, "advanced_row", TIER_ADVANCED, 3)
    got["_adv_deck"] = _market(rd, "advanced_deck", TIER_ADVANCED)[::-1]
    got["_ai_deck"] = rd.cards(top["ai_deck"], unknown=True)[::-1]
    got["_ai_log"] = rd.cards(top["ai_cards"])
    got["_box"] = rd.action_counts(top["box"])
    got["_era_box"] = rd.era_counts(top["era_box"])
    owned = [got["_hsize"][s] + len(got["_decks"][s]) + len(got["_discards"][s]) for s in range(n)]
    if got["_in_play"] >= 0:
        owned[got["_active"]] += 1  # the card being played is still its player's
    got["_owned"] = owned


def _market(rd: _Read, key: str, tier: int, most: int | None = None) -> list[int]:
    r = rd.top[key]
    cards = rd.cards(r, unknown=key.endswith("deck"), most=most)
    for i, k in enumerate(cards):
        if k >= 0 and TIER[k] != tier:
            kind = "Basic" if tier == TIER_BASIC else "Advanced"
            r[i].fail(f"{CARD_NAME[k]} is not a {kind} Technology card")
    return cards


def _read_era(rd: _Read, got: dict[str, Any]) -> None:
    top = rd.top
    faces = rd.per_seat(top["era_faces"])
    got["_eras"] = []
    for s, r in enumerate(rd.per_seat(top["era"])):
        shapes = rd.shapes(r, unknown=True)
        face_r = faces[s]
        words = [x.text(FACES) for x in face_r.items(len(shapes))]
        pile = []
        for i, (c, face) in enumerate(zip(shapes, words, strict=True)):
            if c < 0 and face != "down":
                r[i].fail(f"is face {face}: its shape is public, write it")
            code = -1 if c < 0 else c
            if face == "up":
                code |= VISIBLE
            elif face == "known":
                code |= ERA_KNOWN
            pile.append(code)
        got["_eras"].append(pile[::-1])
    got["_era_deck"] = rd.shapes(top["era_deck"], unknown=True)[::-1]
    got["_era_display"] = rd.shapes(top["era_display"])
    if len(got["_era_display"]) > 2:
        top["era_display"].fail("holds at most 2 Era cards (rules: Setup 7)")
    got["_era_discard"] = rd.shapes(top["era_discard"])[::-1]


def _check_bottom(rd: _Read, st: EternitiumState) -> None:
    """The cards seen at the bottom of the markets' decks are in them, and written."""
    bottom = list(rd.top["knowledge"]["market_bottom"].items(2))
    for t, deck in enumerate((st._basic_deck, st._adv_deck)):
        if any(c < 0 for c in deck[: bottom[t].number(0, len(deck))]):
            bottom[t].fail("counts cards seen at the bottom of the deck: write them, not '?'")


def _read_knowledge(rd: _Read, got: dict[str, Any]) -> None:
    """The public knowledge `determinize` reads (docs/eternitium.md, Determinization)."""
    k = rd.top["knowledge"]
    k.object(KNOWLEDGE_KEYS)
    got["_known"] = [rd.action_counts(r) for r in rd.per_seat(k["known"])]
    got["_located"] = [rd.action_counts(r) for r in rd.per_seat(k["located"])]
    got["_era_known"] = [rd.era_counts(r) for r in rd.per_seat(k["era_known"])]
    got["_deck_known"] = rd.era_counts(k["era_deck_known"])
    # checked against the decks once their rests are dealt (_check_bottom)
    got["_bottom"] = [x.number(0, _MAX_COUNT) for x in k["market_bottom"].items(2)]
    peeks: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
    for r in k["peeks"].items():
        r.object(("thief", "victim", "known", "located"))
        thief, victim = r["thief"].number(0, rd.n - 1), r["victim"].number(0, rd.n - 1)
        if rd.part and thief != rd.seat:
            r["thief"].fail(f"is another seat's look: seat {rd.seat}'s position holds its own")
        if (thief, victim) in peeks:
            r.fail("repeats a look already given")
        if thief == victim:
            r["victim"].fail("is the thief: a Thieving Robot looks at another seat's pile")
        peeks[(thief, victim)] = (rd.action_counts(r["known"]), rd.action_counts(r["located"]))
    got["_peeks"] = peeks
    rd.tiers = [list(x.items(3)) for x in rd.per_seat(k["unknown_tiers"])]


def _check_sizes(rd: _Read, st: EternitiumState) -> None:
    """The zones hold no more cards than the game has, and only the zones this game's rules
    (its players, mission and options) have: what no game can reach is refused here, before
    a guess or a search is built on it (a whole position is then counted card by card)."""
    top, rules = rd.top, st._rules
    action = sum(st._hsize) + sum(st._box) + sum(st._reserve) + (st._in_play >= 0)
    for zone in (*st._decks, *st._discards, st._portal_row, st._portal_deck, st._ai_deck):
        action += len(zone)
    for zone in (st._basic_row, st._basic_deck, st._adv_row, st._adv_deck):
        action += len(zone)
    if action > sum(rd.kinds):
        top["box"].fail(f"the zones hold {action} Action cards; the game has {sum(rd.kinds)}")
    era = sum(map(len, st._eras)) + len(st._era_deck) + len(st._era_display)
    era += len(st._era_discard) + sum(st._era_box)
    if era > sum(rd.shapes_total):
        top["era_box"].fail(f"the zones hold {era} Era cards; the game has {sum(rd.shapes_total)}")
    if rules.portal_deck and any(st._reserve):
        top["portal_reserve"].fail(
            "must be empty: this mission's Portal cards are a deck and a row"
        )
    if not rules.portal_deck and (st._portal_row or st._portal_deck):
        key = "portal_row" if st._portal_row else "portal_deck"
        top[key].fail("must be empty: this game's Portal cards are in the reserve (Setup 3)")
    if not rules.advanced_market and (st._adv_row or st._adv_deck):
        key = "advanced_row" if st._adv_row else "advanced_deck"
        top[key].fail("must be empty: this mission has no Advanced Technology market")
    ai_kinds = {CARD_INDEX[c] for c in rules.ai_deck} if rd.n == 1 else set()
    for key, zone in (("ai_deck", st._ai_deck), ("ai_cards", st._ai_log)):
        for i, c in enumerate(zone[::-1] if key == "ai_deck" else zone):
            if c >= 0 and c not in ai_kinds:
                top[key][i].fail(f"{CARD_NAME[c]} is not an AI card of this game (Solo Mode)")
            if c < 0 and rd.n > 1:
                top[key][i].fail("must be empty: the AI cards are the solo game's")
    if not st.is_terminal and rd.n == 1 and st._turn >= rules.turns:
        top["turn"].fail(f"must be below {rules.turns}: the solo game ends after that many turns")
    limit = rules.limit_rounds
    if not st.is_terminal and rd.n > 1 and limit and st._round >= limit:
        top["round"].fail(f"must be below the option round_limit {limit}: the game ends there")


def _kind_counts(cards: list[int]) -> list[int]:
    out = [0] * NKINDS
    for c in cards:
        if c >= 0:
            out[c] += 1
    return out


def _check_knowledge(rd: _Read, st: EternitiumState) -> None:
    """What is known of each seat's cards fits that seat's piles: no more located in a
    discard pile than it holds, no more known than the seat has (in a whole position: card
    by card), the unknown tiers making up the rest. The guess and `determinize` deal cards
    from these counts: unchecked, one count could make them deal millions."""
    k = rd.top["knowledge"]
    for s in range(rd.n):
        _check_known(rd, st, s, st._known[s], st._located[s], k["known"][s], k["located"][s])
        known = st._known[s]
        peek = st._peeks.get((rd.seat, s)) if rd.seat is not None else None
        if peek is not None:  # the thief's own look: its position counts it as known
            known = [max(a, b) for a, b in zip(known, peek[0], strict=True)]
        cards = st._hsize[s] + len(st._decks[s]) + len(st._discards[s])
        tiers = [r.number(0, cards) for r in rd.tiers[s]]
        if sum(tiers) + sum(known) != cards:
            k["unknown_tiers"][s].fail(
                f"with the {sum(known)} known cards must count seat {s}'s {cards} cards, not "
                f"{sum(tiers) + sum(known)}"
            )
        down = [c & SHAPE_BITS for c in st._eras[s] if c >= 0 and not c & SEEN]
        hidden = sum(1 for c in st._eras[s] if c < 0 or not c & SEEN)
        _check_era_known(rd, st._era_known[s], down, hidden, k["era_known"][s])
    _check_era_known(rd, st._deck_known, st._era_deck, len(st._era_deck), k["era_deck_known"])
    for i, ((_thief, victim), (known, located)) in enumerate(st._peeks.items()):
        r = k["peeks"][i]
        _check_known(rd, st, victim, known, located, r["known"], r["located"])


def _check_known(
    rd: _Read,
    st: EternitiumState,
    s: int,
    known: list[int],
    located: list[int],
    known_r: Reader,
    located_r: Reader,
) -> None:
    pile = st._discards[s]
    for kind in range(NKINDS):
        if located[kind] > known[kind]:
            located_r[CARD_NAME[kind]].fail(
                f"must be at most {known[kind]}: a card located in the discard pile is known"
            )
    if sum(located) > len(pile):
        located_r.fail(f"locates {sum(located)} cards in a discard pile of {len(pile)}")
    cards = st._hsize[s] + len(st._decks[s]) + len(pile)
    if sum(known) > cards:
        known_r.fail(f"knows {sum(known)} cards of seat {s}, who has {cards}")
    if rd.part:
        return  # the rest is checked as the guess deals the seat's cards
    in_pile = _kind_counts(pile)
    held = _kind_counts(st._decks[s] + pile)
    for kind in range(NKINDS):
        name = CARD_NAME[kind]
        if located[kind] > in_pile[kind]:
            located_r[name].fail(f"must be at most {in_pile[kind]}: the {name} in that pile")
        if known[kind] > held[kind] + st._hands[s][kind]:
            known_r[name].fail(f"must be at most {held[kind] + st._hands[s][kind]}: seat {s}'s")


def _check_era_known(rd: _Read, known: list[int], cards: list[int], hidden: int, r: Reader) -> None:
    """Era shapes known to lie among face-down cards: no more than those cards (a whole
    position: shape by shape)."""
    if sum(known) > hidden:
        r.fail(f"knows {sum(known)} face-down Era cards where there are {hidden}")
    if not rd.part:
        for x in range(NSHAPES):
            have = sum(1 for c in cards if c == x)
            if known[x] > have:
                r[SHAPES[x]].fail(f"must be at most {have}: the face-down {SHAPES[x]} cards there")


def _check_census(rd: _Read, st: EternitiumState, comp: list[int]) -> None:
    """A whole position adds up: every card of the game in exactly one place."""
    from eterna.games.eternitium.views import census

    total = list(comp)
    total[DROID] += STARTING_SETS
    counted = census(st)
    for k in range(NKINDS):
        if counted[CARD_NAME[k]] != total[k]:
            rd.top["box"].fail(
                f"the cards do not add up: {counted[CARD_NAME[k]]} {CARD_NAME[k]} in the "
                f"position, {total[k]} in the game (a card in two places, or missing)"
            )
    for s in range(NSHAPES):
        name = f"era-{SHAPES[s]}"
        if counted[name] != total[NKINDS + s]:
            rd.top["era_box"].fail(
                f"the Era cards do not add up: {counted[name]} {SHAPES[s]} in the position, "
                f"{total[NKINDS + s]} in the game"
            )
    tiers = _write_knowledge(st, None)["unknown_tiers"]
    for s, row in enumerate(rd.tiers):
        if [r.number(0, _MAX_COUNT) for r in row] != tiers[s]:
            rd.top["knowledge"]["unknown_tiers"][s].fail(
                f"must be {tiers[s]}: the seat's cards less those known to all, per tier"
            )
