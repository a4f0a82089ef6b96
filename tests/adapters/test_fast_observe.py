"""The encodings' fast path (`observe`, written from the engine's fields) equals the reference
(`encode(state.view(seat))`) float for float: Hypothesis draws the table, the options, the seed
and the random play; every reachable state along the game is checked for every seat, and so
are determinized copies (states built from a seat's knowledge, as ISMCTS uses them).

Since the reference reads the view alone, so does the fast path: nothing hidden can leak.
"""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eterna
from eterna import engines
from eterna.adapters.encodings import make_encoding
from eterna.core.errors import EternaError

CHECK = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**62 - 1)

eternity_tables = st.tuples(
    st.sampled_from([3, 4, 5]),
    st.fixed_dictionaries(
        {
            "next_round_leader": st.sampled_from(["rotate", "last_trick_winner", "lowest_score"]),
            "column_order": st.sampled_from(["fixed", "shuffle_each_round"]),
            "tree_supply": st.sampled_from([0, 1, 3, 18]),
            "tie_break": st.sampled_from(["shared", "harmony_rounds"]),
        }
    ),
)
vale_tables = st.tuples(
    st.sampled_from([2, 3, 4]),
    st.fixed_dictionaries(
        {
            "dragon_attack_targets": st.sampled_from(["any", "opponents"]),
            "young_spirit_area_limit": st.sampled_from(["required", "ignored"]),
            "free_summon_triggers": st.sampled_from(["fire", "none"]),
            "exalted_recover": st.sampled_from(["copied", "copier"]),
            "allow_superfluous_payment": st.booleans(),
        }
    ),
)
# the Vale with the Artifacts: the encoding's version 2, chosen from the options
vale_artifacts_tables = st.tuples(
    st.sampled_from([2, 3, 4]),
    st.fixed_dictionaries(
        {
            "expansions": st.just(["artifacts"]),
            "artifact_set": st.sampled_from(["basic", "advanced"]),
            "artifact_block": st.sampled_from(["chosen", "held"]),
            "bought_area_limit": st.sampled_from([0, 2, 10]),
            "thoth_same_stone": st.booleans(),
            "ring_of_wishes": st.sampled_from(["again", "spent"]),
            "swap_dragon_targets": st.sampled_from(["any", "opponents"]),
        }
    ),
)
eternitium_tables = st.one_of(
    st.tuples(  # solo: the base game or a Special Mission
        st.just(1),
        st.fixed_dictionaries({"mission": st.integers(0, 10), "double_portal_luck": st.booleans()}),
    ),
    st.tuples(
        st.sampled_from([2, 3, 4, 5]),
        st.fixed_dictionaries(
            {"round_limit": st.integers(1, 5), "double_portal_luck": st.booleans()}
        ),
    ),
)
TABLES = {"eternity": eternity_tables, "vale": vale_tables, "eternitium": eternitium_tables}
TABLES["vale-artifacts"] = vale_artifacts_tables


def check_game(game_id: str, players: int, options: dict, seed: int, play_seed: int) -> int:
    """Play one random game; compare both paths at every state for every seat."""
    game_id = game_id.split("-")[0]  # "vale-artifacts" is the Vale with other options
    game = eterna.load_game(game_id)
    fast = make_encoding(game_id, players, options)
    reference = make_encoding(game_id, players, options)
    dirty = np.full(fast.size, 0.5, np.float32)  # observe(out=...) must clear what was there
    rng = random.Random(play_seed)
    state = game.new_game(players=players, seed=seed, options=options)
    checked = 0
    for step in range(400):
        states = [state]
        if not state.is_terminal and step % 4 == 0:
            states.append(state.determinize(rng.randrange(players), rng))
        for s in states:
            for seat in range(players):
                expected = reference.encode(s.view(seat))
                if (step + seat) % 2:
                    got = fast.observe(s, seat, dirty)
                else:
                    got = fast.new_observation(s, seat)
                if not np.array_equal(got, expected):
                    diff = {k: v for k, v in fast.split(got - expected).items() if v.any()}
                    raise AssertionError(f"step {step}, seat {seat}: fields differ: {diff}")
                checked += 1
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return checked


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_fast_observation_equals_the_view_encoding(game_id):
    @CHECK
    @given(TABLES[game_id], seeds, seeds)
    def check(table, seed, play_seed):
        players, options = table
        assert check_game(game_id, players, options, seed, play_seed) > 0

    check()


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_the_fast_path_is_the_one_taken(game_id, monkeypatch):
    """observe() of a seat never builds the view; a spectator or a bad seat goes to view()."""
    players = 2 if game_id != "eternity" else 3
    options = {"expansions": ["artifacts"]} if game_id == "vale-artifacts" else {}
    game_id = game_id.split("-")[0]
    enc = make_encoding(game_id, players, options)
    state = eterna.load_game(game_id).new_game(players=players, seed=3, options=options)
    expected = enc.encode(state.view(1)).copy()

    def no_view(seat):
        raise AssertionError("view() called on the fast path")

    cls = type(state)
    if engines.module_is_compiled(sys.modules[cls.__module__]):
        # A compiled class cannot be patched: `make pure` runs this test on the pure engines
        assert np.array_equal(enc.observe(state, 1), expected)
    else:
        original = cls.view
        monkeypatch.setattr(cls, "view", lambda self, seat: no_view(seat))
        assert np.array_equal(enc.observe(state, 1), expected)
        monkeypatch.setattr(cls, "view", original)
    spectator = enc.encode(state.view(None)).copy()
    assert np.array_equal(enc.observe(state, None), spectator)  # type: ignore[arg-type]
    for bad in (players, -1, True, "0"):
        with pytest.raises(EternaError):
            enc.observe(state, bad)  # type: ignore[arg-type]


