"""The performance gate's derive applies the sanity gate's confinement rule to the candidate's
profiled call at each timed workload: work on another stream, or a setting changed since the
process started, fails the gate there, even when the sanity shapes saw a confined kernel. So do
the sanity gate's checks of calls that share something, run again once the problem is hot."""
from ladder.registry import derive_fn

from synthetic import perf_raw

W = {"name": "big", "B": 2, "H": 8, "S_q": 1024, "S_k": 1024, "D": 64, "dtype": "fp16", "causal": False}
SECTION = {"workloads": [W], "targets": [],
           "timing": {"min_margin": 0.01, "leak_ratio": 1.3, "recheck_k": 2.0, "processes": 3}}
INPUTS = {"hash": "x", "section": SECTION, "context": {"peaks": {"tensor_flop_s": 1e15, "dram_byte_s": 3e12}}}


def _raw():
    return perf_raw("p", {"p": 200.0, "p~aa": 200.0, "sdpa_flash": 150.0}, [W])


def _derive(raw):
    return derive_fn("gate", "performance")(raw, INPUTS)


def test_a_confined_candidate_passes():
    assert _derive(_raw())["status"] == "pass"


def test_work_on_another_stream_at_a_timed_size_fails():
    raw = _raw()
    raw["processes"][1]["confinement"]["workloads"][0]["activities"].insert(
        2, {"name": "spin", "kind": "kernel", "stream": 21, "start_us": 30.0})
    d = _derive(raw)
    assert d["status"] == "fail"
    assert "big (process 1): p: 1 GPU operation(s) ran on a stream other than the caller's (7)" in d["reason"]


def test_a_set_aside_taken_during_the_timing_fails():
    """Changed by an earlier (timed) call: the profiled call's own before and after agree."""
    raw = _raw()
    obs = raw["processes"][0]["confinement"]["workloads"][0]
    obs["before"]["persisting_l2_bytes"] = obs["after"]["persisting_l2_bytes"] = 1 << 25
    d = _derive(raw)
    assert d["status"] == "fail" and "persisting l2 bytes is 33554432, was 0" in d["reason"]


def test_records_made_before_the_check_still_derive():
    raw = _raw()
    for p in raw["processes"]:
        del p["confinement"]
    assert _derive(raw)["status"] == "pass"


def test_a_profiled_call_that_could_not_run_fails_closed():
    """The child records the profiler's failure in place of the observation (its timing samples
    stay); the gate may not read that as confined."""
    raw = _raw()
    raw["processes"][2]["confinement"]["workloads"][0] = {"error": "RuntimeError: CUPTI_ERROR_NOT_INITIALIZED"}
    d = _derive(raw)
    assert d["status"] == "fail"
    assert "big (process 2): p: the confinement check could not run: RuntimeError" in d["reason"]


def test_sharing_seen_only_after_the_timing_fails():
    """The sanity gate's concurrent calls and calls at the same addresses, run again once the
    problem is hot: a mismatch in any process fails the gate and names what was shared."""
    raw = _raw()
    raw["processes"][0]["workloads"][0]["warm_concurrency"] = {"mismatches": 300, "unwritten": 0, "trials": 4}
    d = _derive(raw)
    assert d["status"] == "fail"
    assert "big (p): after the timing, two concurrent calls on two streams (different inputs): 300 elements " \
           "differ from their eager outputs, 0 never written, over 12 trials" in d["reason"]
    raw = _raw()
    for p in (1, 2):
        raw["processes"][p]["workloads"][0]["warm_same_addresses"][0].update(mismatches=10, lse_mismatches=2)
    d = _derive(raw)
    assert d["status"] == "fail"
    assert "big (p): after the timing, fewer keys at the addresses of the workload's own calls: 20 of 4096 output " \
           "elements and 4 log-sum-exp values differ" in d["reason"]
    raw = _raw()
    raw["processes"][2]["workloads"][0]["warm_single_row"][1].update(unchanged=40)
    d = _derive(raw)
    assert d["status"] == "fail"
    assert "big (p): after the timing, a single-row change of k at (b,h,row)=(0, 1, 5): 40 of the 64 output elements " \
           "it moves are unchanged" in d["reason"]


def test_records_made_before_the_warm_checks_still_derive():
    raw = _raw()
    for p in raw["processes"]:
        for w in p["workloads"]:
            del w["warm_concurrency"], w["warm_same_addresses"], w["warm_single_row"]
    assert _derive(raw)["status"] == "pass"
