"""Checks of calls that share something with other calls, observations only: two calls at once on
two streams, another problem at the addresses of earlier calls, and one row of the inputs
changed in place. The sanity gate runs them at every sanity shape (ladder/gpu/sanity.py); the
performance gate runs them again at each timed workload after its timing, when the kernel has
called that problem hundreds of times (ladder/gpu/performance.py), for a kernel that shares a
workspace, keys a plan on addresses or caches results only once a problem is hot."""
import torch

from .inputs import POISON, poisoned_like, poisoned_lse, unwritten

SINGLE_ROW_MAX_KEYS = 4096  # above, one key row's change can stay under the output's rounding (bf16, flat softmax)
SPIN_CYCLES = 40_000_000  # ~20 ms at H100 clocks: far longer than any host enqueue
OTHER_SCALE = 0.75        # the "another scale" variant's softmax scale, in units of D^-0.5


def bits(x):
    """x's elements as integers of their own width (fp16/bf16 outputs, fp32 log-sum-exp)."""
    return x.view({2: torch.int16, 4: torch.int32}[x.element_size()])


def mismatch(a, b):
    return int((bits(a) != bits(b)).sum())


def call(kernel, q, k, v, causal, lse=True, scale=None):
    """A call into a poisoned o (and lse): o, lse, and a copy of o taken right behind the call."""
    o = poisoned_like(q)
    l = poisoned_lse(q) if lse else None
    kernel(q, k, v, o, l, scale=scale, causal=causal)
    snapshot = o.clone()  # enqueued on the caller's stream right behind the kernel
    torch.cuda.synchronize()
    return o, l, snapshot


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
        after, _, _ = call(kernel, q, k, v, causal)
        moved = slice(r, r + 1) if name == "q" else slice(r if causal else 0, S_q)
        region = (bits(after[b, h, moved]) == bits(before[b, h, moved]))
        rows.append({"tensor": name, "at": [b, h, r], "moved": region.numel(), "unchanged": int(region.sum())})
        before = after
    return rows