def test_new_observation_is_a_fresh_array():
    enc = make_encoding("eternity", 3)
    state = eterna.load_game("eternity").new_game(players=3, seed=1)
    a = enc.new_observation(state, 0)
    kept = a.copy()
    b = enc.new_observation(state, 1)
    assert a is not b and not np.shares_memory(a, b) and not np.shares_memory(a, enc.buffer)
    assert np.array_equal(a, enc.encode(state.view(0)))
    # rows come from pooled blocks: a kept row is never handed out (nor overwritten) again,
    # across several blocks, and the caller may write into it
    later = [enc.new_observation(state, i % 3) for i in range(3 * enc._obs_rows.rows_per_block)]
    assert np.array_equal(a, kept) and all(not np.shares_memory(a, x) for x in later)
    a[:] = 0.5
    assert all(np.array_equal(x, enc.encode(state.view(i % 3))) for i, x in enumerate(later))
    assert a.shape == (enc.size,) and a.dtype == np.float32 and a.flags.writeable


def test_new_mask_is_a_fresh_array():
    enc = make_encoding("vale", 2)
    state = eterna.load_game("vale").new_game(players=2, seed=1)
    ids = enc.legal_ids(state)
    masks = [enc.new_mask(ids if i % 2 else []) for i in range(3 * enc._mask_rows.rows_per_block)]
    for i, m in enumerate(masks):
        assert m.dtype == np.int8 and m.shape == (enc.num_actions,)
        assert np.flatnonzero(m).tolist() == (sorted(ids) if i % 2 else [])
    assert np.array_equal(masks[1], enc.mask(state))
    assert not any(np.shares_memory(masks[0], m) for m in masks[1:])


def test_pooled_blocks_come_back_only_when_no_caller_holds_any_of_their_rows():
    """RowPool hands a used-up block out again once nothing but the pool refers to it: the
    rows (or views of rows, which numpy bases on the block) a caller keeps are never
    overwritten, a reused zeroed block is zeroed, and dropped rows do come back."""
    from eterna.core.encoding import RowPool

    pool = RowPool(3, np.int8)  # zeroed
    per = pool.rows_per_block
    rounds = (RowPool.BLOCKS + 2) * per
    for _ in range(rounds):  # rows dropped at once: the blocks come back, zeroed
        row, memory, start = pool.take()
        assert row.tolist() == [0, 0, 0]
        memory[start + 1] = 7
        assert row[1] == 7
    assert pool.reused >= 2
    # a row kept, a view of another (the view's base is the block, not the row), a row's
    # memoryview: none is written again, however many rows follow
    kept = pool.take()[0]
    kept[:] = 1
    view = pool.take()[0][1:]
    view[:] = 2
    for _ in range(per):  # (the rest of the block, then further blocks)
        pool.take()
    exported = memoryview(pool.take()[0])
    exported[0] = 3
    before = pool.reused
    for _ in range(5 * RowPool.BLOCKS * per):
        row, memory, start = pool.take()
        assert row.tolist() == [0, 0, 0]
        for k in range(3):
            memory[start + k] = 9
    assert kept.tolist() == [1, 1, 1] and view.tolist() == [2, 2] and exported[0] == 3
    assert pool.reused > before  # the other blocks still came back

    raw = RowPool(2, np.float32, np.int32, zeroed=False)  # rows may hold old values
    for _ in range(rounds):
        row, memory, start = raw.take()
        if raw.reused:  # a reused row holds what was written into it before: not zeroed
            assert memory[start] == 5 and row[1] == 2.5
        memory[start] = 5
        row[1] = 2.5
    assert raw.reused >= 2


