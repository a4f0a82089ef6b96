"""`eterna train`: MaskablePPO (sb3-contrib) through the project's own Gymnasium environments.

Needs the `train` extra (`pip install -e .[train]`: torch and sb3-contrib, pinned); nothing else
in Eterna imports them, and the trained policy plays on NumPy alone (`eterna.agents.learned`).

A run (`train(...)`) writes into its directory:

- `model.zip`: the sb3 model (policy, value function, optimizer), what `--resume` continues;
- `policy.npz` and `policy-<steps>.npz`: the policy exported for NumPy at each evaluation (the
  format the shipped `learned` weights use, loadable with `eterna.agents.learned.checkpoint`);
- `curve.json` and `curve.png`: each evaluation's win rate against the heuristic with its 95%
  Wilson interval, by environment steps (matplotlib);
- `run.json`: the settings, the steps, the training seconds (resumes add up) and steps / s.

Opponents: each environment draws its opponents at every reset from a pool (`EternaEnv.pool`):
`random`, `heuristic`, the current policy (self-play, refreshed at each evaluation) and the
last three exported checkpoints. The weights move from random play to the heuristic as the run
advances (a curriculum: `pool_weights`); each environment plays a fixed seat, the environments
covering every seat. Seeds: the model, each environment's reset stream and the evaluation deals
all derive from `seed`; evaluation games are the same deals at every evaluation, the learner in
every seat of each deal (paired), so the curve's points are comparable.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from eterna.adapters.gymnasium import EternaEnv, PoolEntry
from eterna.agents.imitation import EVAL_SEED, fit_actor, imitation_data
from eterna.agents.learned import LearnedAgent, NumpyPolicy, shipped_policy
from eterna.agents.registry import make_agent
from eterna.arena.stats import wilson
from eterna.core.errors import EternaError
from eterna.core.registry import load_game

#: per game: players and action layout of a training run (the registered ids' tables)
TABLES = {"vale": (2, "compact"), "eternitium": (2, "flat"), "eternity": (4, "flat")}
NET = (128, 128)
CRITIC_WARMUP_RATE = 3e-4  # the critic's rate while the actor is frozen (`critic_warmup`)


@dataclass
class TrainSettings:
    game: str
    minutes: float
    seed: int = 0
    players: int = 2
    layout: str = "flat"
    envs: int = 4
    eval_games: int = 40
    evals: int = 6  # evaluations spread over the run (at least one, at the end)
    max_steps: int | None = None  # stop earlier after this many env steps (smoke runs)
    n_steps: int = 256  # rollout length per environment between updates
    imitate: int = 0  # heuristic games to imitate before PPO (fresh runs; 0: none)
    imitate_epochs: int = 8  # passes over the imitation data (the last third at a lower rate)
    dagger: int = 0  # games the clone then plays against the heuristic, relabelled (DAgger)
    net: tuple[int, ...] = NET
    # fine-tuning (`--init`): start the actor from exported weights ("shipped": the game's own)
    init: str | None = None
    learning_rate: float | None = None  # None: 3e-4, or 1e-4 on an imitated policy
    clip_range: float = 0.2
    target_kl: float | None = None  # stop an update's epochs once the policy moved this far
    ent_coef: float = 0.01
    critic_warmup: int = 0  # env steps with the actor frozen while the critic learns
    opponents: str = "curriculum"  # or "heuristic": the heuristic and the learner's checkpoints


@dataclass
class EvalPoint:
    steps: int
    seconds: float
    win_rate: float
    low: float
    high: float
    games: int


@dataclass
class RunRecord:
    settings: dict[str, Any]
    steps: int = 0
    seconds: float = 0.0
    curve: list[EvalPoint] = field(default_factory=list)

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0


def _libraries() -> tuple[Any, Any, Any]:
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv
    except ImportError as exc:
        raise EternaError(
            "eterna train needs the train extra: pip install -e '.[train]' (torch, sb3-contrib)"
        ) from exc
    return torch, MaskablePPO, DummyVecEnv


def export_policy(model: Any, env: EternaEnv, meta: dict[str, Any]) -> NumpyPolicy:
    """The policy half of an sb3 MlpPolicy as NumPy weights (Linear layers in order)."""
    import torch

    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    layers = [
        (lin.weight.detach().cpu().numpy().copy(), lin.bias.detach().cpu().numpy().copy())
        for lin in linears
    ]
    enc = env.encoding
    full = {
        "game": env.game.id,
        "players": env.players,
        "encoding_version": enc.version,
        "action_digest": enc.action_digest(),
        "layout_digest": enc.layout_digest(),
        "layout": env.layout.kind,
        **meta,
    }
    return NumpyPolicy(layers, full)


def evaluate(
    policy: NumpyPolicy, game_id: str, players: int, games: int, opponent: str = "heuristic"
) -> tuple[float, int]:
    """(wins, games) of the greedy policy against `opponent` in every other seat, over fixed
    deals with the learner in every seat of each (a shared win counts 1/k)."""
    game = load_game(game_id)
    wins = 0.0
    played = 0
    for g in range(games):
        deal, seat = divmod(g, players)
        state = game.new_game(players=players, seed=EVAL_SEED + deal)
        agents = {
            s: (
                LearnedAgent(seed=s, policy=policy)
                if s == seat
                else make_agent(opponent, seed=EVAL_SEED + 7 * deal + s)
            )
            for s in range(players)
        }
        moves = 0
        while not state.is_terminal and moves < 5000:
            current = state.current_player
            assert current is not None
            state.apply(agents[current].choose(state, current))
            moves += 1
        played += 1
        if state.is_terminal and seat in state.winners:
            wins += 1.0 / len(state.winners)
    return wins, played


def _model(
    s: TrainSettings, resume: Path | None, maskable_ppo: Any, dummy_vec_env: Any
) -> tuple[Any, list[EternaEnv], Any]:
    """The vector of training environments and the model: new, or loaded from `resume`."""

    def make_env(i: int) -> Callable[[], EternaEnv]:
        def build() -> EternaEnv:
            env = EternaEnv(
                s.game,
                seat=i % s.players,
                players=s.players,
                action_layout=s.layout,
                pool=["random", "heuristic"],
            )
            env.reset(seed=s.seed * 1000 + i)
            return env

        return build

    vec = dummy_vec_env([make_env(i) for i in range(s.envs)])
    envs: list[EternaEnv] = list(vec.envs)
    if resume is not None:
        zip_path = resume if resume.suffix == ".zip" else resume / "model.zip"
        if not zip_path.is_file():
            raise EternaError(f"nothing to resume at {resume}: no model.zip")
        model = maskable_ppo.load(zip_path, env=vec, device="cpu")
    else:
        rate = s.learning_rate
        if rate is None:
            rate = 1e-4 if s.imitate or s.init else 3e-4  # gentler on an imitated policy
        model = maskable_ppo(
            "MlpPolicy",
            vec,
            seed=s.seed,
            n_steps=s.n_steps,
            batch_size=256,
            n_epochs=4,
            gamma=0.997,
            gae_lambda=0.95,
            ent_coef=s.ent_coef,
            clip_range=s.clip_range,
            target_kl=s.target_kl,
            learning_rate=Rate(rate, max(rate, CRITIC_WARMUP_RATE) if s.critic_warmup else rate),
            policy_kwargs={"net_arch": {"pi": list(s.net), "vf": list(s.net)}},
            device="cpu",
            verbose=0,
        )
    return vec, envs, model


class Rate:
    """The learning rate as an sb3 schedule: `warm` while the critic warms up (the actor
    frozen), then `rate`."""

    def __init__(self, rate: float, warm: float) -> None:
        self.rate = rate
        self.warm = warm
        self.warming = warm != rate

    def __call__(self, progress_remaining: float) -> float:
        return self.warm if self.warming else self.rate


def initial_policy(source: str, game_id: str, layout: str) -> NumpyPolicy:
    """The exported weights a fine-tuning run starts from: a .npz path, or "shipped"."""
    if source == "shipped":
        policy = shipped_policy(game_id)
    else:
        path = Path(source)
        policy = NumpyPolicy.load(path / "policy.npz" if path.is_dir() else path)
    if policy.game_id != game_id or policy.meta.get("layout") != layout:
        raise EternaError(
            f"--init {source}: those weights play {policy.game_id} ({policy.meta.get('layout')} "
            f"actions), not {game_id} ({layout})"
        )
    if len(policy.layers) < 2:
        raise EternaError(f"--init {source}: a policy needs at least one hidden layer")
    return policy


def _starting_policy(
    s: TrainSettings, resume: Path | None
) -> tuple[TrainSettings, NumpyPolicy | None]:
    """A fresh fine-tuning run's starting weights (`s.init`), the network taking their shape."""
    if not s.init or resume is not None:
        return s, None
    policy = initial_policy(s.init, s.game, s.layout)
    return replace(s, net=tuple(w.shape[0] for w, _ in policy.layers[:-1])), policy


