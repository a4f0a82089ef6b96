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
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Final, NoReturn, cast

from eterna.core.errors import BadPosition, BadSetup
from eterna.core.jsonvalue import JsonObject, JsonValue
from eterna.core.options import OptionValue

if TYPE_CHECKING:
    from eterna.core.game import Game

FORMAT: Final = "eterna-position"
VERSION: Final = 1
UNKNOWN: Final = "?"  # a card (or any value) the position's seat cannot know
ENVELOPE: Final = ("format", "version", "game", "players", "options", "seat", "rng")
SHARE_PREFIX: Final = "ep1."  # a share code: this prefix, then the JSON deflated and base64url'd

# Limits (docs/positions.md, "Limits"), checked before any other work: a position is hostile
# input. Each is about 8x the largest legitimate position of any game (Eternitium with every
# card count of option `composition` at its 60: 33 KB of JSON, a 4 KB share code, a pile of
# 703 cards, nesting 5 deep; the largest integer a reader takes is below 10**7).
MAX_TEXT: Final = 256 * 1024  # bytes of a position's JSON text (a share code's, once inflated)
MAX_SHARE: Final = 32 * 1024  # characters of a share code
MAX_DEPTH: Final = 16  # nesting of objects and lists
MAX_ENTRIES: Final = 2048  # entries of one list or object
MAX_DIGITS: Final = 15  # digits of an integer (every one a browser's number keeps exactly)
MAX_QUOTE: Final = 40  # characters of input an error message quotes


def _short(text: str) -> str:
    """A name from the input, cut to `MAX_QUOTE` characters."""
    return text if len(text) <= MAX_QUOTE else text[:MAX_QUOTE] + "\u2026"


def quote(value: object) -> str:
    """`value` as an error message quotes it: its repr, cut to `MAX_QUOTE` characters."""
    if isinstance(value, (list, dict)):  # a container is named by its kind and size
        return f"{_kind(value)} of {len(value)}"
    if isinstance(value, int) and value.bit_length() > 64:  # repr would cost (or refuse)
        return f"an integer of {value.bit_length()} bits"
    return _short(repr(value[: MAX_QUOTE + 1] if isinstance(value, str) else value))


# A value read from a position's JSON, not yet checked (a Reader's methods check it). Named:
# inside Reader, `object` and `list` are its methods.
Raw = object


