"""The Eterna games as OpenSpiel Python games. Importing this module registers them:

    import pyspiel
    import eterna.adapters.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("python_eterna_eternity", {"players": 4, "rng_seed": 7})

Names: `python_eterna_eternitium`, `python_eterna_eternity`, `python_eterna_vale`.
Parameters: `players`, `rng_seed` (-1: drawn from the OS), every scalar game option under its
own name (e.g. `tie_break`, `allow_superfluous_payment`), and `options_json` (a JSON object of
options, for those that are not scalars, e.g. Eternitium's `composition` or The Vale's
`expansions`; it wins over the scalar parameters), and `encoding_version` (0: the default for
the options, i.e. The Vale's version 2 with expansions, version 1 otherwise).

Chance: **sampled stochastic**. Each engine draws its chance from its own seeded generator (a
deal, a shuffle, a reshuffle of the discard pile happen inside `apply`), so no chance node is
ever exposed; `new_initial_state()` draws the game's seed from a generator seeded by
`rng_seed`, and `resample_from_infostate` uses `state.determinize(seat, rng)`, which also
redraws the future chance. See docs/encodings.md for why.

Observations (pyspiel observers built on eterna.adapters.encodings):
- tensor: the encoding of `state.view(player)` (the same for the information state and the
  observation; a spectator's view when the observation type has no private information);
- observation string: the view as canonical JSON (sorted keys);
- information state string: the same, plus the player's own past actions in order.
Returns: +1 to every winner (shared wins included), -1 to the others, at the end only.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from eterna.adapters.encodings import ENCODINGS, Encoding, encoding_class
from eterna.core.errors import EternaError
from eterna.core.game import Action, Game, GameState, View
from eterna.core.registry import game_ids, load_game

PREFIX = "python_eterna_"


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _scalar_options(game: Game) -> dict[str, Any]:
    return {k: v for k, v in game.options.items() if isinstance(v, bool | int | float | str)}


def _max_game_length(game_id: str, players: int, options: dict[str, Any]) -> int:
    """An upper bound on decisions per game (measured random games stay far below it)."""
    if game_id == "eternity":
        from eterna.games.eternity import cards

        return cards.ROUNDS * cards.HAND_SIZE[players] * players
    if game_id == "vale":
        return 1000 * players
    rounds = options.get("round_limit") or 1000
    return 100 * rounds * players


# (game id, encoding version) -> its action table (a state holds the key: it is deep-copied)
_ACTIONS: dict[tuple[str, int], tuple[Action, ...]] = {}


class _Holder:
    """Holds an Eterna state; OpenSpiel's Python-state clone deep-copies attributes, and a
    deep copy of this is the engine's cheap `clone()`. Pickles (OpenSpiel serialisation) as
    the game record when the state has one."""

    __slots__ = ("st",)

    def __init__(self, st: GameState | None) -> None:
        self.st = st

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(None if self.st is None else self.st.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        if self.st is None:
            return (_Holder, (None,))
        try:
            return (_from_record, (self.st.to_record(),))
        except EternaError:
            return (_Holder, (self.st,))


class _Moves(list[tuple[int, int]]):
    """(seat, action id) per decision; deep-copied as a shallow copy (its items are immutable)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Moves:
        return _Moves(self)


def _from_record(record: dict[str, Any]) -> _Holder:
    return _Holder(load_game(record["game"]).from_record(record))


