"""The messages of docs/web-protocol.md: client frames and HTTP bodies as Pydantic models.

Everything a client sends is checked here before the server looks at it: size first, then JSON,
then the schema (a discriminated union on `type`, unknown fields refused). Server frames are
built here too, as plain dicts (or, for `update`, assembled from encoded parts): they come from
the server's own data, and building them without validation keeps a broadcast cheap.
"""

from __future__ import annotations

import json
import logging
import unicodedata
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Annotated, Any, Literal, NamedTuple

import orjson
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from eterna.i18n import catalog, describe_action, describe_refusal, event_lines

log = logging.getLogger("eterna.server")

MAX_FRAME = 4096  # bytes of one client frame (UTF-8)
MAX_BODY = 16 * 1024  # bytes of one HTTP request body
MAX_NOTATION = 200
MAX_NAME = 40

# The codes of the `error` frame; each is said in words by `common.error.<code>` (catalogs).
ERROR_CODES = (
    "illegal_action",
    "bad_notation",
    "not_your_turn",
    "spectator",
    "stale",
    "bad_frame",
    "too_large",
    "rate_limited",
    "game_over",
    "waiting",
    "server_error",
    "server_busy",
    "unavailable",
)
# The codes of an HTTP error body (`{"error": {"code", "message", "detail"}}`), said the same way.
HTTP_ERROR_CODES = (
    "bad_request",
    "duplicate_key",
    "too_large",
    "rate_limited",
    "quota",
    "unbounded_game",
    "bad_agent",
    "busy",
    "storage_unavailable",
    "not_found",
    "method_not_allowed",
    "private",
    "game_over",
    "full",
    "bad_token",
    "not_over",
    "claimed",
    "not_host",
    "bad_position",
    "no_position",
    "hint_quota",
    "share_quota",
    "share_conflict",
    "bad_names",
    "no_share",
    "server_error",
    "error",
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ------------------------------------------------------------------------------ client frames


class ActFrame(Strict):
    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=MAX_NOTATION)]
    ply: Annotated[int, Field(ge=0, le=1_000_000)] | None = None


class HintFrame(Strict):
    type: Literal["hint"]


class PingFrame(Strict):
    type: Literal["ping"]


ClientFrame = Annotated[ActFrame | HintFrame | PingFrame, Field(discriminator="type")]
_client_frame: TypeAdapter[ActFrame | HintFrame | PingFrame] = TypeAdapter(ClientFrame)


class FrameError(Exception):
    """A client frame refused before it reaches the game; `code` is the error frame's code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_frame(data: str | bytes | None) -> ActFrame | HintFrame | PingFrame:
    """Check one client frame: size, JSON, schema. Raises FrameError (never anything else)."""
    if data is None:
        raise FrameError("bad_frame", "empty frame")
    if isinstance(data, bytes):
        raise FrameError("bad_frame", "frames are JSON text, not binary")
    if len(data) > MAX_FRAME or len(data.encode("utf-8", "surrogatepass")) > MAX_FRAME:
        raise FrameError("too_large", f"a frame is at most {MAX_FRAME} bytes")
    try:
        raw = json.loads(data, object_pairs_hook=no_duplicate_keys)
    except DuplicateKey as exc:
        raise FrameError("bad_frame", str(exc)) from None
    except (ValueError, RecursionError):
        raise FrameError("bad_frame", "a frame is one JSON object") from None
    if not isinstance(raw, dict):
        raise FrameError("bad_frame", "a frame is one JSON object")
    try:
        return _client_frame.validate_python(raw)
    except ValidationError as exc:
        raise FrameError("bad_frame", _first_error(exc)) from None


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "invalid frame"
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "frame"
    return f"{where}: {first.get('msg', 'invalid')}"[:200]


class DuplicateKey(ValueError):
    pass


def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads(..., object_pairs_hook=no_duplicate_keys)`: refuse an object that names a
    key twice (which value counts would otherwise depend on the parser)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(f"the key {key!r} appears twice")
        out[key] = value
    return out


def error_words(code: str, detail: str, lang: str, about: str | None = None) -> str:
    """An error said in `lang`: the catalog's `common.error.<code>`, or its variant
    `common.error.<code>.<about>` when there is one (e.g. `hint`); `detail` for an unknown code."""
    words = catalog(lang)
    key = f"common.error.{code}"
    if about is not None and words.has(f"{key}.{about}"):
        key = f"{key}.{about}"
    return words.text(key) if words.has(key) else detail


def error_frame(code: str, detail: str, lang: str, about: str | None = None) -> dict[str, Any]:
    """An error frame: `message` says the refusal in the connection's language (`error_words`),
    `detail` the server's English specifics (for logs and bug reports)."""
    message = error_words(code, detail, lang, about)
    return {"type": "error", "code": code, "message": message, "detail": detail}


