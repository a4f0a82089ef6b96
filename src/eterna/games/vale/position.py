"""The Vale's positions: any moment of a game as JSON (docs/vale.md#positions, docs/positions.md).

`write_position(state, seat)` writes the body after the shared envelope; `read_position(game,
position)` checks it and builds the state. Nothing here runs on the hot path: the state gets
two thin hooks (`ValeState.to_position`, `Vale.from_position`). The effect steps under way are
named in position_steps.py, the Artifacts' keys written and read in position_arts.py.
"""

from __future__ import annotations

import copy
import hashlib
import random
from typing import TYPE_CHECKING, Any, Final

from eterna.core.errors import BadPosition, EternaError
from eterna.core.jsonvalue import JsonObject
from eterna.core.options import option_number, option_words
from eterna.core.position import (
    ENVELOPE,
    MAX_QUOTE,
    UNKNOWN,
    Envelope,
    Reader,
    dumps,
    envelope,
    parse,
    quote,
    rng_text,
)
from eterna.core.position_rest import ends_with_rest, pile_items
from eterna.core.rng import deal_at
from eterna.games.vale.artifacts import (
    ArtSetup,
    artifacts_in_play,
    end_score,
    pick_moves,
    picker,
    tiles_in_play,
)
from eterna.games.vale.board import (
    HUNT,
    OVER,
    PHASES,
    RESOLUTION,
    STONE_LIMIT_STEP,
    Choice,
    ValeBoard,
    ValeStart,
)
from eterna.games.vale.cards import (
    A_DISCARD_STONE,
    CARD_NAME,
    COLOURS,
    PICKS,
    ROUNDS,
    ValeAction,
    cards_in_play,
)
from eterna.games.vale.effects import Work
from eterna.games.vale.position_arts import (
    ART_KEYS,
    check_keys,
    hidden_mask,
    hidden_rows,
    read_art_setup,
    read_glade,
    read_loki,
    settle_arts,
    write_arts,
)
from eterna.games.vale.position_checks import check_position
from eterna.games.vale.position_steps import (
    MAX_STONES,
    card,
    cards_mask,
    check_owner,
    mask_cards,
    read_arg,
    read_src,
    read_step,
    step_name,
    write_arg,
    write_src,
)

if TYPE_CHECKING:
    from eterna.games.vale.game import Vale
    from eterna.games.vale.state import ValeState

BODY: Final = (
    "round",
    "first_player",
    "phase",
    "turn",
    "to_move",
    "hunt",
    "revealed",
    "claimed",
    "resolved",
    "hands",
    "hidden",
    "areas",
    "stones",
    "scores",
    "deck",
    "deck_top_known",
    "discard",
    "log",
    "work",
    "pending",
)
WORK_KEYS: Final = ("step", "kind", "seat", "card", "artifact", "arg")
PENDING_KEYS: Final = ("chooser", "for_seat", "card", "artifact", "kind", "step", "arg", "options")
MAX_SCORE: Final = 10**6


# ============================================================================ writing
def write_position(st: ValeState, given: object) -> JsonObject:
    """The whole state (seat None) or what `seat` knows, as docs/vale.md#positions says."""
    if st.start.version == 1:
        raise EternaError(
            "a game of record version 1 (the old generators) has no position: replay its "
            "record, or start a new game"
        )
    seat = st.check_audience(given)
    # Any-valued while it is filled: the log's entries are TypedDicts, which mypy does not take
    # for JSON (a TypedDict is a Mapping[str, object])
    pos: dict[str, Any] = envelope(st.game, st.players, st.start.options, seat)
    if seat is None:
        pos["rng"] = rng_text(st._shuffles)
    names = CARD_NAME
    pos.update(
        {
            "round": st.round,
            "first_player": st.first,
            "phase": PHASES[st.stage],
            "turn": st.turn,
            "to_move": st.current_player,
        }
    )
    if st.stage == HUNT:
        pos["hunt"] = {"order": list(st._picks), "picks_made": st._pick_i}
        if st.arts is not None:
            pos["hunt"]["tiles_picked"] = st.arts.pick_i
    pos["revealed"] = [names[c] for c in st.unclaimed]
    pos["claimed"] = [[names[c] for c in cl] for cl in st.claims]
    pos["resolved"] = mask_cards(st.activated) if st.stage == RESOLUTION else []
    pos["hands"], pos["hidden"] = hidden_rows(st.hands, st.secret, seat)
    pos["areas"] = [[names[c] for c in a] for a in st.areas]
    pos.update(write_arts(st, seat))
    pos["stones"] = [
        {COLOURS[i]: st.stone_counts[s * 3 + i] for i in range(3)} for s in range(st.players)
    ]
    pos["scores"] = list(st.points)
    known = st.known_top
    deck = [names[c] for c in reversed(st.draw_pile)]
    if seat is not None:
        deck = [d if i == 0 and known >= 0 else UNKNOWN for i, d in enumerate(deck)]
    pos["deck"] = deck
    pos["deck_top_known"] = known >= 0
    pos["discard"] = [names[c] for c in reversed(st.discard)]
    pos["log"] = st.round_log()
    pos["work"] = [_write_work(w) for w in reversed(st.work)]
    pos["pending"] = _write_pending(st.choice, seat)
    return pos


