"""`eterna train`: train a learned agent for a game (MaskablePPO, the `train` extra).

The training itself is `eterna.agents.train`; this module checks the command line, shows a
Rich progress bar with the last evaluation, and prints where the run's files went.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from eterna.cli.common import fail, get_game, make_console, pick_seed
from eterna.cli.options import BaseSeed, GameId, Players
from eterna.core.errors import EternaError

TRAIN_HELP = (
    "Train a learned agent for a game with sb3-contrib's MaskablePPO "
    "(pip install -e '.[train]').\n\n"
    "The learner plays through the game's Gymnasium environment against opponents drawn per "
    "episode from a pool (random, the heuristic, its current self, its last checkpoints; random "
    "play fading as the run advances). Evaluations against the heuristic (fixed deals, the learner "
    "in every seat, 95% Wilson interval) are spread over the run; each writes a checkpoint "
    "(model.zip, policy.npz for NumPy play) and the learning curve (curve.json, curve.png). "
    "--resume continues a run's model, curve and clock."
)

Minutes = Annotated[float, typer.Option("--minutes", "-m", help="Wall-clock minutes to train.")]
Resume = Annotated[
    Path | None, typer.Option("--resume", help="A run directory (or its model.zip) to continue.")
]
Out = Annotated[
    Path | None,
    typer.Option("--out", help="Run directory.", show_default="train-runs/GAME-seedS"),
]
EvalGames = Annotated[
    int, typer.Option("--eval-games", help="Games per evaluation against the heuristic.")
]
Evals = Annotated[int, typer.Option("--evals", help="Evaluations spread over the run.")]
Envs = Annotated[int, typer.Option("--envs", help="Environments stepped together.")]
Imitate = Annotated[
    int,
    typer.Option(
        "--imitate",
        help="Heuristic games to imitate (behaviour cloning) before PPO, on a fresh run.",
    ),
]
ImitateEpochs = Annotated[
    int, typer.Option("--imitate-epochs", help="Passes over the imitation data.")
]
Dagger = Annotated[
    int,
    typer.Option(
        "--dagger",
        help="After cloning, games the clone plays against the heuristic, every position "
        "relabelled with the heuristic's choice (DAgger); the fit continues on all the data.",
    ),
]
Width = Annotated[int, typer.Option("--width", help="Units in each of the two hidden layers.")]
Init = Annotated[
    str | None,
    typer.Option(
        "--init",
        help="Fine-tune: start the policy from exported weights (a policy.npz, a run "
        "directory, or 'shipped': the game's learned bot); the network takes their shape.",
    ),
]
Rate = Annotated[
    float | None,
    typer.Option(
        "--lr", help="PPO learning rate.", show_default="3e-4; 1e-4 after --imitate or --init"
    ),
]
ClipRange = Annotated[float, typer.Option("--clip-range", help="PPO clip range.")]
TargetKl = Annotated[
    float | None,
    typer.Option(
        "--target-kl", help="Stop an update's passes once the policy moved this far (KL)."
    ),
]
EntCoef = Annotated[float, typer.Option("--ent-coef", help="Entropy bonus coefficient.")]
CriticWarmup = Annotated[
    int,
    typer.Option(
        "--critic-warmup",
        help="Environment steps with the policy frozen while the value function learns "
        "(fine-tuning: the first updates then follow real advantages).",
    ),
]
Opponents = Annotated[
    str,
    typer.Option(
        "--opponents",
        help="curriculum (random fading into the heuristic, self-play, checkpoints) or "
        "heuristic (the heuristic 80% of the time, the learner's own checkpoints the rest).",
    ),
]
NSteps = Annotated[
    int, typer.Option("--n-steps", help="Steps per environment between PPO updates.")
]
MaxSteps = Annotated[
    int | None,
    typer.Option("--max-steps", help="Stop after this many environment steps (smoke runs)."),
]


def train(
    game_id: GameId,
    minutes: Minutes = 20.0,
    seed: BaseSeed = None,
    resume: Resume = None,
    out: Out = None,
    players: Players = None,
    eval_games: EvalGames = 40,
    evals: Evals = 6,
    envs: Envs = 4,
    max_steps: MaxSteps = None,
    imitate: Imitate = 0,
    imitate_epochs: ImitateEpochs = 8,
    dagger: Dagger = 0,
    width: Width = 128,
    init: Init = None,
    lr: Rate = None,
    clip_range: ClipRange = 0.2,
    target_kl: TargetKl = None,
    ent_coef: EntCoef = 0.01,
    critic_warmup: CriticWarmup = 0,
    opponents: Opponents = "curriculum",
    n_steps: NSteps = 256,
) -> None:
    from eterna.agents.imitation import MAX_IMITATE
    from eterna.agents.train import TABLES, TrainSettings
    from eterna.agents.train import train as run

    game = get_game(game_id)
    if game.id not in TABLES:
        fail(f"no training table for {game.id!r}; trainable games: {', '.join(sorted(TABLES))}")
    default_players, layout = TABLES[game.id]
    try:
        table = game.check_players(default_players if players is None else players)
    except EternaError as exc:
        fail(str(exc))
    if not 0 < minutes <= 24 * 60:
        fail(f"--minutes must be above 0 and at most {24 * 60}, not {minutes:g}")
    for name, value in (("--eval-games", eval_games), ("--evals", evals), ("--envs", envs)):
        if not 1 <= value <= 10_000:
            fail(f"{name} must be from 1 to 10000, not {value}")
    for name, value, low, high in (
        ("--imitate", imitate, 0, MAX_IMITATE),
        ("--dagger", dagger, 0, MAX_IMITATE),
        ("--imitate-epochs", imitate_epochs, 1, 1000),
        ("--width", width, 8, 4096),
    ):
        if not low <= value <= high:
            fail(f"{name} must be from {low} to {high}, not {value}")
    if dagger and not imitate:
        fail("--dagger needs --imitate: the clone it improves")
    if init is not None and imitate:
        fail("--init and --imitate both make the starting policy: give one")
    for name, number, low_f, high_f in (
        ("--lr", lr, 1e-7, 1.0),
        ("--clip-range", clip_range, 0.01, 1.0),
        ("--target-kl", target_kl, 1e-4, 10.0),
        ("--ent-coef", ent_coef, 0.0, 1.0),
    ):
        if number is not None and not low_f <= number <= high_f:
            fail(f"{name} must be from {low_f:g} to {high_f:g}, not {number:g}")
    if not 0 <= critic_warmup <= 10**9:
        fail(f"--critic-warmup must be from 0 to 1000000000, not {critic_warmup}")
    if not 8 <= n_steps <= 100_000:
        fail(f"--n-steps must be from 8 to 100000, not {n_steps}")
    if opponents not in ("curriculum", "heuristic"):
        fail(f"--opponents must be curriculum or heuristic, not {opponents!r}")
    if max_steps is not None and max_steps < 1:
        fail(f"--max-steps must be 1 or more, not {max_steps}")
    chosen_seed = pick_seed(seed)
    settings = TrainSettings(
        game=game.id,
        minutes=minutes,
        seed=chosen_seed,
        players=table,
        layout=layout,
        envs=envs,
        eval_games=eval_games,
        evals=evals,
        max_steps=max_steps,
        imitate=imitate,
        imitate_epochs=imitate_epochs,
        dagger=dagger,
        net=(width, width),
        init=init,
        learning_rate=lr,
        clip_range=clip_range,
        target_kl=target_kl,
        ent_coef=ent_coef,
        critic_warmup=critic_warmup,
        opponents=opponents,
        n_steps=n_steps,
    )
    directory = out or Path("train-runs") / f"{game.id}-seed{chosen_seed}"
    if resume is not None and out is None:
        directory = resume if resume.is_dir() else resume.parent
    console = make_console()
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[steps]:>9,} steps"),
        TextColumn("{task.fields[last]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(f"train {game.id}", total=1.0, steps=0, last="")

        def progress(steps: int, share: float, point: object) -> None:
            if point is None:
                bar.update(task, completed=share, steps=steps)
                return
            rate, low, high = (getattr(point, k) for k in ("win_rate", "low", "high"))
            last = f"vs heuristic {rate:.0%} ({low:.0%}-{high:.0%})"
            bar.update(task, completed=share, steps=steps, last=last)

        try:
            record = run(settings, directory, resume, progress)
        except EternaError as exc:
            fail(str(exc))
    last = record.curve[-1]
    console.print(
        f"{record.steps:,} env steps in {record.seconds / 60:.1f} min of training "
        f"({record.steps_per_second:,.0f} steps/s); against the heuristic: "
        f"{last.win_rate:.1%} (95% Wilson {last.low:.1%}-{last.high:.1%}, {last.games} games)"
    )
    console.print(f"run: {directory} (model.zip, policy.npz, curve.json, curve.png, run.json)")


def register(app: typer.Typer) -> None:
    app.command("train", help=TRAIN_HELP)(train)
