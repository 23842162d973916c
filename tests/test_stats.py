"""The performance statistics on synthetic samples whose answer is known: paired analysis,
the hierarchical interval, the invocation drift and reproduction interval, the measured margin,
the verdict rule, unresolved stopping, leak detection (per kernel) and Clopper-Pearson bounds."""
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
    # 5% per-round drift, 0.2% own noise: unpaired medians could not resolve 5%; paired ones do.
    a, v = _verdict({"k": 20.0, "k~aa": 20.0, "slow": 20.0 * 1.05}, round_noise=0.05, noise=0.002)
    assert v["slow"] == "FASTER" and abs(a["comparisons"]["slow"]["ratio"] - 1 / 1.05) < 0.002
    assert a["comparisons"]["slow"]["halfwidth"] < 0.004


def test_a_five_percent_shift_is_faster_and_identical_kernels_are_same():
    _, v = _verdict({"k": 20.0, "k~aa": 20.0, "twin": 20.0, "slow": 21.0, "fast": 19.0})
    assert v == {"k~aa": "SAME", "twin": "SAME", "slow": "FASTER", "fast": "SLOWER"}


def test_a_shift_inside_the_margin_is_never_faster_or_slower():
    # 2% against a margin of 2d = 2.5%: SAME or AMBIGUOUS, never a verdict the next run would not
    # repeat; 1% is SAME.
    for seed in range(20):
        _, v = _verdict({"k": 20.0, "k~aa": 20.0, "near": 20.4, "nearer": 20.2}, seed=seed)
        assert v["near"] in ("SAME", "AMBIGUOUS") and v["nearer"] == "SAME"


def test_a_ratio_drifting_by_d_between_invocations_never_flips_to_the_opposite_claim():
    # Two invocations of the same pair whose true ratio moved by the whole assumed drift d (each
    # invocation's share of it, in opposite directions): whatever the true ratio, the two verdicts
    # never make two different claims. With no widening (d = 0) some do: the committed run at
    # c9a46ef had phase_e against cuDNN SAME at 1.0072, SLOWER at 1.0142 in its re-run.
    d = stats.INVOCATION_DRIFT
    claims = set(stats.CLAIMS)
    def flips(drift):
        n = 0
        for c in np.linspace(-0.08, 0.08, 641):
            for hw in (0.001, 0.003, 0.006):
                m = stats.margin(0.01, None, 0.0, drift)[0]
                a = stats.verdict(c - d / 2 - hw, c - d / 2 + hw, m, drift)
                b = stats.verdict(c + d / 2 - hw, c + d / 2 + hw, m, drift)
                n += a != b and a in claims and b in claims
        return n
    assert flips(d) == 0 and flips(0.0) > 0


def test_the_margin_is_measured_from_the_aa_pair_and_between_runs():
    # Noisy samples widen the A/A interval, and so every pair's margin, above 2d and the floor.
    a, _ = _verdict({"k": 20.0, "k~aa": 20.0, "x": 24.0}, noise=0.1, rounds=30)
    x = a["comparisons"]["x"]
    assert x["margin_parts"]["aa_extent"] > 2 * stats.INVOCATION_DRIFT
    assert x["margin"] == pytest.approx(math.expm1(x["margin_parts"]["aa_extent"]))
    # A pair whose ratio moves between processes: its own range sets its margin, and it still
    # resolves (the verdict holds whichever process one had picked); a steady pair keeps 1%.
    rng = np.random.default_rng(3)
    procs = [perf_process(SEED_W, {"k": 20.0, "k~aa": 20.0, "x": 24.0 * f, "y": 24.0}, 60, rng) for f in (0.97, 1.0, 1.03)]
    a = analyze("w", procs, "k", PEAKS, {}, TIMING)
    x, y = a["comparisons"]["x"], a["comparisons"]["y"]
    assert x["margin_parts"]["between_runs"] > 0.05 and x["margin"] > 0.05 and x["verdict"] == "FASTER"
    assert abs(y["margin"] - math.expm1(2 * stats.INVOCATION_DRIFT)) < 1e-9 and y["verdict"] == "FASTER"
    # A 4% difference inside that pair's 6% run-to-run range is no verdict either way.
    procs = [perf_process(SEED_W, {"k": 20.0, "k~aa": 20.0, "x": 20.8 * f}, 60, rng) for f in (0.97, 1.0, 1.03)]
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


