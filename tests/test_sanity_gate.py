"""The sanity gate's derive on raw data with known answers: a sanitizer tool may skip its later
shapes only behind a finding of its own at an earlier shape."""
import copy

from ladder.gates import sanity
from ladder.spec import load_spec

from synthetic import fake_raw


class _Job:
    def __init__(self, spec):
        self.spec = spec
        self.inputs = {"section": spec.section("sanity")}
        self.configs = spec.configs


def _inputs_and_raw():
    spec = load_spec("phases/phase_a")
    job = _Job(spec)
    inputs = {"section": job.inputs["section"], "configs": spec.configs}
    return inputs, fake_raw("sanity", job)


def _racecheck(raw):
    return next(iter(raw["configs"].values()))["sanitizer"]["racecheck"]


def _figures(raw, shape=0):
    """One sanity shape's observations in the first configuration's raw child result."""
    return next(iter(raw["configs"].values()))["child"]["result"]["shapes"][shape]["figures"]


def test_clean_raw_passes():
    inputs, raw = _inputs_and_raw()
    assert sanity.derive(raw, inputs)["status"] == "pass"


def test_skip_behind_a_finding_fails_once_for_the_finding():
    inputs, raw = _inputs_and_raw()
    runs = _racecheck(raw)
    assert len(runs) >= 2, "the floor has at least two sanitizer shapes"
    runs[0].update(returncode=99, output="========= RACECHECK SUMMARY: 3 hazards displayed (3 errors, 0 warnings)")
    for r in runs[1:]:
        shape = r["shape"]
        r.clear()
        r.update(shape=shape, skipped_after=runs[0]["shape"])
    d = sanity.derive(copy.deepcopy(raw), inputs)
    assert d["status"] == "fail"
    problems = next(iter(d["configs"].values()))["problems"]
    assert [p for p in problems if "racecheck" in p] == [p for p in problems if "3 hazard(s)" in p]
    entries = next(iter(d["configs"].values()))["sanitizer"]["racecheck"]
    assert entries[1]["clean"] is None and entries[1]["findings"].startswith("skipped")


def test_skip_without_an_earlier_finding_is_a_failure():
    inputs, raw = _inputs_and_raw()
    runs = _racecheck(raw)
    shape = runs[-1]["shape"]
    runs[-1] = {"shape": shape, "skipped_after": runs[0]["shape"]}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "skipped with no earlier finding" in d["reason"]


def test_an_output_that_does_not_follow_a_pdl_producer_fails():
    inputs, raw = _inputs_and_raw()
    figures = _figures(raw)
    figures["pdl_producer"] = {"mismatches": 120, "unwritten": 0}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "programmatic dependent launch" in d["reason"]


def test_a_stale_answer_after_a_single_row_change_fails():
    inputs, raw = _inputs_and_raw()
    figures = _figures(raw)
    figures["single_row_changes"][1] = {"tensor": "k", "at": [1, 2, 40], "moved": 6400, "unchanged": 6400}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "single-row change of k at (b,h,row)=(1, 2, 40)" in d["reason"]


def test_concurrent_calls_that_mix_fail():
    inputs, raw = _inputs_and_raw()
    figures = _figures(raw, 1)
    figures["concurrent"] = {"mismatches": 9000, "unwritten": 0, "trials": 4}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "two concurrent calls" in d["reason"]


def test_records_made_before_the_new_checks_still_derive():
    inputs, raw = _inputs_and_raw()
    for row in next(iter(raw["configs"].values()))["child"]["result"]["shapes"]:
        row["figures"].pop("single_row_changes", None), row["figures"].pop("concurrent", None)
    assert sanity.derive(raw, inputs)["status"] == "pass"


def _confinement(raw, shape=0):
    return _figures(raw, shape)["confinement"]


def test_work_on_another_stream_fails():
    inputs, raw = _inputs_and_raw()
    c = _confinement(raw)
    c["activities"].insert(2, {"name": "stray_spin", "kind": "kernel", "stream": 13, "start_us": 9.0})
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "stream other than the caller's (7): kernel stray_spin on stream 13" in d["reason"]


def test_a_persisting_l2_set_aside_left_behind_fails():
    inputs, raw = _inputs_and_raw()
    _confinement(raw)["after"]["persisting_l2_bytes"] = 31457280
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "changed the persisting l2 bytes: 0 -> 31457280" in d["reason"]


def test_an_access_policy_window_left_on_the_stream_fails():
    inputs, raw = _inputs_and_raw()
    _confinement(raw, 1)["after"]["stream_access_policy_window"].update(base_ptr=1 << 40, num_bytes=1 << 20,
                                                                          hit_ratio=1.0, hit_prop=2)
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "changed the stream access policy window" in d["reason"]


