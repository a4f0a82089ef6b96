"""Eternitium's cards and shapes drawn for the terminal: a card's name (its id in English, the
catalog's name in a language), its short effect and its full text (`card_info`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from eterna.core.game import View as GameView
from eterna.games.eternitium.cards import DATA
from eterna.games.eternitium.typeddicts import EternitiumTechnology
from eterna.i18n import catalog
from eterna.render.words import ENGLISH, Words

# What the entry points get (the contract's view); each part reads it as the EternitiumView it is.
View = GameView

GAME_ID = "eternitium"

SHAPE_STYLE: dict[str, str] = {
    "circle": "bold red",
    "square": "bold blue",
    "triangle": "bold green",
    "diamond": "bold magenta",
}
SHAPE_MARK: dict[str, str] = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆"}
HIDDEN_MARK = "?"

_TECH: dict[str, EternitiumTechnology] = {t["id"]: t for t in DATA["technologies"]}
TIER_OF: dict[str, int] = {c: 1 if t["tier"] == "basic" else 2 for c, t in _TECH.items()}

# A short effect text per card (the full texts: `card <name>`); in a language, the catalog's
# `eternitium.short.<card>`.
SHORT: dict[str, str] = {
    "droid": "reveal your next hidden Era card (top 3)",
    "temporal-blaster": "swap your top Era card with an opponent's",
    "futuristic-smartphone": "draw 2 (3 per turn)",
    "digital-wallet": "step 4 costs 1 Era card fewer",
    "transporter": "discard 2 cards: discard your top Era card",
    "data-analyser": "discard or destroy cards, draw as many",
    "ultimate-portal": "discard your top Era card, hidden or not",
    "giga-droid": "your top 3 visible; others reveal 1",
    "thieving-robot": "take a card from an opponent's discard",
    "recycler-robot": "a card of your discard back to hand",
    "time-bomb": "opponents hide top 3 and shuffle",
    "quantum-clock": "opponents add a hidden Era card",
    "laboratory": "gain a technology; others gain a Basic",
}
AI_SHORT: dict[str, str] = {
    "temporal-blaster": "your top Era card is replaced by a hidden one",
    "thieving-robot": "destroys your oldest technology in discard",
    "time-bomb": "hides your top 3 and shuffles",
    "quantum-clock": "adds a hidden Era card to your pile",
}


def shape_word(shape: str, w: Words = ENGLISH) -> str:
    return w.t(f"{GAME_ID}.shape.{shape}", shape)


def shape_text(shape: str, w: Words = ENGLISH) -> Text:
    if shape == "hidden":
        return Text(HIDDEN_MARK, style="dim")
    label = f"{SHAPE_MARK.get(shape, '')}{shape_word(shape, w)}"
    return Text(label, style=SHAPE_STYLE.get(shape, ""))


def _shapes_of(card: str) -> list[str]:
    if card.startswith("portal-"):
        return [card.removeprefix("portal-")]
    if card.startswith("double-portal-"):
        return card.removeprefix("double-portal-").split("-")
    return []


def card_text(card: str, w: Words = ENGLISH) -> Text:
    """A card, coloured: Portals by shape, Advanced cards bold; its id in English, its name in
    a language."""
    shapes = _shapes_of(card)
    if w.lang is not None:
        style = SHAPE_STYLE[shapes[0]] if len(shapes) == 1 else ""
        if not shapes:
            style = "bold cyan" if TIER_OF.get(card) == 2 else "cyan"
        return Text(w.card(GAME_ID, card), style="dim" if card.startswith("blind-") else style)
    if len(shapes) == 1:
        return Text(card, style=SHAPE_STYLE[shapes[0]])
    if shapes:
        text = Text("double-portal-")
        for i, shape in enumerate(shapes):
            text.append(("-" if i else "") + shape, style=SHAPE_STYLE[shape])
        return text
    if card.startswith("blind-"):
        return Text(card, style="dim")
    return Text(card, style="bold cyan" if TIER_OF.get(card) == 2 else "cyan")


def short_effect(card: str, w: Words = ENGLISH) -> str:
    shapes = [shape_word(s, w) for s in _shapes_of(card)]
    if len(shapes) == 1:
        english = "discards a visible {shape} Era card (or tries its luck)"
        return w.t(f"{GAME_ID}.short.portal", english, shape=shapes[0])
    if shapes:
        english = "discards a visible {first} or {second} Era card"
        return w.t(f"{GAME_ID}.short.double_portal", english, first=shapes[0], second=shapes[1])
    if card not in SHORT:
        return ""
    return w.t(f"{GAME_ID}.short.{card}", SHORT[card].replace("{", "{{").replace("}", "}}"))


def join(parts: Sequence[Text], sep: str = " ") -> Text:
    return Text(sep).join(parts)


def cards_line(cards: Sequence[str], w: Words = ENGLISH) -> Text:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    parts = []
    for card, count in counts.items():
        text = card_text(card, w)
        if count > 1:
            text.append(f" ×{count}", style="bold")
        parts.append(text)
    return join(parts, "  ") if parts else Text("—", style="dim")


def _find(name: str) -> str | None:
    name = name.strip().lower()
    known = [f"portal-{s}" for s in SHAPE_MARK] + list(_TECH)
    if name in known:
        return name
    found = [c for c in known if c.startswith(name)]
    return found[0] if len(found) == 1 else None


def card_info(name: str, lang: str | None = None) -> RenderableType | None:
    """A card's full text from its id or an unambiguous prefix (None: no single card); in
    `lang`'s words when given."""
    card = _find(name)
    if card is None:
        return None
    if lang is not None:
        return _card_info_in(card, lang)
    text = Text()
    text.append_text(card_text(card))
    if card.startswith("portal-"):
        text.append(": Portal card. ")
        text.append(
            f"Discards your visible {card.removeprefix('portal-')} top Era card; on a hidden top "
            "card it tries its luck (a match discards it; a miss shuffles your Era pile, ends "
            "your plays, and you draw 4)."
        )
        return text
    tech = _TECH[card]
    tier = TIER_OF[card]
    text.append(f" ({tech['name']}: {'Basic' if tier == 1 else 'Advanced'}, costs {tier} Era ")
    text.append(f"card{'s' if tier > 1 else ''}, worth {tier} point{'s' if tier > 1 else ''})\n")
    text.append(tech.get("text") or short_effect(card))
    if card in AI_SHORT:
        text.append(f"\nAs a solo AI card: {AI_SHORT[card]}.", style="dim")
    return text


def _card_info_in(card: str, lang: str) -> RenderableType:
    """A card's name, tier and cost, and its texts from the catalog (the solo AI's too)."""
    cat = catalog(lang)
    w = Words(lang)
    text = card_text(card, w)
    if card.startswith("portal-"):
        text.append(f" ({cat.text('eternitium.table.portal_card')})\n")
    else:
        tier = TIER_OF[card]
        tier_word = cat.text(f"eternitium.tier.{'basic' if tier == 1 else 'advanced'}")
        facts = cat.text("eternitium.table.card_facts", tier=tier_word, count=tier)
        text.append(f" ({facts})\n")
    text.append(cat.text(f"eternitium.card.{card}.text"))
    if cat.has(f"eternitium.ai.{card}.text"):
        text.append("\n" + cat.text(f"eternitium.ai.{card}.text"), style="dim")
    return text
