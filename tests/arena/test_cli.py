"""`eterna arena`, `eterna hint` and `eterna analyze` end to end through CliRunner."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from eterna.arena.simulate import run_games
from eterna.cli import app

ENV = {"COLUMNS": "160", "NO_COLOR": "1"}
runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def run(args: list[str], input: str | None = None):
    return runner.invoke(app, args, input=input, env=ENV)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    """The arena writes its files under ./arena-results by default: keep them out of the repo."""
    monkeypatch.chdir(tmp_path)


def test_arena_saves_json_and_plot_by_default_and_times_its_agents(tmp_path):
    """The issue's command, with no file option, prints the table and writes the JSON and the
    plot under arena-results/; every agent's CPU time per decision is in both."""
    result = run(
        ["arena", "eternity", "-a", "heuristic,random", "-n", "8", "--seed", "3", "-w", "1"]
    )
    assert result.exit_code == 0, result.output
    saved = tmp_path / "arena-results" / "eternity-4p-seed3.json"
    assert f"Results written to {saved.relative_to(tmp_path)}" in result.output
    assert saved.with_suffix(".png").read_bytes()[:8] == PNG
    assert "s/move" in result.output and "Head to head" in result.output
    document = json.loads(saved.read_text())
    spent = document["run"]["agents"]
    assert set(spent) == {"heuristic", "random"}
    for line in spent.values():
        # two agents in four seats of eight games: at least one decision each with a choice
        assert line["decisions"] > 0 and line["cpu_seconds"] >= 0
        assert line["seconds_per_decision"] == pytest.approx(
            line["cpu_seconds"] / line["decisions"]
        )
    (pair,) = document["head_to_head"]  # 8 games x 2 heuristic seats x 2 random seats
    assert (pair["agent"], pair["opponent"], pair["meetings"]) == ("heuristic", "random", 32)
    assert pair["ahead"] + pair["level"] + pair["behind"] == 32
    # The heuristic thinks; random only draws: the timing tells them apart.
    assert spent["heuristic"]["seconds_per_decision"] > spent["random"]["seconds_per_decision"]


def test_arena_no_save_writes_nothing(tmp_path):
    result = run(["arena", "eternity", "-a", "random", "-n", "4", "--seed", "3", "--no-save"])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "arena-results").exists()
    assert "written" not in result.output


def test_arena_writes_table_json_plot_and_records(tmp_path):
    out, plot, recs = tmp_path / "r.json", tmp_path / "r.png", tmp_path / "r.jsonl"
    result = run(
        [
            "arena", "eternity", "--agents", "heuristic,ismcts:iterations=5,rollout=random",
            "--games", "3", "--players", "4", "--seed", "9", "--workers", "1",
            "--out", str(out), "--plot", str(plot), "--records", str(recs),
        ]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "4 games (3 asked, rounded up to whole rotation sets)" in result.output
    assert "ismcts:iterations=5,rollout=random" in result.output
    assert "seat 4" in result.output and "seat 0" not in result.output  # seats count from 1
    document = json.loads(out.read_text())
    assert document["arena"]["games"] == 4 and document["arena"]["deals"] == 1
    assert document["arena"]["lineup"] == [
        "heuristic",
        "ismcts:iterations=5,rollout=random",
        "heuristic",
        "ismcts:iterations=5,rollout=random",
    ]
    agents = {row["agent"]: row for row in document["agents"]}
    assert set(agents) == {"heuristic", "ismcts:iterations=5,rollout=random"}
    for row in agents.values():
        assert row["games"] == 8
        assert row["win_rate_low"] <= row["win_rate"] <= row["win_rate_high"]
        assert {"mu", "sigma", "low", "high"} <= set(row["rating"])
    assert len(document["seats"]) == 4 and len(document["games"]) == 4
    assert plot.read_bytes()[:8] == PNG
    assert len(recs.read_text().splitlines()) == 4


def test_arena_results_do_not_depend_on_workers(tmp_path):
    documents = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.json"
        args = ["arena", "eternity", "-a", "heuristic,random", "-n", "8", "--seed", "5"]
        result = run([*args, "--workers", workers, "--out", str(out)])
        assert result.exit_code == 0, result.output
        document = json.loads(out.read_text())
        document.pop("run")
        documents.append(document)
    assert documents[0] == documents[1]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["arena", "chess"], "unknown game"),
        (["arena", "eternity", "--agents", "nobody"], "unknown agent"),
        (["arena", "eternity", "--players", "9"], "players"),
        (["arena", "eternity", "--backend", "pigeon"], "--backend"),
        (["arena", "eternity", "--workers", "0"], "--workers"),
        (["arena", "eternity", "--address", "x:1"], "--address"),
        (["arena", "eternity", "--backend", "ray", "--address", "127.0.0.1:1"], "cannot reach"),
        (["arena", "eternity", "--backend", "ray", "--address", "nowhere"], "host:port"),
        (["arena", "eternity", "--option", "nonsense"], "key=value"),
        (["arena", "eternity", "-a", "random,random,random,random,random"], "5 agents"),
        (["arena", "eternity", "--games", "3", "--out", "."], "is a directory"),
    ],
)
def test_arena_bad_input_exits_2(args, fragment):
    result = run(args)
    assert result.exit_code == 2, result.output
    assert "Error:" in result.output and fragment in result.output
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def records_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("recs") / "games.jsonl"
    results = run_games("eternity", ["heuristic", "random"], 4, 4, seed=2)
    lines = []
    for r in results:
        record = dict(r.record)
        record["meta"] = {"agents": list(r.agents)}
        lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n")
    return path, results


