"""The correctness plan: the residue sweep covers every residue of every modulus for S_q and S_k
alike, short and long, and trials reach every layout of every tensor, every value distribution, and scales other
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
    short = [c for c in rows if max(c["S_q"], c["S_k"]) <= r["max_len"]]
    assert max(c["S_k"] for c in short) <= r["max_len"] and min(c["S_q"] for c in rows) >= 1


def test_long_residue_lengths_cover_every_residue_for_each_side():
    """Past max_len: S_k long (S_q short), then S_q long (S_k short), each through every residue."""
    r = load_floor()["correctness"]["residues"]
    long = r["long"]
    rows = cases.residue_cases(r)
    for side, other in (("S_k", "S_q"), ("S_q", "S_k")):
        mine = [c for c in rows if c[side] > r["max_len"]]
        assert mine and all(long["min_len"] <= c[side] <= long["max_len"] for c in mine)
        assert all(1 <= c[other] <= long["short_max"] for c in mine)
        for m in r["moduli"]:
            assert {c[side] % m for c in mine} == set(range(m)), (side, m)
    assert cases.residue_lengths([4], 20, 0, min_len=13) and \
        all(13 <= n <= 20 for n in cases.residue_lengths([4], 20, 0, min_len=13))


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


def test_other_scales_reach_every_case_of_few_trials():
    """Cases of one to three trials (long rows, large grids, residues) get a scale other than the
    default in some dtype x mask group, and a case of many trials keeps the default in most."""
    section = load_spec(ROOT / "phases" / "phase_a").section("correctness")
    varied, total = {}, {}
    for ci, case, dtype, causal, n in cases.groups(section):
        for t in range(n):
            plan = cases.trial_plan(section, ci, case, dtype, causal, t)
            other = abs(plan["scale"] - case["D"] ** -0.5) > 1e-9
            varied[ci] = varied.get(ci, 0) + other
            total[ci] = total.get(ci, 0) + 1
    assert all(varied[ci] >= 1 for ci in varied if total[ci] >= section["scale_every"])
    assert all(varied[ci] <= total[ci] // 2 for ci in varied if total[ci] >= 8)
    long_rows = [ci for ci, case, *_ in cases.groups(section) if case.get("S_q", case.get("S", 0)) > 1024]
    assert long_rows and all(varied[ci] for ci in long_rows)
