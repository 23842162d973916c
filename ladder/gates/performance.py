"""Gate 5, performance: derives every figure from the raw per-round samples of at least
`processes` independent child processes (ladder/gpu/timing.py states how they were measured,
ladder/stats.py the statistics: the interval, the invocation drift that widens it into a
reproduction interval, the margin and the verdict rule).

Per workload: per-kernel medians, TFLOP/s and fractions of the measured ceilings; the candidate
against every other kernel timed (hierarchical interval, reproduction interval, margin per pair,
verdict); and the guards. Host launch cost in the timed window withholds verdicts ("NO VERDICT
(leak)"), and the workload is flagged (its `leak` list names why):
- all of the workload's, when more than MAX_LEAKED_ROUNDS of its rounds had a blocking kernel
  time out;
- those of a kernel whose event median exceeds leak_ratio x its CUDA-graph per-call time with
  each call behind the same L2 flush, plus what an event window costs an empty kernel over its
  own such graph time in the same processes (the GPU's own launch in the window, ~2.3 us on an
  H100 whatever the kernel, phases/phase_e/dev/launch_probe: without it no kernel under ~8 us
  could pass), and all of them when that kernel is the candidate. Per kernel, so that an SDPA
  backend sitting at the line cannot flip the verdicts of kernels that are clean. (Graph replays
  launch with no host in the way; the warm back-to-back graph time, the figure targets use, also
  differs by L2 warmth and launch overlap: about 1.2-1.4x at the seed workload on an H100, with
  no leak, so it cannot be the yardstick.)
The gate fails on an unmet or unresolved target, a time (event or graph) under the physical floor
(and on any GPU whose peak is unknown: the floor fails closed), a re-checked timed output over
recheck_k x SDPA's error (and, untimed, the timed sizes in every dtype, mask and layout and large
problems drawn for the run, their log-sum-exp too, by the correctness gate's tolerance:
ladder/untimed.py), a graph replay that does not reproduce the eager output, an output that does
not follow inputs written by a preceding kernel that let it start early (PDL), an output not
complete when the caller's stream reaches the end of the call, repeat runs that differ at the
workload's size, two concurrent calls, calls at the same addresses or single-row changes that go
wrong once the problem is hot (warm_sharing_problems), or a call at a workload's size that runs
work on a stream other than the caller's or leaves the process's settings changed (the sanity
gate's confinement rule, ladder/gates/confinement.py, applied once per process and workload after
the timing). Targets read the reproduction interval, as verdicts do; a bound on a figure with one
number per process (TFLOP/s, graph per-call time, graph ratio) reads the range of those numbers
widened by the invocation drift (stats.spread_interval)."""
import math

import numpy as np

from .. import roofline, stats
from ..vocab import shape_label
from . import sharing, special, summarize
from .confinement import confinement_problems

AA = "~aa"                  # suffix of the candidate's second name: the in-run A/A pair
MAX_LEAKED_ROUNDS = 0.05


def pilot_winner(pilot, candidates):
    """The configuration with the lowest geometric mean of pilot medians over workloads."""
    def score(name):
        return float(np.mean([math.log(np.median([r[w["names"].index(name)] for r in w["us"]]))
                              for w in pilot["workloads"]]))
    return min(candidates, key=score)


def _complete_rounds(proc_w):
    """Per-round time rows (list aligned with names) of rounds whose blockers all held."""
    return [us for us, out in zip(proc_w["us"], proc_w["timed_out"]) if not out]


