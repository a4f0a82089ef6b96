"""Each game's observation layout is declared once (eterna.core.layout): the encoding's fields,
the values' positions and caps, and docs/encodings.md's tables all follow from it."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import eterna
from eterna.adapters.encodings import encoding_class, make_encoding
from eterna.adapters.encodings.docs import TABLES, layout_of, render
from eterna.core.encoding import ONE, cap
from eterna.core.layout import Block, Slot, cap_of, fields, markdown, slot, table

PAGE = Path(__file__).resolve().parents[2] / "docs" / "encodings.md"


def test_the_docs_tables_are_written_from_the_declarations():
    page = PAGE.read_text("utf-8")
    assert render(page) == page, (
        "docs/encodings.md is stale: python -m eterna.adapters.encodings.docs"
    )
    for key in TABLES:  # every layout has its table on the page
        assert f"<!-- layout: {key} -->" in page, key


@pytest.mark.parametrize("key", sorted(TABLES))
def test_the_encoding_follows_its_declaration(key):
    game_id, version = TABLES[key]
    cls = encoding_class(game_id, version=version)
    layout = layout_of(cls)
    assert cls.fields == fields(layout)
    names = [b.name for b in layout]
    assert len(set(names)) == len(names)
    enc = cls()
    assert enc.size == sum(b.size for b in layout)
    table_rows = markdown(layout).splitlines()[2:]
    for b, row in zip(layout, table_rows, strict=True):
        assert row.startswith(f"| `{b.name}` | ") and f"| {enc.offsets[b.name]} |" in row
        assert b.cap is None or b.cap > 0
        assert len({s.name for s in b.slots}) == len(b.slots)
        for s in b.slots:
            assert s.cap is None or s.cap > 0, (b.name, s.name)


@pytest.mark.parametrize(("game_id", "players"), [("eternity", 4), ("vale", 3), ("eternitium", 2)])
def test_seat_rows_hold_what_the_declaration_says(game_id, players):
    """The observer's own row: `present` at its declared slot, the hand size as declared
    (divided by its declared cap), on both paths."""
    enc = make_encoding(game_id, players)
    layout = layout_of(type(enc))
    state = eterna.load_game(game_id).new_game(players=players, seed=11)
    rng = random.Random(11)
    while not state.view(1)["hand_sizes"][1]:  # (the Vale's hands fill in the first hunt)
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(1)
    hand = view["hand_sizes"][1]
    for obs in (enc.encode(view).copy(), enc.observe(state, 1).copy()):
        own = enc.split(obs)["seats"][0]
        assert own[slot(layout, "seats", "present")] == 1.0
        want = np.float32(cap(hand, cap_of(layout, "seats", "hand_size")))
        assert own[slot(layout, "seats", "hand_size")] == want
        absent = enc.split(obs)["seats"][players:]
        assert not absent.any()  # slots past the table stay zero


def test_declarations_refuse_what_does_not_fit():
    with pytest.raises(ValueError, match="block seats"):
        Block("seats", (4, 3), "rows", slots=(Slot("a", "a"), Slot("b", "b")))
    layout = (
        Block("hand", (5,), "own hand", 5.0),
        Block("clock", (2,), "the clock", slots=(Slot("round", "round", 10.0), Slot("x", "x"))),
        Block("seats", (3, 1), "per seat", slots=(Slot("present", "present"),)),
    )
    assert slot(layout, "clock", "x") == 1 and cap_of(layout, "hand") == 5.0
    assert table(layout, "clock", "round")[-1] == ONE and len(table(layout, "clock", "round")) == 11
    with pytest.raises(KeyError, match=r"clock\.x is not a count"):
        cap_of(layout, "clock", "x")
    with pytest.raises(KeyError, match="no block 'deck'"):
        slot(layout, "deck", "x")
    with pytest.raises(KeyError, match="no slot 'turn'"):
        slot(layout, "clock", "turn")
    assert markdown(layout).splitlines()[2:] == [
        "| `hand` | 5 | 0 | own hand / 5 |",
        "| `clock` | 2 | 5 | the clock: round / 10, x |",
        "| `seats` | 3 x 1 = 3 | 7 | per seat: present |",
    ]
    with pytest.raises(KeyError, match="unknown layout 'chess'"):
        render("<!-- layout: chess -->\n<!-- /layout -->")