class EternaObserver:
    """A pyspiel Python observer: `tensor`, `dict`, `set_from`, `string_from`."""

    def __init__(
        self, encoding: Encoding, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.encoding = encoding
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.private = not (
            iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        )
        self.tensor = np.zeros(encoding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state: EternaState, player: int) -> View:
        return state.eterna.view(player if self.private else None)

    def set_from(self, state: EternaState, player: int) -> None:
        if self.private:  # the encoding's fast path: equal to encode(view(player))
            self.encoding.observe(state.eterna, player, self.tensor)
        else:
            self.encoding.encode(self._view(state, player), self.tensor)

    def string_from(self, state: EternaState, player: int) -> str:
        text = json.dumps(self._view(state, player), sort_keys=True, separators=(",", ":"))
        if self.perfect_recall and self.private:
            own = [a for s, a in state.moves if s == player]
            text += " own:" + ",".join(self.encoding.notation(a) for a in own)
        return text


class EternaGame(pyspiel.Game):  # type: ignore[misc]
    """One Eterna game as an OpenSpiel game (see the module docstring)."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.eterna_game = load_game(self.game_id)
        defaults = _TYPES[self.game_id].parameter_specification
        merged = {k: params.get(k, v) for k, v in defaults.items()}
        self.num_seats = self.eterna_game.check_players(int(merged["players"]))
        options = {k: merged[k] for k in _scalar_options(self.eterna_game)}
        if merged["options_json"]:
            options.update(json.loads(merged["options_json"]))
        self.game_options = self.eterna_game.resolve_options(options)
        seed = int(merged["rng_seed"])
        self._seeds = random.Random(None if seed < 0 else seed)
        version = int(merged["encoding_version"]) or None
        self.encoding_class = encoding_class(self.game_id, self.game_options, version)
        _ACTIONS[self.game_id, self.encoding_class.version] = self.encoding_class.actions
        self.encoding = self.encoding_class(self.num_seats)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=self.num_seats,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=_max_game_length(self.game_id, self.num_seats, self.game_options),
        )
        super().__init__(_TYPES[self.game_id], info, merged)

    def new_initial_state(self, *args: Any) -> EternaState:
        # The deal happens on first use: OpenSpiel's clone starts from a new initial state and
        # then overwrites its attributes, so dealing here would be wasted on every clone.
        return EternaState(self, self._seeds.getrandbits(62))

    def deal(self, seed: int) -> GameState:
        return self.eterna_game.new_game(
            players=self.num_seats, seed=seed, options=self.game_options
        )

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> EternaObserver:
        return EternaObserver(self.encoding_class(self.num_seats), iig_obs_type, params)


class EternaState(pyspiel.State):  # type: ignore[misc]
    """An Eterna state seen by OpenSpiel: action ids are the encoding's."""

    def __init__(self, game: EternaGame, seed: int) -> None:
        super().__init__(game)
        # Only small attributes: OpenSpiel's clone deep-copies every instance attribute.
        self._h = _Holder(None)  # the Eterna state, dealt on first use
        self._seed = seed
        self._table = (game.game_id, game.encoding_class.version)  # its key in _ACTIONS
        self.moves = _Moves()  # (seat, action id) of every decision

    @property
    def eterna(self) -> GameState:
        """The Eterna state (full information: read it through `view` for a seat)."""
        st = self._h.st
        if st is None:
            game: EternaGame = self.get_game()
            st = self._h.st = game.deal(self._seed)
        return st

    def current_player(self) -> int:
        st = self.eterna
        if st.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(st.current_player)  # type: ignore[arg-type]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted([a.index for a in self.eterna.legal_actions()])

    def _apply_action(self, action: int) -> None:
        st = self.eterna
        seat = st.current_player
        st.apply(_ACTIONS[self._table][action])
        self.moves.append((int(seat), int(action)))  # type: ignore[arg-type]

    def _action_to_string(self, player: int, action: int) -> str:
        return str(_ACTIONS[self._table][action].text)

    def is_terminal(self) -> bool:
        return bool(self.eterna.is_terminal)

    def returns(self) -> list[float]:
        st = self.eterna
        if not st.is_terminal:
            return [0.0] * st.players
        winners = st.winners
        return [1.0 if s in winners else -1.0 for s in range(st.players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EternaState:
        """A state consistent with `player_id`'s information: `determinize`, seeded from the
        sampler (so OpenSpiel's generator drives it)."""
        try:
            seed = int(probability_sampler() * 2**53)
        except TypeError:
            seed = random.getrandbits(53)
        new = self.clone()
        new._h = _Holder(self.eterna.determinize(player_id, random.Random(seed)))
        return new  # type: ignore[no-any-return]

    def __str__(self) -> str:
        view = dict(self.eterna.view(None))
        view.pop("log", None)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _game_type(game_id: str) -> pyspiel.GameType:
    game = load_game(game_id)
    params: dict[str, Any] = {
        "players": max(game.min_players, 2),
        "rng_seed": -1,
        "options_json": "",
        "encoding_version": 0,
    }
    params.update(_scalar_options(game))
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"Python Eterna {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_TYPES: dict[str, pyspiel.GameType] = {}
GAME_CLASSES: dict[str, type[EternaGame]] = {}


def register_all() -> None:
    """Register every Eterna game with pyspiel (idempotent; done on import)."""
    registered = set(pyspiel.registered_names())
    for game_id in game_ids():
        if game_id not in ENCODINGS:
            continue
        if game_id not in _TYPES:
            _TYPES[game_id] = _game_type(game_id)
            GAME_CLASSES[game_id] = type(
                f"Eterna{game_id.capitalize()}Game", (EternaGame,), {"game_id": game_id}
            )
        if short_name(game_id) not in registered:
            pyspiel.register_game(_TYPES[game_id], GAME_CLASSES[game_id])


def load(game_id: str, players: int | None = None, **params: Any) -> pyspiel.Game:
    """`pyspiel.load_game(short_name(game_id), {...})` with `players` and parameters."""
    spec: dict[str, Any] = dict(params)
    if players is not None:
        spec["players"] = players
    return pyspiel.load_game(short_name(game_id), spec)


register_all()