def analyze(wname, procs, candidate, peaks, ceilings, timing):
    """procs: this workload's raw from each process. Returns the workload's figures."""
    w = procs[0]["workload"]
    names = procs[0]["names"]
    flops, nbytes = roofline.flops(w), roofline.min_bytes(w)
    rounds = [np.array(_complete_rounds(p)) for p in procs]
    total = sum(len(p["us"]) for p in procs)
    leaked = total - sum(len(r) for r in rounds)
    kernels = {}
    for i, name in enumerate(names):
        pooled = np.concatenate([r[:, i] for r in rounds if len(r)])
        s = stats.summary(pooled)
        secs = s["median"] * 1e-6
        s.update(tflops=flops / secs / 1e12, achieved_TBps=nbytes / secs / 1e12,
                 per_process_median=[float(np.median(r[:, i])) for r in rounds if len(r)])
        matmul = ceilings.get(f"{w['dtype']}_matmul_tflops")
        s["frac_of_measured_matmul"] = s["tflops"] / matmul if matmul else None
        s["frac_of_measured_copy"] = s["achieved_TBps"] / ceilings["copy_TBps"] if ceilings.get("copy_TBps") else None
        for key, field in (("graph_per_call_us", "graph_us"), ("graph_cold_us", "graph_cold_us")):
            got = [p[field][name] for p in procs if p.get(field) and p[field].get(name) is not None]
            s[key] = float(np.median(got)) if got else None
        s["event_over_graph"] = s["median"] / s["graph_per_call_us"] if s["graph_per_call_us"] else None
        s["event_over_cold_graph"] = s["median"] / s["graph_cold_us"] if s["graph_cold_us"] else None
        kernels[name] = s

    problems, leak = [], []
    whole = bool(total and leaked / total > MAX_LEAKED_ROUNDS)
    if whole:
        leak.append(f"{leaked} of {total} rounds had a blocking kernel time out (host cost in the window)")
    # The GPU's own cost of a launch in an event window, the same for every kernel (an empty one's
    # event median less its cold graph time); 0 in records older than its measurement.
    empties = [p["empty_launch"] for p in procs if p.get("empty_launch")]
    launch_us = max(0.0, float(np.median([e["event_us"] - e["graph_cold_us"] for e in empties]))) if empties else 0.0
    leaky = {}
    for name, k in kernels.items():
        g = k["graph_cold_us"]
        if g and k["median"] > timing["leak_ratio"] * g + launch_us:
            leaky[name] = (f"{name}: event median {k['median']:.2f} us > {timing['leak_ratio']:g} x its graph "
                           f"per-call time behind the same L2 flush, {g:.2f} us"
                           + (f", + an empty kernel's launch in the window, {launch_us:.2f} us" if empties else ""))
    leak += list(leaky.values())

    c = names.index(candidate)
    comparisons = {}
    for i, name in enumerate(names):
        if i == c:
            continue
        groups = [stats.log_ratios(r[:, c], r[:, i]) for r in rounds if len(r)]
        est, lo, hi = stats.hierarchical_interval(groups)
        per_proc = [float(np.median(g)) for g in groups]
        rlo, rhi = stats.reproduction_interval(lo, hi)
        comparisons[name] = {"log_ratio": est, "log_ci": [lo, hi], "ratio": math.exp(est),
                             "ci": [math.exp(lo), math.exp(hi)], "reproduction_ci": [math.exp(rlo), math.exp(rhi)],
                             "per_process_ratio": [math.exp(x) for x in per_proc],
                             "halfwidth": (hi - lo) / 2, "between_runs": stats.between_runs(per_proc)}
    aa = comparisons.get(candidate + AA)
    for name, comp in comparisons.items():
        m, parts = stats.margin(timing["min_margin"], aa["log_ci"] if aa else None, comp["between_runs"])
        comp.update(margin=math.expm1(m), margin_parts=parts)
        withheld = leak[0] if whole else leaky.get(candidate) or leaky.get(name)
        comp["verdict"] = "NO VERDICT (leak)" if withheld else stats.verdict(*comp["log_ci"], m)
        if withheld:
            comp["withheld"] = withheld

    floor_us = roofline.floor_s(w, peaks) * 1e6 if peaks else None
    cand = kernels[candidate]
    if floor_us is None:
        problems.append(f"{wname}: no known peak for this GPU, so the physical floor cannot be checked (fails closed)")
    else:
        # The cold graph too: a kernel that skips work only in calls made one at a time (a graph of
        # one call, each behind a flush) would otherwise meet the leak rule alone.
        for what, t in (("event median", cand["median"]), ("graph per-call time", cand["graph_per_call_us"]),
                        ("cold graph per-call time", cand.get("graph_cold_us"))):
            if t is not None and t < floor_us:
                problems.append(f"{wname}: {candidate} {what} {t:.2f} us is under the physical floor {floor_us:.2f} us "
                                "(suspicious: work skipped or not ordered on the stream)")
    late = sum(p.get("incomplete_on_return") or 0 for p in procs)  # absent only in records older than the check
    if late:
        problems.append(f"{wname}: {candidate}'s output and log-sum-exp are not complete when the caller's stream "
                        f"reaches the end of the call ({late} element(s) still changing): work left on another "
                        "stream, outside the timed window")
    bad = []
    for p in procs:
        for r in p["rechecks"]:
            if not r["err"] <= recheck_tolerance(r, timing):
                bad.append((r["err"], recheck_tolerance(r, timing)))
    for p in procs:
        r = p.get("graph_recheck")  # absent only in records older than the check
        if r is not None and not r["err"] <= recheck_tolerance(r, timing):
            problems.append(f"{wname}: the output of {candidate}'s CUDA graph (the last of {r['calls']} calls, at "
                            f"{r['scale_ratio']:g}x the first call's scale, on fresh inputs) is off the float64 "
                            f"reference at that scale by {r['err']:.3g}, over {timing['recheck_k']:g}x SDPA's "
                            "error (a result remembered from another call?)")
            break
    if bad:
        problems.append(f"{wname}: {len(bad)} re-checked timed output(s) over {timing['recheck_k']:g}x SDPA's error "
                        f"(worst {max(bad)[0]:.3g} > {max(bad)[1]:.3g})")
    mism = sum(p["determinism_mismatches"] for p in procs)
    if mism:
        problems.append(f"{wname}: repeat runs of {candidate} differ in {mism} element(s) at this size")
    timed = [m for p in procs for m in p.get("timed_mismatches") or []]  # absent only in older records
    if timed:
        problems.append(f"{wname}: {candidate}'s timed output differs from an untimed call on the same inputs in "
                        f"{len(timed)} round(s) ({sum(n for _, n in timed)} element(s)): it computes something "
                        "else while it is timed")
    gmis = sum(p.get("graph_output_mismatches") or 0 for p in procs)
    if gmis:
        problems.append(f"{wname}: CUDA-graph replay of {candidate} differs from its eager output in {gmis} element(s)")
    pmis = sum(p.get("pdl_mismatches") or 0 for p in procs)  # absent only in records older than the check
    if pmis:
        problems.append(f"{wname}: behind a kernel that lets it start early (programmatic dependent launch) and "
                        f"writes its inputs after a spin, {candidate}'s output differs in {pmis} element(s): inputs "
                        "read before griddepcontrol.wait (its graph replays may overlap its own previous call)")
    problems += warm_sharing_problems(wname, candidate, procs)
    sdpas = [n for n in kernels if n.startswith("sdpa_")]
    return {"name": wname, "workload": w, "flops": flops, "min_bytes": nbytes, "floor_us": floor_us,
            "kernels": kernels, "comparisons": comparisons,
            "margin": max((c["margin"] for c in comparisons.values()), default=None),
            "sdpa_best": min(sdpas, key=lambda n: kernels[n]["median"]) if sdpas else None,
            "default_backend": procs[0].get("default_backend"), "unsupported": procs[0].get("unsupported", {}),
            "rounds": [len(r) for r in rounds], "leaked_rounds": leaked, "leak": leak, "leaky_kernels": sorted(leaky),
            **({"empty_launch_us": launch_us} if empties else {}),
            "stopped_on": [p["stopped_on"] for p in procs], "problems": problems}