def _write_work(work: Work) -> JsonObject:
    step = work.step
    name = step_name(step)
    out: JsonObject = {"step": name}
    if step.kind:
        out["kind"] = step.kind
    out["seat"] = work.seat
    write_src(out, work.src)
    out["arg"] = write_arg(name, step, work.arg)
    return out


def _write_pending(choice: Choice | None, seat: int | None) -> JsonObject | None:
    if choice is None:
        return None
    step, chooser = choice.step, choice.chooser
    name = step_name(step)
    out: JsonObject = {"chooser": chooser, "for_seat": choice.seat}
    write_src(out, choice.src)
    out.update(kind=step.kind, step=name, arg=write_arg(name, step, choice.arg))
    if seat is None or seat == chooser:  # options may show the chooser's hand
        out["options"] = [str(o) for o in choice.options]
    return out


# ============================================================================ reading
class _Zones:
    """Where every card is, as read (None: a card the position's seat cannot know)."""

    def __init__(
        self,
        r: Reader,
        n: int,
        seat: int | None,
        pool: tuple[int, ...],
        arts: bool,
        rng: int | None = None,
    ) -> None:
        self.pool = pool  # the cards of this game (its `expansions`), in index order
        self.places: dict[int, str] = {}
        self.unknown = 0
        self.seat = seat
        self.revealed = [self._place(x) for x in r["revealed"].items()]
        self.claimed = [[self._place(x) for x in row.items()] for row in r["claimed"].items(n)]
        self.hands = [
            [self._place(x, s != seat) for x in row.items()]
            for s, row in enumerate(r["hands"].items(n))
        ]
        self.areas = [[self._place(x) for x in row.items()] for row in r["areas"].items(n)]
        self.shelters: list[list[int | None]] = []
        if arts:  # like hands: another seat's cards it never saw may be "?"
            self.shelters = [
                [self._place(x, s != seat) for x in row.items()]
                for s, row in enumerate(r["shelters"].items(n))
            ]
        self.deck_top_known = r["deck_top_known"].flag()
        rest = ends_with_rest(r["deck"], seat)  # "...": the rest, shuffled (position_rest.py)
        self.deck = [
            self._place(x, i > 0 or not self.deck_top_known)
            for i, x in enumerate(pile_items(r["deck"], rest))
        ]
        if self.deck_top_known and not self.deck:
            r["deck_top_known"].fail("is true but the deck is empty")
        self.discard = [self._place(x) for x in r["discard"].items()]
        self.secret = hidden_mask(r["hidden"], self.hands, "hands")
        if arts:
            self.secret |= hidden_mask(r["shelters_hidden"], self.shelters, "shelters")
        self.stream = rng or 0  # the generator's state once the rest is dealt
        if rest:
            below = [c for c in pool if c not in self.places]
            self.stream = deal_at(self.stream, below)
            self.deck += below
            self.places.update((c, "deck") for c in below)
        missing = [CARD_NAME[c] for c in pool if c not in self.places]
        if len(missing) != self.unknown:
            if self.unknown:
                r["deck"].fail(
                    f"the cards do not add up: {len(self.places)} placed and {self.unknown} "
                    f"unknown, for a deck of {len(pool)}"
                )
            r["deck"].fail(f"the cards do not add up: {', '.join(missing)} are in no zone")
        for s, row in enumerate(self.claimed):
            if len(row) > PICKS:
                r["claimed"][s].fail(f"holds {len(row)} cards; a seat claims {PICKS} (§4.2)")

    def _place(self, r: Reader, may_hide: bool = False) -> int | None:
        if r.value == UNKNOWN:
            if self.seat is None or not may_hide:
                r.fail("is '?', but only a seat's position may hide a card, there")
            self.unknown += 1
            return None
        c = card(r)
        if c not in self.pool:
            r.fail(f"{CARD_NAME[c]} is an expansion card, not in this game's `expansions`")
        if c in self.places:
            r.fail(f"{CARD_NAME[c]} is also at {self.places[c]}: each card is in one place")
        self.places[c] = r.path
        return c

    def fill(self, rng: random.Random) -> None:
        """A seat's position: deal the unknown cards to the '?' slots (the guess is redrawn
        by `determinize` afterwards; this only makes a state to draw from)."""
        pool = [c for c in self.pool if c not in self.places]
        rng.shuffle(pool)
        for row in [*self.hands, *self.shelters, self.deck]:
            for i, c in enumerate(row):
                if c is None:
                    row[i] = pool.pop()
                    if row is not self.deck:
                        self.secret |= 1 << row[i]  # type: ignore[operator]


