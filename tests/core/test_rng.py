"""The one generator (eterna.core.rng) and record versions: version 2 draws from the Rng,
version 1 (records without a "version") replays through the legacy generators."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import eterna
from eterna.core.errors import BadRecord, BadSetup
from eterna.core.legacy import RandomV1, game_generator, vale_reseed, vale_reshuffle
from eterna.core.rng import (
    RECORD_VERSION,
    SEED_LIMIT,
    Rng,
    check_seed,
    choice,
    deal_at,
    order_by_draws,
    shuffle,
)

M64 = (1 << 64) - 1


def splitmix64(seed: int, count: int) -> list[int]:
    """The reference splitmix64 (Vigna), written out independently of the module."""
    out = []
    x = seed
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) % 2**64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        out.append(z ^ (z >> 31))
    return out


def test_rng_is_splitmix64() -> None:
    """Raw 64-bit outputs equal the reference sequence (the published first outputs of seed 0
    included), and below(n) is the output modulo n."""
    rng = Rng(0)
    assert [rng.below(1 << 64) for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    seed = 1234567890123
    rng = Rng(seed)
    assert [rng.below(1 << 64) for _ in range(1000)] == splitmix64(seed, 1000)
    rng = Rng(seed)
    assert [rng.below(n) for n in range(1, 500)] == [
        x % n for n, x in zip(range(1, 500), splitmix64(seed, 499), strict=True)
    ]


def test_shuffle_is_fisher_yates_from_the_end() -> None:
    """shuffle: item i (from the last down to 1) swaps with below(i + 1), as Eternitium's
    `_shuffle` does, and leaves the state where those draws leave it."""
    for seed in (0, 7, SEED_LIMIT - 1):
        items = list(range(60))
        ref = Rng(seed)
        expected = items[:]
        for i in range(len(expected) - 1, 0, -1):
            j = ref.below(i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        rng = Rng(seed)
        rng.shuffle(items)
        assert items == expected and rng.state == ref.state


@given(
    state=st.integers(0, 2**64 - 1),
    n=st.integers(1, 2**62 - 1) | st.integers(2**62 - 2, 2**65) | st.integers(1, 60),
)
def test_below_from_any_state_is_the_reference_output(state: int, n: int) -> None:
    """below(n) is the next output modulo n from any 64-bit state: the compiled build takes it
    in native wrapping integers (`_below_native`) for n below 2**62, outputs at or above 2**63
    included, and in Python ints for larger n."""
    rng = Rng.at(state)
    assert rng.below(n) == splitmix64(state, 1)[0] % n
    assert rng.state == (state + 0x9E3779B97F4A7C15) % 2**64


@given(state=st.integers(0, 2**64 - 1), size=st.integers(0, 300))
def test_shuffle_from_any_state_is_the_reference_stream(state: int, size: int) -> None:
    """The same from any 64-bit state and size, against the independent splitmix64 above: the
    compiled build shuffles in native wrapping integers (`_shuffle_native`), including outputs
    and states at or above 2**63, which it holds as negative numbers."""
    draws = splitmix64(state, size)
    expected = list(range(size))
    for k, i in enumerate(range(size - 1, 0, -1)):
        j = draws[k] % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    rng = Rng.at(state)
    items = list(range(size))
    rng.shuffle(items)
    assert items == expected
    assert rng.state == (state + max(size - 1, 0) * 0x9E3779B97F4A7C15) % 2**64


@given(state=st.integers(0, 2**64 - 1), size=st.integers(0, 200))
def test_deal_from_any_state_is_the_reference_stream(state: int, size: int) -> None:
    """`deal` from any 64-bit state, against the independent splitmix64: the compiled build
    takes the digits of an output at or above 2**63 from its half and low bit."""
    draws = iter(splitmix64(state, size))
    expected = list(range(size))
    x = room = 0
    used = 0
    for i in range(size - 1, 0, -1):
        if room < 1 << 40:
            x, room = next(draws), 1 << 64
            used += 1
        j, x, room = x % (i + 1), x // (i + 1), room // (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    rng = Rng.at(state)
    items = list(range(size))
    rng.deal(items)
    assert items == expected
    assert rng.state == (state + used * 0x9E3779B97F4A7C15) % 2**64


def test_native_shuffle_runs_exactly_in_the_compiled_build() -> None:
    """`_WRAPS` (i64 arithmetic wraps around) holds where core/rng.py is compiled, and only
    there: the interpreter's ints never wrap, so it keeps the reference loop."""
    from eterna import engines
    from eterna.core import rng

    assert rng._WRAPS is engines.module_is_compiled(rng)


