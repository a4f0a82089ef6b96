"""`learned`: a policy network trained by `eterna train`, played with NumPy alone.

The weights ship inside the package (`eterna/agents/weights/<game>.npz`, 0.5-2.3 MB each):
the policy half of an actor-critic MLP (tanh hidden layers, then one logit per action of the
environment's action layout, `eterna.adapters.layouts`), exported from the torch policy by
`eterna.agents.train.export_policy`, with a JSON metadata record (`meta`) naming the game, the
encoding version and its digests, the layout and how the model was trained.

At play time the agent sees only its seat's view, like every agent: the observation is the
encoding of `window.view()` (`Encoding.encode`, the reference path the environment's fast path is
tested equal to), the mask comes from `window.legal_actions()`, and it plays the legal action of
highest logit (`greedy=false`: samples them with its own seeded generator). One decision costs
a view, an encoding and two small matrix products: about 1 ms (docs/agents.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from eterna.core.agent import Agent, SeatWindow, ViewAgent
from eterna.core.errors import EternaError
from eterna.core.game import Action, Game, View

WEIGHTS_PACKAGE = "eterna.agents.weights"


class NumpyPolicy:
    """An MLP policy read from an .npz file: `logits(obs)` with tanh hidden layers."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], meta: dict[str, Any]) -> None:
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.meta = meta
        self.game_id: str = meta["game"]
        self.obs_size = int(self.layers[0][0].shape[1])
        self.num_outputs = int(self.layers[-1][0].shape[0])
        self._encoding: Any = None
        self._layout: Any = None

    @classmethod
    def load(cls, source: Path | Any) -> NumpyPolicy:
        try:
            with np.load(source, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                count = int(meta["layers"])
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
        except (OSError, KeyError, ValueError) as exc:
            raise EternaError(f"cannot read learned weights from {source}: {exc}") from exc
        return cls(layers, meta)

    def save(self, path: Path) -> None:
        meta = json.dumps({**self.meta, "layers": len(self.layers)})
        arrays: dict[str, Any] = {"meta": np.array(meta)}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(out, **arrays)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = obs
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = w @ x + b
            if i < last:
                x = np.tanh(x)
        return x

    # the encoding and layout the policy was trained with, made once
    def encoding(self) -> Any:
        if self._encoding is None:
            try:
                from eterna.adapters.encodings import encoding_class
                from eterna.adapters.layouts import ActionLayout
            except ImportError as exc:  # the encodings need the research extra (librt)
                raise EternaError(
                    f"the learned bot needs the research extra (pip install eterna[research]): "
                    f"{exc}"
                ) from None

            cls = encoding_class(self.game_id, None, int(self.meta["encoding_version"]))
            if cls.action_digest() != self.meta["action_digest"]:
                raise EternaError(
                    f"the learned {self.game_id} weights were trained on another action table"
                )
            self._encoding = cls(None)
            self._layout = ActionLayout(self._encoding, self.meta["layout"])
            if self._encoding.size != self.obs_size or self._layout.size != self.num_outputs:
                raise EternaError(f"the learned {self.game_id} weights do not fit its encoding")
        return self._encoding

    def choose(self, view: View, legal: list[Action], rng: Any = None) -> Action:
        """The legal action the policy plays from `view` (greedy, or sampled with `rng`)."""
        encoding = self.encoding()
        layout = self._layout
        ids = [a.index for a in legal]
        if any(i >= encoding.num_actions for i in ids) or view.get("artifacts"):
            raise EternaError(
                f"the learned {self.game_id} bot plays the base game only (no expansions)"
            )
        obs = encoding.encode(view)
        logits = self.logits(obs)
        allowed = np.flatnonzero(layout.mask(ids))
        scores = logits[allowed]
        if rng is None:
            pick = int(allowed[int(np.argmax(scores))])
        else:
            p = np.exp(scores - scores.max())
            p /= p.sum()
            pick = int(allowed[int(rng.choices(range(len(allowed)), weights=p.tolist())[0])])
        flat = layout.resolve(pick, ids)
        return legal[ids.index(flat)]


_SHIPPED: dict[str, NumpyPolicy] = {}


def shipped_policy(game_id: str) -> NumpyPolicy:
    """The weights shipped for `game_id` (loaded once per process)."""
    policy = _SHIPPED.get(game_id)
    if policy is None:
        ref = resources.files(WEIGHTS_PACKAGE) / f"{game_id}.npz"
        if not ref.is_file():
            raise EternaError(f"no learned bot ships for {game_id!r} yet")
        with ref.open("rb") as data:
            policy = _SHIPPED[game_id] = NumpyPolicy.load(data)
    return policy


class LearnedAgent(ViewAgent):
    """The shipped policy of the game being played (or `policy`, for training and tests)."""

    name = "learned"

    def __init__(
        self, seed: int | None = None, greedy: bool = True, policy: NumpyPolicy | None = None
    ) -> None:
        super().__init__(seed)
        if not isinstance(greedy, bool):
            raise EternaError(f"agent parameter 'greedy' must be true or false, not {greedy!r}")
        self.greedy = greedy
        self.policy = policy

    def check_game(self, game: Game) -> None:
        """EternaError unless weights ship for `game` (checked before a table starts)."""
        policy = self.policy or shipped_policy(game.id)
        if policy.game_id != game.id:
            raise EternaError(f"these learned weights play {policy.game_id}, not {game.id}")
        policy.encoding()  # the encoding it needs is there and fits

    def decide(self, window: SeatWindow) -> Action:
        game_id = window.game_id
        policy = self.policy or shipped_policy(game_id)
        if policy.game_id != game_id:
            raise EternaError(f"these learned weights play {policy.game_id}, not {game_id}")
        return policy.choose(window.view(), window.legal_actions(), self._rng())

    def act(self, view: View, legal: list[Action]) -> Action:
        policy = self.policy or shipped_policy(str(view["game"]))
        return policy.choose(view, legal, self._rng())

    def _rng(self) -> Any:
        return None if self.greedy else self.rng


def checkpoint(path: Path | str, greedy: bool = True) -> Callable[[int], Agent]:
    """A pool entry (`seed -> Agent`) playing the exported weights at `path`."""
    policy = NumpyPolicy.load(Path(path))
    return lambda seed: LearnedAgent(seed=seed, greedy=greedy, policy=policy)
