"""An update's frames are built once per audience (a seat or the spectators, in one language:
frames.py) and shared by every connection of that audience: each audience's frame must hold its
own seat's view, events and `told` only, and never another seat's hidden cards, however the
audiences are asked for and whoever asked first."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from server_helpers import live_table

from eterna.i18n import LANGS
from eterna.server.broadcast import Broadcaster
from eterna.server.frames import Audience, action_update, first_frame
from eterna.server.live import LiveTable, TimedOut

PLIES = 120  # of each game: every kind of move and event of its first rounds
FRAME_KEYS = ("type", "ply", "table", "view", "events", "deadline", "told", "moves")


def make_table(game: str, players: int, seed: int) -> LiveTable:
    table = live_table(game, players, seed, claimed=True)
    table._shown = []
    return table


def leaves(value: Any) -> set[str]:
    """Every string inside a view (card ids among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(leaves(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(leaves(v) for v in value)) if value else set()
    return set()


def plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


class FakeConnection:
    def __init__(self, seat: int | None, lang: str) -> None:
        self.seat = seat
        self.lang = lang
        self.closed = False
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


def play(table: LiveTable, rng: random.Random, timed_out: bool) -> tuple[int, str, int]:
    """Apply a random legal move to `table` as the server does; (seat, notation, told from)."""
    state = table.state
    seat = state.current_player
    assert seat is not None
    action = rng.choice(state.legal_actions())
    since = state.event_count()
    public = state.public_notation(action)
    following = state.clone()
    following.apply(action)
    table.state = following
    table.data.actions.append((seat, str(action)))
    table.shown(public)
    if timed_out:
        table.timeouts[since] = TimedOut(seat, str(action), public)
    return seat, str(action), since


@pytest.mark.parametrize(
    ("game", "players", "seed"), [("eternity", 4, 1), ("vale", 3, 2), ("eternitium", 2, 3)]
)
def test_each_audience_is_sent_its_own_seat_only(game: str, players: int, seed: int) -> None:
    table = make_table(game, players, seed)
    rng = random.Random(seed)
    seats: list[int | None] = [None, *range(players)]
    audiences: list[Audience] = [(seat, lang) for seat in seats for lang in LANGS]
    # two connections for every audience: they must get the very same text
    conns = [FakeConnection(seat, lang) for seat, lang in audiences for _ in range(2)]
    table.conns = set(conns)  # type: ignore[arg-type]
    fanout = Broadcaster(None, None)  # type: ignore[arg-type]
    hidden_seen = 0
    for ply in range(1, PLIES + 1):
        if table.state.is_terminal:
            break
        timed_out = ply % 5 == 0
        seat, notation, since = play(table, rng, timed_out)
        state = table.state
        public = table._shown[-1] if table._shown else None
        timeout = table.timeouts.get(since) if timed_out else None
        update = action_update(table, seat, notation, public, since, timeout)
        rng.shuffle(audiences)  # whoever asks first must not change what the others get
        frames = update.frames(audiences)
        views = {s: state.view(s) for s in seats}
        for (who, _lang), data in frames.items():
            frame = json.loads(data)
            assert list(frame) == [*FRAME_KEYS]  # nothing but an update's parts, each below
            assert frame["ply"] == ply
            assert frame["table"] == plain(table.summary())
            assert frame["view"] == plain(views[who])
            to_move = who is not None and who == state.current_player
            moves = [m["notation"] for m in frame["moves"]] if to_move else frame["moves"]
            assert moves == ([str(a) for a in state.legal_actions()] if to_move else None)
            told = [{k: v for k, v in e.items() if k not in ("n", "text")} for e in frame["told"]]
            if timed_out:  # the server's own item first, then the move's events
                assert told[0] == {"kind": "timeout", "seat": seat}
                told = told[1:]
            assert told == plain(state.events_since(since, who))
            (event,) = frame["events"]
            shown = notation if who == seat else public
            action = {} if shown is None else {"action": shown}
            assert event == {"ply": ply, "seat": seat} | action
            if game != "eternity":  # the one game whose every card is unique, and hands hidden
                continue
            # no card another seat holds, unless this seat's own view shows it
            own = leaves(views[who])
            hidden = {
                card
                for other in range(players)
                if other != who
                for card in leaves(views[other].get("hand", []))
                if card not in own
            }
            text = data.decode("utf-8")
            assert not [card for card in hidden if json.dumps(card) in text]
            hidden_seen += len(hidden)
        fanout.send(table, update)
        for conn in conns:
            assert conn.sent[-1] == frames[(conn.seat, conn.lang)].decode("utf-8")
    assert hidden_seen > 0 or game != "eternity"  # the check had hidden cards to look for


@pytest.mark.parametrize(("game", "players", "seed"), [("eternity", 4, 4), ("vale", 3, 5)])
def test_a_late_connection_gets_its_own_whole_game(game: str, players: int, seed: int) -> None:
    table = make_table(game, players, seed)
    rng = random.Random(seed)
    moves = [play(table, rng, timed_out=n % 7 == 3) for n in range(30)]
    state = table.state
    for who in [None, *range(players)]:
        frame = json.loads(first_frame(table, who, "fr"))
        assert frame["view"] == plain(state.view(who))
        assert [e["n"] for e in frame["told"] if e["kind"] != "timeout"] == list(
            range(state.event_count())
        )
        told = [
            {k: v for k, v in e.items() if k not in ("n", "text")}
            for e in frame["told"]
            if e["kind"] != "timeout"
        ]
        assert told == plain(state.events_since(0, who))
        for event, (seat, notation, _since) in zip(frame["events"], moves, strict=True):
            assert event["seat"] == seat
            if seat == who:
                assert event["action"] == notation
