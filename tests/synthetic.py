"""Synthetic raw data with known answers: timing samples for the statistics tests, and a pretend
GPU's passing raw data for every gate, so the ladder, freshness and check-evidence can be tested
end to end on a machine with no GPU. Test code only."""
import copy

import numpy as np

from ladder import cases

FAKE_PROBE = {"available": True, "gpu": "Fake GPU", "capability": "9.0", "sm_count": 132, "sm_clock_max_mhz": 1980,
              "mem_clock_max_mhz": 2619, "mem_bus_width_bits": 5120}


def perf_process(workload, times, rounds, rng, noise=0.002, round_noise=0.01, graph_ratio=0.95, leak=None,
                 timed_out_every=None, candidate=None):
    """One process's raw record of one workload. times: {name: median us}. Each round shares a
    drift factor (what pairing cancels); each sample has its own noise. leak: {name: extra us}
    added to event samples only (host cost in the window)."""
    names = list(times)
    us, order, timed_out = [], [], []
    for r in range(rounds):
        drift = 1 + round_noise * rng.standard_normal()
        row = [round(times[n] * drift * (1 + noise * rng.standard_normal()) + (leak or {}).get(n, 0.0), 3)
               for n in names]
        us.append(row)
        order.append([int(i) for i in rng.permutation(len(names))])
        timed_out.append([0] if timed_out_every and r % timed_out_every == 0 else [])
    return {"names": names, "us": us, "order": order, "set": [r % 4 for r in range(rounds)], "timed_out": timed_out,
            "mhz": [1980] * rounds, "rechecks": [{"set": 0, "err": 1e-4, "err_sdpa": 1e-4, "err_round": 5e-5, "round": 0}],
            "stopped_on": "resolved", "elapsed_s": 1.0, "max_mhz": 1980, "workload": workload, "unsupported": {},
            "default_backend": {"backend": "sdpa_cudnn", "kernels": []}, "determinism_mismatches": 0,
            "graph_calls": 1, "graph_us": {n: times[n] * graph_ratio for n in names},
            "graph_cold_us": {n: times[n] * graph_ratio for n in names}, "graph_flush_us": 30.0,
            "graph_output_mismatches": 0, "pdl_mismatches": 0, "incomplete_on_return": 0,
            "timed_mismatches": [], "verified_rounds": rounds,
            "empty_launch": {"event_us": 3.1, "graph_cold_us": 0.8},
            "warm_concurrency": {"mismatches": 0, "unwritten": 0, "trials": 4},
            "warm_same_addresses": [{"variant": v, "elements": 4096, "mismatches": 0, "lse_mismatches": 0,
                                     "unwritten": 0} for v in ("fewer keys", "the other mask", "other strides")],
            "warm_single_row": [{"tensor": t, "at": [0, 1, 5], "moved": 64, "unchanged": 0} for t in "qkv"]}


def perf_raw(candidate, times, workloads, processes=3, seed=0, **kw):
    """Performance raw over several processes; times: {name: us} at the first workload, scaled
    by each workload's FLOPs (so the physical floor is respected)."""
    from ladder import roofline
    rng = np.random.default_rng(seed)
    base = roofline.flops(workloads[0])
    procs = []
    for p in range(processes):
        ws = []
        for w in workloads:
            scale = roofline.flops(w) / base
            t = {n: v * scale for n, v in times.items()}
            ws.append(perf_process(w, t, kw.get("rounds", 40), rng, **{k: v for k, v in kw.items() if k != "rounds"}))
        procs.append({"ceilings": {"fp16_matmul_tflops": 680.0, "bf16_matmul_tflops": 720.0, "copy_TBps": 3.0}
                      if p == 0 else {}, "l2_bytes": 50 << 20, "workloads": ws,
                      "confinement": {"start": context_state(),
                                      "workloads": [confinement_observation() for _ in workloads]}})
    return {"pilot": None, "pilot_candidates": None, "failures": [], "processes": procs, "candidate": candidate,
            "winner_config": "default", "kernels": list(times), "sweep_names": []}


# A kernel's time (us) at the seed workload, so targets between the phases hold; times scale with
# FLOPs, so phase_e's 0.85 us is 632 TFLOP/s everywhere (its 600 TFLOP/s and 4.7 us graph targets
# hold) and still above the physical floor (0.63 us at the seed).
PHASE_TIMES = {"phase_a": 400.0, "phase_b": 60.0, "phase_c": 30.0, "phase_d": 20.0, "phase_e": 0.85}
SDPA_TIMES = {"sdpa_flash": 32.0, "sdpa_cudnn": 25.0, "sdpa_efficient": 60.0}


def context_state():
    return {"persisting_l2_bytes": 0, "max_l2_fetch_granularity": 32, "cache_config": 0}


def confinement_observation():
    """A confined call as ladder/gpu/confinement.py observes it: two markers and the kernel on
    the caller's stream (7), the settings the same before and after."""
    state = dict(context_state(), stream_access_policy_window={"base_ptr": 0, "num_bytes": 0, "hit_ratio": 0.0,
                                                               "hit_prop": 0, "miss_prop": 0},
                 stream_synchronization_policy=1, stream_priority=0)
    ops = [{"name": "spin_kernel(long)", "kind": "kernel", "stream": 7, "start_us": 0.0},
           {"name": "attention_kernel", "kind": "kernel", "stream": 7, "start_us": 3.1},
           {"name": "spin_kernel(long)", "kind": "kernel", "stream": 7, "start_us": 20.4}]
    return {"before": state, "after": copy.deepcopy(state), "activities": ops, "marker": "spin_kernel"}