def test_leaks_are_detected_and_withhold_the_verdicts_they_touch():
    # Host cost in the window of one kernel: its events exceed 1.3x its cold graph time. The
    # workload is flagged; only the verdict against that kernel is withheld, and its target fails.
    a, v = _verdict({"k": 20.0, "k~aa": 20.0, "sdpa": 15.0, "other": 30.0}, leak={"sdpa": 15.0})
    assert a["leak"] and a["leaky_kernels"] == ["sdpa"]
    assert v == {"k~aa": "SAME", "sdpa": "NO VERDICT (leak)", "other": "FASTER"}
    rows = target_rows([{"vs": "sdpa", "workloads": None, "max_ratio": None, "min_speedup": 0.1, "verdict": None}], [a])
    assert not rows[0]["met"] and rows[0]["why"].startswith("no verdict: sdpa: event median")
    # In the candidate's own window: every verdict of the workload is withheld.
    a, v = _verdict({"k": 20.0, "k~aa": 20.0, "sdpa": 15.0}, leak={"k": 20.0})
    assert a["leaky_kernels"] == ["k"] and all(x.startswith("NO VERDICT") for x in v.values())
    # Holds that timed out in more than 5% of rounds.
    a, v = _verdict({"k": 20.0, "k~aa": 20.0, "sdpa": 15.0}, timed_out_every=10)
    assert any("time out" in x for x in a["leak"]) and a["rounds"] == [54, 54, 54]
    # Clean samples: no leak.
    a, _ = _verdict({"k": 20.0, "k~aa": 20.0, "sdpa": 15.0})
    assert a["leak"] == []


def test_the_launch_an_empty_kernel_pays_in_the_window_is_no_leak():
    """A 7 us kernel whose event window adds only what an empty kernel's adds (2.3 us, the GPU's
    own launch in the window) is clean; 1.3x would flag it. More than that on top still leaks,
    and a record without the empty kernel's figures is held to the plain ratio."""
    times = {"k": 9.3, "k~aa": 9.3, "other": 13.3}
    clean = _procs(times, graph_ratio=(9.3 - 2.4) / 9.3)
    for p in clean:
        p["empty_launch"] = {"event_us": 3.1, "graph_cold_us": 0.8}
    a = analyze("w", clean, "k", PEAKS, {}, TIMING)
    assert a["leak"] == [] and abs(a["empty_launch_us"] - 2.3) < 1e-9
    assert a["comparisons"]["other"]["verdict"] == "FASTER"
    leaky = _procs(times, graph_ratio=(9.3 - 2.4) / 9.3, leak={"k": 2.5})
    for p in leaky:
        p["empty_launch"] = {"event_us": 3.1, "graph_cold_us": 0.8}
    a = analyze("w", leaky, "k", PEAKS, {}, TIMING)
    assert a["leaky_kernels"] == ["k"] and "an empty kernel's launch in the window, 2.30 us" in a["leak"][0]
    for p in clean:
        del p["empty_launch"]
    a = analyze("w", clean, "k", PEAKS, {}, TIMING)
    assert a["leaky_kernels"] == ["k", "k~aa", "other"] and "empty_launch_us" not in a


def test_the_physical_floor_applies_to_events_and_graphs_and_fails_closed():
    a = analyze("w", _procs({"k": 0.1, "k~aa": 0.1}), "k", PEAKS, {}, TIMING)
    assert any("under the physical floor" in p for p in a["problems"])
    a = analyze("w", _procs({"k": 20.0, "k~aa": 20.0}, graph_ratio=0.001), "k", PEAKS, {}, TIMING)
    assert any("graph per-call time" in p and "physical floor" in p for p in a["problems"])
    procs = _procs({"k": 20.0, "k~aa": 20.0})
    for p in procs:
        p["graph_cold_us"]["k"] = 0.01
    a = analyze("w", procs, "k", PEAKS, {}, TIMING)
    assert any("cold graph per-call time" in p and "physical floor" in p for p in a["problems"])
    a = analyze("w", _procs({"k": 20.0, "k~aa": 20.0}), "k", None, {}, TIMING)
    assert any("no known peak" in p for p in a["problems"])