def _ints(row: list[int | None]) -> list[int]:
    return [c for c in row if c is not None]


def unpickle(position: JsonObject) -> ValeState:
    """A pickled state back (ValeState.__reduce_ex__): loaded from its whole position."""
    from eterna.games.vale.game import GAME

    return read_position(GAME, position)


def read_position(game: Vale, position: object, narrate: bool = False) -> ValeState:
    """The state `position` describes (a seat's position: one consistent guess of it)."""
    if isinstance(position, str):
        position = parse(position)
    env = Envelope(game, position)
    r = env.reader
    r.object((*ENVELOPE, *BODY, *ART_KEYS))
    n, seat = env.players, env.seat
    arts = tiles_in_play(env.options)
    check_keys(r, arts, artifacts_in_play(env.options))
    zones = _Zones(
        r, n, seat, cards_in_play(option_words(env.options, "expansions")), arts, env.rng
    )
    digest = hashlib.sha256(dumps(env.document).encode("utf-8")).digest()
    guess = random.Random(int.from_bytes(digest[:8], "big"))
    if seat is not None:
        zones.fill(guess)
    st = _build(game, env, zones, copy.deepcopy(dict(env.document)), narrate)
    if seat is None:
        return st
    return st.determinize(seat, guess)


def _build(game: Vale, env: Envelope, z: _Zones, doc: JsonObject, narrate: bool) -> ValeState:
    from eterna.games.vale.state import ValeState

    r, n = env.reader, env.players
    rnd = r["round"].number(1, ROUNDS)
    first = r["first_player"].number(0, n - 1)
    stones: list[int] = []
    for row in r["stones"].items(n):
        row.object(COLOURS)
        stones += [row[c].number(0, MAX_STONES) for c in COLOURS]
    glade, given, picked = _arts_start(env, z)
    start = ValeStart(
        game=game,
        players=n,
        seed=0,
        options=env.options,
        position=doc,
        end_score=end_score(env.options),
        stream=z.stream,
        first=first,
        round=rnd,
        deck=tuple(reversed(_ints(z.deck))),
        discard=tuple(reversed(_ints(z.discard))),
        hands=tuple(tuple(sorted(_ints(h))) for h in z.hands),
        areas=tuple(tuple(_ints(a)) for a in z.areas),
        stones=tuple(stones),
        scores=tuple(x.number(0, MAX_SCORE) for x in r["scores"].items(n)),
        claimed=tuple(tuple(_ints(c)) for c in z.claimed),
        revealed=tuple(sorted(_ints(z.revealed))),
        log=_read_log(game, r["log"], n),
        glade=glade,
        artifacts=given,
    )
    st = ValeState.__new__(ValeState)
    ValeBoard.__init__(st, start, narrate)  # the board as the start lays it out, then the rest
    st.load_fields(
        {
            "stage": PHASES.index(r["phase"].text(PHASES)),
            "turn": r["turn"].number(0, n - 1),
            "unclaimed": list(start.revealed or ()),
            "known_top": start.deck[-1] if z.deck_top_known else -1,
            "secret": z.secret,
            "_actors": [],
            "_round_start": 0,
        }
    )
    picks, made = _read_hunt(r, st)
    st.load_fields({"_picks": picks, "_pick_i": made})
    if st.arts is not None:
        settle_arts(st, r, picked)
    elif artifacts_in_play(env.options):  # the creatures without tiles: Loki only
        st.loki = read_loki(st, r)
    st.activated = _read_resolved(r, st)
    pool = cards_in_play(option_words(env.options, "expansions"))
    st.work = [_read_work(x, n, glade, pool) for x in reversed(list(r["work"].items()))]
    _settle(st, r, env.seat)
    check_position(st, r)  # position_checks.py: the states no legal game reaches
    if narrate:
        st._tell_round_started()
    return st


