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
Last (it may fault): views whose rows are not 16-byte aligned, which the ABI lets a kernel
refuse, but never answer wrongly."""
import torch

from . import confinement
from .inputs import POISON, make_qkv, poisoned_like, poisoned_lse, unwritten
from .kernel import Kernel, KernelError, error_line
from .pdl import Producer, launch_behind_producer
from .reference import reference, sdpa_error_baseline

SINGLE_ROW_MAX_KEYS = 4096  # above, one key row's change can stay under the output's rounding (bf16, flat softmax)
SPIN_CYCLES = 40_000_000  # ~20 ms at H100 clocks: far longer than any host enqueue
MISALIGNED_K = 2.0        # a misaligned view answered must be within 2x SDPA's error, as in correctness
OTHER_SCALE = 0.75        # the "another scale" variant's softmax scale, in units of D^-0.5


def _bits(x):
    """x's elements as integers of their own width (fp16/bf16 outputs, fp32 log-sum-exp)."""
    return x.view({2: torch.int16, 4: torch.int32}[x.element_size()])


def _mismatch(a, b):
    return int((_bits(a) != _bits(b)).sum())


def _call(kernel, q, k, v, causal, lse=True, scale=None):
    o = poisoned_like(q)
    l = poisoned_lse(q) if lse else None
    kernel(q, k, v, o, l, scale=scale, causal=causal)
    snapshot = o.clone()  # enqueued on the caller's stream right behind the kernel
    torch.cuda.synchronize()
    return o, l, snapshot


def _fresh(shape, seed, like):
    q, k, v = make_qkv(shape, seed)
    return [x.to(t.dtype) for x, t in zip((q, k, v), like)]


def check_shape(kernel, producer, shape, seed, repeats):
    f = {}
    causal = shape["causal"]
    q, k, v = make_qkv(shape, seed, layout="bshd" if seed % 2 else "contiguous")
    originals = [t.clone() for t in (q, k, v)]
    o, lse, snapshot = _call(kernel, q, k, v, causal)
    f["elements"] = o.numel()
    f["incomplete_on_return"] = _mismatch(snapshot, o)
    f["unwritten"] = int(unwritten(o).sum())
    f["nonfinite"] = int((~torch.isfinite(o.float())).sum()) - f["unwritten"]
    f["lse_nonfinite"] = int((~torch.isfinite(lse)).sum())
    f["inputs_changed"] = [n for n, a, b in zip("qkv", (q, k, v), originals) if not torch.equal(_bits(a), _bits(b))]
    f["repeat_mismatches"] = sum(_mismatch(_call(kernel, q, k, v, causal)[0], o) for _ in range(repeats))
    f["no_lse_mismatches"] = _mismatch(_call(kernel, q, k, v, causal, lse=False)[0], o)

    # Side stream: inputs rewritten on that stream behind a spin, then the call.
    new = _fresh(shape, seed + 101, (q, k, v))
    for t, x in zip((q, k, v), new):
        t.copy_(x)
    expected, _, _ = _call(kernel, q, k, v, causal)
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
    f["side_stream"] = {"mismatches": _mismatch(o_side, expected), "incomplete": _mismatch(snap_side, o_side)}

    # Behind a producer that lets the call start early (PDL), the new inputs written after a spin.
    for t, x in zip((q, k, v), originals):
        t.copy_(x)
    o_pdl = poisoned_like(q)
    launch_behind_producer(producer, (q, k, v), new, lambda: kernel(q, k, v, o_pdl, causal=causal))
    f["pdl_producer"] = {"mismatches": _mismatch(o_pdl, expected), "unwritten": int(unwritten(o_pdl).sum())}

    # New values at the same addresses: a kernel that caches by pointer returns the old output.
    o_new, _, _ = _call(kernel, q, k, v, causal)
    f["fraction_unchanged_after_new_inputs"] = round(float((_bits(o_new) == _bits(o)).float().mean()), 4)

    f["single_row_changes"] = single_row_changes(kernel, q, k, v, causal, seed, o_new)
    f["concurrent"] = concurrent_calls(kernel, (q, k, v), _fresh(shape, seed + 303, (q, k, v)), causal)
    f["same_addresses"] = other_problems_at_same_addresses(kernel, q, k, v, causal)

    # All-zero queries: every visible key weighs the same, so each row is the mean of its V rows.
    q.zero_()
    o_zero, _, _ = _call(kernel, q, k, v, causal)
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