def recheck_tolerance(r, timing):
    """A re-checked output's allowed max error: recheck_k x SDPA's on the same inputs (or the
    error of merely rounding the exact answer, where that is larger)."""
    return timing["recheck_k"] * max(r["err_sdpa"], r["err_round"]) + 1e-7


def lse_limit(r, lse_tolerance):
    """An untimed check's allowed log-sum-exp error: the correctness gate's atol + rtol x the
    reference's largest |lse| (lse_tolerance: the performance section's copy of them)."""
    return lse_tolerance["atol"] + lse_tolerance["rtol"] * r["lse_ref_absmax"]


def untimed_problems(checks, candidate, timing, lse_tolerance):
    """ladder/gpu/performance.py's untimed value checks (process 0's: the timed sizes in every
    dtype, mask and layout, and the problems drawn for the run), or None (records older than the
    check). The output is judged as the timed re-checks are; the log-sum-exp as the correctness
    gate judges it (lse_tolerance: its atol + rtol x the reference's largest |lse|), where the
    record has it (not in the twenty-seventh session's dry run). A refusal fails: the ABI
    (kernels/attn_abi.h) lets a kernel refuse what it does not support, and every one of these
    problems has a dtype, head dim and layout the correctness gate already required it to answer,
    at sizes the ABI says it takes (any B, H, S_q, S_k); refusing only where no workload times
    would leave the output there unvalued."""
    out = []
    for r in checks or []:
        where = (f"{shape_label(r)} {r['layout']}, untimed "
                 + ("(drawn for this run, a large problem no workload times)" if r.get("drawn") else "at a timed size"))
        if "err" not in r:
            out.append(f"{where}: {candidate} refused it ({r.get('refused')}), though it answers this dtype, head "
                       "dim and layout elsewhere and the ABI takes any sizes")
            continue
        if not r["err"] <= recheck_tolerance(r, timing):
            out.append(f"{where}: {candidate}'s output is off the float64 reference by {r['err']:.3g}, over "
                       f"{timing['recheck_k']:g}x SDPA's error (a path taken only where the workloads do not time?)")
        if "lse_err" in r and lse_tolerance is None:
            out.append(f"{where}: no log-sum-exp tolerance in the performance section to judge it by (fails closed)")
        elif "lse_err" in r:
            tol = lse_limit(r, lse_tolerance)
            if not r["lse_err"] <= tol:
                out.append(f"{where}: {candidate}'s log-sum-exp is off the float64 reference by {r['lse_err']:.3g}, "
                           f"over the correctness gate's tolerance {tol:.3g}")
    return out