def test_hint_prints_the_candidates(records_file):
    path, results = records_file
    from eterna.core.records import replay

    record = dict(results[0].record, actions=results[0].record["actions"][:13])
    seat = replay(record).current_player
    result = run(
        ["hint", str(path), "--seat", str(seat + 1), "--at", "13", "-i", "60", "--seed", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "Recommended:" in result.output
    for column in ("Visits", "Win chance", "Expected score"):
        assert column in result.output
    again = run(
        ["hint", str(path), "--seat", str(seat + 1), "--at", "13", "-i", "60", "--seed", "1"]
    )
    assert again.output == result.output
    # the table speaks the player's language: headings and moves in words, notation beside
    french = run(
        ["hint", str(path), "--seat", str(seat + 1), "--at", "13", "-i", "60", "--lang", "fr"]
    )
    assert "Chance de gagner" in french.output and "Visits" not in french.output
    assert "Jouer " in french.output or "Offrir " in french.output


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--seat", "1"], "game is over"),
        (["--seat", "7"], "--seat must be a seat from 1 to 4"),
        (["--seat", "1", "--at", "999"], "--at"),
        (["--seat", "1", "--game-index", "9"], "--game-index"),
    ],
)
def test_hint_bad_input_exits_2(records_file, extra, fragment):
    path, _ = records_file
    result = run(["hint", str(path), *extra])
    assert result.exit_code == 2, result.output
    assert fragment in result.output and "Traceback" not in result.output


def test_hint_when_it_is_another_seats_turn(records_file):
    path, results = records_file
    from eterna.core.records import replay

    seat = replay(dict(results[0].record, actions=[])).current_player
    result = run(["hint", str(path), "--seat", str((seat + 1) % 4 + 1), "--at", "0"])
    assert result.exit_code == 2 and f"it is seat {seat + 1}'s turn" in result.output


def test_analyze_prints_tables_and_writes_plots(records_file, tmp_path):
    path, _ = records_file
    out = tmp_path / "stats.json"
    result = run(
        ["analyze", "eternity", str(path), "--plot-dir", str(tmp_path / "p"), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    for fragment in ("by seat", "By agent", "exact match rate", "pledges per round"):
        assert fragment in result.output
    stats = json.loads(out.read_text())
    assert stats["records"] == 4 and stats["game_stats"]["rounds"] == 12
    plots = sorted((tmp_path / "p").iterdir())
    assert len(plots) == 3 and all(p.read_bytes()[:8] == PNG for p in plots)


def test_analyze_bad_input_exits_2(records_file, tmp_path):
    path, _ = records_file
    for args, fragment in (
        (["analyze", "vale", str(path)], "not 'vale'"),
        (["analyze", "eternity", str(tmp_path / "missing.jsonl")], "cannot read"),
        (["analyze", "chess", str(path)], "unknown game"),
    ):
        result = run(args)
        assert result.exit_code == 2, result.output
        assert fragment in result.output and "Traceback" not in result.output
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = run(["analyze", "eternity", str(empty)])
    assert result.exit_code == 2 and "no record" in result.output


def test_play_has_a_hint_command(tmp_path):
    result = run(
        ["play", "eternity", "--seed", "4", "--save", str(tmp_path / "g.json")],
        input="hint\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Hint (ISMCTS" in result.output and "Expected score" in result.output