def test_a_setting_changed_before_the_first_call_fails():
    """A library that changes the cache preference when it is loaded: before and after one call
    agree, the state before the library was loaded does not."""
    inputs, raw = _inputs_and_raw()
    for shape in range(2):
        c = _confinement(raw, shape)
        c["before"]["cache_config"] = c["after"]["cache_config"] = 2
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "cache config is 2, was 0 before the kernel's library was loaded" in d["reason"]


def test_unreadable_state_or_missing_markers_fail_closed():
    inputs, raw = _inputs_and_raw()
    _confinement(raw)["before"]["stream_priority"] = {"error": 400}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "could not read the device's stream_priority before the call" in d["reason"]
    inputs, raw = _inputs_and_raw()
    _confinement(raw)["activities"] = []
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "saw 0 of the call's 2 marker kernels" in d["reason"]
    inputs, raw = _inputs_and_raw()
    _confinement(raw)["activities"].pop(1)
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "no work of the call on the caller's stream" in d["reason"]


def test_a_confinement_check_that_could_not_run_fails():
    inputs, raw = _inputs_and_raw()
    _figures(raw)["confinement"] = {
        "error": "RuntimeError: CUPTI unavailable"}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "could not run: RuntimeError: CUPTI unavailable" in d["reason"]


def test_single_row_changes_skipped_at_long_rows_are_not_failures():
    inputs, raw = _inputs_and_raw()
    figures = _figures(raw)
    figures["single_row_changes"][1:] = [{"tensor": t, "skipped": "S_k 70000 > 4096"} for t in "kv"]
    assert sanity.derive(raw, inputs)["status"] == "pass"


def test_another_problem_at_the_same_addresses_answered_differently_fails():
    inputs, raw = _inputs_and_raw()
    figures = _figures(raw)
    figures["same_addresses"][0] = {"variant": "fewer keys", "elements": 640, "mismatches": 600, "unwritten": 0}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail"
    assert "fewer keys at the addresses of the shape's own calls: 600 of 640" in d["reason"]


def test_another_problem_left_unwritten_at_the_same_addresses_fails():
    inputs, raw = _inputs_and_raw()
    figures = _figures(raw)
    figures["same_addresses"][2] = {"variant": "another scale", "elements": 640, "mismatches": 0, "unwritten": 64}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail"
    assert "another scale at the addresses of the shape's own calls: 64 output elements never written" in d["reason"]


def test_another_log_sum_exp_at_the_same_addresses_fails():
    # o right, lse from the earlier plan: an lse the caller asked for is part of the answer.
    inputs, raw = _inputs_and_raw()
    figures = _figures(raw)
    figures["same_addresses"][1]["lse_mismatches"] = 16
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail"
    assert ("the other mask at the addresses of the shape's own calls: 0 of 640 output elements and 16 "
            "log-sum-exp values differ") in d["reason"]


def test_same_address_rows_recorded_before_the_lse_comparison_still_derive():
    inputs, raw = _inputs_and_raw()
    for got in raw["configs"].values():
        for row in got["child"]["result"]["shapes"]:
            for variant in row["figures"]["same_addresses"]:
                del variant["lse_mismatches"]
    assert sanity.derive(raw, inputs)["status"] == "pass"


def test_records_made_before_the_same_address_check_keep_their_summary():
    inputs, raw = _inputs_and_raw()
    for got in raw["configs"].values():
        for row in got["child"]["result"]["shapes"]:
            del row["figures"]["same_addresses"]
    before = sanity.derive(copy.deepcopy(raw), inputs)
    assert before["status"] == "pass" and "same addresses" not in before["reason"]
    _, fresh = _inputs_and_raw()
    assert "another problem at the same addresses answered as at others" in sanity.derive(fresh, inputs)["reason"]


def test_problems_queued_behind_a_spin_answered_otherwise_fail():
    """A problem answered differently when queued behind others than alone (per-call data staged
    in host memory and overwritten by the next call before the GPU read it) fails, output or
    log-sum-exp; so does a check whose spin ended before the calls were enqueued (it saw nothing)."""
    inputs, raw = _inputs_and_raw()
    _figures(raw, 1)["queued"]["rows"][0].update(mismatches=600)
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail"
    assert ("the shape, queued back to back with other problems on one stream while the GPU was busy (rings of up "
            "to 129 slots exercised): 600 output "
            "elements and 0 log-sum-exp values, summed over its queued calls of 640 elements each, differ from its "
            "call alone") in d["reason"]
    inputs, raw = _inputs_and_raw()
    _figures(raw)["queued"]["rows"][2].update(lse_mismatches=5)
    assert sanity.derive(raw, inputs)["status"] == "fail"
    inputs, raw = _inputs_and_raw()
    _figures(raw)["queued"]["orders"][1] = {"calls": 132, "ahead": 8, "rings_mixed": 8}
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and ("only 8 of 132 calls were enqueued before the spin was over, which exercises "
                                      "staging rings of fewer than 8 slots, not the 9 the check promises") in d["reason"]
    inputs, raw = _inputs_and_raw()
    _figures(raw)["queued"]["orders"][1] = {"calls": 132, "ahead": 9, "rings_mixed": 9}
    assert sanity.derive(raw, inputs)["status"] == "pass"  # held back after the short order: still what it promises


