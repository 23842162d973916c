"""Child side of the performance gate: one process's samples. Times the candidate (twice, under
its name and under name~aa: the in-run A/A pair), the other configurations and phases it is
compared with, and torch's SDPA backends, interleaved, on every workload (ladder/gpu/timing.py
states the method). Returns raw samples and observations only; the parent derives the rest.

No timed call of a kernel built here repeats the inputs of an earlier one, so a kernel that
remembers its results cannot time a copy of them:
- the A/A twin is the candidate's own library, so it gets input sets of its own (same shape and
  distribution, other contents), refilled with the candidate's;
- the calls of a graph run at scales from 1x to (1 + GRAPH_SCALE_SPAN)x the workload's, and the
  graph's inputs are refilled before every replay. Its output is compared bit for bit with an
  eager call at the last call's scale, and with the float64 reference at that scale: an eager
  call of a kernel that remembers results is no witness, since it can be remembered too. SDPA's
  calls keep one scale: cuDNN may plan per scale, and it is not under test.

After the timing of each workload, the sanity gate's checks of calls that share something run
at its size (ladder/gpu/sharing.py): two calls at once on two streams, other problems at the
addresses of the workload's own calls, and single-row changes. By then the candidate has been
called hundreds of times on that problem, so a kernel that shares a workspace, keys a plan on
addresses or caches results by a sample of the contents only once a problem is hot is seen,
which sanity's ~40 calls per shape are not enough to reach.

After the last workload, process 0 value-checks the timed sizes in every dtype, mask and
layout, and a few large problems drawn for this run from the seed its orders give
(ladder/untimed.py says which and why): each such problem is called 100 times, untimed, then
once more on fresh contents into a poisoned output and log-sum-exp; the output is compared with
the float64 reference as the timed re-checks are, the log-sum-exp as the correctness gate does.

After that, the candidate is called once more at each workload under the CUDA
profiler (ladder/gpu/confinement.py, as in the sanity gate): the GPU operations of the call with
their streams, and the device state around it. The state is also read when the process starts,
before any library is loaded. A library that forks work onto a stream of its own or changes the
process's settings only at the timed sizes is seen here (its work would run beside the next
kernel timed, or its set-aside keep its inputs in L2 across the flush). The profiler comes last
so that it attaches to no timed call."""
import numpy as np
import torch

from ..gates.performance import AA
from ..untimed import drawn as untimed_drawn, problems as untimed_at_timed_sizes
from . import confinement
from .inputs import DTYPES, POISON, make_qkv, values
from .kernel import Kernel, KernelError, error_line
from .pdl import Producer, launch_behind_producer
from .reference import default_backend, reference, sdpa, sdpa_error_baseline
from .sharing import bits, concurrent_calls, mismatch, other_problems_at_same_addresses, single_row_changes
from .timing import Blocker, Clock, L2Flusher, capture_graph, ceilings, event_samples, graph_rounds, measure


def _log(msg):
    print(msg, flush=True)


# The last call of a graph runs at 1.5x the first's scale: a result remembered from the first
# call is then far outside the re-check's tolerance at the last call's scale.
GRAPH_SCALE_SPAN = 0.5
EMPTY_SAMPLES = 100  # event windows around an empty kernel, per workload and process
UNTIMED_CALLS = 100  # calls of each untimed problem before its value check


def errors(out, ref, lib):
    """out's max error against the float64 reference ref, with SDPA's (lib, on the same inputs)
    and mere rounding's: the re-checks' yardsticks."""
    return {"err": float((out.double() - ref).abs().nan_to_num(float("inf")).max()),
            "err_sdpa": float((lib.double() - ref).abs().max()),
            "err_round": float((ref.to(out.dtype).double() - ref).abs().max())}


def exact_in_both_dtypes(x):
    """fp32 values that fp16 and bf16 both hold exactly: bf16's significand, and nothing under
    fp16's smallest normal but zero."""
    y = x.to(torch.bfloat16).float()
    return torch.where(y.abs() < 2.0 ** -14, torch.zeros_like(y), y)