def single_row_changes(kernel, q, k, v, causal, seed, before):
    """One row of q, then of k, then of v (a seeded random batch, head and row, one every output
    row sees when causal) rewritten in place with values 4x larger, each followed by a call.
    Counts, among the output elements the change must move (row r of that head for q; the rows
    of that head that see key r for k and v), those bit-identical to the output before it. A
    kernel that keys a cache on a sample of the inputs' contents (a full refill changes any
    sample) returns the old output. Staleness only: values are the correctness gate's to judge.
    Rows of k and v are not changed above SINGLE_ROW_MAX_KEYS keys (recorded as skipped): one
    key of 70000 moves a bf16 output by less than its rounding. before: the output on the
    inputs as they are now."""
    gen = torch.Generator(device="cpu").manual_seed(seed + 404)
    B, H, S_q, D = q.shape
    S_k = k.shape[2]
    rows = []
    for name, t in zip("qkv", (q, k, v)):
        if name != "q" and S_k > SINGLE_ROW_MAX_KEYS:
            rows.append({"tensor": name, "skipped": f"S_k {S_k} > {SINGLE_ROW_MAX_KEYS}"})
            continue
        limit = S_q if name == "q" else min(S_k, S_q) if causal else S_k
        b, h, r = (int(torch.randint(n, (1,), generator=gen)) for n in (B, H, limit))
        t[b, h, r] = (torch.randn(D, generator=gen) * 4.0).to(device=t.device, dtype=t.dtype)
        after, _, _ = _call(kernel, q, k, v, causal)
        moved = slice(r, r + 1) if name == "q" else slice(r if causal else 0, S_q)
        region = (_bits(after[b, h, moved]) == _bits(before[b, h, moved]))
        rows.append({"tensor": name, "at": [b, h, r], "moved": region.numel(), "unchanged": int(region.sum())})
        before = after
    return rows