def test_deal_is_fisher_yates_on_mixed_radix_digits() -> None:
    """deal: item i (from the last down to 1) swaps with the next digit, base i + 1, of the
    current output; a new output is drawn when less than 2**40 of its range is left."""
    for seed in (0, 7, SEED_LIMIT - 1):
        for n in (0, 1, 2, 42, 70):
            ref = Rng(seed)
            expected = list(range(n))
            x = room = 0
            for i in range(n - 1, 0, -1):
                if room < 1 << 40:
                    x, room = ref.below(1 << 64), 1 << 64
                j, x, room = x % (i + 1), x // (i + 1), room // (i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            items = list(range(n))
            rng = Rng(seed)
            rng.deal(items)
            assert items == expected and rng.state == ref.state
            again = list(range(n))
            assert deal_at(seed, again) == ref.state and again == expected
    counts = [0] * 5  # uniform: each item lands in each place as often
    rng = Rng(3)
    for _ in range(5000):
        items = list(range(5))
        rng.deal(items)
        counts[items.index(0)] += 1
    assert all(900 < c < 1100 for c in counts)


def test_rng_state_is_one_int_and_copies_are_independent() -> None:
    rng = Rng(42)
    rng.below(10)
    twin = rng.copy()
    resumed = Rng.at(rng.state)
    draws = [rng.below(100) for _ in range(20)]
    assert draws == [twin.below(100) for _ in range(20)]
    assert draws == [resumed.below(100) for _ in range(20)]
    assert rng.state == twin.state == resumed.state
    assert Rng(42).choice("abc") in "abc"
    assert not hasattr(rng, "__dict__")


def test_eternitium_plays_the_same_games_in_both_versions() -> None:
    """Eternitium's stream was splitmix64 before the Rng (its playthroughs did not change when
    it adopted it): its seeded games are the same in both record versions."""
    game = eterna.load_game("eternitium")
    one = game.new_game(3, seed=5, version=1)
    two = game.new_game(3, seed=5, version=2)
    assert one.view(None) == two.view(None)
    state: Any = game.new_game(2, seed=99)
    rng = Rng(99)
    state._rng = 99
    assert [state._rand(1000) for _ in range(50)] == [rng.below(1000) for _ in range(50)]


@pytest.mark.parametrize("seed", [-1, SEED_LIMIT, "7", 7.0, True, None])
def test_one_seed_check(seed: Any) -> None:
    with pytest.raises(BadSetup, match="seed must be an integer"):
        check_seed(seed)
    assert check_seed(SEED_LIMIT - 1) == SEED_LIMIT - 1


def test_legacy_generators_are_the_old_ones() -> None:
    """Version 1: random.Random(seed) for deals; Vale reshuffle k from random.Random(seed +
    (k << 62)), its state `seed + (k << 62)`, and a reseed keeps k."""
    old = random.Random(77)
    new = game_generator(77, 1)
    assert isinstance(new, RandomV1)
    assert [new.below(9) for _ in range(30)] == [old.randrange(9) for _ in range(30)]
    assert isinstance(game_generator(77, 2), Rng)
    state = 77
    for k in (1, 2, 3):
        deck, ref = list(range(40)), list(range(40))
        state = vale_reshuffle(state, deck)
        random.Random(77 + (k << 62)).shuffle(ref)
        assert deck == ref and state == 77 + (k << 62)
    assert vale_reseed(state, 5) == 5 + (3 << 62)


