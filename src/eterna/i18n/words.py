"""Engine facts in words: events, move labels and refusals told in a player's language.

Engines speak in ids (card ids, seats, colours, stable names); these helpers pick the catalog
key and fill its placeholders the way docs/i18n.md describes, for any game:

    describe_event("vale", {"kind": "card_sold", "seat": 0, "card": "ifrit"}, "fr", names)
    # "Alice vend Ifrit"

`names` are the players' names by seat (a seat without one is "Seat n+1").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from eterna.i18n.messages import Catalog, catalog

COLOURS: Final = ("red", "blue", "purple")
SEAT_FIELDS: Final = ("leader", "target", "victim", "giver", "by", "chooser", "first")
SEAT_LISTS: Final = ("seats", "winners", "finders")
CARD_FIELDS: Final = ("card", "source", "chosen", "artifact")
CARD_LISTS: Final = ("cards", "board", "display", "revealed")
FAMILY_FIELDS: Final = ("trump", "previous_trump", "family")
STONE_SETS: Final = ("paid", "payment", "held")
# event kinds whose private field, when absent, calls for the `.hidden` sentence
PRIVATE: Final[Mapping[tuple[str, str], str]] = {
    ("eternity", "hand_dealt"): "cards",
    ("vale", "card_drawn"): "card",
    ("vale", "card_put_on_deck"): "card",
    ("vale", "card_sheltered"): "card",
    ("vale", "card_retrieved"): "card",
    ("eternitium", "hand_dealt"): "cards",
    ("eternitium", "cards_drawn"): "cards",
    ("eternitium", "hand_discarded"): "cards",
    ("eternitium", "card_kept"): "card",
    ("eternitium", "technology_picked"): "card",
    ("eternitium", "technology_acquired"): "card",
    ("eternitium", "technology_gained"): "card",
    ("eternitium", "technology_gifted"): "card",
    ("eternitium", "technology_destroyed"): "card",
}
# Eternitium: a flag (or the field present) that calls for the `.<name>` sentence of its kind
ETERNITIUM_VARIANTS: Final = ("matched", "void", "face_down", "won", "target", "cards", "chosen")


def stones_words(stones: Mapping[str, int], lang: str) -> str:
    """A {red, blue, purple} count mapping in words: "2 red stones and 1 blue stone"."""
    cat = catalog(lang)
    parts = [
        cat.text(f"vale.stones.{colour}", count=int(stones.get(colour, 0)))
        for colour in COLOURS
        if stones.get(colour, 0)
    ]
    return cat.join(parts) if parts else cat.text("vale.stones.none")


def _name(cat: Catalog, names: Sequence[str] | None, seat: Any) -> str:
    if isinstance(seat, int) and names is not None and 0 <= seat < len(names):
        return names[seat]
    return cat.text("common.seat", n=int(seat) + 1)


def fill(
    game: str, params: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """`params` (an event's fields, `action_words` or refusal parameters) as words.

    `seat` becomes `player` (and `player`, when a seat number, a name); other seat fields and
    lists of seats are names; card fields are card names; a stone set (`paid`, `payment`,
    `held`) or an event's `red`/`blue`/`purple` counts (as `stones`) are stones in words;
    `phase`, `question`, `choice`, `stone`, `colour`, `shape` are their game words, `shapes`
    a list of them (`count` their number when absent); `scores` is
    "Alice 12, Bob 9"; numbers stay numbers.
    """
    cat = catalog(lang)
    p: dict[str, Any] = dict(params)
    if "seat" in p and p["seat"] is not None:
        p["player"] = _name(cat, names, p["seat"])
    elif isinstance(p.get("player"), int):
        p["player"] = _name(cat, names, p["player"])
    for field, value in params.items():  # one pass over the fields there are (a hot path of
        kind = _FIELD_KINDS.get(field)  # the web table: every update words every event)
        if kind is not None:
            _word(kind, field, value, p, params, game, cat, lang, names)
    if "red" in params and all(isinstance(params.get(c), int) for c in COLOURS):
        p["stones"] = stones_words({c: params[c] for c in COLOURS}, lang)
    return p


_FIELD_KINDS: Final[Mapping[str, str]] = {
    **{f: "seat" for f in SEAT_FIELDS},
    **{f: "seats" for f in SEAT_LISTS},
    **{f: "card" for f in CARD_FIELDS},
    **{f: "cards" for f in CARD_LISTS},
    **{f: "family" for f in FAMILY_FIELDS},
    **{f: "stone_set" for f in STONE_SETS},
    "phase": "phase",
    "question": "question",
    "choice": "choice",
    "colour": "choice",
    "stone": "stone",
    "into": "stone",
    "shape": "shape",
    "shapes": "shapes",
    "scores": "scores",
    "options": "options",
}


def _word(
    kind: str,
    field: str,
    value: Any,
    p: dict[str, Any],
    params: Mapping[str, Any],
    game: str,
    cat: Catalog,
    lang: str,
    names: Sequence[str] | None,
) -> None:
    """Put field `field` (of `kind`, see `_FIELD_KINDS`) of `params` into `p` in words."""
    if kind == "seat":
        if isinstance(value, int):
            p[field] = _name(cat, names, value)
    elif kind == "seats":
        if isinstance(value, list):
            p.setdefault("count", len(value))
            p[field] = cat.join(_name(cat, names, s) for s in value)
    elif kind == "card":
        if isinstance(value, str):
            p[field] = cat.card_name(game, value)
    elif kind == "cards":
        if isinstance(value, list | tuple):
            p[field] = cat.card_names(game, value)
    elif kind == "family":
        if isinstance(value, str):
            p[field] = cat.text(f"{game}.family.{value}")
    elif kind == "stone_set":
        if isinstance(value, Mapping):
            p[field] = stones_words(value, lang)
    elif kind == "shapes":
        if isinstance(value, list):  # Eternitium's Era cards by shape
            p.setdefault("count", len(value))
            shapes = [cat.text(f"{game}.shape.{s}") for s in value]
            p[field] = cat.join(shapes) if shapes else cat.text(f"{game}.word.none")
    elif kind == "scores":
        if isinstance(value, list):
            p[field] = ", ".join(f"{_name(cat, names, s)} {v}" for s, v in enumerate(value))
    elif kind == "options":
        if isinstance(value, list | tuple):
            p[field] = cat.join(describe_action(game, str(o), lang, names) for o in value)
    elif isinstance(value, str) and cat.has(f"{game}.{kind}.{value}"):
        p[field] = cat.text(f"{game}.{kind}.{value}")  # phase, question, choice, stone, shape


def _event_key(game: str, event: Mapping[str, Any], cat: Catalog) -> str:
    """The catalog key of an event's (first) sentence, its variant picked from its fields."""
    kind = event["kind"]
    key = f"{game}.event.{kind}"
    private = PRIVATE.get((game, kind))
    if private is not None and private not in event:
        key += ".hidden"
    if game == "vale":
        if kind == "summoned":
            if event.get("free"):
                key += ".free"
            elif not any((event.get("paid") or {}).values()):
                key += ".unpaid"
        elif kind == "card_discarded" and cat.has(f"{key}.{event.get('zone')}"):
            key += f".{event['zone']}"
        elif kind == "phase_started" and cat.has(f"{key}.{event.get('phase')}"):
            key += f".{event['phase']}"
        elif kind == "effect_choice" and event.get("chooser") != event.get("seat"):
            key += ".other"
        elif kind == "points_gained" and event.get("points") == 0:  # "gains no points"
            key += ".none"
    if game == "eternitium":
        if kind == "game_started" and event.get("players") == 1:
            key += ".solo"
        base = kind in ("game_started", "mission_result") and event.get("mission") == 0
        if base and cat.has(key + ".base"):  # the base solo game, not a "mission 0"
            key += ".base"
        if kind == "game_over" and event.get("finders"):  # why the winner won
            return key + (".gem" if len(event["finders"]) == 1 else ".shared_gem")
        for flag in ETERNITIUM_VARIANTS:
            value = event.get(flag)
            if value is not None and value is not False and cat.has(f"{key}.{flag}"):
                key += f".{flag}"
                break
    if game == "eternity" and kind == "pledges_to_board" and not event.get("cards"):
        key += ".none"
    if event.get("source") is not None and cat.has(key + ".source"):
        key += ".source"
    return key


def event_lines(
    game: str, event: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
) -> list[str]:
    """An event told in `lang`, one line per sentence (Eternity's round scoring has several).

    The key is `<game>.event.<kind>` with its variant: `.hidden` when the private field is
    absent, the Vale's `.free`/`.unpaid` (summoned), `.hand`/`.area` (card_discarded), the
    phase (phase_started), `.other` (effect_choice when the chooser is not the card's owner),
    then `.source` when `source` is a card and that sentence exists. A kind without a sentence
    is `common.event.unknown` {kind}.
    """
    cat = catalog(lang)
    kind = str(event.get("kind"))
    if not cat.has(f"{game}.event.{kind}"):
        return [cat.text("common.event.unknown", kind=kind)]
    key = _event_key(game, event, cat)
    p = fill(game, {k: v for k, v in event.items() if k != "kind"}, lang, names)
    lines = [sentence(cat.text(key, **p))]
    if game == "eternity" and kind == "round_started":
        lines.append(sentence(cat.text(key + ".board", **p)))
        if event.get("display"):
            lines.append(sentence(cat.text(key + ".display", **p)))
    if game == "eternity" and kind == "round_scored":
        for r in event["results"]:
            how = (
                "harmony"
                if r["trees"] == r["tricks"]
                else ("over" if r["trees"] > r["tricks"] else "under")
            )
            lines.append(sentence(cat.text(f"{key}.{how}", **fill(game, r, lang, names))))
        lines.append(sentence(cat.text(key + ".total", **p)))
    return lines


def sentence(text: str) -> str:
    """A told line as a sentence: its first letter capitalised, in every language (a name a
    player chose in lower case, "bob", starts the sentence as "Bob")."""
    return text[:1].upper() + text[1:]


def describe_event(
    game: str, event: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
) -> str:
    """An event told in `lang` (its lines joined by newlines); see `event_lines`."""
    return "\n".join(event_lines(game, event, lang, names))


def describe_action(game: str, action: Any, lang: str, names: Sequence[str] | None = None) -> str:
    """A move's label in `lang`: `Game.action_words` filled by `fill`."""
    import eterna

    g = eterna.load_game(game)
    act = action if not isinstance(action, str) else g.parse_action(action)
    key, params = g.action_words(act)
    return catalog(lang).text(key, **fill(game, params, lang, names))


def describe_refusal(
    key: str, params: Mapping[str, Any], lang: str, names: Sequence[str] | None = None
) -> str:
    """A refusal (`IllegalAction.key`, `.params`) told in `lang`."""
    game = key.split(".", 1)[0]
    return catalog(lang).text(key, **fill(game, params, lang, names))