def welcome_frame(seat: int | None, summary: dict[str, Any]) -> dict[str, Any]:
    return {"type": "welcome", "seat": seat, "table": summary}


def pong_frame() -> dict[str, Any]:
    return {"type": "pong"}


def rematch_frame(table_id: str, token: str | None) -> dict[str, Any]:
    """The rematch's link: a seat's own (with its fresh token), or the spectator's."""
    url = f"/table/{table_id}" + (f"?token={token}" if token is not None else "")
    return {"type": "rematch", "table_id": table_id, "url": url}


class Refusal(NamedTuple):
    """An action refused: the error frame's code and English message, and for a rule the
    engine named, its catalog key, parameters and rulebook reference."""

    code: str
    message: str
    key: str | None = None
    params: Mapping[str, Any] | None = None
    rule: str | None = None


def refusal_frame(refused: Refusal, lang: str, names: Sequence[str]) -> dict[str, Any]:
    """The error frame of a refusal: `message` in `lang` (the engine's own words for a rule it
    named, else its code's), `detail` the English message (it names the notation), and for an
    illegal action `rule`, the rulebook reference."""
    frame = error_frame(refused.code, refused.message, lang)
    if refused.key is not None:
        try:
            frame["message"] = describe_refusal(refused.key, refused.params or {}, lang, names)
        except Exception:  # a catalog gap must not hide the refusal itself
            log.exception("no words for the refusal %s", refused.key)
    if refused.code == "illegal_action":
        frame["rule"] = refused.rule
    return frame


def told_items(
    game: str,
    events: list[dict[str, Any]],
    first: int,
    lang: str,
    names: Sequence[str],
    said: dict[tuple[int, str], tuple[dict[str, Any], str]] | None = None,
) -> list[dict[str, Any]]:
    """Events as `told`: each with its index `n` in the game and its `text` in `lang`.

    `said` keeps the sentences of one update: another seat told the same event (most are
    public, so each seat's copy is equal) reuses its sentence instead of wording it again."""
    out: list[dict[str, Any]] = []
    for n, event in enumerate(events, first):
        known = said.get((n, lang)) if said is not None else None
        if known is not None and known[0] == event:
            text = known[1]
        else:
            try:
                text = "\n".join(event_lines(game, event, lang, names))
            except Exception:  # an engine's new field must not stop the update
                log.exception("no words for the %s event %r", game, event.get("kind"))
                text = str(event.get("kind"))
            if said is not None:
                said[(n, lang)] = (event, text)
        out.append(event | {"n": n, "text": text})
    return out


def move_items(game: str, actions: Sequence[Any], lang: str, names: Sequence[str]) -> list[Any]:
    """The legal moves as `moves`: `{"notation", "label"}` with the label in `lang`."""
    return [_move_item(game, str(action), lang, tuple(names)) for action in actions]


@lru_cache(maxsize=65536)
def _move_item(game: str, notation: str, lang: str, names: tuple[str, ...]) -> dict[str, str]:
    """One move's item, kept: a label depends only on these, and the seat to move sees the same
    moves again and again (the cache is read-only: frames are encoded, never changed)."""
    try:
        label = describe_action(game, notation, lang, names)
    except Exception:
        log.exception("no label for the %s move %s", game, notation)
        label = notation
    return {"notation": notation, "label": label}


