"""Rich rendering of a Vale of Eternity view (`state.view(seat)`), for the terminal.

Everything here reads only the view dict plus the card facts (family, written cost, which
timings a card has), so it shows a seat exactly what that seat may know. The rules core never
imports this module. Card effects are summarised in `SHORT` (the full texts are in the card
data; `card_info` shows them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
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

View = dict[str, Any]

GAME_ID = "vale"
# The action words of the notation (docs/vale.md), for prefix completion.
VERBS: tuple[str, ...] = (
    "claim",
    "sell",
    "tame",
    "summon",
    "remove",
    "end-turn",
    "resolve",
    "discard-stone",
    "target",
    "discard",
    "recover",
    "take",
    "copy",
    "choose",
    "done",
)
DEFAULT_VERB: str | None = None  # a bare card completes against every legal move's argument

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
LEGEND = (
    f"kappa 1 = cost 1 · {INSTANT} on summon · {PERMANENT} while in area · {ACTIVE} each round "
    "· +n points"
)
MAX_RECENT = 16  # lines of "since your last move" shown; the log command has them all

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
}
# The family each Dragon attack makes its victim discard.
ATTACKS: dict[str, str] = {
    "leviathan": "dragon",
    "ember": "water",
    "marina": "fire",
    "boulder": "wind",
    "gust": "earth",
}

# One entry per paragraph or bullet, so the terminal wraps them at its own width.
RULES: tuple[str, ...] = (
    "[b]The Vale of Eternity[/b]: hunt creature cards, sell them for magic stones or tame them "
    "into your hand, summon them into your area and score with their effects. At most 10 "
    "rounds; the game ends after the round in which someone reaches [b]60 points[/b]. Most "
    "points wins; a tie goes to the tied player with more cards in their area, then the "
    "victory is shared. Players start with 1, 2, 3 (, 4) points from the first player on.",
    "",
    "[b]Cards[/b]: 70 creatures in five families, [red]fire[/red], [blue]water[/blue], "
    "[green]earth[/green], [cyan]wind[/cyan] and [magenta]dragon[/magenta], each with a cost "
    f"and effects: {INSTANT} instant (once, when summoned), {PERMANENT} permanent (while in your "
    f"area), {ACTIVE} active (once in every resolution phase). "
    "[b]Stones[/b]: red 1, blue 3, purple 6. Hold at most 4 (6 with Hestia); over the limit you "
    "discard stones of your choice at once. No change is ever given.",
    "",
    "[b]Each round[/b]:",
    "  1. [b]Hunting[/b]: 2 cards per player are revealed. Players claim one at a time, from the "
    "first player round the table and back again (S0 S1 S2 S2 S1 S0), two cards each.",
    "  2. [b]Actions[/b]: each player in turn, any number of actions in any order:",
    "     • [i]sell[/i] a claimed card for stones: fire 3 red, water 1 blue, earth 4 red, wind "
    "1 red + 1 blue, dragon 1 purple;",
    "     • [i]tame[/i] a claimed card into your hand;",
    "     • [i]summon[/i] a card from your hand, paying stones worth at least its cost; your area "
    "holds as many cards as the round number; its instant effect applies at once (a card whose "
    "instant cannot apply in full cannot be summoned);",
    "     • [i]remove[/i] a card of your area, paying stones worth at least the round number;",
    "     • [i]end-turn[/i], once both claimed cards are sold or tamed.",
    "  3. [b]Resolution[/b]: each player in turn resolves every active effect of their area "
    "once, in the order they choose (mandatory when it can apply).",
    "Then the first player passes to the left and the next round begins.",
    "",
    "[b]Typing moves[/b]: [cyan]claim kappa[/cyan], [cyan]sell kappa[/cyan], [cyan]tame "
    "kappa[/cyan], [cyan]summon ifrit pay blue[/cyan], [cyan]summon imp[/cyan] (cost 0), "
    "[cyan]remove imp pay blue[/cyan], [cyan]end-turn[/cyan], [cyan]resolve salamander[/cyan]; "
    "inside effects [cyan]discard-stone red[/cyan], [cyan]target seat-1[/cyan], "
    "[cyan]discard imp[/cyan], [cyan]choose purple[/cyan], [cyan]done[/cyan]. Unambiguous "
    "prefixes work ([cyan]cla kap[/cyan], [cyan]end[/cyan], [cyan]summon ifrit[/cyan] when one "
    "payment fits), and a bare card completes when only one move names it. "
    "[cyan]card <name>[/cyan] shows a card's full text; help, rules, show, log, quit.",
)

# What a pending choice asks, by its kind (an infinitive, after "must").
PENDING: dict[str, str] = {
    "stone-limit": "discard stones down to the stone limit",
    "ReturnToHand": "pick a card of {own} area to take back to hand",
    "DiscardFromHand": "discard a card from hand",
    "TakeFromDiscard": "take an earth card from the discard pile",
    "DiscardFromOwnArea": "discard up to 3 other cards of {own} area, then say done",
    "StealPoints": "name an opponent to steal 1 point from",
    "ChooseOne": "choose a reward",
    "CopyInstant": "pick another card's instant effect to repeat",
    "CopyActive": "pick another card's active effect to repeat",
    "ActivateOthers": "resolve the other cards' active effects, one at a time",
    "DiscardThenSummonFree": "discard a hand card, then summon another one for free",
    "DiscardSelfThenSummonFree": "summon a dragon from hand for free",
}


# ---------------------------------------------------------------------------------- cards


def family_of(card: str) -> str:
    return FAMILIES[CARD_FAMILY[CARD_BY_NAME[card]]]


def cost_of(card: str) -> int:
    return CARD_COST[CARD_BY_NAME[card]]


def short_effect(card: str) -> str:
    return SHORT.get(card, "")


def card_key(card: str) -> int:
    """Cards sort by family, then by name (the engine's card order)."""
    return CARD_BY_NAME.get(card, len(CARD_NAME))


def sort_cards(cards: Sequence[str]) -> list[str]:
    return sorted(cards, key=card_key)


def card_text(card: str, *, cost: bool = False, style: str = "") -> Text:
    """`ifrit` in its family's colour (`ifrit 2` with its written cost)."""
    if card not in CARD_BY_NAME:
        return Text(card, style=style)
    colour = FAMILY_STYLE.get(family_of(card), "")
    text = Text(card, style=f"{colour} {style}".strip())
    if cost:
        text.append(f" {cost_of(card)}", style="dim")
    return text


def family_text(family: str, *, style: str = "bold") -> Text:
    return Text(family, style=f"{style} {FAMILY_STYLE.get(family, '')}".strip())


def stone_text(colour: str, count: int | None = None) -> Text:
    label = colour if count is None else f"{count} {colour}"
    return Text(label, style=STONE_STYLE.get(colour, ""))


def join(parts: Sequence[Text], sep: str = " ") -> Text:
    return Text(sep).join(parts)


def cards_line(cards: Sequence[str], *, cost: bool = False) -> Text:
    return join([card_text(c, cost=cost) for c in cards], ", ")


def seat_name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def default_names(players: int, seat: int | None = None) -> list[str]:
    return ["You" if s == seat else f"S{s}" for s in range(players)]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if abs(count) == 1 else 's'}"