def test_an_output_that_does_not_follow_a_pdl_producer_fails_the_workload():
    procs = _procs({"k": 20.0, "k~aa": 20.0})
    assert not analyze("w", procs, "k", PEAKS, {}, TIMING)["problems"]
    procs[1]["pdl_mismatches"] = 7
    problems = analyze("w", procs, "k", PEAKS, {}, TIMING)["problems"]
    assert len(problems) == 1 and "programmatic dependent launch" in problems[0] and "7 element" in problems[0]


def test_an_output_still_changing_after_the_call_returned_fails_the_workload():
    procs = _procs({"k": 20.0, "k~aa": 20.0})
    procs[2]["incomplete_on_return"] = 4096
    problems = analyze("w", procs, "k", PEAKS, {}, TIMING)["problems"]
    assert len(problems) == 1 and "not complete when the caller's stream" in problems[0] and "4096" in problems[0]


def test_a_timed_output_that_differs_from_an_untimed_call_fails_the_workload():
    procs = _procs({"k": 20.0, "k~aa": 20.0})
    procs[0]["timed_mismatches"] = [[3, 17], [41, 2]]
    problems = analyze("w", procs, "k", PEAKS, {}, TIMING)["problems"]
    assert len(problems) == 1 and "untimed call" in problems[0] and "2 round(s)" in problems[0] \
        and "19 element(s)" in problems[0]


def test_a_graph_output_off_the_reference_at_its_last_calls_scale_fails_the_workload():
    procs = _procs({"k": 20.0, "k~aa": 20.0})
    procs[1]["graph_recheck"] = {"set": 0, "err": 1e-4, "err_sdpa": 1e-4, "err_round": 5e-5, "calls": 200,
                                 "scale_ratio": 1.5}
    assert not analyze("w", procs, "k", PEAKS, {}, TIMING)["problems"]
    procs[1]["graph_recheck"]["err"] = 3e-2
    problems = analyze("w", procs, "k", PEAKS, {}, TIMING)["problems"]
    assert len(problems) == 1 and "CUDA graph" in problems[0] and "1.5x" in problems[0] and "0.03" in problems[0]


def _graph_procs(cand_us, cudnn_us, leak=None):
    rng = np.random.default_rng(7)
    procs = []
    for c, b in zip(cand_us, cudnn_us):
        pr = perf_process(SEED_W, {"k": 20.0, "k~aa": 20.0, "sdpa_cudnn": 40.0}, 40, rng, leak=leak)
        pr["graph_us"].update(k=c, sdpa_cudnn=b)
        procs.append(pr)
    return procs


def _own_rows(procs, targets):
    a = analyze("w", procs, "k", PEAKS, {}, TIMING)
    full = [dict({"vs": None, "workloads": None, "max_ratio": None, "min_speedup": None, "verdict": None,
                  "max_graph_ratio": None, "min_tflops": None, "max_graph_us": None}, **t) for t in targets]
    return target_rows(full, [a], "k", {"w": [p["graph_us"] for p in procs]})


def test_graph_time_targets_read_every_process_widened_by_the_drift():
    d = math.exp(stats.INVOCATION_DRIFT)
    # Per-process graph times 4.5-4.6 us: the interval's top, 4.6 x 1.0125 = 4.66, is under 4.7.
    rows = _own_rows(_graph_procs([4.5, 4.55, 4.6], [9.0, 9.0, 9.0]), [{"max_graph_us": 4.7}])
    assert rows[0]["met"] and rows[0]["vs"] is None and f"{4.6 * d:.2f}" in rows[0]["why"]
    # One slow process is enough to miss it, though the median (4.55) is under the bound.
    rows = _own_rows(_graph_procs([4.5, 4.55, 4.8], [9.0, 9.0, 9.0]), [{"max_graph_us": 4.7}])
    assert not rows[0]["met"]
    # Within the drift of the bound is not met either.
    rows = _own_rows(_graph_procs([4.66, 4.66, 4.66], [9.0, 9.0, 9.0]), [{"max_graph_us": 4.7}])
    assert not rows[0]["met"]
    # The ratio to another kernel pairs each process's own two figures.
    rows = _own_rows(_graph_procs([5.0, 5.5, 5.2], [9.5, 10.0, 9.6]), [{"vs": "sdpa_cudnn", "max_graph_ratio": 0.6}])
    assert rows[0]["met"] and rows[0]["vs"] == "sdpa_cudnn"
    rows = _own_rows(_graph_procs([5.0, 5.95, 5.2], [9.5, 10.0, 9.6]), [{"vs": "sdpa_cudnn", "max_graph_ratio": 0.6}])
    assert not rows[0]["met"]                       # 0.595 x 1.0125 > 0.6: within the drift


