"""Eternitium positions (docs/positions.md; the body: docs/eternitium.md, 'Positions'): any
moment of a game written as JSON and read back into a state with the same legal moves, views
and future. Off the hot path: the state only gets thin hooks (`to_position`, the game's
`from_position`).

Every zone is written top first (discard piles too); a face is its own key, never a case. A
seat's position writes "?" for every card the seat cannot see and keeps the public knowledge
`determinize` reads, so loading it gives one consistent guess (drawn from a generator seeded
by the position's text) and writing that guess's seat position gives the same text again.

This module reads positions; position_write.py writes them, position_counts.py and
position_checks.py check what was read.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import TYPE_CHECKING, Any, Final

from eterna.core.options import option_number, option_object
from eterna.core.position import (
    UNKNOWN,
    Envelope,
    Reader,
    dumps,
    parse,
    quote,
)
from eterna.core.rng import RECORD_VERSION
from eterna.games.eternitium.board import PH_GIFT, PH_OVER, PH_PICK, PHASE_NAME
from eterna.games.eternitium.cards import (
    CARD_INDEX,
    CARD_NAME,
    DROID,
    ERA_KNOWN,
    NKINDS,
    PORTALS,
    SHAPE_INDEX,
    SHAPES,
    STARTING_SETS,
    TIER,
    TIER_ADVANCED,
    TIER_BASIC,
    VISIBLE,
)
from eterna.games.eternitium.position_checks import check_position
from eterna.games.eternitium.position_counts import (
    MAX_COUNT,
    check_bottom,
    check_census,
    check_knowledge,
    check_sizes,
)
from eterna.games.eternitium.position_rest import deal_rests, split_rests
from eterna.games.eternitium.position_write import CYCLE_MODES

if TYPE_CHECKING:
    from eterna.games.eternitium.game import Eternitium
    from eterna.games.eternitium.state import EternitiumState

FACES: Final = ("up", "down", "known")  # face up; face down; face down but everyone saw which
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


def read_position(game: Eternitium, position: object, narrate: bool = False) -> EternitiumState:
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
    mission = option_number(env.options, "mission")
    if mission and env.players != 1:
        top["options"].fail("option mission is for the solo game (players=1) only")
    try:
        comp = check_composition(option_object(env.options, "composition"))
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
    check_bottom(rd, st)
    # Every count against the game's cards and the rest of the position, before the guess
    # (or a search's determinize) builds anything from them.
    check_sizes(rd, st)
    check_position(st, rd.top, whole=not rd.part)  # position_checks.py: unreachable states
    if rd.part:
        from eterna.games.eternitium.guess import guess

        check_knowledge(rd, st)
        seed = int.from_bytes(hashlib.sha256(dumps(whole).encode()).digest()[:8], "big")
        st = guess(rd, st, comp, random.Random(seed))
    else:
        check_census(rd, st, comp)
        check_knowledge(rd, st)
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
    got["_turn"] = top["turn"].number(0, MAX_COUNT)
    got["_round"] = top["round"].number(0, MAX_COUNT)
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


def _read_knowledge(rd: _Read, got: dict[str, Any]) -> None:
    """The public knowledge `determinize` reads (docs/eternitium.md, Determinization)."""
    k = rd.top["knowledge"]
    k.object(KNOWLEDGE_KEYS)
    got["_known"] = [rd.action_counts(r) for r in rd.per_seat(k["known"])]
    got["_located"] = [rd.action_counts(r) for r in rd.per_seat(k["located"])]
    got["_era_known"] = [rd.era_counts(r) for r in rd.per_seat(k["era_known"])]
    got["_deck_known"] = rd.era_counts(k["era_deck_known"])
    # checked against the decks once their rests are dealt (_check_bottom)
    got["_bottom"] = [x.number(0, MAX_COUNT) for x in k["market_bottom"].items(2)]
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