def _verb(who: str, verb: str) -> str:
    """'You claim' / 'S1 claims'."""
    if who == "You":
        return verb
    if verb.endswith(("s", "sh", "ch")):
        return f"{verb}es"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u"):
        return f"{verb[:-1]}ies"
    return f"{verb}s"


def card_info(name: str) -> RenderableType | None:
    """A card's full text (family, cost, every effect), from a card id or an unambiguous prefix."""
    key = name.strip().lower()
    matches = [c for c in CARD_NAME if c == key] or [c for c in CARD_NAME if c.startswith(key)]
    if len(matches) != 1:
        return None
    data = CARDS[CARD_BY_NAME[matches[0]]]
    card = matches[0]
    family = family_of(card)
    head = card_text(card, style="bold")
    head.append(f"  ({data['name']}: ")
    head.append_text(family_text(family, style=""))
    head.append(f", cost {data['cost']}; sells for ")
    head.append_text(_sale_text(family))
    head.append(")")
    lines = [head]
    for key_, mark in (("instant", INSTANT), ("permanent", PERMANENT), ("resolution", ACTIVE)):
        if key_ in data:
            lines.append(Text(f"{mark} {data[key_]}"))
    return Group(*lines)


def _sale_text(family: str, compact: bool = False) -> Text:
    """The stones a card of `family` sells for: '1 red + 1 blue' ('red+blue' when compact)."""
    red, blue, purple = SELL[FAMILIES.index(family)]
    held = zip(COLOURS, (red, blue, purple), strict=True)
    if compact:
        parts = [(c, n) for c, n in held if n]
        if len(parts) == 1:
            return stone_text(*parts[0])
        return join([stone_text(c) for c, _ in parts], "+")
    return join([stone_text(c, n) for c, n in held if n], " + ")


# ---------------------------------------------------------------------------------- actions


