"""The Vale's positions: the names of the effect steps under way and of their progress.

Effect steps are shared, immutable objects built once from the cards' texts (abilities.py), so
a step under way is written by where it stands in a card's text: `hydra.instant[0]`,
`hydra.instant[0].draw[0]` (the `draw` option's first step), `goblin-soldier.active[0].otherwise
[0]`. Nested effects are found generically (any slot holding a tuple of steps, or of options with
an `effect`), so a card added later is covered without a line here. The steps that stand in no
card's text are named by where they stand:

- the rules' own: `after_summon` (a summon's permanents) and `stone_limit` (§7);
- an artifact tile's effect: `tile:golden-fleece[0]`; Gem of Kukulkan's offer after a sale:
  `keep_sold`;
- the Artifacts creatures' triggers: `recover` (Fireblast, Thalassa, Wendigo, Banshee going back
  to hand), `loki_family[0]` (Loki's owner names a family as their turn starts, its options
  nested as in a card: `loki_family[0].fire[0]`), `sale_upgrade.wind[0]` (Duduri King after the
  sale of a card of that family), and `points:N` (Horus: the N points of the card it summoned,
  gained once that card's instant is done).

The step's own progress (`arg`) is written by its kind: a count or a seat (a number), the
options taken (`choose_one`: their names), the cards already used (`activate_others`: their
ids), a summon's payment and the area before it (`after_summon`), the card sold (`keep_sold`),
the stone the first upgrade made (`upgrade_stones`: a colour, "any" when the same stone may go
up again), what Philosopher's Stone did already (`{"retrieved", "discarded"}`).
"""

from __future__ import annotations

import re
from typing import Final

from eterna.core.errors import EternaError
from eterna.core.jsonvalue import JsonObject, JsonValue
from eterna.core.position import Reader, quote
from eterna.games.vale.artifacts import Sheltering
from eterna.games.vale.board import AFTER_SUMMON, STONE_LIMIT_STEP
from eterna.games.vale.cards import (
    CARD_BY_NAME,
    CARD_NAME,
    CHOICE_INDEX,
    CHOICES,
    COLOURS,
    DECK_SIZE,
    FAMILIES,
    TILE_BY_NAME,
    TILE_NAME,
)
from eterna.games.vale.effects import AnyStep, Effect, GainPoints, Step
from eterna.games.vale.summons import Summoned

MAX_STONES: Final = 99
MAX_POINTS_STEP: Final = 99  # Horus' `points:N`: a card's written cost
_SMALL_NUMBER: Final = re.compile(r"[0-9]{1,4}", re.ASCII)  # not str.isdigit: "٣", or 5,000 digits
RULE: Final = -1  # a step's owner (`owner`): none (a rule), a card (>= 0) or a tile (<= -2)

_REFS: dict[int, str] = {}  # id(step) -> its name
_STEPS: dict[str, AnyStep] = {}  # its name -> the step
_OWNER: dict[str, int] = {}  # its name -> the card (>= 0) or tile (tile_src) whose text it is
_POINTS: dict[int, GainPoints] = {}  # `points:N` read back (a step of no card's text)


def _walk(effect: Effect, path: str, owner: int) -> None:
    for i, step in enumerate(effect):
        here = f"{path}[{i}]"
        if id(step) not in _REFS:
            _REFS[id(step)] = here
            _STEPS[here] = step
            _OWNER[here] = owner
        for klass in type(step).__mro__:
            for slot in klass.__dict__.get("__slots__", ()):
                value = getattr(step, slot, None)
                if not isinstance(value, tuple) or not value:
                    continue
                if all(isinstance(s, Step) for s in value):
                    _walk(value, f"{here}.{slot}", owner)
                elif all(hasattr(o, "effect") and hasattr(o, "name") for o in value):
                    for o in value:
                        _walk(o.effect, f"{here}.{o.name}", owner)


