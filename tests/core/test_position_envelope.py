"""The envelope every position shares (docs/positions.md): its checks name the field."""

import json

import pytest

from eterna import BadPosition, load_game
from eterna.core.position import Envelope, Reader, parse, share_code


def _position(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "format": "eterna-position",
        "version": 1,
        "game": "eternity",
        "players": 4,
        "options": {},
        "seat": None,
        "rng": "00000000000000ff",
    }
    base.update(changes)
    return base


def test_a_good_envelope_reads_back() -> None:
    env = Envelope(load_game("eternity"), _position(seat=2, rng=None))
    assert (env.players, env.seat, env.rng) == (4, 2, None)
    assert Envelope(load_game("eternity"), _position()).rng == 255


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"format": "fen"}, "format", "eterna-position"),
        ({"version": 9}, "version", "from 1 to 1"),
        ({"game": "vale"}, "game", "'eternity'"),
        ({"players": 9}, "players", "3-5 players"),
        ({"players": "4"}, "players", "integer"),
        ({"seat": 4}, "seat", "from 0 to 3"),
        ({"rng": "xyz"}, "rng", "16 hex digits"),
        ({"rng": None}, "rng", "generator's state"),
        ({"options": {"nonsense": 1}}, "options", "nonsense"),
    ],
)
def test_each_envelope_fault_names_its_field(
    changes: dict[str, object], field: str, words: str
) -> None:
    with pytest.raises(BadPosition, match=words) as caught:
        Envelope(load_game("eternity"), _position(**changes))
    assert caught.value.field == field


def test_reader_names_nested_fields() -> None:
    reader = Reader({"hands": [["sea-1"], [3]]})
    with pytest.raises(BadPosition, match=r"hands\[1\]\[0\]: must be a string") as caught:
        reader["hands"][1][0].text()
    assert caught.value.field == "hands[1][0]"
    with pytest.raises(BadPosition, match="scores: is missing"):
        reader["scores"]


def test_share_code_round_trips_and_rejects_garbage() -> None:
    position = _position(seat=1, rng=None)
    code = share_code(position)
    assert code.startswith("ep1.") and "\n" not in code
    assert parse(code) == position
    assert parse(" " + json.dumps(position) + "\n") == position
    with pytest.raises(BadPosition, match="does not decode"):
        parse("ep1.!!!")
    with pytest.raises(BadPosition, match="not valid JSON"):
        parse("{nope")


@pytest.mark.parametrize(
    "rng", ["0x1", "1_2", " 12 ", "+123456789abcdef", "\uff11" * 16, "0" * 17, "ff", "-1"]
)
def test_rng_is_exactly_16_hex_digits(rng: str) -> None:
    """int(text, 16) reads "0x1", "1_2" and " 12 ": a position's generator state is exactly
    16 hexadecimal digits (either case), nothing else."""
    with pytest.raises(BadPosition, match="16 hex digits") as caught:
        Envelope(load_game("eternity"), _position(rng=rng))
    assert caught.value.field == "rng"
    assert Envelope(load_game("eternity"), _position(rng="00000000000000FF")).rng == 255