def describe_action(
    action: str, who: str, for_card: str | None = None, names: Sequence[str] | None = None
) -> Text:
    """'S1 heuristic summons ifrit 2 paying blue' / 'You claim kappa'."""
    words = action.split()
    verb = words[0] if words else action
    card = words[1] if len(words) > 1 else ""
    text = Text(f"{who} ")
    if verb == "end-turn":
        text.append("end" if who == "You" else "ends")
        text.append(" the turn")
        return text
    if verb == "done":
        text.append("stop" if who == "You" else "stops")
        text.append(" discarding")
        return _for(text, for_card)
    if verb == "discard-stone":
        text.append(_verb(who, "discard") + " a ")
        text.append_text(stone_text(card))
        text.append(" stone (stone limit)")
        return text
    if verb == "target":
        text.append(_verb(who, "name") + " ")
        seat = card.removeprefix("seat-")
        named = seat_name(names or [], int(seat)) if seat.isdigit() else card
        text.append(named if names else f"S{seat}", style="bold")
        return _for(text, for_card)
    if verb == "choose":
        text.append(_verb(who, "choose") + " ")
        text.append(card, style="bold")
        return _for(text, for_card)
    if card not in CARD_BY_NAME:
        text.append(f"{action}")
        return text
    if verb == "summon":
        text.append(_verb(who, "summon") + " ")
        text.append_text(card_text(card, cost=True))
        if len(words) >= 4 and words[2] == "pay":
            text.append(" paying ")
            text.append_text(_payment(words[3]))
        elif len(words) == 3 and words[2] == "free":
            text.append(" for free")
            return _for(text, for_card)
        return text
    if verb == "remove":
        text.append(_verb(who, "remove") + " ")
        text.append_text(card_text(card))
        if len(words) >= 4:
            text.append(" paying ")
            text.append_text(_payment(words[3]))
        return text
    phrases = {
        "claim": ("claim", ""),
        "sell": ("sell", ""),
        "tame": ("tame", " into hand"),
        "resolve": ("resolve", ""),
        "discard": ("discard", ""),
        "recover": ("take", " back to hand"),
        "take": ("take", " from the discard pile"),
        "copy": ("copy", ""),
    }
    base, tail = phrases.get(verb, (verb, ""))
    text.append(_verb(who, base) + " ")
    text.append_text(card_text(card, cost=verb in ("claim", "tame")))
    text.append(tail)
    if verb in ("discard", "recover", "take", "copy"):
        return _for(text, for_card)
    return text


def _for(text: Text, card: str | None) -> Text:
    if card:
        text.append(" (")
        text.append_text(card_text(card))
        text.append(")")
    return text


def _payment(pay: str) -> Text:
    return join([stone_text(c) for c in pay.split("+")], "+")


def _paid(action: str) -> dict[str, int]:
    """The stones an action pays (summon/remove ... pay <stones>)."""
    words = action.split()
    paid = dict.fromkeys(COLOURS, 0)
    if len(words) >= 4 and words[0] in ("summon", "remove") and words[2] == "pay":
        for colour in words[3].split("+"):
            if colour in paid:
                paid[colour] += 1
    if len(words) == 2 and words[0] == "discard-stone" and words[1] in paid:
        paid[words[1]] = 1
    return paid


def _changes(before: View, after: View, seat: int, actor: int, action: str) -> list[Text]:
    """What changed for `seat` beyond what the action says: points, stones, cards."""
    words = action.split()
    verb = words[0] if words else ""
    card = words[1] if len(words) > 1 else ""
    parts: list[Text] = []
    gained = after["scores"][seat] - before["scores"][seat]
    if gained:
        parts.append(
            Text(f"{gained:+d} point{'s' if abs(gained) != 1 else ''}", style="bold yellow")
        )
    paid = _paid(action) if seat == actor else dict.fromkeys(COLOURS, 0)
    for colour in COLOURS:
        delta = after["stones"][seat][colour] - before["stones"][seat][colour] + paid[colour]
        if delta:
            parts.append(_delta(delta, colour))
    area_before, area_after = before["areas"][seat], after["areas"][seat]
    entered = [c for c in area_after if c not in area_before]
    left = [c for c in area_before if c not in area_after]
    if seat == actor and verb == "summon":
        if card in entered:
            entered.remove(card)
        elif card not in area_after:  # Tengu, Boreas, Dragon Egg leave during their instant
            left.append(card)
    if seat == actor and verb in ("remove", "discard", "recover") and card in left:
        left.remove(card)  # the action said so already
    for c in entered:
        parts.append(card_text(c).append(" enters the area", style=""))
    hand_after = after.get("known_hands", [[]] * after["players"])[seat]
    for c in left:
        if c in after["discard"] and c not in before["discard"]:
            where = " is discarded"
        elif c in hand_after:
            where = " goes back to hand"
        elif after.get("deck_top") == c:
            where = " goes on top of the deck"
        else:
            where = " leaves the area"
        parts.append(card_text(c).append(where, style=""))
    drawn = _drawn(before, after, seat, actor, action)
    if isinstance(drawn, list):
        if drawn:
            line = Text("drew ")
            line.append_text(cards_line(drawn))
            parts.append(line)
    elif drawn > 0:
        parts.append(Text(f"drew {_plural(drawn, 'card')}"))
    return parts


