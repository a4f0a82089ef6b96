"""`eterna train`: a smoke run of a few hundred steps per game writes a checkpoint, an exported
NumPy policy, the curve and its plot, and resumes where it stopped."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from eterna.agents.learned import LearnedAgent, NumpyPolicy
from eterna.agents.train import TABLES, TrainSettings, train
from eterna.cli import app


@pytest.mark.parametrize("game_id", sorted(TABLES))
def test_a_smoke_run_writes_a_checkpoint_and_resumes(game_id, tmp_path):
    players, layout = TABLES[game_id]
    settings = TrainSettings(
        game=game_id,
        minutes=5,
        seed=3,
        players=players,
        layout=layout,
        envs=2,
        eval_games=players,
        evals=1,
        max_steps=200,
        n_steps=64,
    )
    record = train(settings, tmp_path)
    assert 200 <= record.steps < 400 and record.seconds > 0
    for name in ("model.zip", "policy.npz", "curve.json", "curve.png", "run.json"):
        assert (tmp_path / name).stat().st_size > 0
    policy = NumpyPolicy.load(tmp_path / "policy.npz")
    assert policy.meta["game"] == game_id and policy.meta["steps"] == record.steps
    assert isinstance(LearnedAgent(policy=policy), LearnedAgent)
    curve = json.loads((tmp_path / "curve.json").read_text())
    assert len(curve) == 1 and 0 <= curve[0]["low"] <= curve[0]["win_rate"] <= curve[0]["high"]
    settings.max_steps = record.steps + 200
    again = train(settings, tmp_path, resume=tmp_path)
    assert again.steps >= record.steps + 200 and again.seconds > record.seconds
    assert len(json.loads((tmp_path / "curve.json").read_text())) == 2


def test_the_command_line_checks_its_input(tmp_path):
    runner = CliRunner()
    bad = runner.invoke(app, ["train", "eternitium", "--minutes", "0"])
    assert bad.exit_code == 2 and "--minutes" in bad.output
    bad = runner.invoke(
        app, ["train", "eternitium", "--resume", str(tmp_path), "--max-steps", "50"]
    )
    assert bad.exit_code == 2 and "resume" in bad.output
    out = tmp_path / "run"
    ok = runner.invoke(
        app,
        [
            "train",
            "eternitium",
            "--minutes",
            "2",
            "--seed",
            "1",
            "--max-steps",
            "100",
            "--eval-games",
            "2",
            "--evals",
            "1",
            "--envs",
            "1",
            "--out",
            str(out),
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert "steps/s" in ok.output and (out / "curve.png").is_file()


def test_cloning_with_dagger_adds_the_clones_own_positions(tmp_path):
    """`--imitate` clones the heuristic, `--dagger` then lets the clone play and relabels its
    positions: more samples than the cloning alone, in a network of the asked width."""
    runner = CliRunner()
    samples = {}
    for dagger in (0, 2):
        out = tmp_path / f"dagger{dagger}"
        args = ["train", "eternitium", "--minutes", "2", "--seed", "4", "--max-steps", "20"]
        args += ["--eval-games", "2", "--evals", "1", "--envs", "1", "--out", str(out)]
        args += ["--imitate", "2", "--imitate-epochs", "2", "--width", "16"]
        ok = runner.invoke(app, [*args, "--dagger", str(dagger)])
        assert ok.exit_code == 0, ok.output
        samples[dagger] = json.loads((out / "run.json").read_text())["settings"]
        policy = NumpyPolicy.load(out / "policy.npz")
        assert policy.layers[0][0].shape[0] == 16 and policy.meta["net"] == [16, 16]
    assert samples[0]["imitation_samples"] > 0
    assert samples[2]["imitation_samples"] > samples[0]["imitation_samples"]
    assert samples[2]["dagger"] == 2
    bad = runner.invoke(app, ["train", "eternitium", "--dagger", "3"])
    assert bad.exit_code == 2 and "--imitate" in bad.output
