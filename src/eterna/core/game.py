"""The game contract of DESIGN.md: actions, states and games, with nothing game-specific."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Generic, Self

from typing_extensions import TypeVar  # a type variable's default (PEP 696) before Python 3.13

from eterna.core.errors import BadRecord, BadSetup, EternaError
from eterna.core.jsonvalue import JsonObject as JsonObject
from eterna.core.jsonvalue import JsonValue as JsonValue
from eterna.core.options import Option, OptionValue, resolve_options
from eterna.core.rng import RECORD_VERSION, check_version
from eterna.core.rng import check_seed as _check_seed

if TYPE_CHECKING:
    from eterna.core.agent import Agent
    from eterna.core.encoding import Encoding

# JSON (core/jsonvalue.py): records and positions are JSON objects the engines write.
Record = JsonObject
# A parameter of an agent spec (`heuristic:beat=0.8`), as agents/registry.py reads it.
AgentParam = bool | int | float | str
# A seat's view, JSON-ready: read-only and untyped inside, for the code that holds any game's
# (agents, the server, the adapters, the renderers' dispatch) and passes it on. Each game's state
# returns its own TypedDict (EternityView, ValeView, EternitiumView: a TypedDict is a
# Mapping[str, object]); a reader of one game's keys narrows with `as_<game>_view`.
View = Mapping[str, object]


class Action:
    """A player's decision; `str(action)` is its canonical notation.

    Games intern their actions (one object per distinct action), so equality is identity and
    the hash is the action's stable `index` within its game: sets and dicts of actions iterate
    in the same order on every machine.
    """

    __slots__ = ("index", "text")

    def __init__(self, index: int, text: str) -> None:
        self.index = index
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.text!r}>"

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> str | tuple[object, ...]:
        # Unpickling (e.g. in a worker process) must give back the interned object.
        return (type(self).from_notation, (self.text,))

    @classmethod
    def from_notation(cls, text: str) -> Self:
        """The interned action written `text`; games override this."""
        raise NotImplementedError


# A state's action type: a game's states are `GameState[ItsAction]`, and a plain `GameState` (any
# game) has `Action`s. Covariant: it is only handed out (legal_actions), never taken in.
ActionCo = TypeVar("ActionCo", bound=Action, covariant=True, default=Action)


class GameState(Generic[ActionCo]):
    """One game in progress. See DESIGN.md, 'The game contract'.

    Not an ABC (ABCMeta would make the compiled classes depend on an interpreted base, see
    docs/compiled.md); the abstract methods still bind every game, mypy checks them.

    The parameters here are the contract's types, which mypy checks at every caller. The
    games' own methods (core/state.py) take `object` where they check the value themselves,
    so that any value (from untyped code, or a JSON message) gets the contract's error on both
    builds: a compiled `int` parameter would turn True into 1, a wrong type into TypeError.
    """

    __slots__ = ()

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game this state is one of."""

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat that must decide now; None once the game is over."""

    @property
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @property
    @abstractmethod
    def scores(self) -> list[int]: ...

    @property
    @abstractmethod
    def winners(self) -> list[int]: ...

    @property
    @abstractmethod
    def players(self) -> int: ...

    @abstractmethod
    def legal_actions(self) -> list[ActionCo]:
        """Every action the current player may take, in a deterministic order."""

    @abstractmethod
    def apply(self, action: Action | str) -> None:
        """Play an Action or its notation; IllegalAction/BadNotation leave the state unchanged."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What `seat` may know (None: a spectator), JSON-serialisable."""

    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def to_record(self) -> Record: ...

    @abstractmethod
    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A full state consistent with everything `seat` has seen."""

    @abstractmethod
    def events_since(self, index: int, seat: int | None) -> list[JsonObject]:
        """The events from the `index`-th on (counting every event of the game), as `seat` may
        see them (None: a spectator); docs/events.md."""

    @abstractmethod
    def event_count(self) -> int:
        """How many events the game has told so far."""

    def to_position(self, seat: int | None = None) -> JsonObject:
        """The whole state at this moment as JSON (docs/positions.md); with `seat`, only what
        that seat knows (hidden parts written "?"). Games override this."""
        raise EternaError(f"{self.game.name} has no position format")

    def random_playout(self, draw: Callable[[], float], limit: int = -1) -> int:
        """Play uniformly random moves, `legal_actions()[int(draw() * len(...))]` with `draw`
        returning floats in [0, 1) (e.g. an agent's `random.Random().random`), until the game
        ends or `limit` moves are played (negative: no limit); the number of moves played. The
        loop of random rollouts and simulations: an engine may override it with a faster one
        that draws the same numbers and plays the same moves."""
        played = 0
        while played != limit and not self.is_terminal:
            actions = self.legal_actions()
            self.apply(actions[int(draw() * float(len(actions)))])
            played += 1
        return played

    def solo_goal(self) -> tuple[float, int] | None:
        """A solo game's way to its goal now: (progress in [0, 1], 1 once the goal is reached;
        what is left to reach it, in the game's own unit, e.g. Eternitium's Era cards). None
        for a game of several seats or a game without such a measure (the default). Searches
        value a solo line by it instead of a win share that is 0 in every lost line."""
        return None

    def public_notation(self, action: Action) -> str | None:
        """What every other seat learns of `action` (legal here, not yet applied): its notation
        when the action is played in the open, None when only the player may know it. Front ends
        publish move logs through this (the views already hold everything else)."""
        return str(action)


class Game(ABC):
    """A registered game: its identity, player range and documented options."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    declared_options: ClassVar[Mapping[str, Option]] = {}

    @property
    def options(self) -> dict[str, OptionValue]:
        """Option name -> default (documented in `declared_options[name].doc`)."""
        return {name: opt.default for name, opt in self.declared_options.items()}

    def resolve_options(self, options: object) -> dict[str, OptionValue]:
        return resolve_options(self.declared_options, options)

    def check_players(self, players: object) -> int:
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadSetup(f"players must be an integer, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise BadSetup(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players}"
            )
        return players

    def check_seed(self, seed: object) -> int:
        """The game's seed: 0 .. 2**62 - 1, or one drawn from the OS (and recorded) when None."""
        if seed is None:
            return random.SystemRandom().getrandbits(62)
        return _check_seed(seed)

    def check_version(self, version: object) -> int:
        """The record version a new game is played under: 1 (the legacy generators) or 2."""
        return check_version(version)

    @abstractmethod
    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
        setup: object = None,
        *,
        version: int = RECORD_VERSION,
    ) -> GameState:
        """A game at its start; `version` picks the generator its seed drives (records of
        version 1 replay through eterna.core.legacy). `setup` is the game's JSON setup
        (docs/<game>.md). The games take `object` and check each value (BadSetup naming it),
        as GameState's methods do."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written `text`, or BadNotation (the games take `object`: BadNotation for
        what is no text either)."""

    def action_words(self, action: Action) -> tuple[str, JsonObject]:
        """What a front end needs to label `action` in a player's language: a catalog key
        (`<game>.action.<verb>`) and its named parameters (card ids, seats, amounts). The default
        shows the notation itself."""
        return "common.action.notation", {"notation": str(action)}

    # What a game may offer beyond the contract; the defaults say it offers none.
    def make_heuristic(self, seed: int | None = None, **params: AgentParam) -> Agent | None:
        """The game's own heuristic agent (spec `heuristic`), or None if it has none. `params`
        are the agent spec's: each game's heuristic takes its own keywords and checks them."""
        return None

    def search_defaults(self) -> dict[str, AgentParam]:
        """The ISMCTS parameters this game plays best with (the spec's own win over them)."""
        return {}

    def encoding_class(self) -> type[Encoding]:
        """The game's fixed-size encoding for learning code (needs NumPy)."""
        raise EternaError(f"{self.name} has no encoding for learning code")

    def from_position(
        self, position: Mapping[str, JsonValue] | str, *, narrate: bool = False
    ) -> GameState:
        """The state a position (a dict, its JSON text or its share code) describes: the same
        legal moves, views and future as the state that wrote it. A seat's position gives a
        state whose unknowns are one consistent guess (`determinize` draws others); such a
        state is a guess and has no record. Malformed or impossible: BadPosition, naming
        the field."""
        raise EternaError(f"{self.name} has no position format")

    def from_record(self, record: Mapping[str, object]) -> GameState:
        """Replay a record: same record, same state, on every machine."""
        if not isinstance(record, Mapping):
            raise BadRecord("a record is a JSON object")
        if record.get("game") != self.id:
            raise BadRecord(f"record is for game {record.get('game')!r}, not {self.id!r}")
        actions = record.get("actions", [])
        if not isinstance(actions, Sequence) or isinstance(actions, str):
            raise BadRecord("record 'actions' must be a list of notation strings")
        try:  # absent: a record written before version 2
            version = check_version(record.get("version", 1))
        except BadSetup as exc:
            raise BadRecord(str(exc)) from None
        # The record's values reach the game as read (untyped references): the game checks
        # each and names it, where a typed call would convert or refuse them first once compiled.
        from_position: Callable[..., GameState] = self.from_position
        new_game: Callable[..., GameState] = self.new_game
        if record.get("position") is not None:  # a game played on from a position
            try:
                state = from_position(record["position"])
            except EternaError as exc:
                raise BadRecord(f"record cannot start a game: {exc}") from exc
            return _replay_actions(state, actions)
        try:
            state = new_game(
                players=record.get("players"),
                seed=record.get("seed"),
                options=record.get("options") or {},
                setup=record.get("setup"),
                version=version,
            )
        except EternaError as exc:
            raise BadRecord(f"record cannot start a game: {exc}") from exc
        return _replay_actions(state, actions)


def check_seat(seat: object, players: int) -> int:
    """`seat` if it is a seat of a `players`-player table, else EternaError."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise EternaError(f"no seat {seat!r} at a {players}-player table")
    return seat


def check_audience(seat: object, players: int) -> int | None:
    """`seat` if it is a seat of a `players`-player table or None (a spectator), else
    EternaError."""
    return None if seat is None else check_seat(seat, players)


def _replay_actions(state: GameState, actions: Sequence[object]) -> GameState:
    for number, text in enumerate(actions):
        if not isinstance(text, str):
            raise BadRecord(f"action {number} is not a notation string: {text!r}")
        try:
            state.apply(text)
        except EternaError as exc:
            raise BadRecord(f"action {number} ({text!r}) refused: {exc}") from exc
    return state
