"""The correctness plan: the residue sweep covers every residue of every modulus for S_q and S_k
alike, and trials reach every layout of every tensor, every value distribution, and scales other
than the default."""
from ladder import cases
from ladder.spec import load_floor, load_spec
from helpers import ROOT


def test_residue_lengths_cover_every_residue():
    r = load_floor()["correctness"]["residues"]
    rows = cases.residue_cases(r)
    for m in r["moduli"] + [128, 64, 96, 48, 16]:
        if any(x % m == 0 for x in r["moduli"]) or m in r["moduli"]:
            assert {c["S_k"] % m for c in rows} == set(range(m)), m
            assert {c["S_q"] % m for c in rows} == set(range(m)), m
    assert max(c["S_k"] for c in rows) <= r["max_len"] and min(c["S_q"] for c in rows) >= 1


def test_trials_reach_every_layout_value_distribution_and_scale():
    section = load_spec(ROOT / "phases" / "phase_a").section("correctness")
    seen_layouts = {t: set() for t in cases.TENSORS}
    values, scales = set(), set()
    for ci, case, dtype, causal, n in cases.groups(section):
        for t in range(n):
            plan = cases.trial_plan(section, ci, case, dtype, causal, t)
            for name, layout in plan["layouts"].items():
                seen_layouts[name].add(layout)
            values.add((plan["values"]["name"], dtype))
            scales.add(abs(plan["scale"] - case["D"] ** -0.5) > 1e-9)
    huge = {f"huge_{d}_stride" for d in ("batch", "head", "seq")}
    assert all(s >= {"contiguous", "bshd", "padded"} | huge for s in seen_layouts.values())
    for v in section["values"]:
        for dtype in v["dtypes"]:
            assert (v["name"], dtype) in values
    assert scales == {True, False}


def test_the_plan_is_deterministic():
    section = load_spec(ROOT / "phases" / "phase_a").section("correctness")
    g = cases.groups(section)[10]
    assert cases.trial_plan(section, *g[:4], 3) == cases.trial_plan(section, *g[:4], 3)