def _arts_start(env: Envelope, z: _Zones) -> tuple[tuple[int, ...], ArtSetup | None, list[int]]:
    """The glade, the start's tiles, shelters and areas bought, and the tiles picked this round
    (none in a base game)."""
    if not z.shelters:
        return (), None, []
    r, n = env.reader, env.players
    glade = read_glade(r)
    shelters = [sorted(_ints(row)) for row in z.shelters]
    limit = option_number(env.options, "bought_area_limit")
    given, picked = read_art_setup(r, glade, shelters, n, limit)
    return glade, given, picked


def _read_log(game: Vale, r: Reader, n: int) -> tuple[tuple[int, str], ...]:
    out = []
    for x in r.items():
        x.object(("seat", "action"))
        seat = x["seat"].number(0, n - 1)
        text = x["action"].text()
        if len(text) > 2 * MAX_QUOTE:  # no action is written that long: never quote it all
            x["action"].fail(f"is not an action: {quote(text)}")
        try:
            action = game.parse_action(text)
        except EternaError as exc:
            x["action"].fail(str(exc))
        out.append((seat, action.text))
    return tuple(out)


def _read_hunt(r: Reader, st: ValeState) -> tuple[tuple[int, ...], int]:
    n = st.players
    order = [(st.first + i) % n for i in range(n)]
    rule = tuple(order + order[::-1])  # §4.2: clockwise from the first player, then back
    hunt = r.get("hunt")
    if st.stage != HUNT:
        if hunt is not None:
            hunt.fail(f"is only for the hunting phase, not the {PHASES[st.stage]} phase")
        return rule, len(rule)
    if hunt is None:
        r["hunt"].fail("is missing: the hunting phase says its pick order and progress")
    hunt.object(("order", "picks_made", "tiles_picked") if st.arts else ("order", "picks_made"))
    picks = tuple(x.number(0, n - 1) for x in hunt["order"].items(len(rule)))
    if picks != rule:
        hunt["order"].fail(f"must be {list(rule)}: from the first player and back (§4.2)")
    made = hunt["picks_made"].number(0, len(rule) - 1)
    claimed = sum(len(c) for c in st.claims)
    if made < claimed:
        hunt["picks_made"].fail(f"is {made}, but {claimed} cards are claimed")
    return picks, made


def _read_resolved(r: Reader, st: ValeState) -> int:
    mask = cards_mask(r["resolved"])
    if mask and st.stage != RESOLUTION:
        r["resolved"].fail("must be empty outside the resolution phase")
    return mask  # a resolved card may have left its area since (Recover)


def _read_work(r: Reader, n: int, glade: tuple[int, ...], pool: tuple[int, ...]) -> Work:
    r.object(WORK_KEYS)
    name, step, owner = read_step(r)
    if step is STONE_LIMIT_STEP:
        r["step"].fail("stone_limit is a question, never a step waiting to run")
    seat = r["seat"].number(0, n - 1)
    src = read_src(r, glade, pool)
    if src == -1:
        r["card"].fail(f"must name the card (or `artifact` the tile) whose effect runs ({name})")
    check_owner(r, name, owner, src)
    return Work(step, seat, src, read_arg(name, step, r["arg"], n))


def _settle(st: ValeState, r: Reader, seat: int | None) -> None:
    """The pending question, and the seat to move checked against the one the rules give."""
    pending = r.get("pending")
    if pending is not None:
        if st.stage == OVER or (st.stage == HUNT and st.arts is None):
            pending.fail(f"nothing is asked in the {PHASES[st.stage]} phase")
        st.choice = _ask_again(st, pending, seat)
    elif st.work:
        r["work"].fail("holds steps still to run, but nothing is pending: they would run on")
    current = _whose_move(st, r)
    told = r["to_move"].seat(st.players, allow_none=True)
    if told != (None if current < 0 else current):
        r["to_move"].fail(
            f"is {told}, but the rules give the move to {None if current < 0 else current}"
        )
    # the stone limit is checked again once the effect under way is done (§7)
    st.load_fields({"_current": current, "_dirty": True, "_legal_cache": None})


