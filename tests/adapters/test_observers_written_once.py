"""Eternitium's and the Vale's observations are written once, as Eternity's is
(core/fastwriter.py): each fact a seat sees is set by both sources (`seen_in_view`,
`seen_in_state`), and the generated `write_state` writes what the one writer (`_write`) writes
over `seen_in_state`. The Vale's version 2 extends version 1's description (a `Seen` subclass,
sources calling version 1's, a writer calling `super()`). tests/adapters/test_fast_observe.py
holds the two paths equal on random games."""

from __future__ import annotations

import random
from importlib import import_module

import numpy as np
import pytest
from librt.vecs import vec
from mypy_extensions import i32

import eterna
from eterna.adapters.encodings import make_encoding
from eterna.core import fastwriter

ART = {"expansions": ["artifacts"]}
# (module, game, players, options, encoding version, the modules whose Seen facts it holds)
CASES = {
    "eternitium": ("eternitium.encoding", "eternitium", 3, {"round_limit": 6}, None),
    "vale": ("vale.encoding", "vale", 3, {}, None),
    "vale-v2-base": ("vale.encoding_v2", "vale", 2, {}, 2),
    "vale-v2-artifacts": ("vale.encoding_v2", "vale", 3, ART, None),
}
FACTS_OF = {
    "eternitium.encoding": ["eternitium/observation.py"],
    "vale.encoding": ["vale/observation.py"],
    "vale.encoding_v2": ["vale/observation.py", "vale/encoding_v2.py"],
}


def _facts(module: str) -> list[str]:
    found: list[str] = []
    for path in FACTS_OF[module]:
        found += fastwriter.facts((fastwriter.ROOT / "games" / path).read_text())
    return found


@pytest.mark.parametrize("case", sorted(CASES))
def test_both_sources_set_every_fact_and_the_generated_path_is_the_writer(case):
    name, game_id, players, options, version = CASES[case]
    module = import_module(f"eterna.games.{name}")
    enc = make_encoding(game_id, players, options, version=version)
    assert type(enc).__module__ == module.__name__
    state = eterna.load_game(game_id).new_game(players=players, seed=11, options=options)
    rng = random.Random(11)
    facts = _facts(name)
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
        if state.is_terminal or checked > 600:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_the_generated_observers_are_these():
    """The markers are found in every encoding written once (core names no game)."""
    assert set(fastwriter.marked()) == {
        ("games/eternity/encoding.py", "EternityEncoding"),
        ("games/eternitium/encoding.py", "EternitiumEncoding"),
        ("games/vale/encoding.py", "ValeEncoding"),
        ("games/vale/encoding_v2.py", "ValeEncodingV2"),
    }


def test_version_2_extends_version_1s_description():
    """The Vale's version 2 generated writer calls version 1's (super) and inlines version 1's
    facts it reads from version 1's `seen_in_state`; the generator refuses an extension that
    sets a parent's fact again or names a parent it cannot find."""
    text = (fastwriter.ROOT / "games" / "vale" / "encoding_v2.py").read_text()
    lines = "\n".join(fastwriter.generated(text, "ValeEncodingV2"))
    assert "super().write_state(st, seat, m)" in lines
    assert "isinstance" not in lines  # the narrowing of the Seen is the writer's alone
    assert "t == seat or not st_secret >> c & 1" in lines  # version 1's `shown`, inlined
    broken = {
        "a parent's fact set again": text.replace(
            "    s.bought = arts.bought\n", "    s.bought = arts.bought\n    s.n = 2\n", 1
        ),
        "an unknown parent": text.replace(
            "import seen_in_state as base_seen_in_state", "import seen_in_view as nothing", 1
        ),
    }
    for why, source in broken.items():
        assert source != text, why
        with pytest.raises(ValueError):
            fastwriter.generated(source, "ValeEncodingV2")


def test_version_2_observes_a_base_game_as_the_view_does():
    """Version 2 on a base game (its Artifacts' blocks zero) by both paths, every seat."""
    game = eterna.load_game("vale")
    enc = make_encoding("vale", 2, {}, version=2)
    state = game.new_game(players=2, seed=5)
    rng = random.Random(5)
    artifacts = enc.offsets["artifacts"]
    while not state.is_terminal:
        for seat in range(2):
            want = enc.encode(state.view(seat)).copy()
            assert np.array_equal(enc.observe(state, seat), want)
            assert not want[artifacts:].any()
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", ["eternitium", "vale"])
def test_the_writer_reads_its_description_from_a_module_of_its_own(game_id):
    """Eternitium's and the Vale's description (`Seen`, `seen_in_view`, `seen_in_state`) sits
    in observation.py and the writer, with its generated fast path, in encoding.py, which
    imports it: the generator follows that import, and refuses a generated path reading a name
    the encoding module does not import (it would fail only when called)."""
    root = fastwriter.ROOT / "games" / game_id
    text = (root / "encoding.py").read_text()
    description = (root / "observation.py").read_text()
    assert "def seen_in_state" not in text and "class Seen" not in text
    assert fastwriter.facts(text) == fastwriter.facts(description)
    encoding = import_module(f"eterna.games.{game_id}.encoding")
    observation = import_module(f"eterna.games.{game_id}.observation")
    for name in ("Seen", "seen_in_view", "seen_in_state", "LAYOUT"):  # still importable there
        assert getattr(encoding, name) is getattr(observation, name)
    (class_name,) = [c for p, c in fastwriter.marked() if p == f"games/{game_id}/encoding.py"]
    assert fastwriter.generated(text, class_name)  # as it is: fine
    name = {"eternitium": "NO_CARDS", "vale": "PHASE_SLOT"}[game_id]  # read by write_state
    without = text.replace(f"    {name},\n", "", 1)
    assert without != text
    with pytest.raises(ValueError, match=name):
        fastwriter.generated(without, class_name)
