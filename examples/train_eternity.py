"""Train a small policy for Eternity with NumPy only, through the Gymnasium adapter.

    .venv/bin/python examples/train_eternity.py [--seconds 90] [--players 3] [--eval 200]

A linear softmax policy over the legal-action mask (logits = W @ observation + b, illegal
actions masked out), trained by REINFORCE with a running-mean baseline against random
opponents. It prints the win rate of seat 0 against random opponents over `--eval` games for
the untrained policy (uniform over legal moves, i.e. a random player) and for the trained one
(greedy). Shared wins count as wins.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from eterna.adapters.gymnasium import make


class LinearPolicy:
    def __init__(self, obs_size: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, obs_size), np.float64)
        self.b = np.zeros(actions, np.float64)
        self.rng = rng

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        legal = np.flatnonzero(mask)
        logits = self.w[legal] @ obs + self.b[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return legal, p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, Any]:
        legal, p = self.probs(obs, mask)
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[k]), (legal, p, k)


def evaluate(env, policy: LinearPolicy | None, games: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    wins = 0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            mask = info["action_mask"]
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = policy.act(obs.astype(np.float64), mask, greedy=True)
            obs, reward, done, _trunc, info = env.step(action)
        wins += reward > 0
    return wins / games


def train(env, policy: LinearPolicy, seconds: float, lr: float, seed: int) -> int:
    deadline = time.perf_counter() + seconds
    baseline = 0.0
    episodes = 0
    while time.perf_counter() < deadline:
        obs, info = env.reset(seed=seed + 1_000_000 + episodes)
        trajectory = []
        done = False
        reward = 0.0
        while not done:
            x = obs.astype(np.float64)
            action, (legal, p, k) = policy.act(x, info["action_mask"])
            trajectory.append((x, legal, p, k))
            obs, reward, done, _trunc, info = env.step(action)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for x, legal, p, k in trajectory:
            grad = -p
            grad[k] += 1.0  # d log softmax / d logits
            policy.w[legal] += lr * advantage * np.outer(grad, x)
            policy.b[legal] += lr * advantage * grad
        episodes += 1
    return episodes


def main() -> None:
    parser = argparse.ArgumentParser(description="REINFORCE on Eternity, NumPy only")
    parser.add_argument("--seconds", type=float, default=90.0, help="training time")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--eval", type=int, default=200, help="evaluation games")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    env = make("eternity", seat=0, opponents="random", players=args.players)
    policy = LinearPolicy(
        env.observation_space.shape[0], env.action_space.n, np.random.default_rng(1)
    )
    before = evaluate(env, None, args.eval, seed=10_000)
    print(f"before training (random play): {before:.1%} wins over {args.eval} games")
    start = time.perf_counter()
    episodes = train(env, policy, args.seconds, args.lr, args.seed)
    print(f"trained on {episodes} games in {time.perf_counter() - start:.0f} s")
    after = evaluate(env, policy, args.eval, seed=10_000)
    print(f"after training (greedy policy): {after:.1%} wins over {args.eval} games")
    print(f"expected share against {args.players - 1} random players: {1 / args.players:.1%}")


if __name__ == "__main__":
    main()
