"""Positions are hostile input (issue 36): every crafted payload (tests/hostile_positions.py)
answers quickly, in little memory, with a state or a BadPosition naming the field, and a
position the readers accept, however it was altered, plays to its end."""

from __future__ import annotations

import json
import random
import time
import tracemalloc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hostile_positions import ACCEPTED, Payload, load, payloads, played

from eterna.core.errors import BadPosition, EternaError
from eterna.core.position import MAX_DEPTH, MAX_QUOTE, parse, quote, share_code

SECONDS = 3.0  # per payload, with tracemalloc's overhead, on a busy machine
PEAK_BYTES = 32 * 1024 * 1024
PAYLOADS = payloads()


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_each_payload_answers_quickly_in_little_memory(name: str) -> None:
    payload = PAYLOADS[name]
    tracemalloc.start()
    started = time.perf_counter()
    try:
        state = load(payload)
        refusal = None
    except BadPosition as exc:  # any other exception fails the test
        state, refusal = None, exc
    finally:
        elapsed = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert elapsed < SECONDS, f"{name}: {elapsed:.2f} s"
    assert peak < PEAK_BYTES, f"{name}: {peak / 1e6:.1f} MB"
    if name in ACCEPTED:
        assert state is not None and refusal is None
        return
    assert refusal is not None, f"{name} was accepted"
    assert len(str(refusal)) <= BadPosition.MAX_MESSAGE + 1
    assert len(refusal.field) <= BadPosition.MAX_MESSAGE


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("eternitium-located-bomb-seat", "knowledge.known[0].portal-square"),
        ("eternitium-solo-mission-swapped", "portal_reserve"),
        ("eternitium-solo-era-known-excess", "knowledge.era_known[0].circle"),
        ("eternitium-solo-self-peek", "knowledge.peeks[0].victim"),
        ("eternitium-solo-past-its-end", "turn"),
        ("eternitium-solo-ai-deck-foreign", "ai_deck[0]"),
        ("eternitium-unknown-tiers-seat", "knowledge.unknown_tiers[0][1]"),
        ("eternitium-located-past-the-pile-seat", "knowledge.located[0]"),
        ("eternitium-located-past-the-pile-whole", "knowledge.known[0].droid"),
        ("eternitium-located-card-not-in-pile", "knowledge.located[0].portal-square"),
        ("eternitium-pile-past-the-cards", "discards[0]"),
        ("rng-0x", "rng"),
        ("rng-underscore", "rng"),
        ("rng-spaces", "rng"),
        ("integer-huge-object", "players"),
        ("list-of-100000", "log"),
        ("vale-points-step-5000-digits", "work[0].step"),
        ("vale-points-step-arabic", "work[0].step"),
        ("eternity-trees-huge", "trees[0]"),
    ],
)
def test_refusals_name_the_field(name: str, field: str) -> None:
    with pytest.raises(BadPosition) as caught:
        load(PAYLOADS[name])
    assert caught.value.field == field, caught.value


def test_quotes_are_cut_to_a_short_prefix() -> None:
    with pytest.raises(BadPosition) as caught:
        load(PAYLOADS["long-string-field"])
    assert "x" * (MAX_QUOTE + 1) not in str(caught.value)
    assert "\u2026" in str(caught.value)
    assert len(quote("y" * 10_000)) == MAX_QUOTE + 1
    assert quote(10**5000) == "an integer of 16610 bits"
    assert quote([1] * 50) == "a list of 50"


def test_every_size_limit_is_checked_before_parsing() -> None:
    """Each limit has its own refusal, at its bound and not below it."""
    inside = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse(inside) is not None
    with pytest.raises(BadPosition, match="nests deeper"):
        parse("[" + inside + "]")
    assert parse("[" + "9" * 15 + "]") == [10**15 - 1]
    with pytest.raises(BadPosition, match="16 digits"):
        parse("[" + "9" * 16 + "]")
    with pytest.raises(BadPosition, match="16 digits"):
        parse("[-" + "9" * 16 + "]")
    brackets_in_strings = json.dumps({"s": "[" * 10_000 + "{" * 10_000})
    assert parse(brackets_in_strings)["s"].startswith("[[")  # text is not nesting


