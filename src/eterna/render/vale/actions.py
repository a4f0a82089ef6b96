"""What a move did, in words: the action itself (`describe_action`), then what changed for
its player and the others (points, stones, cards), then a new phase or round (`events`)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from eterna.games.vale.cards import CARD_BY_NAME, COLOURS
from eterna.render.vale.cards import (
    STONE_STYLE,
    View,
    card_text,
    cards_line,
    join,
    plural,
    seat_name,
    sort_cards,
    stone_text,
)


def _verb(who: str, verb: str) -> str:
    """'You claim' / 'S1 claims'."""
    if who == "You":
        return verb
    if verb.endswith(("s", "sh", "ch")):
        return f"{verb}es"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u"):
        return f"{verb[:-1]}ies"
    return f"{verb}s"


# How a move on a card reads: the verb said, and what follows the card.
PHRASES: dict[str, tuple[str, str]] = {
    "claim": ("claim", ""),
    "sell": ("sell", ""),
    "tame": ("tame", " into hand"),
    "resolve": ("resolve", ""),
    "discard": ("discard", ""),
    "recover": ("take", " back to hand"),
    "take": ("take", " from the discard pile"),
    "copy": ("copy", ""),
}
# The moves that answer a rule or an effect rather than name a card.
ANSWERS = ("end-turn", "done", "discard-stone", "target", "choose")


def describe_action(
    action: str, who: str, for_card: str | None = None, names: Sequence[str] | None = None
) -> Text:
    """'S1 heuristic summons ifrit 2 paying blue' / 'You claim kappa'."""
    words = action.split()
    verb = words[0] if words else action
    card = words[1] if len(words) > 1 else ""
    text = Text(f"{who} ")
    if verb in ANSWERS:
        return _describe_answer(text, who, verb, card, for_card, names)
    if card not in CARD_BY_NAME:
        text.append(f"{action}")
        return text
    return _describe_card_move(text, who, words, for_card)


def _describe_answer(
    text: Text,
    who: str,
    verb: str,
    card: str,
    for_card: str | None,
    names: Sequence[str] | None,
) -> Text:
    """end-turn, done, discard-stone, target and choose: the turn's end or an answer."""
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
    text.append(_verb(who, "choose") + " ")  # choose
    text.append(card, style="bold")
    return _for(text, for_card)


def _describe_card_move(text: Text, who: str, words: list[str], for_card: str | None) -> Text:
    """A move on a card (`words[1]`): summon and remove with their payment, or a phrase."""
    verb, card = words[0], words[1]
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
    base, tail = PHRASES.get(verb, (verb, ""))
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
        parts.append(Text(f"drew {plural(drawn, 'card')}"))
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
