"""Child side of the performance gate: one process's samples. Times the candidate (twice, under
its name and under name~aa: the in-run A/A pair), the other configurations and phases it is
compared with, and torch's SDPA backends, interleaved, on every workload (ladder/gpu/timing.py
states the method). Returns raw samples and observations only; the parent derives the rest."""
import numpy as np
import torch

from ..gates.performance import AA
from .inputs import POISON, make_qkv
from .kernel import Kernel
from .pdl import Producer, launch_behind_producer
from .reference import default_backend, reference, sdpa, sdpa_error_baseline
from .timing import Blocker, Clock, L2Flusher, capture_graph, ceilings, graph_rounds, measure


def _log(msg):
    print(msg, flush=True)


def _bits(x):
    return x.view(torch.int16)


def workload(w, wi, orders, kernels, flusher, blocker, clock, producer=None):
    timing = orders["timing"]
    p, pilot = orders["process"], orders.get("pilot", False)
    candidate = orders["candidate"]
    n_sets, scale, causal = timing["input_sets"], w["D"] ** -0.5, w["causal"]
    base = timing["seed"] * 1_000_003 + p * 7919 + wi * 97
    sets = [make_qkv(w, seed=base + s) for s in range(n_sets)]
    full = not pilot and orders.get("full", True)  # the seqlen chart wants samples only
    names = list(kernels) + ([candidate + AA] if full else [])
    outs = {n: [torch.empty_like(q) for q, _, _ in sets] for n in names}
    lses = [torch.empty(q.shape[:3], device="cuda", dtype=torch.float32) for q, _, _ in sets]

    def kernel_fn(name):
        kern, o = kernels[name.removesuffix(AA)], outs[name]
        return lambda s: kern(*sets[s], o[s], lses[s], scale=scale, causal=causal)

    fns = {n: kernel_fn(n) for n in names}
    unsupported = {}
    for b in orders["baselines"]:
        try:
            sdpa(*sets[0], scale, causal, backend=b)
            torch.cuda.synchronize()
            fns[b] = (lambda backend: lambda s: sdpa(*sets[s], scale, causal, backend=backend))(b)
        except RuntimeError as e:
            unsupported[b] = str(e).splitlines()[0][:200]
    gen = torch.Generator(device="cuda").manual_seed(base + 55)

    def refresh():
        for q, k, v in sets:
            for t in (q, k, v):
                t.copy_(torch.randn(t.shape, generator=gen, device="cuda"))

    def recheck(s):
        q, k, v = sets[s]
        ref, _ = reference(q, k, v, scale, causal)
        lib = sdpa_error_baseline(q, k, v, scale, causal)
        return {"set": s, "err": float((outs[candidate][s].double() - ref).abs().nan_to_num(float("inf")).max()),
                "err_sdpa": float((lib.double() - ref).abs().max()),
                "err_round": float((ref.to(q.dtype).double() - ref).abs().max())}

    rng = np.random.default_rng([timing["seed"], p, wi])
    raw = measure(fns, candidate, candidate + AA, n_sets, timing, flusher, blocker, clock, refresh,
                  recheck if full else None, rng, fixed_rounds=orders.get("pilot_rounds") if pilot else None,
                  echo=_log)
    raw.update(workload=w, unsupported=unsupported)
    if not full:
        return raw
    if p == 0:
        raw["default_backend"] = default_backend(*sets[0], scale, causal)
    # Complete when the caller's stream reaches the end of the call, at this size: copies enqueued
    # right behind it must equal what a device-wide synchronisation shows. Work left on a stream
    # of the kernel's own is outside the timed window as well as unordered.
    o0, lse0 = outs[candidate][0], lses[0]
    _bits(o0).fill_(POISON[o0.dtype])
    lse0.fill_(float("nan"))
    fns[candidate](0)
    snap_o, snap_lse = o0.clone(), lse0.clone()
    torch.cuda.synchronize()
    raw["incomplete_on_return"] = int((_bits(snap_o) != _bits(o0)).sum()) + \
        int((snap_lse.view(torch.int32) != lse0.view(torch.int32)).sum())
    # Determinism at this size: repeat calls of the candidate, bit for bit, against the complete
    # output of the call above.
    first = o0.clone()
    raw["determinism_mismatches"] = sum(int((_bits(fns[candidate](0)) != _bits(first)).sum())
                                        for _ in range(timing["determinism_repeats"]))
    # Every workload is also timed as CUDA-graph replays (~2 ms of calls per graph): warm (calls
    # back to back, the figure targets use) and cold (each call behind an L2 flush, less a graph of
    # the flushes alone), which differs from the event samples only in how the calls are launched:
    # the leak check compares the two. The physical floor applies to graph times too.
    med = float(np.median([r[raw["names"].index(candidate)] for r in raw["us"]]))
    calls = max(1, min(timing["graph_calls"], int(2000 / max(med, 1e-3))))
    graphs = {"~flush": capture_graph(flusher, calls)}
    for n, f in fns.items():
        graphs[n] = capture_graph(lambda f=f: f(0), calls)
        graphs[n + "~cold"] = capture_graph(lambda f=f: (flusher(), f(0)), calls)
    per_call = graph_rounds(graphs, calls, blocker, np.random.default_rng([timing["seed"], p, wi, 1]))
    flush_us = per_call["~flush"]
    raw.update(graph_calls=calls, graph_flush_us=flush_us, graph_us={n: per_call[n] for n in fns},
               graph_cold_us={n: per_call[n + "~cold"] - flush_us for n in fns})
    _bits(outs[candidate][0]).fill_(POISON[outs[candidate][0].dtype])
    graphs[candidate].replay()
    torch.cuda.synchronize()
    raw["graph_output_mismatches"] = int((_bits(outs[candidate][0]) != _bits(first)).sum())
    del graphs
    # Behind a kernel that lets it start early (programmatic dependent launch) and writes set 0's
    # inputs after a spin, over set 1's values: the output must be `first` (ladder/gpu/pdl.py).
    # A kernel that skips griddepcontrol.wait also overlaps its own previous call in the graph
    # replays above, which would flatter the graph times that targets read.
    if producer is None:
        raise RuntimeError("the orders name no PDL producer library (producer_lib)")
    values = [t.clone() for t in sets[0]]
    for t, x in zip(sets[0], sets[1]):
        t.copy_(x)
    o = outs[candidate][0]
    _bits(o).fill_(POISON[o.dtype])
    launch_behind_producer(producer, sets[0], values, lambda: fns[candidate](0))
    raw["pdl_mismatches"] = int((_bits(o) != _bits(first)).sum())
    del sets, outs, lses
    torch.cuda.empty_cache()
    return raw


def run(orders):
    kernels = {name: Kernel(lib) for name, lib in orders["kernels"].items()}
    clock = Clock()
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flusher = L2Flusher(l2)
    blocker = Blocker(orders["blocker_lib"], orders["timing"]["blocker_timeout_ms"])
    producer = Producer(orders["producer_lib"]) if orders.get("producer_lib") else None
    out = {"ceilings": ceilings() if orders.get("ceilings") else {}, "l2_bytes": l2, "workloads": []}
    for wi, w in enumerate(orders["workloads"]):
        if w is None:  # this process is not asked to time this workload again
            out["workloads"].append(None)
            continue
        _log(f"process {orders['process']}: workload {w['name']}")
        out["workloads"].append(workload(w, wi, orders, kernels, flusher, blocker, clock, producer))
    return out
