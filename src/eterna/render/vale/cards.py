"""How the Vale's cards, families and stones are written: in their colours, with their cost
and a short effect (`SHORT`), and a card's full text (`card_info`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.console import Group, RenderableType
from rich.text import Text

from eterna.games.vale.cards import (
    CARD_BY_NAME,
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    CARDS,
    COLOURS,
    FAMILIES,
    SELL,
)
from eterna.games.vale.views import ValeView
from eterna.i18n import stones_words
from eterna.render.words import ENGLISH, Words

Timing = Literal["instant", "permanent", "resolution"]  # a card's effect texts (ValeCardData)

View = ValeView  # the Vale's view, typed: mypy checks every key the renderer reads

FAMILY_STYLE: dict[str, str] = {
    "fire": "red",
    "water": "blue",
    "earth": "green",
    "wind": "cyan",
    "dragon": "magenta",
}
STONE_STYLE: dict[str, str] = {"red": "bold red", "blue": "bold blue", "purple": "bold purple"}
BASE_VALUES: dict[str, int] = {"red": 1, "blue": 3, "purple": 6}
INSTANT, PERMANENT, ACTIVE = "⚡", "∞", "⌛"

# A short text per card (points written +n); the full texts are in data/cards.json.
SHORT: dict[str, str] = {
    # fire
    "agni": f"{PERMANENT} red stones worth 2",
    "asmodeus": f"{ACTIVE} recover a {INSTANT} card cost ≤2",
    "balog": f"{ACTIVE} recover a fire {INSTANT} card",
    "burning-skull": f"{ACTIVE} return a red: +3",
    "firefox": f"{INSTANT} +1 per card in hand",
    "hestia": f"{PERMANENT} stone limit 6",
    "horned-salamander": f"{ACTIVE} gain 4 red",
    "ifrit": f"{INSTANT} +1 per card in area",
    "imp": f"{INSTANT} 2 red · {ACTIVE} back to hand",
    "incubus": f"{INSTANT} +2 per area card cost ≤2",
    "lava-giant": f"{INSTANT} +2 per fire card",
    "phoenix": f"{PERMANENT} summon: +1 per red paid",
    "salamander": f"{ACTIVE} gain 1 red, +1",
    "succubus": f"{INSTANT} costs 1,2,3,4 in area: +10",
    "surtr": f"{INSTANT} +2 per family in area",
    # water
    "charybdis": f"{ACTIVE} return a blue: +5",
    "hae-tae": f"{PERMANENT} blue worth 6, purple 3",
    "hydra": f"{INSTANT} 2 of: purple/draw/2 blue/+4",
    "kappa": f"{PERMANENT} summon paid blue: +2",
    "leviathan": f"{INSTANT} +7; a player loses a dragon",
    "nessie": f"{ACTIVE} no dragon in area: +2",
    "poseidon": f"{INSTANT} +3 per water card",
    "sea-spirit": f"{ACTIVE} +1 per blue held",
    "snail-maiden": f"{ACTIVE} blue→purple or purple→3 blue",
    "triton": f"{PERMANENT} tame water: gain 2 blue",
    "undine": f"{INSTANT} 1 blue · {ACTIVE} back to hand",
    "undine-queen": f"{ACTIVE} gain 1 blue",
    "water-giant": f"{INSTANT} 2 blue · {PERMANENT} blue, purple +1",
    "yuki-onna": f"{INSTANT} return stones: + their value",
    "yuki-onna-exalted": f"{INSTANT} + value of blues held",
    # earth
    "basilisk": f"{ACTIVE} red, -1: blue or -2: purple",
    "behemoth": f"{INSTANT} +3 per family in area",
    "cerberus": f"{INSTANT} discard ≤3 own area cards",
    "forest-spirit": f"{INSTANT} discard hand card: + cost",
    "gargoyle": f"{PERMANENT} summon paid purple: +3",
    "goblin": f"{ACTIVE} steal 1 point",
    "goblin-soldier": f"{ACTIVE} behind: +4, else -4",
    "medusa": f"{ACTIVE} discard hand card: purple",
    "mimic": f"{ACTIVE} take earth from discard",
    "mud-slime": f"{INSTANT} +6 · {ACTIVE} back to hand",
    "rock-golem": f"{INSTANT} + value of purples held",
    "sand-giant": f"{INSTANT} +4 per earth card",
    "stone-golem": f"{INSTANT} every stone becomes purple",
    "troll": f"{ACTIVE} hold a purple: +3",
    "young-forest-spirit": f"{INSTANT} discard 1, summon 1 free",
    # wind
    "boreas": f"{INSTANT} +1 per wind, back to hand",
    "dandelion-spirit": f"{INSTANT} draw · {ACTIVE} back to hand",
    "freyja": f"{ACTIVE} +1 per {ACTIVE} card in area",
    "genie": f"{INSTANT} use other {ACTIVE} effects now",
    "genie-exalted": f"{ACTIVE} repeat another {ACTIVE} effect",
    "gi-rin": f"{INSTANT} +2 per card in area",
    "griffon": f"{ACTIVE} draw",
    "harpy": f"{ACTIVE} hand = area size: +3",
    "hippogriff": f"{INSTANT} draw · {PERMANENT} wind cost -2",
    "odin": f"{ACTIVE} hand <6: +2, else gain purple",
    "pegasus": f"{INSTANT} draw · {PERMANENT} costs -1",
    "rudra": f"{INSTANT} +2 per card in hand",
    "sylph": f"{INSTANT} draw · {PERMANENT} on summon: +1",
    "tengu": f"{INSTANT} +6, then onto the deck",
    "valkyrie": f"{ACTIVE} +1 per family in area",
    # dragon
    "aeris": f"{INSTANT} recover a card: + its cost",
    "boulder": f"{INSTANT} +8; a player loses a wind",
    "dragon-egg": f"{INSTANT} summon a dragon free",
    "ember": f"{INSTANT} +7; a player loses a water",
    "eternity": f"{INSTANT} +4 per family in area",
    "gust": f"{INSTANT} +8; a player loses an earth",
    "marina": f"{INSTANT} +7; a player loses a fire",
    "scorch": f"{INSTANT} repeat another {INSTANT} effect",
    "tidal": f"{INSTANT} +5 per dragon card",
    "willow": f"{INSTANT} red+blue+purple, +3, draw",
    # the Artifacts creatures (option expansions)
    "ash": f"{PERMANENT} discarded: to hand, +round",
    "belphegor": f"{INSTANT} 1 red · {PERMANENT} fire costs 1",
    "bul-gae": f"{ACTIVE} 4+ stones: +2, else 3 red",
    "fire-rat": f"{INSTANT} +1 per area card cost ≤3",
    "fireblast": f"{INSTANT} +1 per 2 fire · {PERMANENT} 4+ stones: back to hand",
    "hephaestus": f"{ACTIVE} 2 of: blue/3 red/+2",
    "akhlut": f"{INSTANT} summon a discarded dragon free",
    "kraken": f"{INSTANT} name a family: +2 each",
    "melusine": f"{INSTANT} discard ≤3 from hand: +4 each",
    "siren": f"{ACTIVE} discard from hand: blue, +2",
    "taweret": f"{INSTANT} discard from hand: a blue each",
    "thalassa": f"{INSTANT} +1 per water · {PERMANENT} blue gained: back to hand",
    "anubis": f"{INSTANT} discard an area card: +its cost",
    "duduri": f"{INSTANT} -1, upgrade a stone · {ACTIVE} back to hand",
    "duduri-king": f"{PERMANENT} sell: upgrade a stone it gives",
    "mandrake": f"{INSTANT} +3 · {ACTIVE} discard it or -2, then purple",
    "totem-pole": f"{PERMANENT} area card discarded: purple",
    "wendigo": f"{INSTANT} +2 per earth · {PERMANENT} points lost: back to hand",
    "anzu": f"{INSTANT} show hand: +3 per family",
    "banshee": f"{INSTANT} +1 per family · {PERMANENT} draw: back to hand",
    "horus": f"{INSTANT} summon free from hand: +its cost",
    "loki": f"{PERMANENT} any family on your turn · {ACTIVE} +1 per {PERMANENT} card",
    "nurikabe": f"{INSTANT} draw · {ACTIVE} draw, put one on the deck",
    "rukh": f"{ACTIVE} name a family: +1 each",
    "deepdive": f"{INSTANT} +7, swap with a water card",
    "pyro": f"{INSTANT} +7, swap with a fire card",
    "whisper": f"{INSTANT} +8, swap with a wind card",
    "rockscale": f"{INSTANT} +8, swap with a earth card",
}


def family_of(card: str) -> str:
    return FAMILIES[CARD_FAMILY[CARD_BY_NAME[card]]]


def cost_of(card: str) -> int:
    return CARD_COST[CARD_BY_NAME[card]]


def short_effect(card: str, w: Words = ENGLISH) -> str:
    """The card's effect in short: `SHORT`'s English, or the catalog's in `w`'s language."""
    if card not in SHORT:
        return ""
    return SHORT[card] if w.lang is None else w.t(f"vale.short.{card}", "")


def card_key(card: str) -> int:
    """Cards sort by family, then by name (the engine's card order)."""
    return CARD_BY_NAME.get(card, len(CARD_NAME))


def sort_cards(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=card_key)


def card_text(card: str, *, cost: bool = False, style: str = "", w: Words = ENGLISH) -> Text:
    """`ifrit` in its family's colour (`ifrit 2` with its written cost); its name in `w`'s
    language when it has one."""
    if card not in CARD_BY_NAME:
        return Text(card, style=style)
    colour = FAMILY_STYLE.get(family_of(card), "")
    text = Text(w.card("vale", card), style=f"{colour} {style}".strip())
    if cost:
        text.append(f" {cost_of(card)}", style="dim")
    return text


def family_text(family: str, *, style: str = "bold", w: Words = ENGLISH) -> Text:
    label = w.family("vale", family)
    return Text(label, style=f"{style} {FAMILY_STYLE.get(family, '')}".strip())


def stone_text(colour: str, count: int | None = None) -> Text:
    label = colour if count is None else f"{count} {colour}"
    return Text(label, style=STONE_STYLE.get(colour, ""))


def join(parts: Sequence[Text], sep: str = " ") -> Text:
    return Text(sep).join(parts)


def cards_line(cards: Sequence[str], *, cost: bool = False, w: Words = ENGLISH) -> Text:
    return join([card_text(c, cost=cost, w=w) for c in cards], ", ")


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if abs(count) == 1 else 's'}"