def warm_sharing_problems(wname, candidate, procs):
    """The sanity gate's rule on calls that share something (ladder/gates/sharing.py), on the
    same checks run again after the timing, the problem hot, with the processes' observations
    pooled. Absent only in records older than the checks."""
    probs = (sharing.concurrency_problems(sharing.pooled_concurrency([p.get("warm_concurrency") for p in procs]))
             + sharing.same_address_problems(sharing.pooled_same_addresses([p.get("warm_same_addresses")
                                                                            for p in procs]), "workload")
             + [x for p in procs for x in sharing.single_row_problems(p.get("warm_single_row"))])
    return [f"{wname} ({candidate}): after the timing, {x}" for x in probs]


def resolved(workload):
    return all(c["verdict"] != "UNRESOLVED" for c in workload["comparisons"].values())


def target_rows(targets, workloads, candidate=None, graph_us=None):
    """graph_us: {workload: [each process's {kernel: warm graph per-call us}]}, for the targets
    on graph times."""
    rows = []
    for t in targets:
        for w in workloads:
            if t["workloads"] is not None and w["name"] not in t["workloads"]:
                continue
            graphs = (graph_us or {}).get(w["name"], [])
            if t.get("vs") is None:
                met, why = own_target_met(t, w, candidate, graphs)
                rows.append({"target": t, "workload": w["name"], "vs": None, "met": met, "why": why})
                continue
            vs = w["sdpa_best"] if t["vs"] == "sdpa_best" else \
                (w["default_backend"] or {}).get("backend") if t["vs"] == "sdpa_default" else t["vs"]
            comp = w["comparisons"].get(vs)
            row = {"target": t, "workload": w["name"], "vs": vs}
            if comp is not None and t.get("max_graph_ratio") is not None:
                # Graph replays have no host in the way: the event leak guard does not apply.
                rows.append(dict(row, **dict(zip(("met", "why"), graph_ratio_met(t, candidate, vs, graphs)))))
            elif comp is None:
                why = f"{vs} was not measured on {w['name']}" + (f" ({w['unsupported'][vs]})" if vs in w["unsupported"] else "")
                rows.append(dict(row, met=False, why=why))
            elif comp.get("withheld"):
                rows.append(dict(row, met=False, why=f"no verdict: {comp['withheld']}"))
            elif comp["verdict"] == "UNRESOLVED":
                rows.append(dict(row, met=False, why=f"unresolved: interval half-width {comp['halfwidth']:.4f} > m/2 "
                                                     f"{math.log1p(comp['margin']) / 2:.4f} when the caps were hit"))
            else:
                met, why = target_met(t, comp)
                rows.append(dict(row, met=met, why=why))
    return rows


def own_target_met(target, workload, candidate, graphs):
    """The candidate's own figure against a bound. TFLOP/s come from the event medians (host
    cost in the window can only lower them, so no leak withholds them); graph times from the
    warm back-to-back replays."""
    if target.get("min_tflops") is not None:
        per = [workload["flops"] / (t * 1e-6) / 1e12 for t in workload["kernels"][candidate]["per_process_median"]]
        return _bound_met(per, target, "min_tflops", "TFLOP/s", ".1f", "no event samples of the candidate")
    per = [g[candidate] for g in graphs if g.get(candidate)]
    return _bound_met(per, target, "max_graph_us", "graph per-call us", ".2f",
                      f"no CUDA-graph per-call time of the candidate on {workload['name']}")


def graph_ratio_met(target, candidate, vs, graphs):
    """The candidate's graph per-call time over vs's, each process's own pair."""
    per = [g[candidate] / g[vs] for g in graphs if g.get(candidate) and g.get(vs)]
    return _bound_met(per, target, "max_graph_ratio", "graph per-call time ratio", ".3f",
                      f"no CUDA-graph per-call times of the candidate and {vs} from one process")