def test_records_made_before_the_twenty_sixth_session_read_their_ran_ahead_flags():
    inputs, raw = _inputs_and_raw()
    for got in raw["configs"].values():
        for row in got["child"]["result"]["shapes"]:
            row["figures"]["queued"].pop("orders")
            row["figures"]["queued"]["ran_ahead"] = [True, True]
    assert sanity.derive(copy.deepcopy(raw), inputs)["status"] == "pass"
    _figures(raw)["queued"]["ran_ahead"] = [True, False]
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "the host never ran ahead of the GPU" in d["reason"]


def test_records_made_before_the_queued_check_keep_their_summary():
    inputs, raw = _inputs_and_raw()
    for got in raw["configs"].values():
        for row in got["child"]["result"]["shapes"]:
            del row["figures"]["queued"]
    before = sanity.derive(copy.deepcopy(raw), inputs)
    assert before["status"] == "pass" and "queued" not in before["reason"]
    _, fresh = _inputs_and_raw()
    assert "other problems queued behind it answered as alone" in sanity.derive(fresh, inputs)["reason"]


def _unsupported(raw):
    return next(iter(raw["configs"].values()))["child"]["result"]["unsupported"]


def _answered(variant, err=1e-4, tol=2e-4, lse_err=1e-6, lse_tol=1e-3, outside=0, must_refuse=False):
    return {"variant": variant, "shape": {"B": 1, "H": 1, "S_q": 8, "S_k": 8, "D": 96, "dtype": "fp16",
                                          "causal": False},
            "must_refuse": must_refuse, "outcome": "computed", "err": err, "tol": tol, "lse_err": lse_err,
            "lse_tol": lse_tol, "outside": outside}


def test_an_unsupported_call_answered_right_passes():
    inputs, raw = _inputs_and_raw()
    _unsupported(raw).append(_answered("head dim 96"))
    d = sanity.derive(raw, inputs)
    assert d["status"] == "pass" and "other head dims" in d["reason"]


def test_an_unsupported_call_answered_wrongly_fails():
    for bad, said in ((dict(err=0.3), "output error 0.3"), (dict(lse_err=0.01), "log-sum-exp error 0.01"),
                      (dict(outside=64), "64 elements of o's padding"), (dict(err=float("inf")), "output error inf")):
        inputs, raw = _inputs_and_raw()
        _unsupported(raw).append(_answered("head dim 96", **bad))
        d = sanity.derive(raw, inputs)
        assert d["status"] == "fail" and "head dim 96" in d["reason"] and said in d["reason"], (bad, d["reason"])


def test_an_undefined_dtype_answered_at_all_fails():
    inputs, raw = _inputs_and_raw()
    _unsupported(raw).append(_answered("dtype code 2", must_refuse=True))
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "no answer is right" in d["reason"]


def test_a_refusal_that_wrote_or_a_fault_fails():
    inputs, raw = _inputs_and_raw()
    _unsupported(raw)[0]["written"] = 5
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "refused, yet 5 elements of o" in d["reason"]
    inputs, raw = _inputs_and_raw()
    _unsupported(raw).append({"variant": "head dim 256", "shape": _answered("x")["shape"], "must_refuse": False,
                              "outcome": "fault", "error": "AcceleratorError: illegal memory access"})
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "head dim 256" in d["reason"] and "faulted" in d["reason"]


def test_records_made_before_the_unsupported_calls_keep_their_summary():
    inputs, raw = _inputs_and_raw()
    for got in raw["configs"].values():
        result = got["child"]["result"]
        del result["unsupported"]
        result["misaligned"] = [{"variant": "base 2 bytes off", "outcome": "computed", "err": 1e-4, "tol": 0.1}]
    d = sanity.derive(copy.deepcopy(raw), inputs)
    assert d["status"] == "pass" and "misaligned views refused or right" in d["reason"]
    assert "other head dims" not in d["reason"]
    for got in raw["configs"].values():
        got["child"]["result"]["misaligned"][0]["err"] = 1.0
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "base 2 bytes off was answered wrongly" in d["reason"]


def test_a_problem_answered_otherwise_from_two_host_threads_fails():
    inputs, raw = _inputs_and_raw()
    assert "safe from two host threads at once" in sanity.derive(copy.deepcopy(raw), inputs)["reason"]
    _figures(raw)["threads"]["rows"][1].update(mismatches=12)
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "fewer keys, called from one of two host threads at once: 12 output" in d["reason"]
    inputs, raw = _inputs_and_raw()
    _figures(raw)["threads"]["rows"][0].update(error="KernelError: attn_fwd returned CUDA error 700")
    d = sanity.derive(raw, inputs)
    assert d["status"] == "fail" and "error 700" in d["reason"]