def _delta(delta: int, colour: str) -> Text:
    return Text(f"{delta:+d} {colour}", style=STONE_STYLE.get(colour, ""))


def _drawn(before: View, after: View, seat: int, actor: int, action: str) -> list[str] | int:
    """The cards `seat` drew from the deck during `action`: their names when the view shows
    them (the viewer's own hand), else their number."""
    words = action.split()
    verb = words[0] if words else ""
    card = words[1] if len(words) > 1 else ""
    if after.get("seat") == seat and after.get("hand") is not None:
        old = set(before.get("hand") or [])
        came = [c for c in after["hand"] if c not in old]
        # cards that came from the area or the claims, or the one taken, were not drawn
        known_sources = set(before["areas"][seat]) | set(before["claimed"][seat])
        if seat == actor and verb in ("tame", "recover", "take"):
            known_sources.add(card)
        return [c for c in came if c not in known_sources]
    known_before = before["known_hands"][seat]
    known_after = after["known_hands"][seat]
    hidden_before = before["hand_sizes"][seat] - len(known_before)
    hidden_after = after["hand_sizes"][seat] - len(known_after)
    spent = 0  # a hidden card summoned or discarded from the hand
    if (
        seat == actor
        and verb in ("summon", "discard")
        and card in CARD_BY_NAME
        and card not in known_before
        and card not in before["areas"][seat]
    ):
        spent = 1
    return max(0, int(hidden_after) - int(hidden_before) + spent)


def events(before: View, after: View, actor: int, action: str, names: Sequence[str]) -> list[Text]:
    """What one action did, as lines: the action with its gains, then what it did to others,
    then a new phase or round."""
    # the effect an answer is for (not known when a log line is described from one view)
    pending = (before.get("pending") or {}) if before is not after else {}
    who = seat_name(names, actor)
    line = describe_action(action, who, pending.get("card"), names)
    if before is after:  # a log line: the action alone
        return [line]
    if 0 <= actor < len(after["scores"]):
        mine = _changes(before, after, actor, actor, action)
        if mine:
            line.append(": ", style="dim")
            line.append_text(join(mine, ", "))
    lines = [line]
    for seat in range(after["players"]):
        if seat == actor:
            continue
        theirs = _changes(before, after, seat, actor, action)
        if theirs:
            other = Text(f"    → {seat_name(names, seat)}: ")
            other.append_text(join(theirs, ", "))
            lines.append(other)
    lines += _phase_lines(before, after, names)
    return lines


def _phase_lines(before: View, after: View, names: Sequence[str]) -> list[Text]:
    if after["is_terminal"] and not before["is_terminal"]:
        return [Text(f"  ■ round {before['round']} is over: the game is over", style="bold")]
    lines = []
    if after["round"] != before["round"]:
        lines.append(Text(f"  ■ round {before['round']} is over", style="bold"))
        head = Text(f"  ■ round {after['round']}: ", style="bold")
        head.append(f"first player {seat_name(names, after['first_player'])}; revealed ")
        head.append_text(cards_line(sort_cards(after["revealed"])))
        lines.append(head)
    elif after["phase"] != before["phase"]:
        if after["phase"] == "action":
            text = f"  ■ action phase (first player: {seat_name(names, after['first_player'])})"
        elif after["phase"] == "resolution":
            text = "  ■ resolution phase: active effects resolve"
        else:
            text = f"  ■ {after['phase']} phase"
        lines.append(Text(text, style="bold"))
    return lines


def round_finished(before: View, after: View) -> int | None:
    """The number of the round that `after` has just finished, if any."""
    if after["is_terminal"] and not before["is_terminal"]:
        return int(before["round"])
    if after["round"] > before["round"]:
        return int(before["round"])
    return None


# ---------------------------------------------------------------------------------- parts


