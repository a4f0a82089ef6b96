"""Paired seating: every rotation of every deal is played once, all from the deal's seed."""

from __future__ import annotations

from collections import Counter

import pytest

import eterna
from eterna.arena import prepare, rotation_sets, schedule
from eterna.arena.simulate import derive_seed


@pytest.mark.parametrize(
    ("games", "players", "deals"), [(0, 4, 0), (1, 4, 1), (8, 4, 2), (9, 3, 3)]
)
def test_games_round_up_to_whole_rotation_sets(games, players, deals):
    assert rotation_sets(games, players) == deals
    line = [f"a{i}" for i in range(players)]
    assert len(schedule(line, games, seed=5)) == deals * players


def test_every_rotation_of_every_deal_is_played_once_with_the_deal_seed():
    line = ["heuristic", "random", "ismcts:iterations=5", "random"]
    matches = schedule(line, 12, seed=100)
    assert [m.index for m in matches] == list(range(12))
    by_deal: dict[int, list] = {}
    for m in matches:
        by_deal.setdefault(m.deal, []).append(m)
    assert sorted(by_deal) == [0, 1, 2]
    for deal, group in by_deal.items():
        assert {m.seed for m in group} == {100 + deal}  # the same deal for the whole set
        assert sorted(m.rotation for m in group) == [0, 1, 2, 3]
        # every lineup entry (by position) sits in every seat once per deal
        for seat in range(4):
            assert Counter(m.agents[seat] for m in group) == Counter(line)
        assert len({m.agents for m in group}) == 4
    for m in matches:
        assert m.agents == tuple(line[(s + m.rotation) % 4] for s in range(4))
        assert m.agent_seeds == tuple(derive_seed(100, m.index, s) for s in range(4))


def test_prepare_checks_everything_first():
    spec = prepare("eternity", ["heuristic", "random"], 10, 4, seed=3)
    assert spec.lineup == ("heuristic", "random", "heuristic", "random")
    assert (spec.games, spec.requested, spec.deals) == (12, 10, 3)
    for bad in (
        lambda: prepare("eternity", ["nobody"], 4, 4),
        lambda: prepare("eternity", ["random"], 4, 9),
        lambda: prepare("eternity", ["random"] * 5, 4, 4),
        lambda: prepare("eternity", ["random"], -1, 4),
        lambda: prepare("eternity", ["random"], 4, 4, seed=-2),
        lambda: prepare("chess", ["random"], 4, 4),
    ):
        with pytest.raises(eterna.EternaError):
            bad()
