"""Balance statistics over simulated records, the Eternity hook, and the plots."""

from __future__ import annotations

import pytest

import eterna
from eterna.arena.analyze import GAME_STATS, analyze_records, game_stats_hook, public, write_plots
from eterna.arena.simulate import run_games


@pytest.fixture(scope="module")
def eternity_records():
    results = run_games("eternity", ["heuristic", "random"], 8, 4, seed=21)
    out = []
    for r in results:
        record = dict(r.record)
        record["meta"] = {"agents": list(r.agents)}
        out.append(record)
    return results, out


def test_seat_and_agent_statistics_match_the_games(eternity_records):
    results, records = eternity_records
    analysis = analyze_records("eternity", records)
    assert analysis["records"] == 8 and analysis["unfinished"] == 0
    seats = analysis["seats"]["4"]
    assert [s["games"] for s in seats] == [8] * 4
    assert sum(s["wins"] for s in seats) == pytest.approx(8)
    assert seats[0]["mean_score"] == pytest.approx(sum(r.scores[0] for r in results) / 8)
    assert {a["agent"] for a in analysis["agents"]} == {"heuristic", "random"}
    assert analysis["games"]["length"]["mean"] > 0
    assert analysis["scores"]["4"]["0"]["max"] == max(r.scores[0] for r in results)


def test_eternity_statistics_come_from_the_registry(eternity_records):
    _, records = eternity_records
    assert game_stats_hook("eternity") is GAME_STATS["eternity"]
    stats = analyze_records("eternity", records)["game_stats"]
    assert stats["rounds"] == 8 * 3
    pledges = sum(r["actions"][i].startswith("pledge") for r in records for i in range(120))
    assert stats["pledges_per_round"] == pytest.approx(pledges / 24)
    assert set(stats["pledges_per_round_by_round"]) == {"1", "2", "3"}
    assert 0.0 <= stats["exact_match_rate"] <= 1.0
    assert set(stats["exact_match_rate_by_seat"]) == {"0", "1", "2", "3"}


def test_records_without_agents_have_no_agent_table():
    results = run_games("vale", ["random"], 2, 2, seed=3)
    analysis = analyze_records("vale", [r.record for r in results])
    assert analysis["records"] == 2 and analysis["game_stats"]["per_card"]["rows"]
    assert analysis["agents"] == []


def test_unfinished_records_are_left_out_and_wrong_games_refused(eternity_records):
    _, records = eternity_records
    cut = dict(records[0], actions=records[0]["actions"][:10])
    analysis = analyze_records("eternity", [cut, records[1]])
    assert analysis["records"] == 1 and analysis["unfinished"] == 1
    with pytest.raises(eterna.EternaError, match="not 'vale'"):
        analyze_records("vale", records[:1])
    broken = dict(records[0], actions=["play nothing-99"])
    with pytest.raises(eterna.EternaError, match="does not replay"):
        analyze_records("eternity", [broken])


def test_plots_are_written(eternity_records, tmp_path):
    _, records = eternity_records
    analysis = analyze_records("eternity", records)
    paths = write_plots(analysis, tmp_path / "plots")
    assert len(paths) == 3
    for path in paths:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "_lengths" not in public(analysis)
