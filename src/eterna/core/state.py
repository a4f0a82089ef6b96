"""The shared shell of every game state (template method, in OpenSpiel's shape).

`BaseState` owns what DESIGN.md's contract asks of every game and is the same everywhere:
turning notation into an action, checking it against the legal set, refusing it with the rule's
message, recording it, the record itself, seat checks for `view` and `determinize`, the
read-only properties, and `clone`. A game writes only its rules:

    _legal()                  the legal actions now, as a tuple (cached by the base until apply)
    _allows(action)           whether a well-formed action is legal now (default: in `_legal()`;
                              a game with a cheaper test, e.g. bit masks, writes its own)
    _apply(action)            play a legal action (the base has checked and recorded it): the
                              game's hot step
    _apply_if_legal(action)   `_allows`, then `_apply` (the default); a game whose test and
                              step read the same fields writes the two as one method
    _refusal(action)          the IllegalAction naming the rule that forbids a well-formed action
    _view(seat)               what `seat` (None: a spectator) may know
    _determinize(seat, rng)   a full state consistent with what `seat` has seen
    scores                    the running scores

What never changes during a game (the game, player count, seed, options, setup, a deal drawn at
the start...) sits in one frozen `GameStart` shared by the state and all its clones.

Each field is declared once, by its annotation, which says how a clone gets it (core/fields.py):
`make fields` writes `__slots__` and `clone` from the declarations, `to_fields`/`from_fields`
read and fill the declared fields for the position writers and readers, and
tests/core/test_clone_declarations.py fails when any of them disagrees with the declaration.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, ClassVar, Generic, Self, TypeVar

from eterna.core.errors import EternaError, IllegalAction
from eterna.core.events import Event
from eterna.core.fields import Copied
from eterna.core.frozen import Frozen
from eterna.core.game import (
    Action,
    GameState,
    JsonObject,
    JsonValue,
    Record,
    View,
    check_audience,
    check_seat,
)
from eterna.core.options import OptionValue
from eterna.core.records import make_record
from eterna.core.rng import RECORD_VERSION

if TYPE_CHECKING:
    from eterna.core.game import Game

ActionT = TypeVar("ActionT", bound=Action)
StartT = TypeVar("StartT", bound="GameStart")


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStart(Frozen):
    """What never changes during one game; games subclass it with what their deal fixes.

    `options` and `setup` are JSON-plain values kept as given (the record copies them).
    """

    game: Game
    players: int
    seed: int
    options: dict[str, OptionValue] = field(default_factory=dict)
    setup: JsonValue = None  # as given, a JSON-ready copy (docs/<game>.md)
    version: int = RECORD_VERSION  # the record version: which generator the seed drives
    position: Mapping[str, JsonValue] | None = (
        None  # the whole position a game was loaded from (docs/positions.md)
    )


def copy_events(events: list[Event] | None) -> list[Event] | None:
    return None if events is None else events[:]


def all_slots(cls: type) -> set[str]:
    """The instance attributes of `cls`: its slots, or what the compiled class declares."""
    names: set[str] = set()
    for klass in cls.__mro__:
        names.update(klass.__dict__.get("__slots__", ()))
        names.update(klass.__dict__.get("__mypyc_attrs__", ()))
    return names - {"__weakref__", "__dict__"}


class BaseState(GameState[ActionT], Generic[ActionT, StartT]):
    """A game in progress; see the module docstring for what a game writes."""

    action_type: ClassVar[type[Action]]  # the game's Action class (the fast path's check)
    not_an_action: ClassVar[str]  # the refusal's words for what is no action of the game

    # The fields: one declaration each (core/fields.py says how; `make fields` writes the rest).
    _start: StartT
    _n: int  # the player count: _start.players, read in every hot loop
    # The class's action_type, read by every apply: through an instance a class attribute is a
    # dictionary search each time on CPython 3.11 (about 250 instructions an Eternity apply).
    # Only `apply`'s identity test reads it: typed `type[object]`, the test narrows nothing, so
    # the compiled copy checks the action's type once (its game's class, exactly) rather than
    # also as an Action through its base classes (26 instructions an Eternity apply).
    _action_type: type[object]
    _current: int  # the seat to decide, -1 once the game is over
    _history: Copied[list[ActionT]]
    _winners: Copied[list[int]]
    _legal_cache: tuple[ActionT, ...] | None  # replaced (never changed) after each action
    _determinized: bool  # a guess made for a search: it has no record
    _events: Annotated[list[Event] | None, copy_events]  # once narrating (None: not kept)
    is_terminal: bool  # a plain attribute: the hottest read of every playout loop

    # Generated from the fields declared above by `make fields` (core/fields.py):
    # do not edit; edit the declaration and run it again.
    __slots__ = (
        "_action_type",
        "_current",
        "_determinized",
        "_events",
        "_history",
        "_legal_cache",
        "_n",
        "_start",
        "_winners",
        "is_terminal",
    )

    def clone(self) -> Self:
        """An independent copy: each field as its declaration says."""
        new = type(self).__new__(type(self))
        new._start = self._start
        new._n = self._n
        new._action_type = self._action_type
        new._current = self._current
        new._history = self._history.copy()
        new._winners = self._winners.copy()
        new._legal_cache = self._legal_cache
        new._determinized = self._determinized
        new._events = copy_events(self._events)
        new.is_terminal = self.is_terminal
        return new

    # End of the generated part.

    def __init__(self, start: StartT | None = None, narrate: bool = False) -> None:
        """`narrate`: keep events from the start (else only once `events_since` asks). Without
        `start`, a blank that `clone` and the position readers fill in (`Cls.__new__(Cls)` is
        one too on the pure path; a compiled class's `__new__` runs `__init__`)."""
        if start is None:
            return
        self._start = start
        self._action_type = self.action_type
        self._events = [] if narrate else None
        self._n = start.players
        self._current = 0
        self._history = []
        self._winners = []
        self._legal_cache = None
        self._determinized = False
        self.is_terminal = False

    # ------------------------------------------------------------------ fields (positions)
    @classmethod
    def from_fields(
        cls, start: StartT, fields: Mapping[str, object], narrate: bool = False
    ) -> Self:
        """A state holding `fields`: a value for every field its class declares beyond
        BaseState's (whose own start from `start` as in a new game, and may be given too). The
        position readers' way in: a missing or unknown name is a reader's bug (KeyError)."""
        missing = sorted(all_slots(cls) - all_slots(BaseState) - fields.keys())
        if missing:
            raise KeyError(f"{cls.__name__} fields: missing {missing}")
        st = cls()
        BaseState.__init__(st, start, narrate)
        st.load_fields(fields)
        return st

    def load_fields(self, fields: Mapping[str, object]) -> None:
        """Set the declared fields named in `fields` (a position reader settling what it has
        read); an undeclared name is a reader's bug (KeyError)."""
        unknown = sorted(fields.keys() - all_slots(type(self)))
        if unknown:
            raise KeyError(f"{type(self).__name__} fields: unknown {unknown}")
        for name, value in fields.items():
            setattr(self, name, value)

    def to_fields(self) -> dict[str, object]:
        """Every declared field by name (the position writers read them here)."""
        return {name: getattr(self, name) for name in sorted(all_slots(type(self)))}

    # ------------------------------------------------------------------ what a game writes
    def _legal(self) -> tuple[ActionT, ...]:
        """Every legal action now, in a deterministic order (empty once the game is over)."""
        raise NotImplementedError

    def _allows(self, action: ActionT) -> bool:
        """Whether the well-formed `action` is legal now: in the legal set, cached until the
        next action. A game that can tell more cheaply (from its own fields) overrides this;
        it must agree with `_legal()` (tests/core and each game's tests hold them together)."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal()
        return action in legal

    def _apply(self, action: ActionT) -> None:
        """Play `action`, which the base has checked is legal and added to the history."""
        raise NotImplementedError

    def _apply_if_legal(self, action: ActionT) -> bool:
        """Play the well-formed `action` (already added to the history) if it is legal now and
        return True; else return False having changed nothing. The default asks `_allows`, drops
        the legal cache, then runs `_apply`. A game that writes its own (Eternity: one call and
        one read of the seat and hand a move instead of two) checks exactly what `_allows`
        would, and drops `_legal_cache` if it fills it."""
        if not self._allows(action):
            return False
        self._legal_cache = None
        self._apply(action)
        return True

    def _refusal(self, action: ActionT) -> IllegalAction:
        """Why the well-formed `action` is refused now, naming the rule (off the hot path)."""
        raise NotImplementedError

    def _view(self, seat: int | None) -> View:
        raise NotImplementedError

    def _determinize(self, seat: int, rng: random.Random) -> Self:
        raise NotImplementedError

    # ------------------------------------------------------------------ contract: reading
    @property
    def game(self) -> Game:
        return self._start.game

    @property
    def start(self) -> StartT:
        """What this game was started with (shared, frozen)."""
        return self._start

    @property
    def players(self) -> int:
        return self._n

    @property
    def seed(self) -> int:
        return self._start.seed

    @property
    def options(self) -> dict[str, OptionValue]:
        return dict(self._start.options)

    @property
    def current_player(self) -> int | None:
        p = self._current
        return None if p < 0 else p

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def history(self) -> list[ActionT]:
        """Every action applied so far, in order."""
        return list(self._history)

    # ------------------------------------------------------------------ contract: playing
    def legal_actions(self) -> list[ActionT]:
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal()
        return list(legal)

    # The contract's entry points take `object` where they check the value themselves (see
    # GameState: the same error for any value on both builds); mypy checks callers against
    # GameState's types.
    def apply(self, action: object) -> None:
        """The contract's shell, the same for every game: the action from its notation (or a
        clear refusal of what is none), recorded, checked against the rules and played by the
        game's step (`_apply_if_legal`), or refused naming the rule (`_refusal`) with nothing
        changed. `make fields` writes a copy of this code into each game's state class (its action
        type named): on the compiled build CPython specializes a call from interpreted code only
        to a method of the object's own class (docs/compiled.md). Edit here, then `make fields`."""
        act: ActionT = (
            action if type(action) is self._action_type else self._coerce(action)  # type: ignore[assignment]
        )
        history = self._history
        history.append(act)  # recorded first: a step reads the trick it ends from the history
        if not self._apply_if_legal(act):
            history.pop()
            raise self._refusal(act)

    def _coerce(self, action: object) -> ActionT:
        """An action from its notation (BadNotation if it is none), or a clear refusal."""
        if isinstance(action, str):
            parsed: ActionT = self._start.game.parse_action(action)  # type: ignore[assignment]
            return parsed
        if isinstance(action, self.action_type):
            return action  # type: ignore[return-value]
        raise IllegalAction(f"{action!r} {self.not_an_action}")

    # ------------------------------------------------------------------ seats
    def check_seat(self, seat: object) -> int:
        """`seat` if it is a seat of this table, else EternaError."""
        return check_seat(seat, self._n)

    def check_audience(self, seat: object) -> int | None:
        """`seat` if it is a seat of this table or None (a spectator), else EternaError."""
        return check_audience(seat, self._n)

    def view(self, seat: object) -> View:
        return self._view(self.check_audience(seat))

    def determinize(self, seat: object, rng: random.Random) -> Self:
        guess = self._determinize(self.check_seat(seat), rng)
        guess._events = None  # a search never reads a story, and copying it would cost
        return guess

    # ------------------------------------------------------------------ events
    @property
    def narrating(self) -> bool:
        """Whether this state keeps its events (it does once `events_since` was asked)."""
        return self._events is not None

    def events_since(self, index: object, seat: object) -> list[JsonObject]:
        """The events from the `index`-th on, as `seat` may see them (None: a spectator).

        Indexes count every event of the game, so a client that has seen `k` events asks
        `events_since(k, seat)`. The first call replays this game's own actions once to
        tell its story; from then on the state narrates as it plays.
        """
        audience = self.check_audience(seat)
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise EternaError(f"an event index is a count from 0, not {index!r}")
        events = self._events
        if events is None:
            events = self._events = self._told_story()
        return [event.for_seat(audience) for event in events[index:]]

    def tell(
        self,
        kind: str,
        private: Mapping[str, JsonValue] | None = None,
        to: tuple[int, ...] = (),
        **public: JsonValue,
    ) -> None:
        """Add an event (docs/events.md), for a game's rules to call. Callers test
        `self._events is not None` first, so a game nobody listens to pays one test."""
        assert self._events is not None
        self._events.append(Event(kind, public, private or {}, to))

    def event_count(self) -> int:
        """How many events the game has told so far (narrating from now on)."""
        if self._events is None:
            self._events = self._told_story()
        return len(self._events)

    def _told_story(self) -> list[Event]:
        if self._determinized:
            raise EternaError("a determinized state is a guess, not a game: it has no story")
        start = self._start
        told: BaseState[ActionT, StartT]
        if start.position is not None:
            told = start.game.from_position(start.position, narrate=True)  # type: ignore[assignment]
        else:
            told = type(self)(start, narrate=True)
        for action in self._history:
            told.apply(action)
        assert told._events is not None
        return told._events

    # ------------------------------------------------------------------ records
    def to_record(self) -> Record:
        if self._determinized:
            raise EternaError("a determinized state is a guess, not a game: it has no record")
        start = self._start
        if start.position is not None:  # played on from a position: the record starts there
            return {
                "game": start.game.id,
                "version": start.version,
                "players": self._n,
                "seed": start.seed,
                "options": copy.deepcopy(start.options),
                "position": copy.deepcopy(start.position),
                "actions": [a.text for a in self._history],
            }
        return make_record(
            start.game.id,
            self._n,
            start.seed,
            copy.deepcopy(start.options),  # copies: the caller may edit its record
            copy.deepcopy(start.setup),
            [a.text for a in self._history],
            start.version,
        )
