"""The Vale's positions: any moment of a game as JSON (docs/vale.md#positions, docs/positions.md).

`write_position(state, seat)` writes the body after the shared envelope; `read_position(game,
position)` checks it and builds the state. Nothing here runs on the hot path: the state gets
two thin hooks (`ValeState.to_position`, `Vale.from_position`).

Effect steps are shared, immutable objects built once from the cards' texts (abilities.py), so
a step under way is written by where it stands in a card's text: `hydra.instant[0]`,
`hydra.instant[0].draw[0]` (the `draw` option's first step), `goblin-soldier.active[0].otherwise
[0]`; the two steps of the rules themselves are `after_summon` and `stone_limit`. Nested effects
are found generically (any slot holding a tuple of steps, or of options with an `effect`), so a
card added later is covered without a line here. The step's own progress (`arg`) is written by
its kind: a count or a seat (a number), the options taken (`choose_one`: their names), the cards
already used (`activate_others`: their ids), a summon's payment and the area before it
(`after_summon`).
"""

from __future__ import annotations

import copy
import hashlib
import random
from typing import TYPE_CHECKING, Any

from eterna.core.errors import BadPosition, EternaError
from eterna.core.position import (
    ENVELOPE,
    UNKNOWN,
    Envelope,
    Reader,
    dumps,
    envelope,
    parse,
    rng_text,
)
from eterna.games.vale.board import (
    AFTER_SUMMON,
    HUNT,
    OVER,
    PHASES,
    RESOLUTION,
    STONE_LIMIT_STEP,
    Choice,
    ValeBoard,
    ValeStart,
    Work,
)
from eterna.games.vale.cards import (
    A_DISCARD_STONE,
    CARD_BY_NAME,
    CARD_NAME,
    CHOICE_INDEX,
    CHOICES,
    COLOURS,
    DECK_SIZE,
    END_SCORE,
    PICKS,
    ROUNDS,
    cards_in_play,
)
from eterna.games.vale.effects import Step

if TYPE_CHECKING:
    from eterna.games.vale.game import Vale
    from eterna.games.vale.state import ValeState

