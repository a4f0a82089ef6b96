"""The process pool and Ray give the same results as one process; ratings order agents."""

from __future__ import annotations

import pytest

from eterna.arena import aggregate, prepare, run_arena

SPEC = prepare("eternity", ["heuristic", "random"], 16, 4, seed=11)


@pytest.fixture(scope="module")
def serial():
    return run_arena(SPEC, workers=1)


def test_results_come_in_game_order_with_paired_seeds(serial):
    assert [r.index for r in serial] == list(range(16))
    assert [r.seed for r in serial] == [11 + i // 4 for i in range(16)]


def test_process_pool_is_identical_to_one_process(serial):
    batches = []
    pooled = run_arena(SPEC, workers=2, on_results=batches.append)
    assert pooled == serial
    assert sum(len(b) for b in batches) == 16
    assert aggregate(pooled) == aggregate(serial)


def test_ray_on_a_local_instance_is_identical(serial):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING", log_to_driver=False)
    try:
        remote = run_arena(SPEC, workers=2, backend="ray")
    finally:
        ray.shutdown()
    assert not ray.is_initialized()
    assert remote == serial


def test_heuristic_rates_above_random_at_eternity(serial):
    summary = aggregate(serial)
    heuristic, random_ = summary["agents"]
    assert heuristic["agent"] == "heuristic" and random_["agent"] == "random"
    assert heuristic["rating"]["mu"] > random_["rating"]["mu"]
    assert heuristic["win_rate"] > random_["win_rate"]


def test_records_are_kept_on_request_and_replay(serial):
    import eterna

    kept = run_arena(SPEC, workers=1, keep_records=True)
    assert [r.scores for r in kept] == [r.scores for r in serial]
    state = eterna.load_game("eternity").from_record(kept[5].record)
    assert tuple(state.scores) == kept[5].scores


def test_bad_backend_or_workers_is_refused():
    import eterna

    with pytest.raises(eterna.EternaError, match="backend"):
        run_arena(SPEC, backend="carrier-pigeon")
    with pytest.raises(eterna.EternaError, match="workers"):
        run_arena(SPEC, workers=0)
