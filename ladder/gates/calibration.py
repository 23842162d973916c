"""Calibration of the performance verdicts, in the gate's own regime (ladder/calibration.yaml):
the candidate, its A/A twin (which sets the margin), a third copy of it (the A/A test subject),
copies slowed by known shifts (every arm is the call followed by a spin kernel; a shifted arm
spins that fraction of the median longer; at the big workload the 5% shift is the same kernel on
21 heads instead of 20, whole waves both), and SDPA,
all in every round, re-check on. Each repetition is a full verdict: three processes, a disjoint
chunk of rounds from each, analysed exactly as the performance gate does (ladder/gates/
performance.py). Derived: per workload and pair, the verdict counts; the A/A false FASTER+SLOWER
rate and every shift's found (FASTER) rate with Clopper-Pearson 95% bounds; AMBIGUOUS and
UNRESOLVED counted apart."""
import numpy as np

from .. import stats
from . import special
from .performance import AA, analyze

AA_TEST = "~aa2"


def repetitions(processes, wi, rounds, per_rep=3):
    """[(process indices, chunk index)]: disjoint chunks of `rounds` rounds, per_rep processes
    each; process groups alternate so every repetition's data is its own."""
    n_procs = len(processes)
    groups = [list(range(g, g + per_rep)) for g in range(0, n_procs - per_rep + 1, per_rep)]
    chunks = min(len(p["workloads"][wi]["us"]) for p in processes) // rounds
    return [(tuple(g), c) for c in range(chunks) for g in groups]


def _chunk(proc_w, c, rounds):
    sl = slice(c * rounds, (c + 1) * rounds)
    out = dict(proc_w, us=proc_w["us"][sl], timed_out=proc_w["timed_out"][sl], rechecks=[],
               graph_us=None, determinism_mismatches=0, graph_output_mismatches=0)
    return out


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    cfg = inputs["section"]
    timing = cfg["timing"]
    out = {"workloads": {}}
    failures = []
    for wi, w in enumerate(cfg["workloads"]):
        procs = raw["processes"]
        names = procs[0]["workloads"][wi]["names"]
        candidate = names[0]
        counts = {n: {"FASTER": 0, "SLOWER": 0, "SAME": 0, "AMBIGUOUS": 0, "UNRESOLVED": 0}
                  for n in names if n not in (candidate, candidate + AA)}
        reps = repetitions(procs, wi, w["rounds"], cfg["per_repetition"])[: cfg["repetitions"]]
        margins = []
        for group, c in reps:
            ps = [_chunk(procs[p]["workloads"][wi], c, w["rounds"]) for p in group]
            a = analyze(w["name"], ps, candidate, None, {}, timing)
            margins.append(a["comparisons"][candidate + AA_TEST]["margin"])
            for n in counts:
                v = a["comparisons"][n]["verdict"]
                counts[n]["UNRESOLVED" if v.startswith("NO VERDICT") else v] += 1
        n = len(reps)
        rates = {}
        for name, c in counts.items():
            key = "false" if name.endswith(AA_TEST) else "found"
            k = c["FASTER"] + c["SLOWER"] if key == "false" else c["FASTER"]
            lo, hi = stats.clopper_pearson(k, n) if n else (0.0, 1.0)
            rates[name] = {"kind": "aa" if key == "false" else "shift", "n": n, "k": k, "rate": k / n if n else None,
                           "ci": [lo, hi], "counts": c}
        pooled = {nm: float(np.median(np.concatenate([np.array(p["workloads"][wi]["us"])[:, i] for p in procs])))
                  for i, nm in enumerate(names)}
        true_shift = {nm: pooled[nm] / pooled[candidate] - 1 for nm in names if nm != candidate}
        out["workloads"][w["name"]] = {"repetitions": n, "rates": rates, "true_shift": true_shift,
                                       "median_margin_aa_test": float(np.median(margins)) if margins else None}
        need = cfg["required"]
        if n < cfg["repetitions"]:
            failures.append(f"{w['name']}: only {n} of {cfg['repetitions']} repetitions had data")
        for name, r in rates.items():
            if r["kind"] == "aa" and r["ci"][1] > need["aa_false_upper"]:
                failures.append(f"{w['name']}: A/A false FASTER+SLOWER {r['k']}/{n}, upper bound {r['ci'][1]:.3f} > "
                                f"{need['aa_false_upper']}")
            if r["kind"] == "shift" and any(name.endswith(f) for f in w["must_find"]) and (r["rate"] or 0) < need["found_rate"]:
                failures.append(f"{w['name']}: shift {name} found {r['k']}/{n} < {need['found_rate']:.0%}")
    status = "fail" if failures else "pass"
    reason = "; ".join(failures) if failures else "; ".join(
        f"{wn}: A/A false {next(r['k'] for r in d['rates'].values() if r['kind'] == 'aa')}/{d['repetitions']}, " +
        ", ".join(f"{n.split('~')[-1]} found {r['k']}/{r['n']}" for n, r in d['rates'].items() if r['kind'] == 'shift')
        for wn, d in out["workloads"].items())
    out.update(status=status, reason=reason)
    return out
