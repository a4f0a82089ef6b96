"""Per-card statistics of the Vale and Eternitium (`eterna analyze`), checked against the
events and final views of simulated games, a crafted tally, and the command line."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

import eterna
from eterna.arena import stats_eternitium, stats_vale
from eterna.arena.analyze import GAME_STATS, analyze_records, write_plots
from eterna.arena.card_stats import CardTally, card_name
from eterna.arena.simulate import run_games
from eterna.arena.stats import wilson
from eterna.cli import app
from eterna.core.records import replay

ENV = {"COLUMNS": "160", "NO_COLOR": "1"}
PNG = b"\x89PNG\r\n\x1a\n"


def _records(game: str, lineup: list[str], games: int, players: int, seed: int):
    results = run_games(game, lineup, games, players, seed=seed)
    return [dict(r.record, meta={"agents": list(r.agents)}) for r in results]


@pytest.fixture(scope="module")
def vale_records():
    return _records("vale", ["heuristic", "random"], 6, 2, seed=5)


@pytest.fixture(scope="module")
def eternitium_records():
    return _records("eternitium", ["heuristic", "random"], 4, 3, seed=2)


def _story(record):
    state = replay(record)
    return state, state.events_since(0, None)


def _rows(stats):
    return {row["card"]: row for row in stats["per_card"]["rows"]}


def test_both_games_are_registered():
    assert GAME_STATS["vale"] is stats_vale.analyze_records
    assert GAME_STATS["eternitium"] is stats_eternitium.analyze_records


def test_vale_counts_equal_the_events_and_the_final_areas(vale_records):
    rows = _rows(stats_vale.analyze_records(vale_records))
    summoned: Counter[str] = Counter()
    tamed: Counter[str] = Counter()
    points: Counter[str] = Counter()
    gained = 0
    for record in vale_records:
        state, events = _story(record)
        for e in events:
            if e["kind"] == "summoned":
                summoned[e["card"]] += 1
            elif e["kind"] == "card_tamed":
                tamed[e["card"]] += 1
            elif e["kind"] in ("points_gained", "points_stolen"):
                gained += e["points"]
                if e["source"] is not None:
                    points[e["source"]] += e["points"]
        by_seat = {(e["seat"], e["card"]) for e in events if e["kind"] == "summoned"}
        for seat, area in enumerate(state.view(None)["areas"]):  # what a seat ends with
            assert {(seat, card) for card in area} <= by_seat  # was summoned: taken by it
    assert sum(summoned.values()) > 20 and sum(points.values()) > 0
    assert {c: r["taken"] for c, r in rows.items() if r["taken"]} == dict(summoned)
    assert {c: r["tamed"] for c, r in rows.items() if r["tamed"]} == dict(tamed)
    assert {c: r["points"] for c, r in rows.items() if r["points"]} == +points  # no 0s
    assert sum(r["points"] for r in rows.values()) <= gained
    for row in rows.values():
        assert row["games"] <= len(vale_records) and row["takers"] <= 2 * row["games"]
        assert row["game_rate"] == pytest.approx(row["games"] / len(vale_records))


def test_vale_win_share_by_hand(vale_records):
    """For the most taken creature: the takers and their wins counted from the events."""
    rows = stats_vale.analyze_records(vale_records[:3])["per_card"]["rows"]
    row = max(rows, key=lambda r: (r["takers"], r["card"]))
    takers = wins = 0.0
    for record in vale_records[:3]:
        state, events = _story(record)
        seats = {e["seat"] for e in events if e["kind"] == "summoned" and e["card"] == row["card"]}
        takers += len(seats)
        wins += sum(1 / len(state.winners) for s in seats if s in state.winners)
    assert row["takers"] == takers and row["wins"] == pytest.approx(wins)
    assert row["win_share"] == pytest.approx(wins / takers)
    assert (row["win_share_low"], row["win_share_high"]) == pytest.approx(wilson(wins, takers))
    assert row["fair_share"] == pytest.approx(0.5)
    assert row["name"] == card_name("vale", row["card"]) and row["name"] != row["card"]


def test_a_crafted_tally_counts_shared_wins_and_mixed_tables():
    tally = CardTally("eternitium", ["played"])
    # game 1: a shared win, seat 0 took it; game 2: 3 players, seats 0 and 2 took it, 2 won;
    # game 3: seat 0 took it twice and lost. The droid was only played.
    tally.add_game(2, [0, 1], {"laboratory": Counter({0: 1})}, {"droid": Counter(played=4)})
    tally.add_game(3, [2], {"laboratory": Counter({0: 1, 2: 1})}, {})
    tally.add_game(2, [1], {"laboratory": Counter({0: 2})}, {"laboratory": Counter(played=3)})
    lab, droid = tally.rows()
    assert lab["card"] == "laboratory" and lab["name"] == "Laboratory"
    assert (lab["games"], lab["taken"], lab["takers"], lab["played"]) == (3, 5, 4, 3)
    assert lab["game_rate"] == 1.0 and lab["wins"] == 1.5
    assert lab["win_share"] == pytest.approx(1.5 / 4)
    assert lab["fair_share"] == pytest.approx((1 / 2 + 1 / 3 + 1 / 3 + 1 / 2) / 4)
    assert lab["win_share_low"] < lab["win_share"] < lab["win_share_high"]
    assert (lab["win_share_low"], lab["win_share_high"]) == pytest.approx(wilson(1.5, 4))
    assert droid["takers"] == 0 and droid["win_share"] is None and droid["played"] == 4


def test_cards_are_ordered_by_the_low_end_of_their_interval():
    """One win out of one take has the better share, eight out of ten the surer one."""
    tally = CardTally("vale", [])
    tally.add_game(2, [0], {"ifrit": Counter({0: 1})}, {})
    for game in range(10):
        tally.add_game(2, [0 if game < 8 else 1], {"odin": Counter({0: 1})}, {})
    odin, ifrit = tally.rows()
    assert (odin["card"], ifrit["card"]) == ("odin", "ifrit")
    assert ifrit["win_share"] > odin["win_share"] and odin["win_share_low"] > ifrit["win_share_low"]


def test_eternitium_counts_equal_the_events(eternitium_records):
    stats = stats_eternitium.analyze_records(eternitium_records)
    rows = _rows(stats)
    taken: Counter[str] = Counter()
    played: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for record in eternitium_records:
        _, events = _story(record)
        for e in events:
            kinds[e["kind"]] += 1
            if e["kind"] in stats_eternitium.TAKEN_KINDS | {"portal_taken"}:
                taken[e.get("card") or "(blind)"] += 1
            elif e["kind"] == "card_played":
                played[e["card"]] += 1
    blind = taken.pop("(blind)", 0)
    assert {c: r["taken"] for c, r in rows.items() if r["taken"]} == dict(taken)
    assert {c: r["played"] for c, r in rows.items() if r["played"]} == dict(played)
    n = len(eternitium_records)
    assert stats["cards_taken_per_game"] == pytest.approx((sum(taken.values()) + blind) / n)
    paid = sum(r["era_paid"] for r in rows.values())
    assert paid + stats["era_paid_blind_per_game"] * n == pytest.approx(kinds["era_taken"])
    discarded = sum(r["era_discarded"] for r in rows.values())
    assert 0 < discarded <= kinds["era_discarded"]
    assert rows["portal-circle"]["era_discarded"] > 0 and rows["droid"]["era_discarded"] == 0


def test_wilson_bounds_bracket_every_share(vale_records, eternitium_records):
    for game, records in (("vale", vale_records), ("eternitium", eternitium_records)):
        for row in analyze_records(game, records)["game_stats"]["per_card"]["rows"]:
            if row["takers"]:
                assert row["win_share_low"] <= row["win_share"] <= row["win_share_high"]
                assert 0 < row["fair_share"] <= 0.5


def test_a_record_of_another_game_is_refused(vale_records, eternitium_records):
    with pytest.raises(eterna.EternaError, match="not 'vale'"):
        analyze_records("vale", [vale_records[0], eternitium_records[0]])
    with pytest.raises(eterna.EternaError, match="not 'eternitium'"):
        analyze_records("eternitium", vale_records[:1])


def test_the_plot_of_win_shares(vale_records, tmp_path):
    paths = write_plots(analyze_records("vale", vale_records), tmp_path)
    card_plot = tmp_path / "vale-creature-win-share.png"
    assert card_plot in paths and card_plot.read_bytes()[:8] == PNG


def test_analyze_command_shows_and_writes_the_per_card_table(
    vale_records, eternitium_records, tmp_path
):
    runner = CliRunner()
    for game, records, title in (
        ("vale", vale_records, "Per creature"),
        ("eternitium", eternitium_records, "Per technology"),
    ):
        path = tmp_path / f"{game}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        out = tmp_path / f"{game}.json"
        args = ["analyze", game, str(path), "--top", "5", "--out", str(out)]
        result = runner.invoke(app, args, env=ENV)
        assert result.exit_code == 0, result.output
        rows = json.loads(out.read_text())["game_stats"]["per_card"]["rows"]
        head = f"{title} (by the low end of the win share's 95% CI, the first 5 of {len(rows)})"
        table = result.output.split(head)[1].split("Games: games in which")[0]
        shown = [line.split("│")[1].strip() for line in table.splitlines() if "│" in line]
        assert shown == [row["name"] for row in rows[:5]]
    result = runner.invoke(app, ["analyze", "vale", str(tmp_path / "eternitium.jsonl")], env=ENV)
    assert result.exit_code == 2 and "not 'vale'" in result.output
