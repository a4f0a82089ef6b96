"""bench/model_zoo.py: rerunning some rows keeps the others, and a logged matchup resumes."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "model_zoo.py"


@pytest.fixture(scope="module")
def zoo() -> ModuleType:
    spec = importlib.util.spec_from_file_location("model_zoo", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["model_zoo"] = module
    spec.loader.exec_module(module)
    return module


def row(game: str, lineup: str, rate: float, games: int = 400) -> dict:
    players = len(lineup.split(","))
    cost = {"learned": 0.0001}
    head = dict(game=game, players=players, lineup=lineup, seed=1, games=games, win_rate=rate)
    return head | dict(low=rate / 2, high=(1 + rate) / 2, parity=1 / players, cost=cost)


def test_write_replaces_the_rows_it_measured_and_keeps_the_rest(zoo: ModuleType) -> None:
    old = [
        row("vale", "learned,random", 1.0),
        row("eternitium", "learned,heuristic", 0.52, games=100),
        row("eternity", "learned,heuristic,heuristic,heuristic", 0.145),
    ]
    block = "\n" + zoo.table(old) + "\n\nHow the rows were measured.\n"
    new = [row("eternitium", "learned,heuristic", 0.821), row("vale", "learned,ismcts", 0.1, 40)]
    merged = zoo.merge(block, new)
    lines = merged.splitlines()
    assert lines[:2] == zoo.HEADER
    body = [line for line in lines[2:] if line.startswith("|")]
    # the games' order, then the matchups' (random, heuristic, ismcts)
    assert [zoo.row_key(line) for line in body] == [
        ("vale", "learned,random"),
        ("vale", "learned,ismcts"),
        ("eternitium", "learned,heuristic"),
        ("eternity", "learned,heuristic,heuristic,heuristic"),
    ]
    assert zoo.row_line(new[0]) in body and zoo.row_line(old[1]) not in body
    assert zoo.row_line(old[0]) in body and zoo.row_line(old[2]) in body
    assert lines[-1] == "How the rows were measured."


def test_a_logged_matchup_resumes_where_it_stopped(zoo: ModuleType, tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    spec = zoo.prepare("eternitium", ["random", "random"], 4, 2, seed=5)
    assert zoo.logged_games(spec, log, stop_at=0.0) == []  # past the deadline: no deal started
    first = zoo.logged_games(spec, log, stop_at=None)
    assert [r.index for r in first] == [0, 1, 2, 3]
    assert len(log.read_text().splitlines()) == 4
    again = zoo.logged_games(spec, log, stop_at=0.0)  # read back, nothing played
    assert [(r.index, r.winners, r.scores) for r in again] == [
        (r.index, r.winners, r.scores) for r in first
    ]
    assert len(log.read_text().splitlines()) == 4
    whole = zoo.run_arena(spec, workers=1)
    assert [(r.winners, r.scores) for r in whole] == [(r.winners, r.scores) for r in first]
    # a half-played deal is finished, not counted as it stands
    lines = log.read_text().splitlines()
    log.write_text("\n".join(lines[:3]) + "\n")
    assert [r.index for r in zoo.logged_games(spec, log, stop_at=0.0)] == [0, 1]
    assert [r.index for r in zoo.logged_games(spec, log, stop_at=None)] == [0, 1, 2, 3]
    assert json.loads(log.read_text().splitlines()[-1])["index"] == 3


def test_rows_at_other_player_counts_come_after_the_games_table(zoo: ModuleType) -> None:
    old = [
        row("vale", "learned,random", 1.0),
        row("vale", "learned,heuristic", 0.649),
        row("vale", "learned,ismcts", 0.45, 40),
        row("eternity", "learned,heuristic,heuristic,heuristic", 0.145),
    ]
    new = [
        row("vale", "learned,heuristic,heuristic,heuristic", 0.4),
        row("vale", "learned,heuristic,heuristic", 0.5),
        row("eternity", "learned,heuristic,heuristic", 0.2),
    ]
    merged = zoo.merge("\n" + zoo.table(old) + "\n", new)
    body = [line for line in merged.splitlines()[2:] if line.startswith("|")]
    # each game's rows by player count, then the matchups' order
    assert [zoo.row_key(line) for line in body] == [
        ("vale", "learned,random"),
        ("vale", "learned,heuristic"),
        ("vale", "learned,ismcts"),
        ("vale", "learned,heuristic,heuristic"),
        ("vale", "learned,heuristic,heuristic,heuristic"),
        ("eternity", "learned,heuristic,heuristic"),
        ("eternity", "learned,heuristic,heuristic,heuristic"),
    ]
    assert body[3].startswith("| vale, 3p | `learned,heuristic,heuristic` ")
    assert "| 33% |" in body[3] and "| 25% |" in body[4]


def test_players_measures_each_game_at_those_counts(
    zoo: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "rows.json"
    argv = ["model_zoo.py", "--games", "12", "--games-only", "eternitium", "--players", "3,4"]
    argv += ["--matchups", "heuristic:random", "--workers", "1", "--json", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    zoo.main()
    rows = json.loads(out.read_text())
    assert [(r["game"], r["players"], r["lineup"], r["games"]) for r in rows] == [
        ("eternitium", 3, "heuristic,random,random", 12),
        ("eternitium", 4, "heuristic,random,random,random", 12),
    ]
    assert [r["parity"] for r in rows] == [1 / 3, 1 / 4]
    # the same games as `eterna arena eternitium --agents heuristic,random,random --players 3`
    spec = zoo.prepare("eternitium", ["heuristic", "random", "random"], 12, 3, seed=1)
    results = zoo.run_arena(spec, workers=1)
    line = next(
        a for a in zoo.aggregate(results, ratings=False)["agents"] if a["agent"] == "heuristic"
    )
    assert rows[0]["win_rate"] == line["win_rate"]
    # the default stays each game's own table
    monkeypatch.setattr(sys, "argv", argv[:5] + argv[7:])
    zoo.main()
    assert [(r["players"], r["lineup"]) for r in json.loads(out.read_text())] == [
        (2, "heuristic,random")
    ]