def card_info(name: str, lang: str | None = None) -> RenderableType | None:
    """A card's full text (family, cost, every effect), from a card id or an unambiguous prefix;
    in `lang`'s words when given."""
    key = name.strip().lower()
    matches = [c for c in CARD_NAME if c == key] or [c for c in CARD_NAME if c.startswith(key)]
    if len(matches) != 1:
        return None
    data = CARDS[CARD_BY_NAME[matches[0]]]
    card = matches[0]
    family = family_of(card)
    if lang is not None:
        w = Words(lang)
        head = card_text(card, style="bold", w=w)
        said = w.t(
            "vale.card_info",
            "",
            family=w.family("vale", family),
            cost=data["cost"],
            stones=sale_text(family, w=w).plain,
        )
        head.append(f"  ({said})")
        return Group(head, Text(w.t(f"vale.card.{card}.text", "")))
    head = card_text(card, style="bold")
    head.append(f"  ({data['name']}: ")
    head.append_text(family_text(family, style=""))
    head.append(f", cost {data['cost']}; sells for ")
    head.append_text(sale_text(family))
    head.append(")")
    lines = [head]
    timings: tuple[tuple[Timing, str], ...] = (
        ("instant", INSTANT),
        ("permanent", PERMANENT),
        ("resolution", ACTIVE),
    )
    for key_, mark in timings:
        if key_ in data:
            lines.append(Text(f"{mark} {data[key_]}"))
    return Group(*lines)


def sale_text(family: str, compact: bool = False, w: Words = ENGLISH) -> Text:
    """The stones a card of `family` sells for: '1 red + 1 blue' ('red+blue' when compact); in
    `w`'s language in words ('1 pierre rouge, 1 pierre bleue')."""
    red, blue, purple = SELL[FAMILIES.index(family)]
    held = zip(COLOURS, (red, blue, purple), strict=True)
    if w.lang is not None:
        lang = w.lang
        return join([Text(stones_words({c: n}, lang), STONE_STYLE[c]) for c, n in held if n], ", ")
    if compact:
        parts = [(c, n) for c, n in held if n]
        if len(parts) == 1:
            return stone_text(*parts[0])
        return join([stone_text(c) for c, _ in parts], "+")
    return join([stone_text(c, n) for c, n in held if n], " + ")