def header(view: View, names: Sequence[str]) -> Group:
    """Two lines: the clock and the piles; then the first player, the area limit, the goal."""
    top = Text("The Vale of Eternity", style="bold")
    top.append(f" · round {view['round']}/{view['rounds']} · ", style="bold")
    if view["is_terminal"]:
        top.append("game over", style="bold reverse")
    else:
        top.append(f"{view['phase']} phase", style="bold reverse")
    top.append(f" · deck {view['deck_count']}")
    if view.get("deck_top"):
        top.append(" (top known: ")
        top.append_text(card_text(view["deck_top"]))
        top.append(")")
    discard = view.get("discard") or []
    top.append(f" · discard {len(discard)}")
    if discard:
        top.append(" (top: ")
        top.append_text(card_text(discard[-1]))
        top.append(")")
    info = Text()
    if not view["is_terminal"]:
        info.append(f"first player {seat_name(names, view['first_player'])} · ")
    info.append(f"area limit {_plural(view['area_limit'], 'card')}")
    info.append(f" · {view['end_score']} points ends the game", style="dim")
    return Group(top, info)


def pending_text(view: View, names: Sequence[str]) -> Text | None:
    """Who must answer which effect, and what they must do."""
    pending = view.get("pending")
    if not pending:
        return None
    chooser = pending["chooser"]
    card = pending.get("card")
    kind = pending.get("kind", "")
    if kind == "NamedPlayerDiscards" and card in ATTACKS:
        family = ATTACKS[card]
        article = "an" if family[0] in "aeiou" else "a"
        if chooser == pending.get("for_seat"):
            what = f"name a player who must discard {article} {family} card of their area"
        else:
            what = f"discard {article} {family} card of {{own}} area"
    elif kind == "ChooseOne" and card == "hydra":
        what = "choose two different rewards, one at a time"
    elif kind == "stone-limit":
        held = sum(view["stones"][chooser].values())
        limit = view["stone_limits"][chooser]
        what = (
            f"discard {_plural(held - limit, 'stone')} of {{own}} choice "
            f"({held} held, the limit is {limit}; rules §7)"
        )
    else:
        what = PENDING.get(kind, "decide")
    who = seat_name(names, chooser)
    text = Text("⏳ ", style="bold yellow")
    text.append(who, style="bold yellow")
    text.append(" must ")
    text.append(what.replace("{own}", "your" if who == "You" else "their"))
    if card:
        text.append(" (effect of ")
        text.append_text(card_text(card))
        owner = pending.get("for_seat")
        if owner is not None and owner != chooser:
            text.append(f", summoned by {seat_name(names, owner)}")
        text.append(")")
    return text


def claim_order(view: View, names: Sequence[str]) -> Text:
    """The snake order of claims this round, the claims made dim and the next one bold."""
    n = view["players"]
    order = [(view["first_player"] + i) % n for i in range(n)]
    picks = order + order[::-1]
    done = sum(len(c) for c in view["claimed"])
    text = Text("claim order: ", style="dim")
    parts = []
    for i, seat in enumerate(picks):
        label = seat_name(names, seat).split(" ")[0]
        if i < done:
            parts.append(Text(label, style="dim strike"))
        elif i == done:
            parts.append(Text(f"▶{label}", style="bold yellow"))
        else:
            parts.append(Text(label))
    text.append_text(join(parts, " → "))
    return text


def hunting_board(view: View, names: Sequence[str]) -> RenderableType:
    """The revealed cards by family, each with its cost, effect, sale and claim marker."""
    claims = {c: s for s, cards in enumerate(view["claimed"]) for c in cards}
    cards = sort_cards([*view["revealed"], *claims])
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="dim")
    table.add_column("family", no_wrap=True)
    table.add_column("card", no_wrap=True)
    table.add_column("cost", justify="right", no_wrap=True)
    table.add_column("effect", ratio=1)
    table.add_column("sells for", no_wrap=True)
    table.add_column("claim", no_wrap=True)
    for card in cards:
        family = family_of(card)
        claimed = claims.get(card)
        marker = (
            Text(f"◆ {seat_name(names, claimed).split(' ')[0]}", style="bold")
            if claimed is not None
            else Text("—", style="dim")
        )
        table.add_row(
            family_text(family, style=""),
            card_text(card, style="bold" if claimed is None else "dim"),
            Text(str(cost_of(card))),
            Text(
                short_effect(card),
                style="dim" if claimed is not None else "",
                overflow="fold",
            ),
            _sale_text(family, compact=True),
            marker,
        )
    title = Text("Hunting board  ", style="bold")
    title.append_text(claim_order(view, names))
    if not cards:
        return Group(title, Text("nothing revealed", style="dim"))
    return Group(title, table)