class Reader:
    """Typed reads from a position's JSON, each error naming the field (`hands[2][0]`)."""

    __slots__ = ("path", "value")

    def __init__(self, value: Raw, path: str = "") -> None:
        self.value = value
        self.path = path

    def fail(self, message: str) -> NoReturn:
        raise BadPosition(f"position {self.path or 'document'}: {message}", field=self.path)

    def _child_path(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        key = _short(key)  # a field's name is input too: cut like any quote
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

    def object(self, keys: Sequence[str] | None = None) -> Mapping[str, Raw]:
        """This value as an object; with `keys`, any other key is an error naming them."""
        if not isinstance(self.value, Mapping):
            self.fail(f"must be an object, not {_kind(self.value)}")
        if keys is not None:
            unknown = sorted(_short(str(k)) for k in self.value if k not in keys)
            if unknown:
                more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
                self.fail(
                    f"unknown key(s) {', '.join(unknown[:3])}{more}; known: {', '.join(keys)}"
                )
        return self.value

    def list(self, length: int | None = None) -> list[Raw]:
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
            self.fail(f"must be an integer from {low} to {high}, not {quote(v)}")
        return v

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            self.fail(f"must be true or false, not {quote(self.value)}")
        return self.value

    def text(self, choices: Sequence[str] | None = None) -> str:
        v = self.value
        if not isinstance(v, str):
            self.fail(f"must be a string, not {_kind(v)}")
        if choices is not None and v not in choices:
            self.fail(f"must be one of {', '.join(choices)}, not {quote(v)}")
        return v

    def seat(self, players: int, allow_none: bool = False) -> int | None:
        if self.value is None and allow_none:
            return None
        return self.number(0, players - 1)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


def envelope(
    game: Game, players: int, options: Mapping[str, OptionValue], seat: int | None
) -> JsonObject:
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

    __slots__ = ("body", "document", "options", "players", "reader", "rng", "seat")

    def __init__(self, game: Game, position: object) -> None:
        if isinstance(position, str):
            position = parse(position)
        check_size(position)
        top = Reader(position)
        # The whole position, as given (parsed when text): JSON, as far as the game's reader
        # goes, which refuses an unknown key and checks every value it reads.
        self.document = cast("Mapping[str, JsonValue]", top.object())
        fmt = top["format"].text()
        if fmt != FORMAT:
            top["format"].fail(f"must be {FORMAT!r}, not {quote(fmt)}")
        top["version"].number(VERSION, VERSION)
        if top["game"].text() != game.id:
            top["game"].fail(f"is {quote(top['game'].value)}: this is {game.id!r}")
        players = top["players"].value
        if isinstance(players, bool) or not isinstance(players, int):
            top["players"].fail(f"must be an integer, not {quote(players)}")
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
            if not _RNG.fullmatch(text):  # int(text, 16) would take "0x1", "1_2" and " 12 "
                rng.fail(f"must be 16 hex digits, not {quote(text)}")
            self.rng = int(text, 16)
        elif self.seat is None:
            top["rng"].fail("is missing: a whole position (seat null) holds the generator's state")
        self.reader = top
        self.body = {k: v for k, v in top.object().items() if k not in ENVELOPE}


def rng_text(state: int) -> str:
    """A generator state as JSON can carry it everywhere (a browser's numbers stop at 2**53)."""
    return f"{state:016x}"


def dumps(position: Mapping[str, JsonValue]) -> str:
    """The canonical JSON text of a position: one line, keys in the order written."""
    return json.dumps(position, separators=(",", ":"), ensure_ascii=False)


def share_code(position: Mapping[str, JsonValue]) -> str:
    """The position in one URL-safe line (`ep1.` + base64url of the deflated JSON)."""
    raw = zlib.compress(dumps(position).encode("utf-8"), 9)
    return SHARE_PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def parse(text: str) -> JsonValue:
    """A position from its JSON text or its share code (BadPosition if it is neither, or if
    it passes a limit: every limit is checked before the work it bounds)."""
    if len(text) > MAX_TEXT:  # (characters: at least as many bytes)
        raise BadPosition(f"position text is over {MAX_TEXT} bytes", field="")
    text = text.strip()
    if text.startswith(SHARE_PREFIX):
        text = _inflate(text[len(SHARE_PREFIX) :])
    elif len(text.encode("utf-8")) > MAX_TEXT:
        raise BadPosition(f"position text is over {MAX_TEXT} bytes", field="")
    _check_depth(text)
    try:
        doc: JsonValue = json.loads(
            text, parse_int=_integer, parse_float=_decimal, parse_constant=_no_constant
        )
    except json.JSONDecodeError as exc:
        raise BadPosition(f"position is not valid JSON: {exc}", field="") from None
    return doc


def _inflate(code: str) -> str:
    """A share code's JSON text: decoded, then inflated to at most `MAX_TEXT` bytes."""
    if len(code) > MAX_SHARE:
        raise BadPosition(f"share code is over {MAX_SHARE} characters", field="")
    try:
        raw = base64.b64decode(code + "=" * (-len(code) % 4), altchars=b"-_", validate=True)
        inflater = zlib.decompressobj()
        data = inflater.decompress(raw, MAX_TEXT)  # never more: a small code may inflate to GBs
        if inflater.unconsumed_tail or (not inflater.eof and inflater.decompress(b"", 1)):
            raise BadPosition(f"share code inflates past {MAX_TEXT} bytes", field="")
        if not inflater.eof:
            raise ValueError("truncated")
        return data.decode("utf-8")
    except BadPosition:
        raise
    except (ValueError, zlib.error, UnicodeDecodeError):
        raise BadPosition("not a share code: it does not decode", field="") from None


# A JSON string, escapes included (unrolled: linear on any input).
_JSON_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_RNG: Final = re.compile(r"[0-9a-fA-F]{16}")


def _check_depth(text: str) -> None:
    """Refuse nesting past `MAX_DEPTH` before the JSON parser recurses into it."""
    depth = 0
    for bracket in _NOT_BRACKET.sub("", _JSON_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise BadPosition(f"position nests deeper than {MAX_DEPTH} levels", field="")
        else:
            depth -= 1


def _integer(digits: str) -> int:
    """JSON's integers, at most `MAX_DIGITS` digits (4,300 would make int() refuse; more would
    cost)."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadPosition(
            f"position holds an integer of {len(digits.lstrip('-'))} digits; at most "
            f"{MAX_DIGITS}: {quote(digits)}",
            field="",
        )
    return int(digits)


def _decimal(text: str) -> float:
    """JSON's other numbers, as long as an integer may be (no position field takes one)."""
    if len(text) > MAX_DIGITS + 8:
        raise BadPosition(f"position holds a number of {len(text)} characters: {quote(text)}")
    return float(text)


def _no_constant(name: str) -> NoReturn:
    raise BadPosition(f"position holds {name}, which is not JSON", field="")


def check_size(position: object) -> None:
    """A position (however it was read) within the limits, every field named: at most
    `MAX_DEPTH` deep, `MAX_ENTRIES` entries per list or object, `MAX_DIGITS` digits per
    integer. Iterative: any nesting, however deep, is refused without recursing."""
    stack: list[tuple[object, str, int]] = [(position, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, (dict, list)):
            where = Reader(value, path)
            if depth >= MAX_DEPTH:
                where.fail(f"nests deeper than {MAX_DEPTH} levels")
            if len(value) > MAX_ENTRIES:
                where.fail(f"holds {len(value)} entries; at most {MAX_ENTRIES}")
            if isinstance(value, dict):
                for key, item in value.items():
                    if not isinstance(key, str):
                        where.fail(f"has a key that is not a string: {quote(key)}")
                    stack.append((item, where._child_path(key), depth + 1))
            else:
                stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, int) and abs(value) >= 10**MAX_DIGITS:
            Reader(value, path).fail(f"must hold at most {MAX_DIGITS} digits")