def _ask_again(st: ValeState, r: Reader, seat: int | None) -> Choice:
    """The pending question, asked again by its step: the chooser and options must agree."""
    n = st.players
    r.object(PENDING_KEYS)
    name, step, owner = read_step(r)
    chooser = r["chooser"].number(0, n - 1)
    who = r["for_seat"].number(0, n - 1)
    glade = () if st.arts is None else st.arts.glade
    src = read_src(r, glade, cards_in_play(option_words(st.start.options, "expansions")))
    check_owner(r, name, owner, src)
    arg = read_arg(name, step, r["arg"], n)
    if step is STONE_LIMIT_STEP:
        if src >= 0 or chooser != who or arg is not None:
            r.fail("stone_limit: card and arg are null, chooser = for_seat (over the limit)")
        b = who * 3
        held = st.stone_counts[b : b + 3]
        if sum(held) <= st.stone_limits[who]:
            r["for_seat"].fail(f"holds {sum(held)} stones, within its limit: nothing to discard")
        options = tuple(A_DISCARD_STONE[c] for c in range(3) if held[c])
    elif src == -1:
        r["card"].fail(f"must name the card (or `artifact` the tile) whose effect asks ({name})")
    elif seat is not None and chooser != seat:
        try:  # the unknown cards are dealt at random: `determinize` asks again on its deal
            options = _options(st, r, Choice(chooser, step, who, src, arg))
        except BadPosition:
            options = ()
    else:
        options = _options(st, r, Choice(chooser, step, who, src, arg))
    given = r.get("options")
    mine = seat is None or seat == chooser
    if mine and given is not None and [x.text() for x in given.items()] != list(map(str, options)):
        given.fail(f"must be {[str(o) for o in options]}, the options the rules give here")
    return Choice(chooser, step, who, src, arg, options)


def _asked(st: ValeState) -> Choice | None:
    """The question `st` waits on (read through a call: a step may have set it)."""
    return st.choice


def _options(st: ValeState, r: Reader, choice: Choice) -> tuple[ValeAction, ...]:
    step, chooser = choice.step, choice.chooser
    probe = st.clone()
    probe._events = None
    probe.choice = None
    try:
        choice.resume(probe)
    except BadPosition:
        raise
    except Exception as exc:  # a step asked where it never stands: nothing half-built escapes
        r.fail(f"{step_name(step)} cannot ask in this position ({type(exc).__name__})")
    asked = _asked(probe)  # not `probe.choice`: mypy holds it None since set above
    if asked is None or asked.step is not step or asked.arg != choice.arg or probe.work != st.work:
        r.fail(f"{step_name(step)} asks nothing in this position")
    if asked.chooser != chooser:
        r["chooser"].fail(f"is {chooser}, but this question is asked of seat {asked.chooser}")
    return asked.options


def _whose_move(st: ValeState, r: Reader) -> int:
    if st.choice is not None:
        return st.choice.chooser
    for s in range(st.players):
        held = sum(st.stone_counts[s * 3 : s * 3 + 3])
        if held > st.stone_limits[s]:
            r["stones"][s].fail(
                f"{held} stones, over the limit {st.stone_limits[s]}, and no discard pending (§7)"
            )
    stage = st.stage
    if stage == OVER:
        st.load_fields({"is_terminal": True, "_winners": st._compute_winners()})
        return -1
    if stage == HUNT and st.arts is not None and st.arts.pick_i < st.players:
        seat = picker(st)
        if not pick_moves(st, seat):
            r["hunt"]["tiles_picked"].fail(f"seat {seat} has no tile to pick: it would be passed")
        return seat
    if stage == HUNT:
        if not st.unclaimed:
            r["revealed"].fail("is empty in the hunting phase: the hunt would be over")
        return st._picks[st._pick_i]
    if stage == RESOLUTION and not st._resolvable(st.turn):
        r["turn"].fail(f"seat {st.turn} has nothing left to resolve: the phase would move on")
    return st.turn