def test_a_legitimate_position_of_the_largest_game_fits_every_limit() -> None:
    """Eternitium with every card count at its 60: the limits leave it room (docs/positions.md,
    'Limits')."""
    from eterna.games.eternitium.cards import default_composition

    composition = {key: 60 for key in default_composition()}
    state = played("eternitium", 5, 2, 60, composition=composition)
    for seat in (None, 0):
        position = state.to_position(seat)
        assert load(share_code(position)).to_position(seat) == position


# ------------------------------------------------------------------ accepted: plays to its end
def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    out = [(path, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*path, i))
    return out


def _mutated(position: dict[str, Any], rng: random.Random, count: int) -> dict[str, Any]:
    """`count` local changes: a number nudged, a flag flipped, a word or card replaced by
    another of the position's, an entry dropped or repeated, an option changed."""
    position = json.loads(json.dumps(position))
    words = [v for _, v in _paths(position) if isinstance(v, str)]
    for _ in range(count):
        spots = [(p, v) for p, v in _paths(position) if p and p[0] not in ("format", "game")]
        path, value = rng.choice(spots)
        parent: Any = position
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(value, bool):
            parent[path[-1]] = not value
        elif isinstance(value, int):
            parent[path[-1]] = max(0, value + rng.choice([-2, -1, 1, 2, 5, -value]))
        elif isinstance(value, str):
            parent[path[-1]] = rng.choice(words)
        elif isinstance(value, list) and value:
            if rng.random() < 0.5:
                value.pop(rng.randrange(len(value)))
            else:
                value.insert(rng.randrange(len(value) + 1), rng.choice(value))
    return position


GAMES = {"eternity": (3, 5), "vale": (2, 4), "eternitium": (1, 5)}


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    game_id=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 60),
    changes=st.integers(1, 3),
    data=st.data(),
)
def test_an_accepted_position_plays_to_its_end(
    game_id: str, seed: int, plies: int, changes: int, data: st.DataObject
) -> None:
    """Written from a random legal game, altered, loaded: refused with a BadPosition, or a
    state whose every determinization offers the seat to move the same moves and that plays
    to its end with random moves, writing its positions all the way."""
    low, high = GAMES[game_id]
    players = data.draw(st.integers(low, high), label="players")
    options: dict[str, Any] = {}
    if game_id == "eternitium" and players == 1:
        options["mission"] = data.draw(st.integers(0, 10), label="mission")
    state = played(game_id, players, seed, plies, **options)
    seat = data.draw(st.sampled_from([None, *range(players)]), label="seat")
    rng = random.Random(seed)
    payload: Payload = _mutated(state.to_position(seat), rng, changes)
    try:
        loaded = load(payload)
    except BadPosition:
        return
    _plays_to_its_end(loaded, rng)


def _plays_to_its_end(state: Any, rng: random.Random) -> None:
    for ply in range(5000):
        if state.is_terminal:
            return
        mover = state.current_player
        legal = sorted(map(str, state.legal_actions()))
        assert legal, f"no legal move at ply {ply}, yet the game is not over"
        if ply < 2:  # what a search at a table starts from: the same moves in every guess
            guess = state.determinize(mover, random.Random(ply))
            assert sorted(map(str, guess.legal_actions())) == legal
        if ply % 25 == 0:
            state.to_position()
        try:
            state.apply(rng.choice(state.legal_actions()))
        except EternaError as exc:  # a legal move is never refused
            raise AssertionError(f"legal move refused at ply {ply}: {exc}") from exc
    raise AssertionError("5000 plies and the game is not over")