def _one(name: str, step: AnyStep, owner: int = RULE) -> None:
    _REFS[id(step)] = name
    _STEPS[name] = step
    _OWNER[name] = owner


def _registry() -> tuple[dict[int, str], dict[str, AnyStep]]:
    if not _STEPS:
        from eterna.games.vale.abilities import ACTIVE, INSTANT, LOKI_FAMILY, SALE_UPGRADE
        from eterna.games.vale.artifacts import GEM, tile_src
        from eterna.games.vale.perks import RECOVER_STEP
        from eterna.games.vale.tiles import KEEP_SOLD, TILE_EFFECT

        _one("after_summon", AFTER_SUMMON)
        _one("stone_limit", STONE_LIMIT_STEP)
        _one("recover", RECOVER_STEP)
        _one("keep_sold", KEEP_SOLD, tile_src(GEM))
        for card in range(DECK_SIZE):
            _walk(INSTANT[card], f"{CARD_NAME[card]}.instant", card)
            _walk(ACTIVE[card], f"{CARD_NAME[card]}.active", card)
        for tile, effect in enumerate(TILE_EFFECT):
            _walk(effect, f"tile:{TILE_NAME[tile]}", tile_src(tile))
        _walk(LOKI_FAMILY, "loki_family", RULE)
        for family, effect in zip(FAMILIES, SALE_UPGRADE, strict=True):
            _walk(effect, f"sale_upgrade.{family}", RULE)
    return _REFS, _STEPS


def step_name(step: AnyStep) -> str:
    refs, _ = _registry()
    name = refs.get(id(step))
    if name is not None:
        return name
    if type(step) is GainPoints and step.per is None:  # Horus: the summoned card's cost
        return f"points:{step.times}"
    raise EternaError(f"a {type(step).__name__} step under way is in no card's text")


def read_step(r: Reader) -> tuple[str, AnyStep, int]:
    """The step `r["step"]` names (checked against `r["kind"]` if given), and its owner."""
    _, steps = _registry()
    name = r["step"].text()
    step = steps.get(name)
    owner = _OWNER.get(name, RULE)
    if step is None and name.startswith("points:") and _SMALL_NUMBER.fullmatch(name[7:]):
        times = int(name[7:])
        if times > MAX_POINTS_STEP:
            r["step"].fail(f"gains {times} points: no card costs more than {MAX_POINTS_STEP}")
        step = _POINTS.setdefault(times, GainPoints(times))
    if step is None:
        r["step"].fail(
            f"is no step of a card's or a tile's text, nor of the rules: {quote(name)} "
            "(e.g. 'hydra.instant[0]', 'tile:golden-fleece[0]', 'after_summon')"
        )
    kind = r.get("kind")
    if kind is not None and kind.text() != step.kind:
        kind.fail(f"is {quote(kind.value)}, but {name} is a {step.kind or 'plain'} step")
    return name, step, owner


# ============================================================================ step progress
def mask_cards(mask: int) -> list[str]:
    return [CARD_NAME[c] for c in range(DECK_SIZE) if mask >> c & 1]


def write_arg(name: str, step: AnyStep, arg: object) -> JsonValue:
    """A step's progress, written by its kind; `arg` is what the step queued or asked with
    (each kind's type: the step's `ArgT`, checked by the `isinstance` that narrows it here)."""
    if arg is None:
        return None
    kind = step.kind
    if name == "after_summon" and isinstance(arg, Summoned):
        paid: JsonObject | None = None
        if arg.paid is not None:
            paid = dict(zip(COLOURS, arg.paid, strict=True))
        return {"paid": paid, "area_before": mask_cards(arg.before)}
    if kind == "choose_one" and isinstance(arg, frozenset):
        return [CHOICES[i] for i in sorted(arg)]
    if kind == "activate_others" and isinstance(arg, int):
        return mask_cards(arg)
    if kind == "keep_sold" and isinstance(arg, int):
        return CARD_NAME[arg]
    if kind == "upgrade_stones" and isinstance(arg, int):
        return "any" if arg < 0 else COLOURS[arg]
    if kind == "philosophers_stone" and isinstance(arg, Sheltering):
        return {"retrieved": arg.retrieved, "discarded": arg.discarded}
    if isinstance(arg, int):
        return arg
    raise EternaError(f"step {name}: no written form for its progress {arg!r}")