def load_actor(model: Any, policy: NumpyPolicy) -> None:
    """Copy exported weights into the sb3 policy's actor (the inverse of `export_policy`)."""
    import torch

    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    if [tuple(lin.weight.shape) for lin in linears] != [w.shape for w, _ in policy.layers]:
        raise EternaError("--init: the weights do not fit the network being trained")
    with torch.no_grad():
        for lin, (w, b) in zip(linears, policy.layers, strict=True):
            lin.weight.copy_(torch.from_numpy(w))
            lin.bias.copy_(torch.from_numpy(b))


def train(
    settings: TrainSettings,
    out: Path,
    resume: Path | None = None,
    progress: Callable[[int, float, EvalPoint | None], None] | None = None,
) -> RunRecord:
    """Train (or continue) a run into `out` for `settings.minutes` of wall time."""
    torch, maskable_ppo, dummy_vec_env = _libraries()
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    s, start_policy = _starting_policy(settings, resume)
    out.mkdir(parents=True, exist_ok=True)
    record = RunRecord(settings=asdict(s))
    if resume is not None:
        resume_dir = resume if resume.is_dir() else resume.parent
        record = _read_record(resume_dir / "run.json")
        s = replace(s, net=tuple(record.settings.get("net", s.net)))  # the model's own shape
        record.settings = {**record.settings, **asdict(s)}
    self_play = _SelfPlay()
    checkpoints: list[PoolEntry] = []

    vec, envs, model = _model(s, resume, maskable_ppo, dummy_vec_env)
    if start_policy is not None:
        load_actor(model, start_policy)
        for key in ("imitation_samples", "imitation_seconds"):  # what the start learnt from
            record.settings[key] = start_policy.meta.get(key, 0)
    warmup = _Warmup(model, s.critic_warmup if resume is None else 0, torch)
    budget = s.minutes * 60.0
    start_seconds = record.seconds
    start = time.monotonic()
    imitation_seconds = 0.0
    if s.imitate and resume is None:
        samples = imitate(model, envs[0], s, deadline=start + budget * 0.8)
        record.settings["imitation_samples"] = samples
        imitation_seconds = time.monotonic() - start
        record.settings["imitation_seconds"] = round(imitation_seconds, 1)
    eval_every = budget / max(1, s.evals)

    def snapshot() -> NumpyPolicy:
        meta = {
            "steps": int(model.num_timesteps),
            "train_seconds": round(record.seconds, 1),
            "seed": s.seed,
            "net": list(s.net),
            "trainer": "sb3-contrib MaskablePPO",
            "init": s.init,
            "imitation_samples": record.settings.get("imitation_samples", 0),
            "imitation_seconds": record.settings.get("imitation_seconds", 0.0),
        }
        return export_policy(model, envs[0], meta)

    def set_pools(progress_share: float) -> None:
        entries, weights = _pool(s.opponents, progress_share, self_play, checkpoints)
        for env in envs:
            env.set_pool(entries, weights)

    def evaluation(elapsed: float) -> EvalPoint:
        policy = snapshot()
        policy.save(out / "policy.npz")
        policy.save(out / f"policy-{model.num_timesteps}.npz")
        self_play.policy = policy
        checkpoints.append(_frozen(policy))
        wins, games = evaluate(policy, s.game, s.players, s.eval_games)
        low, high = wilson(wins, games)
        point = EvalPoint(model.num_timesteps, round(elapsed, 1), wins / games, low, high, games)
        record.curve.append(point)
        warmup.save(out / "model.zip")
        _write(out, record)
        return point

    class Clock(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = eval_every
            self.eval_seconds = 0.0

        def _on_step(self) -> bool:
            warmup.step(self.num_timesteps)
            elapsed = time.monotonic() - start
            train_elapsed = elapsed - self.eval_seconds - imitation_seconds
            record.seconds = start_seconds + train_elapsed
            record.steps = int(model.num_timesteps)
            if progress is not None:
                progress(record.steps, min(elapsed / budget, 1.0), None)
            done = elapsed >= budget or (
                s.max_steps is not None and self.num_timesteps >= s.max_steps
            )
            if elapsed >= self.next_eval and not done:
                t0 = time.monotonic()
                point = evaluation(record.seconds)
                self.eval_seconds += time.monotonic() - t0
                self.next_eval += eval_every
                set_pools(min(elapsed / budget, 1.0))
                if progress is not None:
                    progress(record.steps, min(elapsed / budget, 1.0), point)
            return not done

    clock = Clock()
    set_pools(0.0 if resume is None else 0.5)
    model.learn(
        total_timesteps=10**12,
        callback=clock,
        reset_num_timesteps=resume is None,
        progress_bar=False,
    )
    record.seconds = (
        start_seconds + (time.monotonic() - start) - clock.eval_seconds - imitation_seconds
    )
    record.steps = int(model.num_timesteps)
    point = evaluation(record.seconds)
    if progress is not None:
        progress(record.steps, 1.0, point)
    _plot(out, record, s.game)
    vec.close()
    return record


def imitate(model: Any, env: EternaEnv, s: TrainSettings, deadline: float) -> int:
    """Behaviour cloning: fit the policy's actor to the heuristic's choices (cross-entropy over
    the legal actions) in `s.imitate` heuristic games before PPO, for `s.imitate_epochs` passes;
    then, with `s.dagger`, DAgger: the clone plays that many games against the heuristic, its
    positions labelled with the heuristic's choices, and the fit continues on all the data
    (for half the passes, at a third of the rate). Until `deadline` at most (80% of the run's
    time). Returns the samples used."""
    x, m, y = imitation_data(env, s.imitate, s.seed, deadline)
    if not len(y):
        return 0
    fit_actor(model, (x, m, y), s.imitate_epochs, 1e-3, s.seed, deadline)
    if s.dagger and time.monotonic() < deadline:
        meta = {"steps": 0, "seed": s.seed, "net": list(s.net)}
        clone = export_policy(model, env, meta)
        more = imitation_data(env, s.dagger, s.seed, deadline, learner=clone)
        x, m, y = (np.concatenate([a, b]) for a, b in zip((x, m, y), more, strict=True))
        fit_actor(model, (x, m, y), max(1, s.imitate_epochs // 2), 3e-4, s.seed + 1, deadline)
    return len(y)


class _Warmup:
    """The critic's warm-up (`critic_warmup`): for its first `steps` environment steps only the
    value function learns (at CRITIC_WARMUP_RATE), so that the actor's first updates follow
    the advantages of a critic that knows the starting policy; then the model's own optimizer
    (what a saved model keeps) takes over."""

    def __init__(self, model: Any, steps: int, torch: Any) -> None:
        self.model = model
        self.full = model.policy.optimizer
        rate = model.learning_rate
        self.rate = rate if isinstance(rate, Rate) else None
        self.until = steps if self.rate is not None else 0
        if self.until:
            critic = [*model.policy.mlp_extractor.value_net.parameters()]
            critic += [*model.policy.value_net.parameters()]
            model.policy.optimizer = torch.optim.Adam(critic, lr=CRITIC_WARMUP_RATE, eps=1e-5)
        elif self.rate is not None:
            self.rate.warming = False  # a resumed run saved during its warm-up

    def step(self, steps: int) -> None:
        if self.until and steps >= self.until and self.rate is not None:
            self.model.policy.optimizer = self.full  # the actor moves from here on
            self.rate.warming = False
            self.until = 0

    def save(self, path: Path) -> None:
        current = self.model.policy.optimizer
        self.model.policy.optimizer = self.full
        self.model.save(path)
        self.model.policy.optimizer = current


def _pool(
    opponents: str, share: float, self_play: _SelfPlay, checkpoints: list[PoolEntry]
) -> tuple[list[PoolEntry], list[float]]:
    """The opponent pool at `share` of the run. The curriculum: random play fades, the
    heuristic and self-play grow; or, with `opponents="heuristic"`, the heuristic 80% of the
    time, the learner's current policy and its last three checkpoints the rest."""
    entries: list[PoolEntry]
    if opponents == "heuristic":
        entries, weights = ["heuristic"], [0.8]
    else:
        entries = ["random", "heuristic"]
        weights = [max(0.05, 0.6 - share), 0.4 + 0.4 * share]
    if self_play.policy is not None:
        entries.append(self_play.entry)
        weights.append(0.1 if opponents == "heuristic" else 0.2 + 0.2 * share)
    recent = checkpoints[-3:]
    for entry in recent:
        entries.append(entry)
        weights.append(0.1 / len(recent) if opponents == "heuristic" else 0.1)
    return entries, weights


class _SelfPlay:
    """The current policy as a pool entry (sampled moves, refreshed at each evaluation)."""

    def __init__(self) -> None:
        self.policy: NumpyPolicy | None = None

    def entry(self, seed: int) -> LearnedAgent:
        return LearnedAgent(seed=seed, greedy=False, policy=self.policy)


def _frozen(policy: NumpyPolicy) -> PoolEntry:
    return lambda seed: LearnedAgent(seed=seed, greedy=False, policy=policy)


def _write(out: Path, record: RunRecord) -> None:
    doc = {
        "settings": record.settings,
        "steps": record.steps,
        "seconds": round(record.seconds, 1),
        "steps_per_second": round(record.steps_per_second, 1),
    }
    (out / "run.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    curve = [asdict(p) for p in record.curve]
    (out / "curve.json").write_text(json.dumps(curve, indent=2) + "\n", encoding="utf-8")


def _read_record(path: Path) -> RunRecord:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        curve = json.loads((path.parent / "curve.json").read_text(encoding="utf-8"))
        return RunRecord(
            settings=doc["settings"],
            steps=int(doc["steps"]),
            seconds=float(doc["seconds"]),
            curve=[EvalPoint(**p) for p in curve],
        )
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise EternaError(f"cannot resume from {path.parent}: {exc}") from exc


def _plot(out: Path, record: RunRecord, game_id: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([p.steps for p in record.curve])
    rate = np.array([p.win_rate for p in record.curve]) * 100
    low = np.array([p.low for p in record.curve]) * 100
    high = np.array([p.high for p in record.curve]) * 100
    fig, ax = plt.subplots(figsize=(7, 4.4))
    ax.fill_between(steps, low, high, alpha=0.25, label="95% Wilson interval")
    ax.plot(steps, rate, marker="o", label="learned vs heuristic")
    players = int(record.settings.get("players", 2))
    ax.axhline(100 / players, linestyle="--", color="grey", label="parity")
    ax.set_xlabel("environment steps")
    ax.set_ylabel("win rate against the heuristic (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"{game_id}: MaskablePPO learning curve")
    # below the axes, where no point of the curve can be, whatever its height
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, frameon=False)
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    plt.close(fig)
