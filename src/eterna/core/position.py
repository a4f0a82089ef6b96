"""Positions: any moment of any game as one JSON object (docs/positions.md).

A position is an envelope every game shares and a body each game defines in `docs/<id>.md`:

    {"format": "eterna-position", "version": 1, "game": "vale", "players": 3,
     "options": {...}, "seat": null, "rng": "9e3779b97f4a7c15", ...the game's own keys}

`seat` is null for a whole position (everything, the generator's state included) and a seat
number for what that seat knows: hidden cards are written `UNKNOWN` ("?") and `rng` is null.
Zones are written top first everywhere (the card a draw takes comes first).

This module holds what every game's reader needs: the envelope, a `Reader` that names the
field at fault in every error, and the share code (the JSON compressed into one URL-safe line).
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, NoReturn

from eterna.core.errors import BadPosition, BadSetup

if TYPE_CHECKING:
    from eterna.core.game import Game

FORMAT: Final = "eterna-position"
VERSION: Final = 1
UNKNOWN: Final = "?"  # a card (or any value) the position's seat cannot know
ENVELOPE: Final = ("format", "version", "game", "players", "options", "seat", "rng")
SHARE_PREFIX: Final = "ep1."  # a share code: this prefix, then the JSON deflated and base64url'd
_MAX_SHARE: Final = 200_000  # characters of a share code, and (x10) bytes once inflated


class Reader:
    """Typed reads from a position's JSON, each error naming the field (`hands[2][0]`)."""

    __slots__ = ("path", "value")

    def __init__(self, value: Any, path: str = "") -> None:
        self.value = value
        self.path = path

    def fail(self, message: str) -> NoReturn:
        raise BadPosition(f"position {self.path or 'document'}: {message}", field=self.path)

    def _child_path(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def __getitem__(self, key: str | int) -> Reader:
        """The field `key` of this object (or item `key` of this list); missing: an error."""
        if isinstance(key, int):
            items = self.list()
            if not 0 <= key < len(items):
                self.fail(f"has no item {key}")
            return Reader(items[key], self._child_path(key))
        obj = self.object()
        if key not in obj:
            Reader(None, self._child_path(key)).fail("is missing")
        return Reader(obj[key], self._child_path(key))

    def get(self, key: str) -> Reader | None:
        """The field `key` when present and not null."""
        obj = self.object()
        if obj.get(key) is None:
            return None
        return Reader(obj[key], self._child_path(key))

    def has(self, key: str) -> bool:
        return self.object().get(key) is not None

    def object(self, keys: Sequence[str] | None = None) -> Mapping[str, Any]:
        """This value as an object; with `keys`, any other key is an error naming them."""
        if not isinstance(self.value, Mapping):
            self.fail(f"must be an object, not {_kind(self.value)}")
        if keys is not None:
            unknown = sorted(str(k) for k in self.value if k not in keys)
            if unknown:
                self.fail(f"unknown key(s) {', '.join(unknown)}; known: {', '.join(keys)}")
        return self.value

    def list(self, length: int | None = None) -> list[Any]:
        if not isinstance(self.value, list):
            self.fail(f"must be a list, not {_kind(self.value)}")
        if length is not None and len(self.value) != length:
            self.fail(f"must hold {length} entries, not {len(self.value)}")
        return self.value

    def items(self, length: int | None = None) -> Iterator[Reader]:
        for i, value in enumerate(self.list(length)):
            yield Reader(value, self._child_path(i))

    def number(self, low: int, high: int) -> int:
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            self.fail(f"must be an integer from {low} to {high}, not {v!r}")
        return v

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            self.fail(f"must be true or false, not {self.value!r}")
        return self.value

    def text(self, choices: Sequence[str] | None = None) -> str:
        v = self.value
        if not isinstance(v, str):
            self.fail(f"must be a string, not {_kind(v)}")
        if choices is not None and v not in choices:
            self.fail(f"must be one of {', '.join(choices)}, not {v!r}")
        return v

    def seat(self, players: int, allow_none: bool = False) -> int | None:
        if self.value is None and allow_none:
            return None
        return self.number(0, players - 1)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


def envelope(
    game: Game, players: int, options: Mapping[str, Any], seat: int | None
) -> dict[str, Any]:
    """The keys every position starts with (`rng` is filled in by the game)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.id,
        "players": players,
        "options": json.loads(json.dumps(dict(options))),
        "seat": seat,
        "rng": None,
    }


class Envelope:
    """A position's envelope, checked: what every game's `from_position` reads first."""

    __slots__ = ("body", "options", "players", "reader", "rng", "seat")

    def __init__(self, game: Game, position: Any) -> None:
        if isinstance(position, str):
            position = parse(position)
        top = Reader(position)
        top.object()
        fmt = top["format"].text()
        if fmt != FORMAT:
            top["format"].fail(f"must be {FORMAT!r}, not {fmt!r}")
        top["version"].number(VERSION, VERSION)
        if top["game"].text() != game.id:
            top["game"].fail(f"is {top['game'].value!r}: this is {game.id!r}")
        players = top["players"].value
        if isinstance(players, bool) or not isinstance(players, int):
            top["players"].fail(f"must be an integer, not {players!r}")
        if not game.min_players <= players <= game.max_players:
            top["players"].fail(
                f"{game.name} is for {game.min_players}-{game.max_players} players, not {players}"
            )
        self.players: int = players
        opts = top.get("options")
        try:
            self.options = game.resolve_options(opts.object() if opts else {})
        except BadSetup as exc:  # an option error names the option: say where it sits
            raise BadPosition(f"position options: {exc}", field="options") from None
        seat = top.get("seat")
        self.seat: int | None = None if seat is None else seat.number(0, players - 1)
        rng = top.get("rng")
        self.rng: int | None = None
        if rng is not None:
            text = rng.text()
            try:
                value = int(text, 16)
            except ValueError:
                rng.fail(f"must be 16 hex digits, not {text!r}")
            if not 0 <= value < 1 << 64 or len(text) > 16:
                rng.fail(f"must be 16 hex digits, not {text!r}")
            self.rng = value
        elif self.seat is None:
            top["rng"].fail("is missing: a whole position (seat null) holds the generator's state")
        self.reader = top
        self.body = {k: v for k, v in top.object().items() if k not in ENVELOPE}


def rng_text(state: int) -> str:
    """A generator state as JSON can carry it everywhere (a browser's numbers stop at 2**53)."""
    return f"{state:016x}"


def dumps(position: Mapping[str, Any]) -> str:
    """The canonical JSON text of a position: one line, keys in the order written."""
    return json.dumps(position, separators=(",", ":"), ensure_ascii=False)


def share_code(position: Mapping[str, Any]) -> str:
    """The position in one URL-safe line (`ep1.` + base64url of the deflated JSON)."""
    raw = zlib.compress(dumps(position).encode("utf-8"), 9)
    return SHARE_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def parse(text: str) -> Any:
    """A position from its JSON text or its share code (BadPosition if it is neither)."""
    text = text.strip()
    if len(text) > _MAX_SHARE * 10:
        raise BadPosition("position text is too long", field="")
    if text.startswith(SHARE_PREFIX):
        code = text[len(SHARE_PREFIX) :]
        if len(code) > _MAX_SHARE:
            raise BadPosition("share code is too long", field="")
        try:
            raw = base64.b64decode(code + "=" * (-len(code) % 4), altchars=b"-_", validate=True)
            inflater = zlib.decompressobj()
            data = inflater.decompress(raw, _MAX_SHARE * 10)
            if inflater.unconsumed_tail:
                raise BadPosition("share code inflates past the size limit", field="")
            if not inflater.eof:
                raise ValueError("truncated")
            text = data.decode("utf-8")
        except BadPosition:
            raise
        except (ValueError, zlib.error, UnicodeDecodeError):
            raise BadPosition("not a share code: it does not decode", field="") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadPosition(f"position is not valid JSON: {exc}", field="") from None