def read_arg(name: str, step: AnyStep, r: Reader, players: int) -> object:
    """A step's progress as written (`write_arg`), of the type the step reads."""
    if r.value is None:
        if name == "after_summon":  # always queued with what the summon paid (board.py summon)
            r.fail("after_summon carries the stones paid and the area before the summon")
        return None
    kind = step.kind
    if name == "after_summon":
        r.object(("paid", "area_before"))
        paid_r = r.get("paid")
        paid = None
        if paid_r is not None:
            paid_r.object(COLOURS)
            red, blue, purple = (paid_r[c].number(0, MAX_STONES) for c in COLOURS)
            paid = (red, blue, purple)
        return Summoned(paid, cards_mask(r["area_before"]))
    if kind == "choose_one":
        return frozenset(CHOICE_INDEX[x.text(CHOICES)] for x in r.items())
    if kind == "activate_others":
        return cards_mask(r)
    if kind in ("name_a_player", "swap_with_a_player"):  # the seat named, who now picks
        return r.number(0, players - 1)
    if kind == "keep_sold":
        return card(r)
    if kind == "upgrade_stones":  # the first upgrade made blue or purple
        text = r.text(("any", COLOURS[1], COLOURS[2]))
        return -1 if text == "any" else COLOURS.index(text)
    if kind == "philosophers_stone":
        r.object(("retrieved", "discarded"))
        return Sheltering(r["retrieved"].flag(), r["discarded"].flag())
    return r.number(0, DECK_SIZE)


def cards_mask(r: Reader) -> int:
    mask = 0
    for item in r.items():
        mask |= 1 << card(item)
    return mask


def card(r: Reader) -> int:
    name = r.text()
    if name not in CARD_BY_NAME:
        r.fail(f"is no card of the Vale: {quote(name)}")
    return CARD_BY_NAME[name]


def tile(r: Reader) -> int:
    name = r.text()
    if name not in TILE_BY_NAME:
        r.fail(f"is no artifact tile: {quote(name)}")
    return TILE_BY_NAME[name]


# ============================================================================ an effect's source
def write_src(out: JsonObject, src: int) -> None:
    """`card` (null for a rule's own step or a tile's), and `artifact` for a tile's effect."""
    out["card"] = CARD_NAME[src] if src >= 0 else None
    if src <= -2:
        out["artifact"] = TILE_NAME[-2 - src]


def read_src(r: Reader, glade: tuple[int, ...], pool: tuple[int, ...]) -> int:
    """The `src` of `r`'s card or artifact (-1: neither), checked against the game's cards
    and its glade."""
    art = r.get("artifact")
    named = r.get("card")
    if art is not None:
        if named is not None:
            named.fail("must be null when an artifact tile's effect is under way")
        t = tile(art)
        if t not in glade:
            art.fail(f"{TILE_NAME[t]} is not in this game's glade")
        return -2 - t
    if named is None:
        return RULE
    c = card(named)
    if c not in pool:
        named.fail(f"{CARD_NAME[c]} is an expansion card, not in this game's `expansions`")
    return c


def check_owner(r: Reader, name: str, owner: int, src: int) -> None:
    """A tile's step runs for that tile; a card's for a card (a step may be copied, run by Ring
    of Wishes, or named by another card's text, so the card itself is not checked)."""
    if owner <= -2 and src != owner:
        r["step"].fail(f"{name} is {TILE_NAME[-2 - owner]}'s: its `artifact` must say so")
    if owner >= 0 and src <= -2:
        r["step"].fail(f"{name} is a card's step, yet an artifact tile's effect is named")
