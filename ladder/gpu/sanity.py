"""Child side of the sanity gate: observations only (counts, flags, error text); the gate's
derive() in ladder/gates/sanity.py turns them into problems. On each sanity shape:

- the output is poisoned with a NaN pattern before the call: how much is still poison; how
  much is NaN/Inf; log-sum-exp finite; inputs unchanged; the output complete when the caller's
  stream reaches the end of the call (a copy enqueued right behind it);
- repeat calls bit for bit; a call without lse gives the same output bits;
- new inputs written in place at the same addresses: how much of the output stayed the same
  (a kernel that caches by address returns the old answer);
- one row of q, of k, of v rewritten in turn: the output elements that change must move (a
  kernel that keys a cache on a sample of the contents returns the old answer);
- two calls on two streams started together, on different inputs: each bit-identical to its
  eager output (a static workspace shared between calls mixes them);
- the shape's problem and others on views of the same tensors (fewer keys, queries or heads, the
  other mask, another scale) enqueued back to back behind a spin, so that the host runs ahead of
  the GPU: each bit-identical to its call alone (ladder/gpu/queued.py);
- two problems called from two host threads at once, each on a stream of its own: each
  bit-identical to its call alone (ladder/gpu/threads.py);
- views that start at the addresses the shape's calls used (q, k, v, and o and lse as well) but
  pose another problem (fewer keys, queries, heads or batches; the other mask; another scale;
  the same sizes with other row strides), each right after a call for the shape itself (for the
  strides, for the same sizes): o and lse bit-identical to the same call on copies at other
  addresses (a kernel that keys a plan, say its tensor maps, on the addresses and not on
  everything it holds answers from the old plan);
- all-zero queries: every visible key weighs the same, so each row is the mean of its V rows;
- on a non-blocking side stream held by a spin: inputs rewritten on that stream, then the call,
  then a copy of o: the output must be the eager output for the new inputs (a kernel that
  launches on the legacy default stream or its own stream reads the old inputs), complete when
  the side stream reaches the copy;
- behind a kernel that lets it start at once by programmatic dependent launch and writes its
  inputs only after a spin (ladder/gpu/pdl.py): the output must be the one for those inputs (a
  kernel launched with PDL that reads before griddepcontrol.wait computes on the old ones);
- (last) captured into a CUDA graph, inputs rewritten in place, replayed: the output must follow
  the new inputs bit for bit;
Then, once every shape has run (the profiler stays attached to the process after it), on each
shape one call under the CUDA profiler on a stream of its own (ladder/gpu/confinement.py): the
GPU operations around it with their streams, and the device state before and after it. The
process's device state is also read before the kernel's library is loaded, so a change made by
the library's loading or by any check is seen too.
Last (it may fault), on the first two shapes: calls the ABI lets a kernel refuse but never answer
wrongly (misaligned views, other head dims, scales of zero and below, K and V shared by every
head, an undefined dtype code: ladder/gpu/unsupported.py)."""
import torch

from . import confinement, unsupported
from .inputs import POISON, make_qkv, poisoned_like, poisoned_lse, unwritten
from .kernel import Kernel, error_line
from .pdl import Producer, launch_behind_producer
from .queued import queued_calls
from .threads import threaded_calls
from .sharing import (SPIN_CYCLES, bits, call, concurrent_calls, mismatch, other_problems_at_same_addresses,
                      single_row_changes)


def _fresh(shape, seed, like):
    q, k, v = make_qkv(shape, seed)
    return [x.to(t.dtype) for x, t in zip((q, k, v), like)]


