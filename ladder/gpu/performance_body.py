"""Child side of the performance gate: times the candidate, the phases it is compared against
and torch's SDPA backends, interleaved, on every workload. The method is in
ladder/gpu/timing.py; statistics and targets are computed by the parent from the raw samples."""
import torch

from ..spec import load_spec
from .abi import Kernel
from .inputs import make_qkv
from .reference import default_backend, sdpa
from .timing import Clock, L2Flusher, ceilings, graph_per_call_us, measure


def _log(msg):
    print(msg, flush=True)


def run(job):
    spec = load_spec(job["spec_dir"])
    perf = spec.section("performance")
    timing = perf["timing"]
    kernels = {name: Kernel(lib) for name, lib in job["libs"].items()}  # candidate first
    candidate = spec.name
    clock = Clock()
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flusher = L2Flusher(l2)
    out = {"ceilings": ceilings(), "l2_bytes": l2, "workloads": []}
    _log(f"ceilings: {out['ceilings']}")
    baselines = list(dict.fromkeys(perf["baselines"] + [t["vs"] for t in perf["targets"]
                                                          if t["vs"].startswith("sdpa_") and t["vs"] not in
                                                          ("sdpa_best", "sdpa_default")]))
    for wi, w in enumerate(spec.workloads):
        _log(f"workload {w['name']}")
        n_sets = timing["input_sets"]
        scale = w["D"] ** -0.5
        sets = [make_qkv(w, seed=5000 + 97 * wi + s) for s in range(n_sets)]
        outs = {n: [torch.empty_like(q) for q, _, _ in sets] for n in kernels}
        lses = [torch.empty(q.shape[:3], device="cuda", dtype=torch.float32) for q, _, _ in sets]

        def kernel_fn(name):
            kern, o = kernels[name], outs[name]
            return lambda s: kern(*sets[s], o[s], lses[s], scale=scale, causal=w["causal"])

        fns = {name: kernel_fn(name) for name in kernels}
        unsupported = {}
        for b in baselines:
            try:
                sdpa(*sets[0], scale, w["causal"], backend=b)
                torch.cuda.synchronize()
                fns[b] = (lambda backend: lambda s: sdpa(*sets[s], scale, w["causal"], backend=backend))(b)
            except RuntimeError as e:
                unsupported[b] = str(e).splitlines()[0][:200]
        gen = torch.Generator(device="cuda").manual_seed(9000 + wi)

        def refresh():
            for q, k, v in sets:
                for t in (q, k, v):
                    t.copy_(torch.randn(t.shape, generator=gen, device="cuda"))

        def recheck(s):
            ref = sdpa(*sets[s], scale, w["causal"])
            diff = float((outs[candidate][s].float() - ref.float()).abs().nan_to_num(float("inf")).max())
            return {"set": s, "max_abs_diff": diff}

        m = measure(fns, n_sets, timing, flusher, clock, refresh, recheck, echo=_log)
        m.update(workload=w, unsupported=unsupported, default_backend=default_backend(*sets[0], scale, w["causal"]))
        cand_median = sorted(m["samples_us"][candidate])[len(m["samples_us"][candidate]) // 2]
        if cand_median < timing["graph_max_us"]:
            m["graph_us"] = {n: graph_per_call_us(lambda f=f: f(0), timing["graph_calls"]) for n, f in fns.items()}
        out["workloads"].append(m)
        del sets, outs, lses
        torch.cuda.empty_cache()
    return out