BODY = (
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
WORK_KEYS = ("step", "kind", "seat", "card", "arg")
PENDING_KEYS = ("chooser", "for_seat", "card", "kind", "step", "arg", "options")
MAX_SCORE = 10**6
MAX_STONES = 99


# ============================================================================ the steps' names
_REFS: dict[int, str] = {}  # id(step) -> its name
_STEPS: dict[str, Step] = {}  # its name -> the step


def _walk(effect: tuple[Any, ...], path: str) -> None:
    for i, step in enumerate(effect):
        here = f"{path}[{i}]"
        if id(step) not in _REFS:
            _REFS[id(step)] = here
            _STEPS[here] = step
        for klass in type(step).__mro__:
            for slot in klass.__dict__.get("__slots__", ()):
                value = getattr(step, slot, None)
                if not isinstance(value, tuple) or not value:
                    continue
                if all(isinstance(s, Step) for s in value):
                    _walk(value, f"{here}.{slot}")
                elif all(hasattr(o, "effect") and hasattr(o, "name") for o in value):
                    for o in value:
                        _walk(o.effect, f"{here}.{o.name}")


def _registry() -> tuple[dict[int, str], dict[str, Step]]:
    if not _STEPS:
        from eterna.games.vale.abilities import ACTIVE, INSTANT

        for name in ("after_summon", "stone_limit"):
            step = AFTER_SUMMON if name == "after_summon" else STONE_LIMIT_STEP
            _REFS[id(step)] = name
            _STEPS[name] = step
        for card in range(DECK_SIZE):
            _walk(INSTANT[card], f"{CARD_NAME[card]}.instant")
            _walk(ACTIVE[card], f"{CARD_NAME[card]}.active")
    return _REFS, _STEPS


def step_name(step: Step) -> str:
    refs, _ = _registry()
    name = refs.get(id(step))
    if name is None:
        raise EternaError(f"a {type(step).__name__} step under way is in no card's text")
    return name


# ============================================================================ step progress
def _mask_cards(mask: int) -> list[str]:
    return [CARD_NAME[c] for c in range(DECK_SIZE) if mask >> c & 1]


def _write_arg(name: str, step: Step, arg: Any) -> Any:
    if arg is None:
        return None
    if name == "after_summon":
        paid, before = arg
        return {
            "paid": None if paid is None else dict(zip(COLOURS, paid, strict=True)),
            "area_before": _mask_cards(before),
        }
    if step.kind == "choose_one":
        return [CHOICES[i] for i in sorted(arg)]
    if step.kind == "activate_others":
        return _mask_cards(arg)
    if isinstance(arg, int):
        return arg
    raise EternaError(f"step {name}: no written form for its progress {arg!r}")


def _read_arg(name: str, step: Step, r: Reader, players: int) -> Any:
    if r.value is None:
        return None
    if name == "after_summon":
        r.object(("paid", "area_before"))
        paid_r = r.get("paid")
        paid = None
        if paid_r is not None:
            paid_r.object(COLOURS)
            paid = tuple(paid_r[c].number(0, MAX_STONES) for c in COLOURS)
        return paid, _cards_mask(r["area_before"])
    if step.kind == "choose_one":
        return frozenset(CHOICE_INDEX[x.text(CHOICES)] for x in r.items())
    if step.kind == "activate_others":
        return _cards_mask(r)
    if step.kind == "name_a_player":  # the player named, who now picks the card
        return r.number(0, players - 1)
    return r.number(0, DECK_SIZE)


def _cards_mask(r: Reader) -> int:
    mask = 0
    for item in r.items():
        mask |= 1 << _card(item)
    return mask


def _card(r: Reader) -> int:
    name = r.text()
    if name not in CARD_BY_NAME:
        r.fail(f"is no card of the Vale: {name!r}")
    return CARD_BY_NAME[name]


# ============================================================================ writing
def write_position(st: ValeState, seat: int | None) -> dict[str, Any]:
    """The whole state (seat None) or what `seat` knows, as docs/vale.md#positions says."""
    if st.start.version == 1:
        raise EternaError(
            "a game of record version 1 (the old generators) has no position: replay its "
            "record, or start a new game"
        )
    if seat is not None:
        st.check_seat(seat)
    pos = envelope(st.game, st.players, st.start.options, seat)
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
    pos["revealed"] = [names[c] for c in st.unclaimed]
    pos["claimed"] = [[names[c] for c in cl] for cl in st.claims]
    pos["resolved"] = _mask_cards(st.activated) if st.stage == RESOLUTION else []
    pos["hands"], pos["hidden"] = _write_hands(st, seat)
    pos["areas"] = [[names[c] for c in a] for a in st.areas]
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


def _write_hands(st: ValeState, seat: int | None) -> tuple[list[list[str]], list[list[str]]]:
    hands: list[list[str]] = []
    hidden: list[list[str]] = []
    secret = st.secret
    for s, hand in enumerate(st.hands):
        shut = [c for c in hand if secret >> c & 1]
        if seat is None or s == seat:
            hands.append([CARD_NAME[c] for c in hand])
            hidden.append([CARD_NAME[c] for c in shut])
        else:  # what every seat has seen enter that hand, then one "?" per card drawn
            open_ = [CARD_NAME[c] for c in hand if not secret >> c & 1]
            hands.append(open_ + [UNKNOWN] * len(shut))
            hidden.append([UNKNOWN] * len(shut))
    return hands, hidden


def _write_work(work: Work) -> dict[str, Any]:
    step, seat, src, arg = work
    name = step_name(step)
    out: dict[str, Any] = {"step": name}
    if step.kind:
        out["kind"] = step.kind
    out.update(seat=seat, card=CARD_NAME[src], arg=_write_arg(name, step, arg))
    return out


def _write_pending(choice: Choice | None, seat: int | None) -> dict[str, Any] | None:
    if choice is None:
        return None
    chooser, step, who, src, arg, options = choice
    name = step_name(step)
    out: dict[str, Any] = {
        "chooser": chooser,
        "for_seat": who,
        "card": None if src < 0 else CARD_NAME[src],
        "kind": step.kind,
        "step": name,
        "arg": _write_arg(name, step, arg),
    }
    if seat is None or seat == chooser:  # options may show the chooser's hand
        out["options"] = [str(o) for o in options]
    return out


# ============================================================================ reading
class _Zones:
    """Where every card is, as read (None: a card the position's seat cannot know)."""

    def __init__(self, r: Reader, n: int, seat: int | None, pool: tuple[int, ...]) -> None:
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
        self.deck_top_known = r["deck_top_known"].flag()
        self.deck = [
            self._place(x, i > 0 or not self.deck_top_known)
            for i, x in enumerate(r["deck"].items())
        ]
        if self.deck_top_known and not self.deck:
            r["deck_top_known"].fail("is true but the deck is empty")
        self.discard = [self._place(x) for x in r["discard"].items()]
        self.secret = self._hidden(r["hidden"], n)
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
        card = _card(r)
        if card not in self.pool:
            r.fail(f"{CARD_NAME[card]} is an expansion card, not in this game's `expansions`")
        if card in self.places:
            r.fail(f"{CARD_NAME[card]} is also at {self.places[card]}: each card is in one place")
        self.places[card] = r.path
        return card

    def _hidden(self, r: Reader, n: int) -> int:
        """The bit mask of cards drawn into hands (only their holders know them)."""
        mask = 0
        for s, row in enumerate(r.items(n)):
            hand = self.hands[s]
            unknown = 0
            for x in row.items():
                if x.value == UNKNOWN:
                    unknown += 1
                    continue
                card = _card(x)
                if card not in hand:
                    x.fail(f"{CARD_NAME[card]} is not in hands[{s}]")
                mask |= 1 << card
            if unknown != hand.count(None):
                row.fail(f"must list one '?' per '?' of hands[{s}] (a card unknown was drawn)")
        return mask

    def fill(self, rng: random.Random) -> None:
        """A seat's position: deal the unknown cards to the '?' slots (the guess is redrawn
        by `determinize` afterwards; this only makes a state to draw from)."""
        pool = [c for c in self.pool if c not in self.places]
        rng.shuffle(pool)
        for row in [*self.hands, self.deck]:
            for i, c in enumerate(row):
                if c is None:
                    row[i] = pool.pop()
                    if row is not self.deck:
                        self.secret |= 1 << row[i]  # type: ignore[operator]


def _ints(row: list[int | None]) -> list[int]:
    return [c for c in row if c is not None]


def read_position(game: Vale, position: Any, narrate: bool = False) -> ValeState:
    """The state `position` describes (a seat's position: one consistent guess of it)."""
    if isinstance(position, str):
        position = parse(position)
    env = Envelope(game, position)
    r = env.reader
    r.object((*ENVELOPE, *BODY))
    n, seat = env.players, env.seat
    zones = _Zones(r, n, seat, cards_in_play(tuple(env.options.get("expansions") or ())))
    digest = hashlib.sha256(dumps(position).encode("utf-8")).digest()
    guess = random.Random(int.from_bytes(digest[:8], "big"))
    if seat is not None:
        zones.fill(guess)
    st = _build(game, env, zones, copy.deepcopy(dict(position)), narrate)
    if seat is None:
        return st
    return st.determinize(seat, guess)


def _build(game: Vale, env: Envelope, z: _Zones, doc: Any, narrate: bool) -> ValeState:
    from eterna.games.vale.state import ValeState

    r, n = env.reader, env.players
    rnd = r["round"].number(1, ROUNDS)
    first = r["first_player"].number(0, n - 1)
    stones: list[int] = []
    for row in r["stones"].items(n):
        row.object(COLOURS)
        stones += [row[c].number(0, MAX_STONES) for c in COLOURS]
    start = ValeStart(
        game=game,
        players=n,
        seed=0,
        options=env.options,
        position=doc,
        end_score=END_SCORE,
        stream=env.rng or 0,
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
    )
    st = ValeState.__new__(ValeState)
    ValeBoard.__init__(st, start, narrate)
    st.stage = PHASES.index(r["phase"].text(PHASES))
    st.turn = r["turn"].number(0, n - 1)
    st.unclaimed = list(start.revealed or ())
    st.known_top = start.deck[-1] if z.deck_top_known else -1
    st.secret = z.secret
    st._actors = []
    st._round_start = 0
    st._picks, st._pick_i = _read_hunt(r, st)
    st.activated = _read_resolved(r, st)
    st.work = [_read_work(x, n) for x in reversed(list(r["work"].items()))]
    _settle(st, r, env.seat)
    if narrate:
        st._tell_round_started()
    return st


def _read_log(game: Vale, r: Reader, n: int) -> tuple[tuple[int, str], ...]:
    out = []
    for x in r.items():
        x.object(("seat", "action"))
        seat = x["seat"].number(0, n - 1)
        try:
            action = game.parse_action(x["action"].text())
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
    hunt.object(("order", "picks_made"))
    picks = tuple(x.number(0, n - 1) for x in hunt["order"].items(len(rule)))
    if picks != rule:
        hunt["order"].fail(f"must be {list(rule)}: from the first player and back (§4.2)")
    made = hunt["picks_made"].number(0, len(rule) - 1)
    claimed = sum(len(c) for c in st.claims)
    if made < claimed:
        hunt["picks_made"].fail(f"is {made}, but {claimed} cards are claimed")
    return picks, made


def _read_resolved(r: Reader, st: ValeState) -> int:
    mask = _cards_mask(r["resolved"])
    if mask and st.stage != RESOLUTION:
        r["resolved"].fail("must be empty outside the resolution phase")
    return mask  # a resolved card may have left its area since (Recover)


def _read_step(r: Reader) -> tuple[str, Step]:
    _, steps = _registry()
    name = r["step"].text()
    step = steps.get(name)
    if step is None:
        r["step"].fail(f"is no step of a card's text: {name!r} (e.g. 'hydra.instant[0]')")
    kind = r.get("kind")
    if kind is not None and kind.text() != step.kind:
        kind.fail(f"is {kind.value!r}, but {name} is a {step.kind or 'plain'} step")
    return name, step


def _read_work(r: Reader, n: int) -> Work:
    r.object(WORK_KEYS)
    name, step = _read_step(r)
    if step is STONE_LIMIT_STEP:
        r["step"].fail("stone_limit is a question, never a step waiting to run")
    seat = r["seat"].number(0, n - 1)
    return step, seat, _card(r["card"]), _read_arg(name, step, r["arg"], n)


def _settle(st: ValeState, r: Reader, seat: int | None) -> None:
    """The pending question, and the seat to move checked against the one the rules give."""
    pending = r.get("pending")
    if pending is not None:
        if st.stage == OVER or st.stage == HUNT:
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
    st._current = current
    st._dirty = True  # checked again once the effect under way is done (§7)
    st._legal_cache = None


def _ask_again(st: ValeState, r: Reader, seat: int | None) -> Choice:
    """The pending question, asked again by its step: the chooser and options must agree."""
    n = st.players
    r.object(PENDING_KEYS)
    name, step = _read_step(r)
    chooser = r["chooser"].number(0, n - 1)
    who = r["for_seat"].number(0, n - 1)
    card = r.get("card")
    src = -1 if card is None else _card(card)
    arg = _read_arg(name, step, r["arg"], n)
    if step is STONE_LIMIT_STEP:
        if src >= 0 or chooser != who or arg is not None:
            r.fail("stone_limit: card and arg are null, chooser = for_seat (over the limit)")
        b = who * 3
        held = st.stone_counts[b : b + 3]
        if sum(held) <= st.stone_limits[who]:
            r["for_seat"].fail(f"holds {sum(held)} stones, within its limit: nothing to discard")
        options = tuple(A_DISCARD_STONE[c] for c in range(3) if held[c])
    elif src < 0:
        r["card"].fail(f"must name the card whose effect asks ({name})")
    elif seat is not None and chooser != seat:
        try:  # the unknown cards are dealt at random: `determinize` asks again on its deal
            options = _options(st, r, (chooser, step, who, src, arg, ()))
        except BadPosition:
            options = ()
    else:
        options = _options(st, r, (chooser, step, who, src, arg, ()))
    given = r.get("options")
    mine = seat is None or seat == chooser
    if mine and given is not None and [x.text() for x in given.items()] != list(map(str, options)):
        given.fail(f"must be {[str(o) for o in options]}, the options the rules give here")
    return chooser, step, who, src, arg, options


def _options(st: ValeState, r: Reader, choice: Choice) -> tuple[Any, ...]:
    chooser, step, who, src, arg, _ = choice
    probe = st.clone()
    probe._events = None
    probe.choice = None
    step.run(probe, who, src, arg)
    asked = probe.choice
    if asked is None or asked[1] is not step or asked[4] != arg or probe.work != st.work:
        r.fail(f"{step_name(step)} asks nothing in this position")
    if asked[0] != chooser:
        r["chooser"].fail(f"is {chooser}, but this question is asked of seat {asked[0]}")
    return asked[5]


def _whose_move(st: ValeState, r: Reader) -> int:
    if st.choice is not None:
        return st.choice[0]
    for s in range(st.players):
        held = sum(st.stone_counts[s * 3 : s * 3 + 3])
        if held > st.stone_limits[s]:
            r["stones"][s].fail(
                f"{held} stones, over the limit {st.stone_limits[s]}, and no discard pending (§7)"
            )
    stage = st.stage
    if stage == OVER:
        st.is_terminal = True
        st._winners = st._compute_winners()
        return -1
    if stage == HUNT:
        if not st.unclaimed:
            r["revealed"].fail("is empty in the hunting phase: the hunt would be over")
        return st._picks[st._pick_i]
    if stage == RESOLUTION and not st._resolvable(st.turn):
        r["turn"].fail(f"seat {st.turn} has nothing left to resolve: the phase would move on")
    return st.turn