def _bound_met(per, target, kind, label, fmt, missing):
    """per: the figure, one value per process. Met when the whole reproduction interval
    (stats.spread_interval) is on the bound's side."""
    if not per:
        return False, missing
    x = target[kind]
    lo, hi = stats.spread_interval(per)
    f = lambda v: format(float(v), fmt)  # noqa: E731
    return (lo >= x if kind.startswith("min_") else hi <= x), (
        f"{label} {f(np.median(per))}, per process {f(min(per))}-{f(max(per))}, reproduction interval "
        f"[{f(lo)}, {f(hi)}] vs {kind} {x:g}")


def target_met(target, comp):
    lo, hi = comp["reproduction_ci"]
    if target["max_ratio"] is not None:
        r = target["max_ratio"]
        return hi <= r, f"time ratio {comp['ratio']:.3f} reproduction CI [{lo:.3f}, {hi:.3f}] vs max_ratio {r:g}"
    if target["min_speedup"] is not None:
        s = target["min_speedup"]
        return hi <= 1.0 / s, (f"speedup {1 / comp['ratio']:.3f}x reproduction CI [{1 / hi:.3f}, {1 / lo:.3f}] "
                               f"vs min_speedup {s:g}x")
    wanted = {"faster": ("FASTER",), "not_slower": ("FASTER", "SAME"), "same": ("SAME",)}[target["verdict"]]
    return comp["verdict"] in wanted, (f"verdict {comp['verdict']} (ratio {comp['ratio']:.3f} reproduction CI "
                                       f"[{lo:.3f}, {hi:.3f}])"
                                       f" vs wanted {target['verdict']}")


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    section, ctx = inputs["section"], inputs["context"]
    timing = section["timing"]
    failures = list(raw.get("failures", []))
    procs = raw["processes"]
    if not procs:
        return {"status": "fail", "reason": summarize(failures or ["no process delivered samples"])}
    candidate = raw["candidate"]
    problems = []
    if raw.get("pilot") is not None:
        winner = pilot_winner(raw["pilot"], raw["pilot_candidates"])
        if winner != f"{candidate}[{raw['winner_config']}]":
            problems.append(f"pilot winner recomputes to {winner}, raw names {raw['winner_config']}")
    workloads, graph_us = [], {}
    for wi, wl in enumerate(section["workloads"]):
        ps = [p["workloads"][wi] for p in procs if wi < len(p["workloads"]) and p["workloads"][wi] is not None]
        if len(ps) < timing["processes"]:
            problems.append(f"{wl['name']}: only {len(ps)} of {timing['processes']} processes delivered samples")
            if not ps:
                continue
        workloads.append(analyze(wl["name"], ps, candidate, ctx["peaks"], procs[0]["ceilings"], timing))
        graph_us[wl["name"]] = [p.get("graph_us") or {} for p in ps]
    targets = target_rows(section["targets"], workloads, candidate, graph_us)
    problems += [p for w in workloads for p in w["problems"]]
    problems += untimed_problems(procs[0].get("untimed"), candidate, timing, section.get("lse_tolerance"))
    for pi, p in enumerate(procs):
        c = p.get("confinement")  # absent only in records older than the check
        for wi, obs in enumerate((c or {}).get("workloads") or []):
            if obs is not None:
                problems += [f"{section['workloads'][wi]['name']} (process {pi}): {candidate}: {why}"
                             for why in confinement_problems(obs, c["start"])]
    problems += [f"target {'vs ' + t['vs'] if t['vs'] else 'on its own figure'} on {t['workload']} not met: "
                 f"{t['why']}" for t in targets if not t["met"]]
    sweep = {}
    if raw.get("sweep_names"):
        columns = {raw["winner_config"]: candidate} | {n[len(candidate) + 1:-1]: n for n in raw["sweep_names"]}
        sweep = {cfg: {w["name"]: {"median_us": w["kernels"][n]["median"], "tflops": w["kernels"][n]["tflops"]}
                       for w in workloads if n in w["kernels"]}
                 for cfg, n in columns.items()}
    out = {"candidate": candidate, "config": raw["winner_config"], "workloads": workloads, "targets": targets,
           "sweep": sweep, "processes": len(procs), "ceilings": procs[0]["ceilings"], "peaks": ctx["peaks"]}
    failures += problems
    if failures:
        out.update(status="fail", reason=summarize(failures, limit=2))
    else:
        out.update(status="pass", reason=f"{len(workloads)} workload(s) x {len(procs)} processes; "
                                         f"{len(targets)} target check(s) met" if targets else
                   f"{len(workloads)} workload(s) x {len(procs)} processes; no targets declared")
    return out