@given(seed=st.integers(0, 2**64), size=st.integers(0, 70))
def test_agent_draws_are_random_randoms_own(seed: int, size: int) -> None:
    """`shuffle`, `choice` and `order_by_draws` (written out for the compiled build) give what
    random.Random's shuffle, choice and a sort keyed on random() give, and leave the generator
    in the same state: agents' determinizations stay the same for the same seed."""
    items = list(range(size))
    mine, ref = random.Random(seed), random.Random(seed)
    got, want = items[:], items[:]
    shuffle(mine, got)
    ref.shuffle(want)
    assert got == want and mine.getstate() == ref.getstate()
    if items:
        assert choice(mine, items) == ref.choice(items)
    got, want = items[:], items[:]
    order_by_draws(mine, got)
    want.sort(key=lambda _item: ref.random())
    assert got == want and mine.getstate() == ref.getstate()


def test_agent_draws_defer_to_a_generator_that_draws_otherwise() -> None:
    """A random.Random subclass with its own draws is asked itself, not imitated; an empty
    sequence is refused as random.choice refuses it."""

    class Reversing(random.Random):
        def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
            x.reverse()

        def choice(self, seq: Any) -> Any:
            return seq[-1]

    items = list(range(10))
    shuffle(Reversing(1), items)
    assert items == list(range(9, -1, -1))
    assert choice(Reversing(1), "abc") == "c"
    with pytest.raises(IndexError):
        choice(random.Random(1), [])


def _played(game_id: str, players: int, version: int, plies: int = 400) -> Any:
    state = eterna.load_game(game_id).new_game(players, seed=2024, version=version)
    policy = random.Random(1)
    for _ in range(plies):
        if state.is_terminal:
            break
        state.apply(policy.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("game_id", "players"), [("eternity", 4), ("vale", 3)])
def test_version_2_deals_differently_and_both_replay(game_id: str, players: int) -> None:
    """The same seed deals differently under versions 1 and 2; each record says its version
    (version 1 by leaving it out) and replays to the same game."""
    v1 = _played(game_id, players, 1)
    v2 = _played(game_id, players, 2)
    assert eterna.load_game(game_id).new_game(players, seed=2024).to_record()["version"] == 2
    start1 = eterna.load_game(game_id).new_game(players, seed=2024, version=1)
    start2 = eterna.load_game(game_id).new_game(players, seed=2024, version=2)
    assert start1.view(0) != start2.view(0)
    for state, version in ((v1, 1), (v2, 2)):
        record = json.loads(json.dumps(state.to_record()))
        assert record.get("version", 1) == version
        assert ("version" in record) == (version == 2)
        again = eterna.replay(record)
        assert again.to_record() == record
        assert again.view(None) == state.view(None)
        assert [again.view(s) for s in range(players)] == [state.view(s) for s in range(players)]


def test_vale_reshuffles_draw_on_from_the_state_int() -> None:
    """A Vale game long enough to reshuffle: a clone mid-game continues exactly as the
    original, both versions."""
    for version in (1, 2):
        state = _played("vale", 2, version, plies=60)
        twin = state.clone()
        policy1, policy2 = random.Random(3), random.Random(3)
        while not state.is_terminal:
            state.apply(policy1.choice(state.legal_actions()))
            twin.apply(policy2.choice(twin.legal_actions()))
        assert state.view(None) == twin.view(None) and state.scores == twin.scores


@pytest.mark.parametrize("game_id", ["eternity", "vale", "eternitium"])
@pytest.mark.parametrize("version", [3, 0, "2", True, 2.0, None])
def test_from_record_refuses_unknown_versions(game_id: str, version: Any) -> None:
    record = eterna.load_game(game_id).new_game(2 if game_id != "eternity" else 3, seed=1)
    bad = {**record.to_record(), "version": version}
    with pytest.raises(BadRecord, match=r"record version must be the integer 1 or 2, not "):
        eterna.replay(bad)


@pytest.mark.parametrize("game_id", ["eternity", "vale", "eternitium"])
def test_new_game_refuses_unknown_versions(game_id: str) -> None:
    players = 2 if game_id != "eternity" else 3
    with pytest.raises(BadSetup, match="record version"):
        eterna.load_game(game_id).new_game(players, seed=1, version=3)
    assert RECORD_VERSION == 2