def untimed_checks(kernel, prob, seed):
    """One of ladder/untimed.py's problems, in each of its dtypes and layouts: UNTIMED_CALLS
    calls, then one more on fresh contents (the same values in every dtype and layout) into a
    poisoned output and log-sum-exp, against one float64 reference. A refusal is recorded (the
    gate fails it: every such problem is one kernels/attn_abi.h says a kernel accepts). One row
    per dtype and layout."""
    scale, causal = prob["D"] ** -0.5, prob["causal"]
    size = {k: prob[k] for k in ("B", "H", "S_q", "S_k", "D")}
    fresh = [exact_in_both_dtypes(x) for x in values(size, {"name": "normal"}, scale, seed + 1)]
    ref, ref_lse = reference(*fresh, scale, causal)
    rows = []
    for dtype, layouts in prob["layouts"].items():
        shape = dict(size, dtype=dtype, causal=causal, drawn=prob.get("drawn", False))
        lib = sdpa_error_baseline(*(x.to(DTYPES[dtype]) for x in fresh), scale, causal)
        for layout in layouts:
            q, k, v = make_qkv(shape, seed=seed, layout=layout)
            o, lse = torch.empty_like(q), torch.empty(q.shape[:3], device="cuda", dtype=torch.float32)
            try:
                for _ in range(UNTIMED_CALLS):
                    kernel(q, k, v, o, lse, scale=scale, causal=causal)
                for t, x in zip((q, k, v), fresh):
                    t.copy_(x)
                bits(o).fill_(POISON[o.dtype])
                lse.fill_(float("nan"))
                kernel(q, k, v, o, lse, scale=scale, causal=causal)
                torch.cuda.synchronize()
            except KernelError as e:
                rows.append(dict(shape, layout=layout, refused=error_line(e)))
                continue
            rows.append(dict(shape, layout=layout, calls=UNTIMED_CALLS + 1, **errors(o, ref, lib),
                             lse_err=float((lse.double() - ref_lse).abs().nan_to_num(float("inf")).max()),
                             lse_ref_absmax=float(ref_lse.abs().max())))
    return rows


def empty_kernel():
    """A launch that does nothing: one thread that spins for zero cycles."""
    torch.cuda._sleep(0)