def test_graph_targets_are_not_withheld_by_an_event_leak_and_need_graph_figures():
    # Host cost in the candidate's event window withholds its verdicts, not its graph figures.
    procs = _graph_procs([5.0, 5.0, 5.0], [10.0, 10.0, 10.0], leak={"k": 20.0})
    rows = _own_rows(procs, [{"max_graph_us": 5.2}, {"vs": "sdpa_cudnn", "max_graph_ratio": 0.6},
                             {"vs": "sdpa_cudnn", "min_speedup": 0.1}])
    assert [r["met"] for r in rows] == [True, True, False] and rows[2]["why"].startswith("no verdict")
    for p in procs:
        p["graph_us"] = {}
    rows = _own_rows(procs, [{"max_graph_us": 5.2}, {"vs": "sdpa_cudnn", "max_graph_ratio": 0.6}])
    assert not any(r["met"] for r in rows) and all("no CUDA-graph" in r["why"] for r in rows)


def test_a_tflops_target_reads_the_slowest_process():
    procs = _graph_procs([5.0] * 3, [9.0] * 3)
    flops = 4 * 1 * 8 * 512 * 512 * 64
    per = [flops / (float(np.median([r[0] for r in p["us"]])) * 1e-6) / 1e12 for p in procs]
    lo = min(per) / math.exp(stats.INVOCATION_DRIFT)
    assert _own_rows(procs, [{"min_tflops": lo * 0.999}])[0]["met"]
    assert not _own_rows(procs, [{"min_tflops": lo * 1.001}])[0]["met"]


def test_targets_need_the_whole_reproduction_interval():
    comp = {"ratio": 0.9, "ci": [0.86, 0.95], "reproduction_ci": [0.85, 0.96], "verdict": "FASTER"}
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
    m, d = 0.01, 0.002                     # the rule reads [lo - d, hi + d]
    assert stats.verdict(-0.05, -0.045, m, d) == "FASTER"
    assert stats.verdict(-0.05, -0.0085, m, d) == "UNRESOLVED"  # half-width 0.021 > m/2
    assert stats.verdict(-0.016, -0.0085, m, d) == "AMBIGUOUS"  # -0.0085 + d is inside -m
    assert stats.verdict(0.045, 0.05, m, d) == "SLOWER"
    assert stats.verdict(-0.004, 0.004, m, d) == "SAME"
    assert stats.verdict(-0.001, 0.0085, m, d) == "AMBIGUOUS"   # 0.0085 + d is past +m
    assert stats.verdict(0.005, 0.012, m, d) == "AMBIGUOUS"
    assert stats.verdict(-0.05, 0.0, m, d) == "UNRESOLVED"      # half-width 0.025 > m/2
    assert stats.margin(0.01, None, 0.0, 0.0125)[0] == 0.025


def test_summary_and_halfwidth():
    s = stats.summary([1.0, 2.0, 3.0, 4.0, 5.0])
    assert (s["median"], s["q1"], s["q3"], s["n"]) == (3.0, 2.0, 4.0, 5)
    assert stats.median_halfwidth([5.0] * 10) == 0.0 and stats.median_halfwidth([1.0]) == math.inf


LSE = {"atol": 1e-3, "rtol": 1e-4}  # phases/floor.yaml's correctness tolerance, copied by ladder/spec.py


