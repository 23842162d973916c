"""Child side of the calibration (ladder/calibration.yaml, ladder/gates/calibration.py): one
process's rounds, a fixed number of them per workload, with the gate's measuring loop. Every arm
is the candidate followed by a short spin kernel, so all arms launch alike: the candidate, ~aa
(the in-run A/A twin that sets the margin), ~aa2 (the A/A test subject), ~shift<p>% (its spin
longer by p of the unshifted arm's held median, cycles per us measured), ~<n>heads (the
candidate on more heads); and SDPA as it is."""
import numpy as np
import torch

from ..gates.calibration import AA_TEST
from ..gates.performance import AA
from .inputs import make_qkv
from .kernel import Kernel
from .reference import reference, sdpa, sdpa_error_baseline
from .timing import Blocker, Clock, L2Flusher, event_samples, measure


BASE_SPIN_CYCLES = 1000


def _spin_rate(cycles=2_000_000):
    """Cycles of torch.cuda._sleep per microsecond, measured (the SM clock under load)."""
    torch.cuda._sleep(cycles)
    times = []
    for _ in range(5):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        torch.cuda._sleep(cycles)
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b) * 1e3)
    return cycles / float(np.median(times))


def _held_median_us(call, flusher, blocker, n=30):
    """The call's median time as the gate's samples see it: behind an L2 flush, enqueued while
    the blocking kernel holds the stream, so host launch time stays out of the window. (Timing
    it unheld put 14.6 us in some processes and 38-47 us in others, and the shifts with it.)"""
    return float(np.median(event_samples(call, n, flusher, blocker)))


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
        # Every arm is the candidate followed by a spin, so all arms launch alike and a shift is
        # exactly the extra spin: a bare spin kernel alone adds ~3 us of launch to a 12 us call.
        cycles_per_us = _spin_rate()

        def arm(extra_us, run):
            c = BASE_SPIN_CYCLES + int(extra_us * cycles_per_us)
            return lambda s: (run(s), torch.cuda._sleep(c))

        plain = lambda s: kernel(*sets[s], outs[s], scale=scale)
        # A shift is a fraction of the unshifted arm's own held time (call and base spin), so
        # "5%" is 5% of what the gate compares.
        for _ in range(3):
            arm(0, plain)(0)
        base_us = _held_median_us(lambda: arm(0, plain)(0), flusher, blocker)
        fns = {name: arm(0, plain), name + AA: arm(0, plain), name + AA_TEST: arm(0, plain)}
        for frac in w["shifts"]:
            fns[f"{name}~shift{frac * 100:g}%"] = arm(frac * base_us, plain)
        if w.get("heavier_heads"):
            heavy = dict(shape, H=w["heavier_heads"])
            hsets = [make_qkv(heavy, seed=20_000 * p + 100 * wi + s) for s in range(n_sets)]
            houts = [torch.empty_like(q) for q, _, _ in hsets]
            fns[f"{name}~{w['heavier_heads']}heads"] = arm(0, lambda s: kernel(*hsets[s], houts[s], scale=scale))
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
        raw.update(workload=shape, median_us=base_us, spin_cycles_per_us=cycles_per_us)
        out["workloads"].append(raw)
        del sets, outs
        torch.cuda.empty_cache()
    return out
