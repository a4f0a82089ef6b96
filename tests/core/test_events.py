"""Events on every game (docs/events.md): nothing leaks, and spectators see only what is public.

Property tests over seeded random games of every game, player count and solo mission: every
string an event gives a seat (card ids, families, shapes...) must already be shown by one of the
views that seat has been given so far, the same adversarial standard as for views.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eterna
from eterna.games.vale.board import PHASES

# Words of the games' rules that views show at some moments only (a phase that passes with no
# decision in it) and events name: no secret, so never a leak.
PUBLIC_WORDS = set(PHASES)


def _narrates(game_id: str) -> bool:
    """Whether the game tells events yet (a new game tells at least its start)."""
    game = eterna.load_game(game_id)
    return game.new_game(game.min_players, seed=1).event_count() > 0


GAME_IDS = [g for g in eterna.game_ids() if _narrates(g)]


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for game_id in GAME_IDS:
        game = eterna.load_game(game_id)
        for n in range(game.min_players, game.max_players + 1):
            out.append((game_id, n, {}))
        if "mission" in game.options and game.min_players == 1:
            out += [(game_id, 1, {"mission": m}) for m in range(1, 11)]
        if "expansions" in game.options:  # the Vale's Artifacts: tiles, shelters
            for n in range(game.min_players, game.max_players + 1):
                out.append((game_id, n, {"expansions": ["artifacts"], "artifact_set": "advanced"}))
    return out


CASES = cases()


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != "kind":
                yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def view_strings(view: Any) -> set[str]:
    return set(strings(view)) | set(json.dumps(view).split('"'))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**20), steps=st.integers(0, 400))
def test_no_event_names_what_its_seat_cannot_see(
    case: tuple[str, int, dict[str, Any]], seed: int, steps: int
) -> None:
    """A leak is a string that some seat's view shows at some point of the game (a card, a
    hidden count...) told to a seat whose views (or the public notation of the moves played:
    `play droid` names the card for all) had not shown it yet. The events' own words
    (phases, zones, question kinds) appear in no view, so they are never counted as leaks."""
    game_id, players, options = case
    state = eterna.load_game(game_id).new_game(players, seed=seed, options=options)
    seats: list[int | None] = [None, *range(players)]
    seen: dict[int | None, set[str]] = {s: set() for s in seats}
    told = {s: 0 for s in seats}
    suspects: list[tuple[int | None, set[str], dict[str, Any]]] = []
    shown: set[str] = set()  # every string any seat's view showed, over the whole game
    rng = random.Random(seed)
    for _ in range(steps + 1):
        for seat in seats:
            view = view_strings(state.view(seat))
            seen[seat] |= view
            shown |= view
            events = state.events_since(told[seat], seat)
            told[seat] += len(events)
            for event in events:
                unseen = set(strings(event)) - seen[seat]
                if unseen:
                    suspects.append((seat, unseen, event))
        if state.is_terminal:
            break
        action = rng.choice(state.legal_actions())
        state.apply(action)
        # Every seat is shown each action's public notation (the table's log, the record as
        # each seat sees it: GameState.public_notation), so the words in it are known to all.
        public = state.public_notation(action)
        for seat in seats:
            seen[seat] |= set((public or "").split())
    for seat, unseen, event in suspects:
        leaked = unseen & shown - PUBLIC_WORDS
        assert not leaked, f"{game_id}: seat {seat} was told {leaked} in {event}"


# A few cases of each game (CASES lists the games in order: its first nine would be one game's).
ORDER_CASES = [c for g in GAME_IDS for c in [c for c in CASES if c[0] == g][:5]]


@pytest.mark.parametrize(("game_id", "players", "options"), ORDER_CASES)
def test_every_seat_is_told_every_event_in_the_same_order(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """The same events for everyone (kinds in order), only the private fields differ."""
    state = eterna.load_game(game_id).new_game(players, seed=3, options=options)
    rng = random.Random(3)
    for _ in range(200):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    kinds = [[e["kind"] for e in state.events_since(0, s)] for s in [None, *range(players)]]
    assert all(k == kinds[0] for k in kinds)
    assert len(kinds[0]) == state.event_count() > 0