def stones_line(view: View, seat: int) -> Text:
    """'2 red 1 blue (worth 5; 3/4)': the stones held, their value in force and the limit."""
    held = view["stones"][seat]
    values = view["stone_values"][seat]
    count = sum(held[c] for c in COLOURS)
    parts = [stone_text(c, held[c]) for c in COLOURS if held[c]]
    text = join(parts, " ") if parts else Text("no stones", style="dim")
    worth = sum(held[c] * values[c] for c in COLOURS)
    text.append(f" (worth {worth}; {count}/{view['stone_limits'][seat]})", style="dim")
    changed = [f"{c} = {values[c]}" for c in COLOURS if values[c] != BASE_VALUES[c]]
    if changed:
        text.append(f" [{', '.join(changed)}]", style="yellow")
    return text


def families_line(cards: Sequence[str]) -> Text:
    """'fire 2, earth 1': how many cards of each family (the counting effects use them)."""
    counts: dict[str, int] = {}
    for card in sort_cards(cards):
        family = family_of(card)
        counts[family] = counts.get(family, 0) + 1
    return join([family_text(f, style="").append(f" {n}") for f, n in counts.items()], ", ")


class CardGrid:
    """Card entries in as many equal columns as the width allows (1 to 3), row by row."""

    def __init__(self, entries: Sequence[Text], column_width: int = 36) -> None:
        self.entries = list(entries)
        self.column_width = column_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        count = max(1, min(3, options.max_width // self.column_width, len(self.entries)))
        grid = Table.grid(padding=(0, 2), expand=False)
        for _ in range(count):
            grid.add_column(ratio=1)
        for start in range(0, len(self.entries), count):
            row: list[RenderableType] = list(self.entries[start : start + count])
            row += [""] * (count - len(row))
            grid.add_row(*row)
        yield grid


def area_grid(view: View, seat: int) -> RenderableType:
    """A seat's area by family: each card with its cost and short effect."""
    resolved = set(view.get("resolved") or [])
    entries = []
    for card in sort_cards(view["areas"][seat]):
        entry = card_text(card, cost=True)
        entry.append(f" {short_effect(card)}", style="")
        entry.overflow = "fold"
        if card in resolved:
            entry.append(" ✓", style="green")
        entries.append(entry)
    return CardGrid(entries)


def seat_panel(view: View, names: Sequence[str], seat: int) -> Panel:
    """One seat: score, stones, hand size, claims, known hand cards and the area."""
    current = view.get("current_player")
    title = Text()
    if seat == current:
        title.append("▶ ", style="bold yellow")
    title.append(seat_name(names, seat), style="bold cyan" if seat == view.get("seat") else "bold")
    title.append(f" · {view['scores'][seat]}/{view['end_score']} points", style="bold")
    if seat == view["first_player"] and not view["is_terminal"]:
        title.append(" · first player", style="dim")
    if seat in (view.get("winners") or []):
        title.append(" · ★ winner", style="bold yellow")
    area = view["areas"][seat]
    status = stones_line(view, seat)
    status.append(f" · hand {view['hand_sizes'][seat]}")
    status.append(f" · area {len(area)}/{view['area_limit']}")
    if area:
        status.append(": ")
        status.append_text(families_line(area))
    cuts = {f: n for f, n in view["cost_reductions"][seat].items() if n}
    if cuts:
        if len(cuts) == len(FAMILIES) and len(set(cuts.values())) == 1:
            status.append(f" · summons cost {next(iter(cuts.values()))} less", style="yellow")
        else:
            listed = ", ".join(f"{f} -{n}" for f, n in cuts.items())
            status.append(f" · cheaper: {listed}", style="yellow")
    lines: list[RenderableType] = [status]
    claimed = view["claimed"][seat]
    if claimed and view["phase"] == "action":
        line = Text("claimed, to sell or tame: ", style="bold")
        line.append_text(cards_line(claimed, cost=True))
        lines.append(line)
    if seat != view.get("seat"):
        known = view["known_hands"][seat]
        if known:
            line = Text("known in hand: ", style="dim")
            line.append_text(cards_line(sort_cards(known)))
            lines.append(line)
    if area:
        lines.append(area_grid(view, seat))
    border = "yellow" if seat == current else ("cyan" if seat == view.get("seat") else "dim")
    return Panel(Group(*lines), title=title, title_align="left", border_style=border)


def hand(view: View) -> RenderableType | None:
    """The viewer's own hand, each card with family, cost (reduced) and effect; the cards that
    may be summoned now stand out."""
    cards = view.get("hand")
    if cards is None:
        return None
    seat = view["seat"]
    legal = view.get("legal_actions") or []
    summonable = {a.split()[1] for a in legal if a.startswith("summon ")}
    cuts = view["cost_reductions"][seat]
    title = Text(f"Your hand ({_plural(len(cards), 'card')})", style="bold")
    if not cards:
        return Group(title, Text("  empty", style="dim"))
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    table.add_column(ratio=1)
    for card in sort_cards(cards):
        family = family_of(card)
        cost = cost_of(card)
        now = max(0, cost - cuts.get(family, 0))
        cost_cell = Text(str(cost) if now == cost else f"{cost}→{now}")
        can = card in summonable
        mark = Text("▸", style="bold green") if can else Text(" ")
        table.add_row(
            mark,
            family_text(family, style=""),
            card_text(card, style="bold" if can else ""),
            cost_cell,
            Text(short_effect(card)),
        )
    if summonable:
        title.append("  ▸ = can be summoned now", style="dim")
    return Group(title, table)


def your_move(view: View) -> Text | None:
    """What the seat to move may do, in words."""
    legal = view.get("legal_actions")
    if not legal:
        return None
    text = Text("Your move: ", style="bold yellow")
    pending = view.get("pending")
    if pending:
        options = legal
        text.append("one of ")
        text.append_text(join([Text(o, style="cyan") for o in options[:8]], " · "))
        if len(options) > 8:
            text.append(f" · … ({len(options)} in all; help lists them)")
        return text
    phase = view["phase"]
    if phase == "hunting":
        text.append("claim one revealed card (")
        text.append("claim <card>", style="cyan")
        text.append("), e.g. ")
        text.append(legal[0], style="cyan")
        text.append(".")
        return text
    if phase == "resolution":
        text.append("resolve your active effects, in the order you choose: ")
        text.append_text(join([Text(a, style="cyan") for a in legal], " · "))
        text.append(".")
        return text
    claimed = view["claimed"][view["seat"]]
    verbs = {a.split()[0] for a in legal}
    summons = dict.fromkeys(a.split()[1] for a in legal if a.startswith("summon "))
    if claimed:
        text.append("sell (for stones) or tame (into your hand) ")
        text.append_text(cards_line(claimed))
        text.append("; ")
    if summons:
        text.append("you may summon ")
        text.append_text(cards_line(list(summons)))
        text.append("; ")
    else:
        text.append("nothing can be summoned now; ", style="dim")
    if "remove" in verbs:
        text.append("remove a card of your area; ")
    if "end-turn" in verbs:
        text.append("end-turn", style="cyan")
        text.append(" when done")
    else:
        text.append("then end-turn")
    example = next(
        (a for verb in ("sell", "tame", "summon", "end-turn") for a in legal if a.startswith(verb)),
        legal[0],
    )
    text.append(". E.g. ")
    text.append(example, style="cyan")
    text.append("; help lists every move.")
    return text


# ---------------------------------------------------------------------------------- wholes


def table(
    view: View, names: Sequence[str] | None = None, recent: Sequence[Text] = ()
) -> RenderableType:
    """The whole table as `view`'s seat sees it."""
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    parts: list[RenderableType] = [header(view, names)]
    if view["phase"] == "hunting":
        parts.append(hunting_board(view, names))
    for seat in range(view["players"]):
        parts.append(seat_panel(view, names, seat))
    parts.append(Text(LEGEND, style="dim"))
    if recent:
        shown: list[RenderableType] = list(recent[-MAX_RECENT:])
        if len(recent) > MAX_RECENT:
            earlier = len(recent) - MAX_RECENT
            shown.insert(0, Text(f"… {earlier} earlier lines ('log' lists the round)", "dim"))
        parts.append(
            Panel(Group(*shown), title="Since your last move", title_align="left", expand=False)
        )
    mine = hand(view)
    if mine is not None:
        parts.append(mine)
    waiting = pending_text(view, names)
    if waiting is not None:
        parts.append(waiting)
    elif not view["is_terminal"] and view.get("current_player") is not None:
        current = view["current_player"]
        if current != view.get("seat"):
            turn = Text("▶ ", style="bold yellow")
            turn.append(f"{seat_name(names, current)} to move", style="bold yellow")
            turn.append(f" ({view['phase']} phase)")
            parts.append(turn)
    prompt = your_move(view)
    if prompt is not None:
        parts.append(prompt)
    return Group(*parts)


def round_summary(view: View, rnd: int, names: Sequence[str] | None = None) -> RenderableType:
    """The scores after round `rnd` (`view` is taken just after it), with the race to 60."""
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    goal = view["end_score"]
    table = Table(
        title=f"Round {rnd} results (race to {goal})", title_justify="left", title_style="bold"
    )
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    table.add_column("Score", justify="right", style="bold")
    table.add_column("Area", justify="right")
    table.add_column("Hand", justify="right")
    table.add_column("Stones")
    for seat in range(view["players"]):
        held = view["stones"][seat]
        table.add_row(
            str(seat),
            seat_name(names, seat),
            str(view["scores"][seat]),
            str(len(view["areas"][seat])),
            str(view["hand_sizes"][seat]),
            join([stone_text(c, held[c]) for c in COLOURS if held[c]], " ") or Text("—"),
        )
    return table


def final(view: View, names: Sequence[str] | None = None) -> RenderableType:
    """The final score sheet: scores, area sizes (the tie-break), winners and why."""
    names = list(names) if names is not None else default_names(view["players"], view["seat"])
    scores = view["scores"]
    winners = view.get("winners") or []
    table = Table(
        title="Final scores",
        title_justify="left",
        title_style="bold",
    )
    table.add_column("Seat", justify="right")
    table.add_column("Player")
    table.add_column("Score", justify="right", style="bold")
    table.add_column("Area cards", justify="right")
    table.add_column("")
    for seat in sorted(range(view["players"]), key=lambda s: (-scores[s], s)):
        table.add_row(
            str(seat),
            seat_name(names, seat),
            str(scores[seat]),
            str(len(view["areas"][seat])),
            Text("★ winner", style="bold yellow") if seat in winners else "",
        )
    goal = view["end_score"]
    if max(scores) >= goal:
        ended = Text(f"The game ended after round {view['round']}: {goal} points reached.")
    else:
        ended = Text(f"The game ended after round {view['round']} of {view['rounds']}.")
    rule = Text("A tie on points goes to more cards in the area, then the win is shared.", "dim")
    parts: list[RenderableType] = [table, ended, rule]
    best = max(scores)
    tied = [s for s in range(view["players"]) if scores[s] == best]
    if len(tied) > 1:
        areas = ", ".join(f"{seat_name(names, s)} {len(view['areas'][s])}" for s in tied)
        if len(winners) == 1:
            note = f"Tie on {best} points, broken by cards in the area ({areas})."
        else:
            note = f"Tie on {best} points and on cards in the area ({areas}): a shared victory."
        parts.append(Text(note, style="yellow"))
    if winners:
        who = ", ".join(seat_name(names, s) for s in winners)
        label = "Winners (shared)" if len(winners) > 1 else "Winner"
        parts.append(Text(f"{label}: {who}", style="bold"))
    else:
        parts.append(Text("No winner.", style="bold"))
    return Group(*parts)


def moves_help(legal: Sequence[str]) -> RenderableType:
    """The legal moves: one-word arguments grouped by action word (`claim: kappa  imp`);
    summons and removals in full, one line per card."""
    lines = [
        Text(
            "Type a move as shown; an unambiguous prefix works ('cla kap', 'end'); "
            "'card <name>' shows a card's full text.",
            style="dim",
        )
    ]
    groups: dict[str, list[str]] = {}
    for move in legal:
        verb, _, rest = move.partition(" ")
        if verb in ("summon", "remove"):
            groups.setdefault(f"{verb} {rest.split()[0]}", []).append(move)
        else:
            groups.setdefault(verb, []).append(rest)
    for key, args in groups.items():
        verb, _, card = key.partition(" ")
        if card:  # full moves, e.g. summon agni pay blue+red · summon agni pay purple
            line = Text()
            for i, move in enumerate(args):
                if i:
                    line.append("  ·  ", style="dim")
                line.append(f"{verb} ", style="bold")
                line.append_text(card_text(card))
                line.append(move[len(key) :])
            lines.append(line)
        elif not any(args):
            lines.append(Text(key, style="bold"))
        else:
            line = Text(f"{key}: ", style="bold")
            parts = [card_text(a) if a in CARD_BY_NAME else Text(a) for a in args]
            line.append_text(join(parts, "  "))
            lines.append(line)
    if not legal:
        lines.append(Text("No move is yours now.", style="dim"))
    return Group(*lines)


def rules() -> RenderableType:
    body = Text("\n").join(Text.from_markup(line) for line in RULES)
    return Panel(body, title="The Vale of Eternity rules in short", title_align="left")
