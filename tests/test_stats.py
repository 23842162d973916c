"""The performance statistics on synthetic samples whose answer is known: paired analysis,
the hierarchical interval, the measured margin, the verdict rule, unresolved stopping, leak
detection and Clopper-Pearson bounds."""
import math

import numpy as np
import pytest

from ladder import stats
from ladder.gates.performance import analyze, target_rows
from synthetic import perf_process

SEED_W = {"name": "w", "B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}
TIMING = {"min_margin": 0.01, "leak_ratio": 1.3, "recheck_k": 2.0, "processes": 3}
PEAKS = {"tensor_flop_s": 1.07e15, "dram_byte_s": 3.35e12}


def _procs(times, n_procs=3, rounds=60, seed=0, **kw):
    rng = np.random.default_rng(seed)
    return [perf_process(SEED_W, times, rounds, rng, **kw) for _ in range(n_procs)]


def _verdict(times, **kw):
    a = analyze("w", _procs(times, **kw), "k", PEAKS, {}, TIMING)
    return a, {n: c["verdict"] for n, c in a["comparisons"].items()}


def test_pairing_cancels_drift_shared_by_a_round():
    # 5% per-round drift, 0.2% own noise: unpaired medians could not resolve 1%; paired ones do.
    a, v = _verdict({"k": 20.0, "k~aa": 20.0, "slow": 20.0 * 1.03}, round_noise=0.05, noise=0.002)
    assert v["slow"] == "FASTER" and abs(a["comparisons"]["slow"]["ratio"] - 1 / 1.03) < 0.002
    assert a["comparisons"]["slow"]["halfwidth"] < 0.004


def test_a_three_percent_shift_is_faster_and_identical_kernels_are_same():
    _, v = _verdict({"k": 20.0, "k~aa": 20.0, "twin": 20.0, "slow": 20.6, "fast": 19.4})
    assert v == {"k~aa": "SAME", "twin": "SAME", "slow": "FASTER", "fast": "SLOWER"}


def test_a_shift_inside_the_margin_is_never_faster_or_slower():
    # 0.5% against a 1% margin: SAME or AMBIGUOUS, never a verdict the next run would not repeat.
    for seed in range(20):
        _, v = _verdict({"k": 20.0, "k~aa": 20.0, "near": 20.1}, seed=seed)
        assert v["near"] in ("SAME", "AMBIGUOUS")


def test_the_margin_is_measured_from_the_aa_pair_and_between_runs():
    # Noisy samples widen the A/A interval, and so every pair's margin, above the 1% floor.
    a, _ = _verdict({"k": 20.0, "k~aa": 20.0, "x": 22.0}, noise=0.05, rounds=30)
    x = a["comparisons"]["x"]
    assert x["margin"] > 0.01 and x["margin_parts"]["aa_extent"] > math.log1p(0.01)
    # A pair whose ratio moves between processes: its own range sets its margin, and it still
    # resolves (the verdict holds whichever process one had picked); a steady pair keeps 1%.
    rng = np.random.default_rng(3)
    procs = [perf_process(SEED_W, {"k": 20.0, "k~aa": 20.0, "x": 22.0 * f, "y": 24.0}, 60, rng) for f in (0.97, 1.0, 1.03)]
    a = analyze("w", procs, "k", PEAKS, {}, TIMING)
    x, y = a["comparisons"]["x"], a["comparisons"]["y"]
    assert x["margin_parts"]["between_runs"] > 0.05 and x["margin"] > 0.05 and x["verdict"] == "FASTER"
    assert y["margin"] < 0.02 and y["verdict"] == "FASTER"
    # A 3% difference inside that pair's 6% run-to-run range is no verdict either way.
    procs = [perf_process(SEED_W, {"k": 20.0, "k~aa": 20.0, "x": 20.6 * f}, 60, rng) for f in (0.97, 1.0, 1.03)]
    assert analyze("w", procs, "k", PEAKS, {}, TIMING)["comparisons"]["x"]["verdict"] in ("SAME", "AMBIGUOUS")


def test_hierarchical_interval_covers_between_process_spread():
    rng = np.random.default_rng(4)
    groups = [rng.normal(mu, 0.001, 50) for mu in (0.00, 0.02, 0.04)]
    est, lo, hi = stats.hierarchical_interval(groups)
    assert abs(est - 0.02) < 0.002 and lo < 0.01 and hi > 0.03      # wider than within-process noise
    pooled_hw = 1.96 * 0.02 / math.sqrt(150)
    assert (hi - lo) / 2 > 3 * pooled_hw
    assert stats.hierarchical_interval(groups) == (est, lo, hi)       # seeded: recomputes exactly


def test_a_noisy_pair_is_unresolved_and_its_target_fails_as_unresolved():
    a, v = _verdict({"k": 20.0, "k~aa": 20.0, "noisy": 10.0}, noise=0.2, rounds=8, n_procs=3)
    assert v["noisy"] == "UNRESOLVED"
    rows = target_rows([{"vs": "noisy", "workloads": None, "max_ratio": None, "min_speedup": 0.1, "verdict": None}], [a])
    assert not rows[0]["met"] and rows[0]["why"].startswith("unresolved")


def test_leaks_are_detected_and_the_workload_gets_no_verdict():
    # Host cost in the window of one kernel: its events exceed 1.3x its cold graph time.
    a, v = _verdict({"k": 20.0, "k~aa": 20.0, "sdpa": 15.0}, leak={"sdpa": 15.0})
    assert a["leak"] and all(x.startswith("NO VERDICT") for x in v.values())
    # Holds that timed out in more than 5% of rounds.
    a, v = _verdict({"k": 20.0, "k~aa": 20.0, "sdpa": 15.0}, timed_out_every=10)
    assert any("time out" in x for x in a["leak"]) and a["rounds"] == [54, 54, 54]
    # Clean samples: no leak.
    a, _ = _verdict({"k": 20.0, "k~aa": 20.0, "sdpa": 15.0})
    assert a["leak"] == []


def test_the_physical_floor_applies_to_events_and_graphs_and_fails_closed():
    a = analyze("w", _procs({"k": 0.1, "k~aa": 0.1}), "k", PEAKS, {}, TIMING)
    assert any("under the physical floor" in p for p in a["problems"])
    a = analyze("w", _procs({"k": 20.0, "k~aa": 20.0}, graph_ratio=0.001), "k", PEAKS, {}, TIMING)
    assert any("graph per-call time" in p and "physical floor" in p for p in a["problems"])
    a = analyze("w", _procs({"k": 20.0, "k~aa": 20.0}), "k", None, {}, TIMING)
    assert any("no known peak" in p for p in a["problems"])


def test_targets_need_the_whole_interval():
    comp = {"ratio": 0.9, "ci": [0.85, 0.96], "verdict": "FASTER"}
    from ladder.gates.performance import target_met
    t = {"max_ratio": None, "min_speedup": None, "verdict": None}
    assert target_met(dict(t, max_ratio=0.97), comp)[0]
    assert not target_met(dict(t, max_ratio=0.95), comp)[0]
    assert target_met(dict(t, min_speedup=1.04), comp)[0]
    assert not target_met(dict(t, min_speedup=1.1), comp)[0]
    assert target_met(dict(t, verdict="faster"), comp)[0] and not target_met(dict(t, verdict="same"), comp)[0]


@pytest.mark.parametrize("k, n", [(0, 150), (2, 150), (150, 150)])
def test_clopper_pearson(k, n):
    lo, hi = stats.clopper_pearson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1
    if k == 0:
        assert lo == 0 and 0.02 < hi < 0.025   # 0/150: the rate is at most 2.4%
    if k == n:
        assert hi == 1 and lo > 0.97


def test_verdict_rule():
    m = 0.01
    assert stats.verdict(-0.05, -0.045, m) == "FASTER"
    assert stats.verdict(0.045, 0.05, m) == "SLOWER"
    assert stats.verdict(-0.004, 0.004, m) == "SAME"
    assert stats.verdict(0.005, 0.012, m) == "AMBIGUOUS"
    assert stats.verdict(-0.05, 0.0, m) == "UNRESOLVED"      # half-width 0.025 > m/2


def test_summary_and_halfwidth():
    s = stats.summary([1.0, 2.0, 3.0, 4.0, 5.0])
    assert (s["median"], s["q1"], s["q3"], s["n"]) == (3.0, 2.0, 4.0, 5)
    assert stats.median_halfwidth([5.0] * 10) == 0.0 and stats.median_halfwidth([1.0]) == math.inf