def test_an_untimed_check_off_the_reference_fails_and_so_does_a_refusal():
    from ladder.gates.performance import untimed_problems
    prob = {"B": 8, "H": 16, "S_q": 2048, "S_k": 2048, "D": 64, "dtype": "bf16", "causal": True, "layout": "bshd"}
    ok = dict(prob, err=1e-3, err_sdpa=1e-3, err_round=5e-4, calls=201)
    assert untimed_problems([ok], "k", TIMING, LSE) == []
    assert untimed_problems(None, "k", TIMING, LSE) == []  # records older than the check
    bad = dict(ok, err=3e-3)
    problems = untimed_problems([ok, bad], "k", TIMING, LSE)
    assert len(problems) == 1 and "S_q2048 S_k2048 D64 bf16 causal bshd" in problems[0] and "0.003" in problems[0]
    refused = untimed_problems([dict(prob, refused="KernelError: attn_fwd returned CUDA error 1")], "k", TIMING, LSE)
    assert len(refused) == 1 and "refused it" in refused[0] and "CUDA error 1" in refused[0]


def test_a_drawn_problem_off_the_reference_is_named_as_drawn():
    from ladder.gates.performance import untimed_problems
    r = {"B": 3, "H": 7, "S_q": 4134, "S_k": 6362, "D": 128, "dtype": "bf16", "causal": True, "layout": "bshd",
         "drawn": True, "err": 3e-2, "err_sdpa": 1e-3, "err_round": 5e-4, "calls": 101}
    problems = untimed_problems([r], "k", TIMING, LSE)
    assert len(problems) == 1 and "drawn for this run" in problems[0] and "S_q4134" in problems[0]


def test_an_untimed_log_sum_exp_is_judged_by_the_correctness_tolerance_and_fails_closed_without_one():
    from ladder.gates.performance import untimed_problems
    r = {"B": 4, "H": 16, "S_q": 4096, "S_k": 4096, "D": 128, "dtype": "fp16", "causal": False,
         "layout": "contiguous", "err": 1e-4, "err_sdpa": 1e-4, "err_round": 5e-5, "calls": 101,
         "lse_err": 1.9e-3, "lse_ref_absmax": 10.0}
    assert untimed_problems([r], "k", TIMING, LSE) == []  # 1e-3 + 1e-4 x 10 = 2e-3
    problems = untimed_problems([dict(r, lse_err=2.1e-3)], "k", TIMING, LSE)
    assert len(problems) == 1 and "log-sum-exp" in problems[0] and "at a timed size" in problems[0]
    nan = untimed_problems([dict(r, lse_err=float("inf"))], "k", TIMING, LSE)  # NaN left in lse reads inf
    assert len(nan) == 1 and "log-sum-exp" in nan[0]
    closed = untimed_problems([r], "k", TIMING, None)
    assert len(closed) == 1 and "fails closed" in closed[0]
    old = {k: v for k, v in r.items() if not k.startswith("lse")}  # the dry run's rows: no lse
    assert untimed_problems([old], "k", TIMING, None) == []




def test_the_report_states_the_untimed_checks_worst_errors_against_their_tolerances_and_the_draws():
    from ladder.report import _untimed_lines
    size = {"B": 4, "H": 16, "S_q": 4096, "S_k": 4096, "D": 128, "dtype": "bf16", "causal": True, "layout": "padded"}
    valued = dict(size, err=1e-3, err_sdpa=1e-3, err_round=5e-4, lse_err=4e-4, lse_ref_absmax=10.0)
    refused = dict(size, drawn=True, refused="KernelError: attn_fwd returned CUDA error 1")
    rec = {"inputs": {"section": {"timing": TIMING, "lse_tolerance": LSE}},
           "raw": {"processes": [{"draw_seed": 7, "untimed": [valued, refused, dict(valued, drawn=True)]}]}}
    text = _untimed_lines(rec)[0]
    assert "3 problems, 1 refused" in text and "worst output error 0.50 of its tolerance" in text
    assert "worst log-sum-exp error 0.200 of its tolerance" in text and "seed 7" in text
    assert text.count("(4,16,4096,4096,128) bf16 causal padded") == 2
    assert _untimed_lines({"inputs": {}, "raw": {"processes": [{}]}}) == []  # records older than the checks