# Server frames are encoded by orjson (compiled: a view in a fraction of the time the standard
# encoder takes, and views are most of an update), to UTF-8 bytes, compact, keys in their order:
# byte for byte what `json` writes with these separators and without ASCII escapes. What orjson
# refuses (a key that is not a string, an integer beyond 64 bits, a lone surrogate) goes through
# `json` as before (a lone surrogate ASCII-escaped), so a frame encodes wherever it did.
_text = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode
_ascii = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def encode(value: Any) -> bytes:
    """`value` as compact JSON, UTF-8 bytes: the server's own frames and their parts."""
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        text = _text(value)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _ascii(value).encode("ascii")


def update_frame(
    ply: int,
    summary: bytes,
    view: bytes,
    events: bytes,
    deadline: float | None,
    told: bytes = b"[]",
    moves: bytes = b"null",
) -> bytes:
    """An `update` frame, assembled from parts already encoded as JSON (the summary once per
    broadcast, each seat's view once per seat, `told` and `moves` once per seat and language):
    the hot path of every move."""
    when = b"null" if deadline is None else repr(deadline).encode("ascii")
    return b"".join(
        (
            b'{"type":"update","ply":%d,"table":' % ply,
            summary,
            b',"view":',
            view,
            b',"events":',
            events,
            b',"deadline":',
            when,
            b',"told":',
            told,
            b',"moves":',
            moves,
            b"}",
        )
    )


def presence_frame(seats: list[dict[str, Any]]) -> dict[str, Any]:
    """Who holds and who is connected at each seat: sent instead of a full update when only
    that changed (a seat claimed, a player connected or left)."""
    return {"type": "presence", "seats": seats}


def hint_frame(candidates: list[dict[str, Any]], iterations: int) -> dict[str, Any]:
    return {"type": "hint", "candidates": candidates, "iterations": iterations}


# ------------------------------------------------------------------------------ HTTP bodies


def clean_name(name: str | None) -> str | None:
    """A player's name as others will see it: no control or format characters (no hidden
    right-to-left overrides), no lone surrogates, spaces collapsed; empty means none. The
    client still escapes it."""
    if name is None:
        return None
    hidden = ("Cc", "Cf", "Cs", "Zl", "Zp")  # controls, format marks, lone surrogates, breaks
    kept = "".join(" " if unicodedata.category(ch) in hidden else ch for ch in name)
    return " ".join(kept.split()) or None


Name = Annotated[str, Field(max_length=MAX_NAME), AfterValidator(clean_name)]


class SeatSpec(Strict):
    kind: Literal["human", "bot"]
    name: Name | None = None
    agent: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    reserved: bool = False  # a human seat for its invite link only, never offered to the lobby


class CreateTable(BaseModel):
    # Strict: `players` 3, not "3", 3.0 or true; `seed` an integer; `public` a boolean.
    model_config = ConfigDict(extra="forbid", strict=True)

    game: Annotated[str, Field(min_length=1, max_length=32)]
    players: Annotated[int, Field(ge=1, le=16)]
    options: Annotated[dict[str, Any], Field(max_length=32)] = Field(default_factory=dict)
    seed: Annotated[int, Field(ge=0, lt=1 << 62)] | None = None
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=16)]
    turn_timer: Annotated[float, Field(ge=1.0, le=86400.0)] | None = None
    public: bool = True
    bot_delay: Annotated[float, Field(ge=0.0, le=30.0)] | None = None


MAX_POSITION = 12_000  # characters of a posted position (its JSON text or its share code)
PositionText = Annotated[str, Field(min_length=1, max_length=MAX_POSITION)]


class PositionRequest(Strict):
    """A posted position (docs/positions.md): its JSON text or its share code."""

    position: PositionText


class PlayPosition(Strict):
    """Play on from a position: you take its seat (a whole position: the seat to move)."""

    position: PositionText
    name: Name | None = None
    agent: Annotated[str, Field(min_length=1, max_length=100)] = "heuristic"
    bot_delay: Annotated[float, Field(ge=0.0, le=30.0)] | None = None


class JoinTable(Strict):
    name: Name | None = None


class FillSeat(Strict):
    token: Annotated[str, Field(min_length=1, max_length=64)]
    seat: Annotated[int, Field(ge=0, le=15)]
    agent: Annotated[str, Field(min_length=1, max_length=100)] = "heuristic"


class RematchRequest(Strict):
    token: Annotated[str, Field(min_length=1, max_length=64)]
