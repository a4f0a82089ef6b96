"""`eterna train`: a smoke run of a few hundred steps per game writes a checkpoint, an exported
NumPy policy, the curve and its plot, and resumes where it stopped."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from eterna.agents.learned import LearnedAgent, NumpyPolicy
from eterna.agents.train import TABLES, TrainSettings, initial_policy, train
from eterna.cli import app
from eterna.core.errors import EternaError


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


def _tiny_run(tmp_path, name, *extra):
    out = tmp_path / name
    args = ["train", "eternitium", "--minutes", "2", "--seed", "5", "--eval-games", "2"]
    args += ["--evals", "1", "--envs", "2", "--n-steps", "64", "--out", str(out), *extra]
    ok = CliRunner().invoke(app, args)
    assert ok.exit_code == 0, ok.output
    return out


def test_fine_tuning_starts_from_the_given_weights_and_warms_the_critic_first(tmp_path):
    """`--init` copies exported weights into the actor (the network takes their shape); during
    `--critic-warmup` only the value function learns, so the policy is still exactly the
    starting one; without the warm-up the first update moves it."""
    first = _tiny_run(tmp_path, "clone", "--max-steps", "20", "--imitate", "2", "--width", "16")
    start = NumpyPolicy.load(first / "policy.npz")
    init = ["--init", str(first / "policy.npz"), "--max-steps", "200", "--lr", "1e-3"]
    frozen = _tiny_run(tmp_path, "frozen", *init, "--critic-warmup", "100000")
    moved = _tiny_run(tmp_path, "moved", *init, "--opponents", "heuristic", "--target-kl", "5")
    for run, same in ((frozen, True), (moved, False)):
        policy = NumpyPolicy.load(run / "policy.npz")
        assert policy.meta["net"] == [16, 16] and policy.meta["steps"] >= 200
        equal = all(
            np.array_equal(w, w0) and np.array_equal(b, b0)
            for (w, b), (w0, b0) in zip(policy.layers, start.layers, strict=True)
        )
        assert equal is same
        assert policy.meta["init"] == str(first / "policy.npz")
        assert policy.meta["imitation_samples"] == start.meta["imitation_samples"] > 0
    settings = json.loads((moved / "run.json").read_text())["settings"]
    assert settings["init"] == str(first / "policy.npz") and settings["opponents"] == "heuristic"
    assert settings["learning_rate"] == 1e-3 and settings["target_kl"] == 5


def test_fine_tuning_checks_its_input(tmp_path):
    assert initial_policy("shipped", "vale", "compact").game_id == "vale"
    with pytest.raises(EternaError, match="not vale"):
        initial_policy("shipped", "vale", "flat")
    runner = CliRunner()
    for args, word in (
        (["vale", "--init", "shipped", "--imitate", "3"], "--imitate"),
        (["vale", "--opponents", "everyone"], "--opponents"),
        (["vale", "--lr", "0"], "--lr"),
        (["vale", "--target-kl", "-1"], "--target-kl"),
        (["vale", "--critic-warmup", "-5"], "--critic-warmup"),
    ):
        bad = runner.invoke(app, ["train", *args])
        assert bad.exit_code == 2 and word in bad.output, (args, bad.output)
    vale = Path(resources.files("eterna.agents.weights") / "vale.npz")  # type: ignore[arg-type]
    for source, word in ((str(vale), "not eternitium"), (str(tmp_path / "none.npz"), "none.npz")):
        args = ["train", "eternitium", "--init", source, "--out", str(tmp_path / "wrong")]
        bad = runner.invoke(app, args)
        assert bad.exit_code == 2 and word in bad.output, bad.output
