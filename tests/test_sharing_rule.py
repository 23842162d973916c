"""The sanity and performance gates judge the sharing checks by one rule (ladder/gates/sharing.py):
the same observation gives the same problem in both, the performance gate's only with where and
when in front, and its processes' observations pooled before the rule reads them."""
from ladder.gates import sharing
from ladder.gates.performance import warm_sharing_problems
from ladder.gates.sanity import shape_problems

from ladder.spec import load_spec

from synthetic import fake_raw

CONC = {"mismatches": 7, "unwritten": 1, "trials": 4}
SAME = [{"variant": "fewer keys", "elements": 640, "mismatches": 3, "lse_mismatches": 2, "unwritten": 0}]
ROW = [{"tensor": "v", "at": [0, 1, 2], "moved": 64, "unchanged": 40}]


class _Job:
    def __init__(self, spec):
        self.spec, self.inputs, self.configs = spec, {"section": spec.section("sanity")}, spec.configs


def _sanity(**changes):
    raw = fake_raw("sanity", _Job(load_spec("phases/phase_a")))
    figures = next(iter(raw["configs"].values()))["child"]["result"]["shapes"][0]["figures"]
    figures.update(changes)
    return shape_problems(figures)


def _perf(**observations):
    proc = {"warm_concurrency": None, "warm_same_addresses": [], "warm_single_row": []}
    proc.update(observations)
    return warm_sharing_problems("big", "p", [proc])


def test_one_observation_reads_the_same_in_both_gates():
    for sanity_key, perf_key, obs in (("concurrent", "warm_concurrency", CONC),
                                      ("same_addresses", "warm_same_addresses", SAME),
                                      ("single_row_changes", "warm_single_row", ROW)):
        [s] = _sanity(**{sanity_key: obs})
        [p] = _perf(**{perf_key: obs})
        s = s.replace("shape's own calls", "workload's own calls")
        assert p == f"big (p): after the timing, {s}"


def test_processes_are_pooled_before_the_rule():
    two = warm_sharing_problems("big", "p", [{"warm_concurrency": CONC, "warm_same_addresses": SAME},
                                             {"warm_concurrency": CONC, "warm_same_addresses": SAME}])
    assert "14 elements differ from their eager outputs, 2 never written, over 8 trials" in two[0]
    assert "6 of 640 output elements and 4 log-sum-exp values differ" in two[1]


def test_clean_observations_give_no_problem():
    assert sharing.concurrency_problems({"mismatches": 0, "unwritten": 0, "trials": 4}) == []
    assert sharing.concurrency_problems(None) == []
    assert sharing.single_row_problems([{"tensor": "k", "at": [0, 0, 1], "moved": 64, "unchanged": 32}]) == []
    assert sharing.single_row_problems([{"tensor": "k", "skipped": "S_k 70000 > 4096"}]) == []
