"""Child side of the calibration (ladder/calibration.yaml, ladder/gates/calibration.py): one
process's rounds, a fixed number of them per workload, with the gate's measuring loop. Kernels:
the candidate, ~aa (the in-run A/A twin that sets the margin), ~aa2 (the A/A test subject),
~shift<p>% (the candidate followed by a spin of p of its median), ~<n>heads (the candidate on
more heads), and SDPA."""
import numpy as np
import torch

from ..gates.calibration import AA_TEST
from ..gates.performance import AA
from .inputs import make_qkv
from .kernel import Kernel
from .reference import reference, sdpa, sdpa_error_baseline
from .timing import Blocker, Clock, L2Flusher, measure


def run(orders):
    cfg, timing, p = orders["section"], orders["timing"], orders["process"]
    kernel = Kernel(orders["lib"])
    clock = Clock()
    flusher = L2Flusher(torch.cuda.get_device_properties(0).L2_cache_size)
    blocker = Blocker(orders["blocker_lib"], timing["blocker_timeout_ms"])
    name = cfg["phase"]
    out = {"workloads": []}
    for wi, w in enumerate(cfg["workloads"]):
        shape = dict(w, S_q=w["S"], S_k=w["S"], dtype="fp16", causal=False)
        scale = shape["D"] ** -0.5
        n_sets = timing["input_sets"]
        sets = [make_qkv(shape, seed=10_000 * p + 100 * wi + s) for s in range(n_sets)]
        outs = [torch.empty_like(q) for q, _, _ in sets]
        fns = {name: (lambda s: kernel(*sets[s], outs[s], scale=scale))}
        fns[name + AA] = fns[name]
        fns[name + AA_TEST] = fns[name]
        for _ in range(5):
            fns[name](0)
        torch.cuda.synchronize()
        ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(20)]
        for a, b in ev:
            a.record()
            fns[name](0)
            b.record()
        torch.cuda.synchronize()
        median_us = float(np.median([a.elapsed_time(b) * 1e3 for a, b in ev]))
        mhz = clock.read() or clock.max_mhz or 1755
        for frac in w["shifts"]:
            cycles = int(frac * median_us * mhz)
            fns[f"{name}~shift{frac * 100:g}%"] = (lambda c: lambda s: (fns[name](s), torch.cuda._sleep(c)))(cycles)
        if w.get("heavier_heads"):
            heavy = dict(shape, H=w["heavier_heads"])
            hsets = [make_qkv(heavy, seed=20_000 * p + 100 * wi + s) for s in range(n_sets)]
            houts = [torch.empty_like(q) for q, _, _ in hsets]
            fns[f"{name}~{w['heavier_heads']}heads"] = lambda s: kernel(*hsets[s], houts[s], scale=scale)
        for b in cfg["baselines"]:
            fns[b] = (lambda backend: lambda s: sdpa(*sets[s], scale, False, backend=backend))(b)
        gen = torch.Generator(device="cuda").manual_seed(30_000 * p + wi)

        def refresh():
            for group in [sets] + ([hsets] if w.get("heavier_heads") else []):
                for tensors in group:
                    for t in tensors:
                        t.copy_(torch.randn(t.shape, generator=gen, device="cuda"))

        def recheck(s):
            q, k, v = sets[s]
            ref, _ = reference(q, k, v, scale, False)
            return {"set": s, "err": float((outs[s].double() - ref).abs().max()),
                    "err_sdpa": float((sdpa_error_baseline(q, k, v, scale, False).double() - ref).abs().max()),
                    "err_round": float((ref.to(q.dtype).double() - ref).abs().max())}

        rng = np.random.default_rng([timing["seed"], 7, p, wi])
        total = w["rounds"] * -(-cfg["repetitions"] // (cfg["processes"] // cfg["per_repetition"]))
        raw = measure(fns, name, name + AA, n_sets, timing, flusher, blocker, clock, refresh, recheck, rng,
                      fixed_rounds=total, echo=lambda m: print(f"process {p} {w['name']}: {m.strip()}", flush=True))
        raw.update(workload=shape, median_us=median_us, clock_mhz=mhz)
        out["workloads"].append(raw)
        del sets, outs
        torch.cuda.empty_cache()
    return out
