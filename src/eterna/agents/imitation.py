"""Behaviour cloning for `eterna train` (`--imitate`, `--dagger`): the heuristic's decisions as
labelled positions, and the fit of a policy's actor to them.

Split from `eterna.agents.train` (which runs it before PPO, `imitate`) so that each module has
one job: this one turns games into data and data into an actor; torch is imported only inside
`fit_actor` (the `train` extra).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from eterna.adapters.gymnasium import EternaEnv
from eterna.agents.learned import LearnedAgent, NumpyPolicy
from eterna.agents.registry import make_agent

EVAL_SEED = 900_000  # evaluation deals: EVAL_SEED + i, never a training seed
MAX_IMITATE = 100_000  # imitation (and DAgger) games a run may ask for


def imitation_data(
    env: EternaEnv,
    games: int,
    seed: int,
    deadline: float,
    learner: NumpyPolicy | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(observations, layout masks, layout ids) of every heuristic decision with a choice, in
    `games` heuristic-only games (or as many as end before `deadline`), each seat's
    observation as the environment would give it (float16: the encodings' values lie in
    [0, 1]). With `learner` (DAgger), the learner plays one seat of each game (the seats in
    turn) and its positions are labelled with what the heuristic would have played there."""
    game = env.game
    enc = env.encoding
    layout = env.layout
    obs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    labels: list[int] = []
    first = MAX_IMITATE if learner is not None else 0  # DAgger games: deals of their own
    for g in range(first, first + games):
        if time.monotonic() > deadline and obs:
            break
        state = game.new_game(players=env.players, seed=EVAL_SEED * 2 + seed * 10_000 + g)
        agents = [make_agent("heuristic", seed=seed * 10_000 + 10 * g + k) for k in range(9)]
        plays = LearnedAgent(seed=g, policy=learner) if learner is not None else None
        learner_seat = g % env.players if learner is not None else -1
        moves = 0
        while not state.is_terminal and moves < env.max_moves:
            seat = state.current_player
            assert seat is not None
            legal = enc.legal_ids(state)
            action = agents[seat].choose(state, seat)
            if len(legal) > 1:
                mask = layout.mask(legal)
                if mask.sum() > 1:
                    obs.append(enc.new_observation(state, seat).astype(np.float16))
                    masks.append(mask)
                    labels.append(int(layout.to_layout[action.index]))
            if seat == learner_seat and plays is not None:
                action = plays.choose(state, seat)
            state.apply(action)
            moves += 1
    return np.array(obs, np.float16), np.array(masks, bool), np.array(labels, np.int64)


def fit_actor(
    model: Any,
    data: tuple[np.ndarray, np.ndarray, np.ndarray],
    epochs: int,
    rate: float,
    seed: int,
    deadline: float,
) -> None:
    """Cross-entropy of the actor's masked logits against the labels, in batches of 256, the
    last third of the passes at a third of `rate`."""
    import torch

    policy = model.policy
    params = [*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()]
    optimizer = torch.optim.Adam(params, lr=rate)
    xs, ms, ys = (torch.from_numpy(a) for a in data)
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        if epoch == epochs - epochs // 3:
            for group in optimizer.param_groups:
                group["lr"] = rate / 3
        order = torch.randperm(len(ys), generator=generator)
        for i in range(0, len(ys), 256):
            batch = order[i : i + 256]
            logits = policy.action_net(policy.mlp_extractor.forward_actor(xs[batch].float()))
            logits = logits.masked_fill(~ms[batch], -1e9)
            loss = torch.nn.functional.cross_entropy(logits, ys[batch])
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
        if time.monotonic() > deadline:
            break
