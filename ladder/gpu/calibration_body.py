"""Child side of the calibration: the performance gate's own measuring loop (timing.measure),
run `repeats` times for phase_a against itself and for phase_a on 5% more heads against phase_a."""
import torch

from .abi import Kernel
from .inputs import make_qkv
from .timing import Clock, L2Flusher, measure


def _fns(kernel, shapes, seed):
    fns, keep = {}, []
    for name, shape in shapes.items():
        sets = [make_qkv(shape, seed=seed + 13 * i) for i in range(4)]
        outs = [torch.empty_like(q) for q, _, _ in sets]
        keep.append((sets, outs))
        fns[name] = (lambda s_, o_: lambda i: kernel(*s_[i], o_[i], causal=False))(sets, outs)
    return fns, keep


def run(job):
    cfg = job["config"]
    kernel = Kernel(job["lib"])
    w = dict(cfg["workload"])
    w["S_q"] = w["S_k"] = w.pop("S")
    clock, flusher = Clock(), L2Flusher(torch.cuda.get_device_properties(0).L2_cache_size)
    experiments = {"self": {"a": w, "b": w}, "heavier": {"a": dict(w, H=cfg["heavier_heads"]), "b": w}}
    out = {}
    for name, shapes in experiments.items():
        runs = []
        for r in range(cfg["repeats"]):
            fns, keep = _fns(kernel, shapes, seed=100 * r)
            m = measure(fns, 4, cfg["timing"], flusher, clock, refresh=lambda: None,
                        recheck=lambda s: {"set": s, "max_abs_diff": 0.0})
            runs.append({"a": m["samples_us"]["a"], "b": m["samples_us"]["b"], "stopped_on": m["stopped_on"]})
            del keep
        out[name] = runs
        print(f"calibration {name}: {len(runs)} comparisons", flush=True)
    return out