def workload(w, wi, orders, kernels, flusher, blocker, clock, producer=None):
    timing = orders["timing"]
    p, pilot = orders["process"], orders.get("pilot", False)
    candidate = orders["candidate"]
    n_sets, scale, causal = timing["input_sets"], w["D"] ** -0.5, w["causal"]
    base = timing["seed"] * 1_000_003 + p * 7919 + wi * 97
    full = not pilot and orders.get("full", True)  # the seqlen chart wants samples only
    sets = [make_qkv(w, seed=base + s) for s in range(n_sets)]
    twin_sets = [make_qkv(w, seed=base + n_sets + s) for s in range(n_sets)] if full else []
    names = list(kernels) + ([candidate + AA] if full else [])
    outs = {n: [torch.empty_like(q) for q, _, _ in sets] for n in names}
    lses = [torch.empty(q.shape[:3], device="cuda", dtype=torch.float32) for q, _, _ in sets]

    def kernel_fn(name):
        kern, o, ins = kernels[name.removesuffix(AA)], outs[name], twin_sets if name.endswith(AA) else sets
        return lambda s, sc=scale: kern(*ins[s], o[s], lses[s], scale=sc, causal=causal)

    fns = {n: kernel_fn(n) for n in names}
    graph_fns = dict(fns)  # fn(set, scale): SDPA's ignore the scale given
    unsupported = {}
    for b in orders["baselines"]:
        try:
            sdpa(*sets[0], scale, causal, backend=b)
            torch.cuda.synchronize()
            fns[b] = (lambda backend: lambda s: sdpa(*sets[s], scale, causal, backend=backend))(b)
            graph_fns[b] = (lambda f: lambda s, sc: f(s))(fns[b])
        except RuntimeError as e:
            unsupported[b] = str(e).splitlines()[0][:200]
    gen = torch.Generator(device="cuda").manual_seed(base + 55)

    def refill(group):
        for t in group:
            t.copy_(torch.randn(t.shape, generator=gen, device="cuda"))

    def refresh():
        for group in sets + twin_sets:
            refill(group)

    scratch_o, scratch_lse = torch.empty_like(sets[0][0]), torch.empty_like(lses[0])

    def untimed(s, sc=scale):
        """The candidate on set s into scratch buffers, outside any timed window."""
        kernels[candidate](*sets[s], scratch_o, scratch_lse, scale=sc, causal=causal)
        torch.cuda.synchronize()
        return scratch_o

    def verify(s):
        return mismatch(outs[candidate][s], untimed(s))

    def recheck(s, sc=scale):
        q, k, v = sets[s]
        ref, _ = reference(q, k, v, sc, causal)
        return dict(errors(outs[candidate][s], ref, sdpa_error_baseline(q, k, v, sc, causal)), set=s)

    rng = np.random.default_rng([timing["seed"], p, wi])
    raw = measure(fns, candidate, candidate + AA, n_sets, timing, flusher, blocker, clock, refresh,
                  recheck if full else None, rng, fixed_rounds=orders.get("pilot_rounds") if pilot else None,
                  echo=_log, verify=verify if full else None)
    raw.update(workload=w, unsupported=unsupported)
    if not full:
        return raw
    if p == 0:
        raw["default_backend"] = default_backend(*sets[0], scale, causal)
    # Complete when the caller's stream reaches the end of the call, at this size: copies enqueued
    # right behind it must equal what a device-wide synchronisation shows. Work left on a stream
    # of the kernel's own is outside the timed window as well as unordered.
    o0, lse0 = outs[candidate][0], lses[0]
    bits(o0).fill_(POISON[o0.dtype])
    lse0.fill_(float("nan"))
    fns[candidate](0)
    snap_o, snap_lse = o0.clone(), lse0.clone()
    torch.cuda.synchronize()
    raw["incomplete_on_return"] = mismatch(snap_o, o0) + mismatch(snap_lse, lse0)
    # Determinism at this size: repeat calls of the candidate, bit for bit, against the complete
    # output of the call above.
    first = o0.clone()
    raw["determinism_mismatches"] = sum(mismatch(fns[candidate](0), first)
                                        for _ in range(timing["determinism_repeats"]))
    # Every workload is also timed as CUDA-graph replays (~2 ms of calls per graph): warm (calls
    # back to back, the figure targets use) and cold (each call behind an L2 flush, less a graph of
    # the flushes alone), which differs from the event samples only in how the calls are launched:
    # the leak check compares the two, less what the same comparison gives for an empty kernel
    # (the GPU's own cost of a launch in an event window, ~2.3 us on an H100 whatever the kernel:
    # phases/phase_e/dev/launch_probe). The physical floor applies to graph times too.
    med = float(np.median([r[raw["names"].index(candidate)] for r in raw["us"]]))
    calls = max(1, min(timing["graph_calls"], int(2000 / max(med, 1e-3))))
    scales = [scale * (1 + GRAPH_SCALE_SPAN * i / max(1, calls - 1)) for i in range(calls)]
    graphs = {"~flush": capture_graph(lambda i: flusher(), calls),
              "~empty~cold": capture_graph(lambda i: (flusher(), empty_kernel()), calls)}
    for n, f in graph_fns.items():
        graphs[n] = capture_graph(lambda i, f=f: f(0, scales[i]), calls)
        graphs[n + "~cold"] = capture_graph(lambda i, f=f: (flusher(), f(0, scales[i])), calls)
    per_call = graph_rounds(graphs, calls, blocker, np.random.default_rng([timing["seed"], p, wi, 1]),
                            before=lambda: (refill(sets[0]), refill(twin_sets[0])))
    flush_us = per_call["~flush"]
    raw.update(graph_calls=calls, graph_flush_us=flush_us, graph_us={n: per_call[n] for n in fns},
               graph_cold_us={n: per_call[n + "~cold"] - flush_us for n in fns},
               empty_launch={"event_us": float(np.median(event_samples(empty_kernel, EMPTY_SAMPLES, flusher, blocker))),
                             "graph_cold_us": per_call["~empty~cold"] - flush_us})
    # The graph's output is its last call's, on fresh contents: against the float64 reference and
    # then an eager call, both at that call's scale.
    refill(sets[0])
    bits(outs[candidate][0]).fill_(POISON[outs[candidate][0].dtype])
    graphs[candidate].replay()
    torch.cuda.synchronize()
    raw["graph_recheck"] = dict(recheck(0, scales[-1]), calls=calls, scale_ratio=scales[-1] / scales[0])
    last = untimed(0, scales[-1])
    raw["graph_output_mismatches"] = mismatch(outs[candidate][0], last)
    del graphs
    first = untimed(0).clone()  # set 0's contents changed with the refills
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
    bits(o).fill_(POISON[o.dtype])
    launch_behind_producer(producer, sets[0], values, lambda: fns[candidate](0))
    raw["pdl_mismatches"] = mismatch(o, first)
    # The candidate has now been called hundreds of times on this problem, far more than the
    # sanity gate's ~40 per shape: its checks of calls that share something run again here, at
    # this size, so that a workspace shared between calls, a plan keyed on addresses or results
    # cached by a sample of the contents, set up only for a hot problem, are seen.
    refill(sets[1])
    raw["warm_concurrency"] = concurrent_calls(kernels[candidate], list(sets[0]), list(sets[1]), causal)
    raw["warm_same_addresses"] = other_problems_at_same_addresses(kernels[candidate], *sets[0], causal)
    raw["warm_single_row"] = single_row_changes(kernels[candidate], *sets[0], causal, base, untimed(0).clone())
    del sets, twin_sets, outs, lses
    torch.cuda.empty_cache()
    return raw


def run(orders):
    confine = not orders.get("pilot", False) and orders.get("full", True)
    torch.empty(1, device="cuda")  # the context exists before its state is read
    start = confinement.device_state() if confine else None
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
    if confine and orders["process"] == 0:
        # The timed sizes in every dtype, mask and layout, and the problems drawn for this run
        # (ladder/untimed.py).
        seed, draw = orders["timing"]["seed"] * 1_000_003 + 11, orders.get("draw_seed")
        probs = untimed_at_timed_sizes([w for w in orders["workloads"] if w])
        probs += [dict(p, drawn=True) for p in (untimed_drawn(draw) if draw is not None else [])]
        out["draw_seed"] = draw
        out["untimed"] = [row for i, prob in enumerate(probs)
                          for row in untimed_checks(kernels[orders["candidate"]], prob, seed + 2 * i)]
    if confine:
        seed = orders["timing"]["seed"] * 1_000_003 + orders["process"] * 7919 + 5
        out["confinement"] = {"start": start, "workloads": [
            None if w is None else confinement.observe_once(kernels[orders["candidate"]], w, seed + wi)
            for wi, w in enumerate(orders["workloads"])]}
    return out
