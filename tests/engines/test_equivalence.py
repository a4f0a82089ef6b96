"""The compiled engines and the pure ones play the same games: the same playthroughs, records,
views, positions, events, determinizations and pickles, game by game (docs/compiled.md).

This process runs whichever engines the install gives (CI: compiled, tests/engines/test_switch.py
makes sure); a subprocess runs the pure ones (ETERNA_PURE=1); their traces must be equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.engines.trace import collect

from eterna import engines

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pure_trace() -> dict[str, Any]:
    env = {**os.environ, "ETERNA_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-m", "tests.engines.trace"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    result = json.loads(out.stdout)
    assert result["compiled"] is False
    trace: dict[str, Any] = result["trace"]
    return trace


@pytest.fixture(scope="module")
def own_trace() -> dict[str, Any]:
    return collect()


def test_the_pure_subprocess_ran_pure_and_this_one_says_which(pure_trace: dict[str, Any]) -> None:
    assert engines.describe().startswith(
        "engines: compiled" if engines.compiled() else "engines: pure"
    )


def test_every_playthrough_is_the_same(
    pure_trace: dict[str, Any], own_trace: dict[str, Any]
) -> None:
    mine, theirs = own_trace["playthroughs"], pure_trace["playthroughs"]
    assert sorted(mine) == sorted(theirs) and len(mine) >= 20
    for name in mine:
        assert mine[name] == theirs[name], name


@pytest.mark.parametrize("part", ["record", "scores", "winners", "events", "snapshots", "bots"])
def test_records_views_positions_events_and_bots_are_the_same(
    pure_trace: dict[str, Any], own_trace: dict[str, Any], part: str
) -> None:
    mine, theirs = own_trace["games"], pure_trace["games"]
    assert sorted(mine) == sorted(theirs)
    for game in mine:
        assert mine[game][part] == theirs[game][part], (game, part)
    games = {key.split("/")[0] for key in mine}
    assert games == {"eternity", "vale", "eternitium"}
    assert all(mine[g]["snapshots"] and mine[g]["bots"] for g in mine)
