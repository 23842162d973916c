"""Calls outside what every phase supports, observations only (the sanity gate judges them:
ladder/gates/sanity.py). kernels/attn_abi.h lets a kernel refuse anything it does not support
(attn_fwd returns an error and launches nothing) and forbids answering it wrongly instead. Until
the twenty-fifth session only misaligned views were tried, so a kernel that took a head dim of 96
down its D=128 path (reading past each row, writing past it), or read an unknown dtype code as
bf16, or got a scale of zero or below wrong, passed every gate: every other check stays inside
D in {64, 128}, the two dtypes and scales above zero.

Method: on each of the first two sanity shapes, one call per variant, inputs drawn N(0, 1):
- views whose rows are not 16-byte aligned (q 2 bytes off; q's row stride D+4);
- head dims other than 64 and 128 (HEAD_DIMS), q, k and v in views whose padding (8 columns
  after every row among it) holds NaN, so a kernel that reads past D gets NaN;
- softmax scales of zero (every visible key weighs the same) and below zero;
- K and V shared by every head through a head stride of zero (a broadcast view, as a user's
  expand() makes for multi-query attention);
- a dtype code the ABI does not define (no answer is right: it must be refused).
o is a view whose padding holds a sentinel, poisoned inside. Recorded per variant: refused
(with the error and how many elements of o it wrote all the same), a fault (the loop stops:
the context is lost), or computed, with the output's and the log-sum-exp's error against the
float64 reference, their tolerances, and how much of o's padding changed."""
import contextlib

import torch

from .inputs import DTYPES, PAD, POISON, SENTINEL, place, unwritten, values
from .kernel import KernelError, error_line
from .reference import reference, sdpa, sdpa_error_baseline

HEAD_DIMS = (16, 32, 80, 96, 192, 256)
K_FACTOR = 2.0            # output error <= 2x SDPA's, as the floor's correctness k
LSE_ATOL, LSE_RTOL = 1e-3, 1e-4  # as the floor's correctness lse_atol and lse_rtol
UNDEFINED_DTYPE = 2       # kernels/attn_abi.h defines 0 (fp16) and 1 (bf16)


def _draw(shape, seed):
    return values(shape, {"name": "normal", "std": 1.0}, shape["D"] ** -0.5, seed)


def _variants(shape, seed):
    """(name, shape, q, k, v as [B,H,S,D] views, scale, dtype code or None, must_refuse)."""
    dtype = DTYPES[shape["dtype"]]
    B, H, S_q, S_k, D = (shape[n] for n in ("B", "H", "S_q", "S_k", "D"))
    xq, xk, xv = _draw(shape, seed)
    q, k, v = (place(x, "contiguous", dtype, PAD[dtype]).view for x in (xq, xk, xv))
    out = []

    def misaligned_base(t):
        return torch.empty(t.numel() + 8, dtype=t.dtype, device="cuda")[1:1 + t.numel()].view(t.shape)

    def row_stride_plus4(t):
        return torch.empty(B, H, S_q, D + 4, dtype=t.dtype, device="cuda")[..., :D]

    for name, make in (("q's base 2 bytes off", misaligned_base), ("q's row stride D+4", row_stride_plus4)):
        qm = make(q)
        qm.copy_(q)
        out.append((name, shape, qm, k, v, None, None, False))
    for d in HEAD_DIMS:
        if d == D:
            continue
        other = dict(shape, D=d)
        xs = _draw(other, seed + d)
        qd, kd, vd = (place(x, "padded", dtype, PAD[dtype]).view for x in xs)
        out.append((f"head dim {d}", other, qd, kd, vd, None, None, False))
    out.append(("softmax scale 0", shape, q, k, v, 0.0, None, False))
    out.append(("softmax scale -1/sqrt(D)", shape, q, k, v, -D ** -0.5, None, False))
    shared = [place(x[:, :1].contiguous(), "contiguous", dtype, PAD[dtype]).view.expand(B, H, S_k, D)
              for x in (xk, xv)]
    out.append(("K and V shared by every head (head stride 0)", shape, q, shared[0], shared[1], None, None, False))
    out.append((f"dtype code {UNDEFINED_DTYPE}", shape, q, k, v, None, UNDEFINED_DTYPE, True))
    return out


@contextlib.contextmanager
def _dtype_code(kernel, dtype, code):
    """The kernel's calls pass `code` for q's dtype meanwhile (None: the ABI's own code). Done on the
    instance's map rather than by a parameter of ladder/gpu/kernel.py, whose digest every gate's
    evidence records: changing it would stale every phase's performance records on both machines."""
    if code is None:
        yield
        return
    saved = dict(kernel.codes)
    kernel.codes[dtype] = code
    try:
        yield
    finally:
        kernel.codes.clear()
        kernel.codes.update(saved)


def _yardstick(q, k, v, scale, causal):
    """SDPA in the inputs' precision, as the correctness gate's yardstick; its math backend where
    the fused one gives non-finite output (on the H200, a scale of zero or below read as NaN)."""
    lib = sdpa_error_baseline(q, k, v, scale, causal)
    if not bool(torch.isfinite(lib).all()):
        lib = sdpa(q, k, v, scale, causal, backend="sdpa_math")
    return lib


def observe(kernel, shape, seed):
    """Rows in call order; a fault ends them (the context is lost)."""
    rows = []
    for name, sh, q, k, v, scale, code, must_refuse in _variants(shape, seed):
        dtype = q.dtype
        o = place(None, ("padded", tuple(q.shape)), dtype, SENTINEL[dtype])
        o.view.view(torch.int16).fill_(POISON[dtype])
        lse = torch.full(q.shape[:3], float("nan"), device="cuda", dtype=torch.float32)
        row = {"variant": name, "shape": sh, "must_refuse": must_refuse}
        try:
            with _dtype_code(kernel, dtype, code):
                kernel(q, k, v, o.view, lse, scale=scale, causal=sh["causal"])
            torch.cuda.synchronize()
        except KernelError as e:
            torch.cuda.synchronize()  # whatever it launched before refusing has run
            written = o.view.numel() - int(unwritten(o.view).sum())
            rows.append(dict(row, outcome="refused", error=str(e), written=written,
                             outside=o.outside_changed(SENTINEL[dtype])))
            continue
        except Exception as e:
            rows.append(dict(row, outcome="fault", error=error_line(e)))
            break
        s = sh["D"] ** -0.5 if scale is None else scale
        # On aligned, dense copies: SDPA's fused kernels fault on a misaligned view themselves.
        qa, ka, va = (t.clone(memory_format=torch.contiguous_format) for t in (q, k, v))
        ref, ref_lse = reference(qa, ka, va, s, sh["causal"])
        lib = _yardstick(qa, ka, va, s, sh["causal"])
        err = float((o.view.double() - ref).abs().nan_to_num(float("inf")).max())
        lse_err = float((lse.double() - ref_lse).abs().nan_to_num(float("inf")).max())
        rows.append(dict(row, outcome="computed", err=err,
                         tol=K_FACTOR * float((lib.double() - ref).abs().max()) + 1e-7,
                         lse_err=lse_err, lse_tol=LSE_ATOL + LSE_RTOL * float(ref_lse.abs().max()),
                         outside=o.outside_changed(SENTINEL[dtype])))
    return rows
