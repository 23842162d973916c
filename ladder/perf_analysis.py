"""Turns the performance child's raw samples into the evidence's figures: per-kernel summaries,
TFLOP/s and fractions of the ceilings, comparisons with intervals and verdicts, the physical-floor
and re-check guards, and the gate.yaml targets. Pure function of the raw data, so that
check-evidence can recompute every figure from the committed samples."""
from . import roofline, stats

SDPA_PREFIX = "sdpa_"


def analyze_workload(raw, candidate, peaks, ceilings, recheck_atol):
    w = raw["workload"]
    flops, nbytes = roofline.flops(w), roofline.min_bytes(w)
    kernels = {}
    for name, samples in raw["samples_us"].items():
        s = stats.summary(samples)
        secs = s["median"] * 1e-6
        matmul = ceilings.get(f"{w['dtype']}_matmul_tflops")
        s.update(tflops=flops / secs / 1e12, achieved_TBps=nbytes / secs / 1e12,
                 low_clock_samples=int(sum(raw["low_clock"][name])))
        s["frac_of_measured_matmul"] = s["tflops"] / matmul if matmul else None
        s["frac_of_measured_copy"] = s["achieved_TBps"] / ceilings["copy_TBps"] if ceilings.get("copy_TBps") else None
        if raw.get("graph_us"):
            s["graph_per_call_us"] = raw["graph_us"].get(name)
        kernels[name] = s
    cand = raw["samples_us"][candidate]
    comparisons = {name: stats.compare(cand, samples) for name, samples in raw["samples_us"].items()
                   if name != candidate}
    sdpas = [n for n in kernels if n.startswith(SDPA_PREFIX)]
    best = min(sdpas, key=lambda n: kernels[n]["median"]) if sdpas else None
    problems = []
    floor_us = roofline.floor_s(w, peaks) * 1e6 if peaks else None
    if floor_us is not None and kernels[candidate]["median"] < floor_us:
        problems.append(f"{w['name']}: median {kernels[candidate]['median']:.2f} us is under the physical floor "
                        f"{floor_us:.2f} us (suspicious: work skipped or not ordered on the stream)")
    bad = [r for r in raw["rechecks"] if not r["max_abs_diff"] <= recheck_atol]
    if bad:
        problems.append(f"{w['name']}: {len(bad)} of {len(raw['rechecks'])} re-checked timed outputs differ from SDPA "
                        f"by up to {max(r['max_abs_diff'] for r in bad):.3g} > {recheck_atol:g}")
    return {"name": w["name"], "workload": w, "flops": flops, "min_bytes": nbytes, "floor_us": floor_us,
            "kernels": kernels, "comparisons": comparisons, "sdpa_best": best,
            "default_backend": raw.get("default_backend"), "unsupported": raw.get("unsupported", {}),
            "rechecks": raw["rechecks"], "clocks": raw["clocks"], "rounds": raw["rounds"],
            "stopped_on": raw["stopped_on"], "samples_us": raw["samples_us"], "low_clock": raw["low_clock"],
            "problems": problems}


def evaluate_targets(targets, workloads):
    rows = []
    for t in targets:
        for w in workloads:
            if t["workloads"] is not None and w["name"] not in t["workloads"]:
                continue
            vs = w["sdpa_best"] if t["vs"] == "sdpa_best" else \
                (w["default_backend"] or {}).get("backend") if t["vs"] == "sdpa_default" else t["vs"]
            comp = w["comparisons"].get(vs)
            if comp is None:
                rows.append({"target": t, "workload": w["name"], "vs": vs, "met": False,
                             "why": f"{vs} was not measured on {w['name']}"
                                    + (f" ({w['unsupported'][vs]})" if vs in w["unsupported"] else "")})
                continue
            met, why = stats.target_met(t, comp)
            rows.append({"target": t, "workload": w["name"], "vs": vs, "met": met, "why": why})
    return rows