def concurrent_calls(kernel, first, second, causal):
    """Two calls on two streams at once, on different inputs: both streams wait for one event
    behind a spin, so the two kernels start together. Each output must be bit-identical to its
    eager output. A kernel sharing a static workspace (a scratch buffer, a tile counter) between
    calls mixes them. Both orders of launch, twice."""
    inputs = [first, [x.clone() for x in second]]
    expected = [_call(kernel, *qkv, causal)[0] for qkv in inputs]
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    mismatches, unwritten_n = [0, 0], [0, 0]
    for trial in range(4):
        gate = torch.cuda.Stream()
        go = torch.cuda.Event()
        with torch.cuda.stream(gate):
            torch.cuda._sleep(SPIN_CYCLES // 4)
            go.record(gate)
        outs = [poisoned_like(first[0]), poisoned_like(first[0])]
        order = (0, 1) if trial % 2 == 0 else (1, 0)
        for i in order:
            streams[i].wait_event(go)
            with torch.cuda.stream(streams[i]):
                kernel(*inputs[i], outs[i], causal=causal)
        torch.cuda.synchronize()
        for i in (0, 1):
            mismatches[i] += _mismatch(outs[i], expected[i])
            unwritten_n[i] += int(unwritten(outs[i]).sum())
    return {"mismatches": sum(mismatches), "unwritten": sum(unwritten_n), "trials": 4}


def other_problems_at_same_addresses(kernel, q, k, v, causal):
    """Each variant: a call for its seed problem (the shape itself, so that a plan keyed on these
    addresses is the shape's), then the variant on views that start at these addresses, then
    the variant on new copies of q, k and v at other addresses with the same strides, into another
    o viewed the same way and another lse (all held to the end, so no two variants share them).
    The seed call and the variant write o and lse at one pair of addresses too (o viewed as q
    is, lse contiguous from its start), so a plan keyed on every pointer of the call, outputs
    included, is keyed the same for both. The two answers must agree bit for bit, o and lse: the
    repeat check holds the kernel to determinism, and nothing else about the problem differs. o
    is then a view of a larger buffer, so a kernel that does not honour o's strides leaves part
    of it unwritten in both calls (counted apart).
    "other strides" seeds with the first half of the rows and asks for every other row: the same
    addresses and sizes, only the row strides differ. A cut needs something to cut: one batch,
    head or row is left whole."""
    B, H, S_q, _ = q.shape
    S_k = k.shape[2]
    cuts = [("fewer keys", 2, S_k, "kv"), ("fewer queries", 2, S_q, "q"),
            ("fewer heads", 1, H, "qkv"), ("fewer batches", 0, B, "qkv")]
    variants = [(name, _same, _narrowed(dim, n - max(1, n // 4), which), causal, None)
                for name, dim, n, which in cuts if n > 1]
    variants += [("the other mask", _same, _same, not causal, None),
                 ("another scale", _same, _same, causal, OTHER_SCALE * q.shape[-1] ** -0.5)]
    if min(S_q, S_k) > 1:
        variants.append(("other strides", _half_rows(1), _half_rows(2), causal, None))
    o_at, lse_at = poisoned_like(q), poisoned_lse(q)
    held, rows = [], []  # every "there" stays allocated, so each one's addresses have no history
    for name, seed, views, mask, scale in variants:
        _call_at(kernel, seed(q, k, v), seed(o_at, k, v)[0], lse_at, causal, None)
        o_here, lse_here = _call_at(kernel, views(q, k, v), views(o_at, k, v)[0], lse_at, mask, scale)
        q2, k2, v2 = (_copy(t) for t in (q, k, v))
        o2, lse2 = poisoned_like(q), poisoned_lse(q)
        held.append((q2, k2, v2, o2, lse2))
        o_there, lse_there = _call_at(kernel, views(q2, k2, v2), views(o2, k, v)[0], lse2, mask, scale)
        rows.append({"variant": name, "elements": o_here.numel(), "mismatches": _mismatch(o_here, o_there),
                     "lse_mismatches": _mismatch(lse_here, lse_there),
                     "unwritten": int(unwritten(o_here).sum()) + int(unwritten(o_there).sum())})
    return rows


def _copy(t):
    """t's contents at another address, with t's strides."""
    c = torch.empty_strided(t.size(), t.stride(), dtype=t.dtype, device=t.device)
    c.copy_(t)
    return c


def _call_at(kernel, qkv, o, lse_buffer, causal, scale):
    """A call into a given o (poisoned first) and into the start of lse_buffer (an lse of the
    call's own [B, H, S_q], contiguous, NaN first)."""
    q = qkv[0]
    lse = lse_buffer.view(-1)[:q.shape[0] * q.shape[1] * q.shape[2]].view(q.shape[:3])
    _bits(o).fill_(POISON[o.dtype])
    lse.fill_(float("nan"))
    kernel(*qkv, o, lse, scale=scale, causal=causal)
    torch.cuda.synchronize()
    return o, lse


def _same(q, k, v):
    return q, k, v


def _narrowed(dim, n, which):
    """The first n along dim of the tensors named in `which` (their start addresses kept)."""
    return lambda q, k, v: tuple(t.narrow(dim, 0, n) if name in which else t for name, t in zip("qkv", (q, k, v)))


def _half_rows(every):
    """Half as many rows as each tensor has, every `every`-th one, from the same start address."""
    def views(q, k, v):
        return tuple(t.as_strided((t.shape[0], t.shape[1], t.shape[2] // 2, t.shape[3]),
                                  (t.stride(0), t.stride(1), t.stride(2) * every, t.stride(3))) for t in (q, k, v))
    return views


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
        _bits(o_g).fill_(POISON[o_g.dtype])
        g.replay()
        torch.cuda.synchronize()
        expected, _, _ = _call(kernel, q, k, v, causal)
        return {"error": None, "unwritten": int(unwritten(o_g).sum()), "mismatches": _mismatch(o_g, expected)}
    except Exception as e:
        return {"error": error_line(e)}


def misaligned(kernel, shape, seed, k_factor):
    """Views that break the ABI's 16-byte row alignment: refused, or answered correctly."""
    rows = []
    q, k, v = make_qkv(shape, seed)
    B, H, S, D = q.shape
    variants = {
        "base 2 bytes off": lambda t: torch.empty(t.numel() + 8, dtype=t.dtype, device="cuda")[1:1 + t.numel()]
        .view(t.shape),
        "row stride D+4": lambda t: torch.empty(B, H, S, D + 4, dtype=t.dtype, device="cuda")[..., :D],
    }
    ref, _ = reference(q, k, v, D ** -0.5, shape["causal"])
    lib = sdpa_error_baseline(q, k, v, D ** -0.5, shape["causal"])
    tol = k_factor * float((lib.double() - ref).abs().max()) + 1e-7
    for name, make in variants.items():
        qm = make(q)
        qm.copy_(q)
        o = poisoned_like(q)
        try:
            kernel(qm, k, v, o, causal=shape["causal"])
            torch.cuda.synchronize()
        except KernelError as e:
            rows.append({"variant": name, "outcome": "refused", "error": str(e)})
            continue
        except Exception as e:
            rows.append({"variant": name, "outcome": "fault", "error": error_line(e)})
            break
        err = float((o.double() - ref).abs().nan_to_num(float("inf")).max())
        rows.append({"variant": name, "outcome": "computed", "err": err, "tol": tol})
    return rows


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
            return {"shapes": rows, "misaligned": [], "device_state_at_start": start}
    for i, row in enumerate(rows):
        row["figures"]["confinement"] = confinement.observe_once(kernel, row["shape"], seed=2500 + i)
    try:
        mis = misaligned(kernel, section["shapes"][0], 3000, MISALIGNED_K)
    except Exception as e:
        mis = [{"variant": "setup", "outcome": "fault", "error": error_line(e)}]
    return {"shapes": rows, "misaligned": mis, "device_state_at_start": start}