def test_observations_and_masks_survive_the_pools_reuse():
    """Kept observations and masks (and views of them) stay as they were while a long game
    goes on through PettingZoo's observe path and the pools reuse their blocks."""
    enc = make_encoding("vale", 2)
    game = eterna.load_game("vale")
    state = game.new_game(players=2, seed=3)
    rng = random.Random(3)
    kept = []
    steps = 0
    while not state.is_terminal:
        seat = state.current_player
        obs = enc.observation(state, seat, enc.legal_ids(state))
        if steps % 40 == 0:  # keep some (the mask whole, the observation as a view)
            kept.append((obs["observation"][5:], obs["action_mask"], state.view(seat), seat))
        steps += 1
        state.apply(rng.choice(state.legal_actions()))
    assert enc._obs_rows.reused and enc._mask_rows.reused
    for part, mask, view, seat in kept:
        assert np.array_equal(part, enc.encode(view)[5:])
        assert np.flatnonzero(mask).tolist() == sorted(
            enc.action_id(text) for text in view["legal_actions"]
        ), seat


@pytest.mark.parametrize("game_id", ["eternity", "vale", "eternitium"])
def test_observing_keeps_no_memory(game_id):
    """Observations dropped at once leave nothing behind: the pools' blocks come back and the
    fast path's native vectors are freed (each call allocates about one observation's worth,
    so a leak of one a call shows as megabytes here)."""
    import tracemalloc

    players = 4 if game_id == "eternity" else 2
    game = eterna.load_game(game_id)
    enc = make_encoding(game_id, players)
    states = []
    state = game.new_game(players=players, seed=7)
    rng = random.Random(7)
    while not state.is_terminal and len(states) < 40:
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.clone())
    calls = 0

    def observe_all() -> None:
        nonlocal calls
        for s in states:
            seat = s.current_player
            ids = enc.legal_ids(s) if seat is not None else []
            enc.observation(s, 0 if seat is None else seat, ids)
            calls += 1

    pools = (enc._obs_rows, enc._mask_rows)
    for _ in range(max(p.BLOCKS * p.rows_per_block for p in pools) // len(states) + 2):
        observe_all()  # warm: both pools at their four blocks
    assert all(len(p._blocks) == p.BLOCKS for p in pools)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(25):
            observe_all()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes kept after {calls} observations"


def test_fast_path_writers_store_float32_bit_patterns():
    """The fast path writes int32 bit patterns into a native vector, copied into the float32
    row: `f32` rounds as numpy's float32 does, `ONE` is 1.0, a `cap_table` holds the bits of
    cap(v, scale) and `put_count` stores them (counts past the table read 1.0; 0 and
    negatives store nothing)."""
    from librt.vecs import vec
    from mypy_extensions import i32

    from eterna.core.encoding import ONE, cap, cap_table, f32, put_count

    def bits(x: float) -> int:
        return int(np.array([x], np.float32).view(np.int32)[0])

    assert bits(1.0) == ONE and f32(1.0) == ONE and f32(0.0) == 0
    for x in (0.1, 1 / 3, 2 / 7, 0.5, 1e-8, 0.999999999, -0.0, 0.0, -0.0, 0.1):
        assert f32(x) == bits(x), x  # (twice: the remembered values too)
    for scale in (2.0, 7.0, 10.0, 30.0, 60.0):
        table = cap_table(scale)
        assert [bits(cap(v, scale)) for v in range(len(table))] == list(table)
        assert table[-1] == ONE and table[0] == 0
    table = cap_table(7.0)
    m = vec[i32]([0] * 4)
    put_count(m, 0, table, 3)
    put_count(m, 1, table, 99)  # past the table: capped at 1.0
    put_count(m, 2, table, 0)
    put_count(m, 3, table, -2)
    assert np.frombuffer(m, np.float32).tolist() == [np.float32(3 / 7), 1.0, 0.0, 0.0]


def test_observe_into_a_given_array_and_the_buffer():
    """`observe(state, seat, out)` copies the fast path's bits into any float32 array of the
    observation's size (a strided one too), and into the encoding's buffer by default."""
    enc = make_encoding("eternitium", 3)
    state = eterna.load_game("eternitium").new_game(players=3, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    want = enc.encode(state.view(1)).copy()
    wide = np.full((enc.size, 2), 7.0, np.float32)
    out = wide[:, 0]  # not contiguous
    assert enc.observe(state, 1, out) is out
    assert np.array_equal(out, want) and (wide[:, 1] == 7.0).all()
    assert enc.observe(state, 1) is enc.buffer and np.array_equal(enc.buffer, want)


def test_eternitium_rare_phases_thief_and_gifts():
    """A Thieving Robot's steal (the thief alone sees the victim's pile), Laboratory gifts and
    the Data Analyser are rare in short random games: seek them out in longer ones."""
    from eterna.games.eternitium.state import PH_CYCLE, PH_GIFT, PH_STEAL

    game = eterna.load_game("eternitium")
    wanted = {PH_STEAL: 4, PH_GIFT: 4, PH_CYCLE: 4}
    seen = dict.fromkeys(wanted, 0)
    for seed in range(60):
        if all(seen[p] >= wanted[p] for p in wanted):
            break
        rng = random.Random(seed)
        players = 2 + seed % 4
        fast = make_encoding("eternitium", players)
        state = game.new_game(players=players, seed=seed, options={"round_limit": 20})
        while not state.is_terminal:
            if state._phase in seen:
                seen[state._phase] += 1
                for s in (state, state.determinize(state._active, rng)):
                    for seat in range(players):
                        expected = fast.encode(s.view(seat)).copy()
                        assert np.array_equal(fast.observe(s, seat), expected), (seed, seat)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert all(seen[p] >= wanted[p] for p in wanted), seen


def test_the_fast_observers_are_generated_from_the_writers():
    """A generated fast path (core/fastwriter.py) is what its writer and `seen_in_state` give
    now: a change to what a seat observes is made there, then `make observers`."""
    from eterna.core import fastwriter

    assert fastwriter.stale() == []


GENERATED = {"eternity": 4}


@pytest.mark.parametrize("game_id", sorted(GENERATED))
def test_both_sources_set_every_fact_and_the_generated_path_is_the_writer(game_id):
    """`seen_in_view` and `seen_in_state` each set every fact `Seen` declares, and the writer
    over `seen_in_state` writes what the generated `write_state` writes (the inlining keeps its
    meaning; the Hypothesis test above holds the two sources equal)."""
    from importlib import import_module

    from librt.vecs import vec
    from mypy_extensions import i32

    from eterna.core import fastwriter

    module = import_module(f"eterna.games.{game_id}.encoding")
    players = GENERATED[game_id]
    enc = make_encoding(game_id, players)
    state = eterna.load_game(game_id).new_game(players=players, seed=11)
    rng = random.Random(11)
    facts = fastwriter.facts((fastwriter.ROOT / "games" / game_id / "encoding.py").read_text())
    checked = 0
    while True:
        for seat in range(players):
            for fill in (
                lambda s, seat=seat: module.seen_in_state(state, seat, s),
                lambda s, seat=seat: module.seen_in_view(state.view(seat), s),
            ):
                seen = module.Seen()
                fill(seen)
                unset = [f for f in facts if not hasattr(seen, f)]
                assert not unset, unset
            seen = module.Seen()
            module.seen_in_state(state, seat, seen)
            by_writer = vec[i32]([0] * enc.size)
            enc._write(seen, by_writer)
            generated = vec[i32]([0] * enc.size)
            enc.write_state(state, seat, generated)
            assert list(by_writer) == list(generated)
            checked += 1
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_the_generator_refuses_what_it_cannot_inline():
    """core/fastwriter.py refuses a source missing a fact, a writer reading a fact no source
    sets, and a writer rebinding its `s` (which it would silently read as the state)."""
    from eterna.core import fastwriter

    text = (fastwriter.ROOT / "games" / "eternity" / "encoding.py").read_text()
    assert fastwriter.generated(text, "EternityEncoding")  # as it is: fine
    broken = {
        "a fact missing": text.replace("    s.winners = st._winners\n", "", 1),
        "an unknown fact": text.replace("m[self._o_trump + s.trump]", "m[s.nothing]", 1),
        "s rebound": text.replace("for t in range(n):\n", "for s in range(n):\n", 1),
    }
    for why, source in broken.items():
        assert source != text, why
        with pytest.raises(ValueError):
            fastwriter.generated(source, "EternityEncoding")