def check_shape(kernel, producer, shape, seed, repeats):
    f = {}
    causal = shape["causal"]
    q, k, v = make_qkv(shape, seed, layout="bshd" if seed % 2 else "contiguous")
    originals = [t.clone() for t in (q, k, v)]
    o, lse, snapshot = call(kernel, q, k, v, causal)
    f["elements"] = o.numel()
    f["incomplete_on_return"] = mismatch(snapshot, o)
    f["unwritten"] = int(unwritten(o).sum())
    f["nonfinite"] = int((~torch.isfinite(o.float())).sum()) - f["unwritten"]
    f["lse_nonfinite"] = int((~torch.isfinite(lse)).sum())
    f["inputs_changed"] = [n for n, a, b in zip("qkv", (q, k, v), originals) if not torch.equal(bits(a), bits(b))]
    f["repeat_mismatches"] = sum(mismatch(call(kernel, q, k, v, causal)[0], o) for _ in range(repeats))
    f["no_lse_mismatches"] = mismatch(call(kernel, q, k, v, causal, lse=False)[0], o)

    # Side stream: inputs rewritten on that stream behind a spin, then the call.
    new = _fresh(shape, seed + 101, (q, k, v))
    for t, x in zip((q, k, v), new):
        t.copy_(x)
    expected, _, _ = call(kernel, q, k, v, causal)
    for t, x in zip((q, k, v), originals):
        t.copy_(x)
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        torch.cuda._sleep(SPIN_CYCLES)
        for t, x in zip((q, k, v), new):
            t.copy_(x)
        o_side = poisoned_like(q)
        kernel(q, k, v, o_side, causal=causal)
        snap_side = o_side.clone()
    torch.cuda.synchronize()
    f["side_stream"] = {"mismatches": mismatch(o_side, expected), "incomplete": mismatch(snap_side, o_side)}

    # Behind a producer that lets the call start early (PDL), the new inputs written after a spin.
    for t, x in zip((q, k, v), originals):
        t.copy_(x)
    o_pdl = poisoned_like(q)
    launch_behind_producer(producer, (q, k, v), new, lambda: kernel(q, k, v, o_pdl, causal=causal))
    f["pdl_producer"] = {"mismatches": mismatch(o_pdl, expected), "unwritten": int(unwritten(o_pdl).sum())}

    # New values at the same addresses: a kernel that caches by pointer returns the old output.
    o_new, _, _ = call(kernel, q, k, v, causal)
    f["fraction_unchanged_after_new_inputs"] = round(float((bits(o_new) == bits(o)).float().mean()), 4)

    f["single_row_changes"] = single_row_changes(kernel, q, k, v, causal, seed, o_new)
    f["concurrent"] = concurrent_calls(kernel, (q, k, v), _fresh(shape, seed + 303, (q, k, v)), causal)
    f["same_addresses"] = other_problems_at_same_addresses(kernel, q, k, v, causal)
    f["queued"] = queued_calls(kernel, q, k, v, causal)
    f["threads"] = threaded_calls(kernel, q, k, v, causal)

    # All-zero queries: every visible key weighs the same, so each row is the mean of its V rows.
    q.zero_()
    o_zero, _, _ = call(kernel, q, k, v, causal)
    counts = torch.arange(1, shape["S_q"] + 1, device="cuda").clamp(max=shape["S_k"]) if causal else \
        torch.full((shape["S_q"],), shape["S_k"], device="cuda")
    cums = v.double().cumsum(dim=2)
    expected_zero = cums[:, :, counts - 1, :] / counts.view(1, 1, -1, 1)
    f["zero_query_max_err"] = float((o_zero.double() - expected_zero).abs().nan_to_num(float("inf")).max())
    f["zero_query_unwritten"] = int(unwritten(o_zero).sum())
    # CUDA graph: capture, rewrite inputs in place, replay. Last: a failed capture can leave
    # the stream unusable for what follows.
    f["graph"] = _graph_check(kernel, q, k, v, causal, _fresh(shape, seed + 202, (q, k, v)))
    return f


def _graph_check(kernel, q, k, v, causal, new):
    try:
        o_g, lse_g = poisoned_like(q), poisoned_lse(q)
        warm = torch.cuda.Stream()
        warm.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(warm):
            kernel(q, k, v, o_g, lse_g, causal=causal)
        torch.cuda.current_stream().wait_stream(warm)
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            kernel(q, k, v, o_g, lse_g, causal=causal)
        for t, x in zip((q, k, v), new):
            t.copy_(x)
        bits(o_g).fill_(POISON[o_g.dtype])
        g.replay()
        torch.cuda.synchronize()
        expected, _, _ = call(kernel, q, k, v, causal)
        return {"error": None, "unwritten": int(unwritten(o_g).sum()), "mismatches": mismatch(o_g, expected)}
    except Exception as e:
        return {"error": error_line(e)}


def run(orders):
    section = orders["section"]
    torch.empty(1, device="cuda")  # the context exists before its state is read
    start = confinement.device_state()
    kernel = Kernel(orders["lib"])
    producer = Producer(orders["producer_lib"])
    rows = []
    for i, shape in enumerate(section["shapes"]):
        try:
            rows.append({"shape": shape, "figures": check_shape(kernel, producer, shape, seed=2000 + i,
                                                                repeats=section["repeats"])})
        except Exception as e:
            rows.append({"shape": shape, "error": error_line(e)})
            return {"shapes": rows, "unsupported": [], "device_state_at_start": start}
    for i, row in enumerate(rows):
        row["figures"]["confinement"] = confinement.observe_once(kernel, row["shape"], seed=2500 + i)
    outside = []
    for i, shape in enumerate(section["shapes"][:2]):
        try:
            got = unsupported.observe(kernel, shape, 3000 + i)
        except Exception as e:
            got = [{"variant": "setup", "shape": shape, "outcome": "fault", "error": error_line(e)}]
        outside += got
        if got and got[-1]["outcome"] == "fault":
            break
    return {"shapes": rows, "unsupported": outside, "device_state_at_start": start}