def concurrent_calls(kernel, first, second, causal):
    """Two calls on two streams at once, on different inputs: both streams wait for one event
    behind a spin, so the two kernels start together. Each output must be bit-identical to its
    eager output. A kernel sharing a static workspace (a scratch buffer, a tile counter) between
    calls mixes them. Both orders of launch, twice."""
    inputs = [first, [x.clone() for x in second]]
    expected = [call(kernel, *qkv, causal)[0] for qkv in inputs]
    streams = [torch.cuda.Stream(), torch.cuda.Stream()]
    mismatches, unwritten_n = [0, 0], [0, 0]
    for trial in range(4):
        outs = [poisoned_like(first[0]), poisoned_like(first[0])]
        gate = torch.cuda.Stream()
        go = torch.cuda.Event()
        # The poison is written on the current stream: the gate waits for it, or a fill delayed
        # past the spin (the GPU time-sliced between processes) overwrites finished outputs.
        gate.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(gate):
            torch.cuda._sleep(SPIN_CYCLES // 4)
            go.record(gate)
        order = (0, 1) if trial % 2 == 0 else (1, 0)
        for i in order:
            streams[i].wait_event(go)
            with torch.cuda.stream(streams[i]):
                kernel(*inputs[i], outs[i], causal=causal)
        torch.cuda.synchronize()
        for i in (0, 1):
            mismatches[i] += mismatch(outs[i], expected[i])
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
    head or row is left whole. "the other dtype" reads the same bytes as the other 16-bit type,
    and "the other head dim" the same rows as D = 64 (twice the rows) or 128 (half of them):
    each poses the problem at the same addresses and sizes in bytes, so a plan (a chosen kernel,
    tensor maps) keyed on everything but the dtype or D is seen."""
    B, H, S_q, _ = q.shape
    S_k = k.shape[2]
    cuts = [("fewer keys", 2, S_k, "kv"), ("fewer queries", 2, S_q, "q"),
            ("fewer heads", 1, H, "qkv"), ("fewer batches", 0, B, "qkv")]
    variants = [(name, _same, _narrowed(dim, n - max(1, n // 4), which), causal, None)
                for name, dim, n, which in cuts if n > 1]
    variants += [("the other mask", _same, _same, not causal, None),
                 ("another scale", _same, _same, causal, OTHER_SCALE * q.shape[-1] ** -0.5),
                 ("the other dtype", _same, _other_dtype, causal, None)]
    if min(S_q, S_k) > 1:
        variants.append(("other strides", _half_rows(1), _half_rows(2), causal, None))
    if _head_dim_swappable(q, k, v):
        variants.append(("the other head dim", _same, _other_head_dim, causal, None))
    o_at, lse_at = poisoned_like(q), _lse_buffer(q)
    held, rows = [], []  # every "there" stays allocated, so each one's addresses have no history
    for name, seed, views, mask, scale in variants:
        _call_at(kernel, seed(q, k, v), seed(o_at, k, v)[0], lse_at, causal, None)
        o_here, lse_here = _call_at(kernel, views(q, k, v), views(o_at, k, v)[0], lse_at, mask, scale)
        q2, k2, v2 = (_copy(t) for t in (q, k, v))
        o2, lse2 = poisoned_like(q), _lse_buffer(q)
        held.append((q2, k2, v2, o2, lse2))
        o_there, lse_there = _call_at(kernel, views(q2, k2, v2), views(o2, k, v)[0], lse2, mask, scale)
        rows.append({"variant": name, "elements": o_here.numel(), "mismatches": mismatch(o_here, o_there),
                     "lse_mismatches": mismatch(lse_here, lse_there),
                     "unwritten": int(unwritten(o_here).sum()) + int(unwritten(o_there).sum())})
    return rows


def _lse_buffer(q):
    """NaN room for the log-sum-exp of any variant: twice q's rows (the other head dim, 128 -> 64)."""
    return torch.full((2 * q.shape[0] * q.shape[1] * q.shape[2],), float("nan"), device=q.device)


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
    bits(o).fill_(POISON[o.dtype])
    lse.fill_(float("nan"))
    kernel(*qkv, o, lse, scale=scale, causal=causal)
    torch.cuda.synchronize()
    return o, lse


def _same(q, k, v):
    return q, k, v


def _narrowed(dim, n, which):
    """The first n along dim of the tensors named in `which` (their start addresses kept)."""
    return lambda q, k, v: tuple(t.narrow(dim, 0, n) if name in which else t for name, t in zip("qkv", (q, k, v)))


OTHER_DTYPE = {torch.float16: torch.bfloat16, torch.bfloat16: torch.float16}


def _other_dtype(q, k, v):
    """The same bytes read as the other dtype. For the normal draws every value stays finite:
    fp16 bits read as bf16 lie below about 2 in magnitude, bf16 bits of values within 2^+-14 read
    as fp16 within about 2^+-4 (the exponent's top bits become fp16's exponent)."""
    return tuple(t.view(OTHER_DTYPE[t.dtype]) for t in (q, k, v))


def _head_dim_swappable(*ts):
    """Rows packed (row stride D, unit element stride) and, going from 64 to 128, an even number."""
    return all(t.stride(3) == 1 and t.stride(2) == t.shape[3] and (t.shape[3] == 128 or t.shape[2] % 2 == 0)
               for t in ts)


def _other_head_dim(q, k, v):
    """Each tensor's rows of D = 128 as twice the rows of 64, or pairs of rows of 64 as rows of 128."""
    def swap(t):
        d = 64 if t.shape[3] == 128 else 128
        rows = t.shape[2] * t.shape[3] // d
        return t.as_strided((t.shape[0], t.shape[1], rows, d), (t.stride(0), t.stride(1), d, 1))
    return tuple(swap(t) for t in (q, k, v))


def _half_rows(every):
    """Half as many rows as each tensor has, every `every`-th one, from the same start address."""
    def views(q, k, v):
        return tuple(t.as_strided((t.shape[0], t.shape[1], t.shape[2] // 2, t.shape[3]),
                                  (t.stride(0), t.stride(1), t.stride(2) * every, t.stride(3))) for t in (q, k, v))
    return views