def fake_raw(gate, job):
    """Passing raw data for a GPU gate of job.spec, shaped as the real children deliver it."""
    section = job.inputs["section"]
    ok = {"returncode": 0, "timed_out": False, "output_tail": ""}
    names = [c["name"] for c in job.configs]
    if gate == "launch":
        return {"configs": {n: dict(ok, result={"shapes": [{"shape": s, "ok": True, "wall_ms": 1.0}
                                                          for s in section["shapes"]]}) for n in names}}
    if gate == "sanity":
        figures = {"elements": 1, "incomplete_on_return": 0, "unwritten": 0, "nonfinite": 0, "lse_nonfinite": 0,
                   "inputs_changed": [], "repeat_mismatches": 0, "no_lse_mismatches": 0,
                   "side_stream": {"mismatches": 0, "incomplete": 0}, "fraction_unchanged_after_new_inputs": 0.0,
                   "graph": {"error": None, "unwritten": 0, "mismatches": 0}, "zero_query_max_err": 1e-5,
                   "zero_query_unwritten": 0, "pdl_producer": {"mismatches": 0, "unwritten": 0},
                   "single_row_changes": [{"tensor": t, "at": [0, 0, 1], "moved": 640, "unchanged": 3} for t in "qkv"],
                   "concurrent": {"mismatches": 0, "unwritten": 0, "trials": 4},
                   "same_addresses": [{"variant": name, "elements": 640, "mismatches": 0, "lse_mismatches": 0,
                                       "unwritten": 0}
                                      for name in ("fewer keys", "the other mask", "another scale")],
                   "queued": {"rows": [{"problem": name, "elements": 640, "mismatches": 0, "lse_mismatches": 0,
                                        "unwritten": 0} for name in ("the shape", "fewer keys", "another scale")],
                              "orders": [{"calls": 132, "ahead": 132, "rings_mixed": 130}] * 2},
                   "threads": {"rows": [{"problem": name, "elements": 640, "mismatches": 0, "lse_mismatches": 0,
                                         "unwritten": 0, "error": None} for name in ("the shape", "fewer keys")]},
                   "confinement": confinement_observation()}
        child = dict(ok, result={"shapes": [{"shape": s, "figures": copy.deepcopy(figures)} for s in section["shapes"]],
                                 "unsupported": [{"variant": v, "shape": section["shapes"][0], "must_refuse": r,
                                                  "outcome": "refused", "error": "1", "written": 0, "outside": 0}
                                                 for v, r in (("q's base 2 bytes off", False), ("head dim 96", False),
                                                              ("dtype code 2", True))],
                                 "device_state_at_start": context_state()})
        san = {t: [{"shape": s, "returncode": 0, "timed_out": False, "output": "========= ERROR SUMMARY: 0 errors"}
                   for s in section["sanitizer"]["shapes"]] for t in section["sanitizer"]["tools"]}
        return {"configs": {n: {"child": child, "sanitizer": san} for n in names}}
    if gate == "correctness":
        groups = [{"case": ci, "dtype": dt, "causal": c, "planned": n, "details": {},
                   "rows": [[t, 1e-4, 1e-4, 5e-5, 1e-5, 1.0, 0, 0, 0.01, 0.005, -0.01] for t in range(n)]}
                  for ci, _, dt, c, n in cases.groups(section)]
        return {"configs": {n: dict(ok, result={"groups": groups, "stopped": None, "wall_s": 1.0}) for n in names}}
    if gate == "performance":
        spec = job.spec
        times = {spec.name: PHASE_TIMES.get(spec.name, 30.0)}
        times[spec.name + "~aa"] = times[spec.name]
        times.update({p: PHASE_TIMES.get(p, 30.0) for p in spec.compared_phases})
        times.update({b: SDPA_TIMES[b] for b in section["baselines"]})
        return perf_raw(spec.name, times, section["workloads"], processes=section["timing"]["processes"])
    if gate == "profile":
        from ladder.gates.profile import METRICS
        values = {"tensor_pipe_pct": 80.0, "smem_ld_bank_conflicts": 10.0, "smem_ld_wavefronts": 1e6,
                  "smem_st_bank_conflicts": 0.0, "smem_st_wavefronts": 1e4}
        metrics = list(METRICS.values())
        row = [str(values.get(k, 1.0)) for k in METRICS]
        csv = ('"ID","Kernel Name",' + ",".join(f'"{m}"' for m in metrics) + "\n" + '"","",' + ",".join('""' for _ in metrics)
               + "\n" + '"0","k",' + ",".join(f'"{v}"' for v in row) + "\n")
        return {"config": job.inputs["context"]["config"],
                "workloads": {w: {"returncode": 0, "timed_out": False, "csv": csv} for w in section["workloads"]}}
    raise ValueError(gate)
