"""Attention inputs for the GPU gates: seeded values from named distributions, placed in the
layouts a kernel must accept, with output buffers that show what a kernel wrote.

Distributions (phases/floor.yaml names them and sets their parameters):
  normal        q, k, v ~ N(0, std^2)
  large_logits  q, k ~ N(0, std^2): scaled logits of a few hundred, so exp without the running
                max overflows fp32
  sink          one shared direction u added to q, and key 0 = u scaled so its logit is about
                `strength` in every row: one key dominates
  all_negative  the same direction subtracted from every key: every logit near -strength
  v_offset      V = N(0, 1) + offset
  heavy_tail    q, k, v Student-t with df degrees of freedom (clipped to +-1000)
  wide_range    V ~ N(0, 1) x 3e5, beyond fp16's range (bf16 only)
Layouts: contiguous [B,H,S,D]; bshd ([B,S,H,D] storage); padded (a view into a larger buffer,
16-byte aligned, whose padding holds NaN for inputs and a sentinel for o); huge_batch_stride,
huge_head_stride, huge_seq_stride (views of one buffer whose batch, head or row stride is above
2^31 elements, so 32-bit arithmetic on any one term of a row offset wraps)."""
import math

import torch

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
# NaN bit patterns with recognisable payloads: poison (o before the call), sentinel (o's
# padding, which must survive), pad (inputs' padding, which must not leak into o).
POISON = {torch.float16: 0x7E01, torch.bfloat16: 0x7F81}
SENTINEL = {torch.float16: 0x7E5A, torch.bfloat16: 0x7FA5}
PAD = {torch.float16: 0x7E00, torch.bfloat16: 0x7FC0}
HUGE_STRIDE = 2**31 + 64


def values(shape, dist, scale, seed, device="cuda"):
    """fp32 q, k, v, contiguous [B, H, S, D], from the named distribution."""
    g = torch.Generator(device=device).manual_seed(seed)
    B, H, Sq, Sk, D = shape["B"], shape["H"], shape["S_q"], shape["S_k"], shape["D"]

    def n(S, std=1.0):
        return torch.randn(B, H, S, D, generator=g, device=device) * std

    kind = dist["name"]
    if kind in ("normal", "large_logits"):
        std = dist.get("std", 1.0)
        return n(Sq, std), n(Sk, std), n(Sk, 1.0 if kind == "large_logits" else std)
    if kind in ("sink", "all_negative"):
        u = torch.randn(B, H, 1, D, generator=g, device=device)
        u = u / u.norm(dim=-1, keepdim=True) * D ** 0.5          # |u|^2 = D
        q, k, v = n(Sq) + u, n(Sk), n(Sk)
        push = u * dist["strength"] / (scale * D)                 # scale * (u . push) = strength
        if kind == "sink":
            k[:, :, :1] = push
        else:
            k = k - push
        return q, k, v
    if kind == "v_offset":
        return n(Sq), n(Sk), n(Sk) + dist["offset"]
    if kind == "heavy_tail":
        df = max(1, round(dist["df"]))

        def t(S):
            chi2 = sum(n(S) ** 2 for _ in range(df))
            return (n(S) / (chi2 / df).sqrt()).clamp(-1000, 1000)
        return t(Sq), t(Sk), t(Sk)
    if kind == "wide_range":
        return n(Sq), n(Sk), n(Sk) * 3e5
    raise ValueError(f"unknown value distribution {kind!r}")


class Placed:
    """A [B, H, S, D] view in one of the layouts, and the buffer it lives in."""

    def __init__(self, view, buf, inside):
        self.view, self.buf, self.inside = view, buf, inside   # inside: bool mask over buf, or None

    def outside_changed(self, fill):
        """Elements of the buffer outside the view that no longer hold `fill` bits."""
        if self.inside is None:
            return 0
        bits = self.buf.view(torch.int16)
        return int((bits[~self.inside] != fill).sum())


def place(x, layout, dtype, fill):
    """x: fp32 [B, H, S, D] (or None: leave the view uninitialised). fill: bits for padding."""
    B, H, S, D = x.shape if x is not None else layout[1]
    layout = layout if isinstance(layout, str) else layout[0]
    if layout == "contiguous":
        buf = torch.empty(B, H, S, D, dtype=dtype, device="cuda")
        view, inside = buf, None
    elif layout == "bshd":
        buf = torch.empty(B, S, H, D, dtype=dtype, device="cuda")
        view, inside = buf.transpose(1, 2), None
    elif layout == "padded":
        buf = torch.empty(B, H + 1, S + 3, D + 16, dtype=dtype, device="cuda")
        buf.view(torch.int16).fill_(fill)
        view = buf[:, 1:, 2:2 + S, 8:8 + D]
        inside = torch.zeros(buf.shape, dtype=torch.bool, device="cuda")
        inside[:, 1:, 2:2 + S, 8:8 + D] = True
    else:
        raise ValueError(f"unknown layout {layout!r}")
    if x is not None:
        view.copy_(x)
    return Placed(view, buf, inside)


HUGE_DIMS = {"batch": 0, "head": 1, "seq": 2}


def place_huge(xs, dtype, dim):
    """q, k, v, o as views of one buffer whose stride along `dim` (batch, head or seq) is
    HUGE_STRIDE elements: the second index along it lies more than 2^31 elements past the first.
    The dims outside `dim` are packed inside each tensor's region. xs: fp32 q, k, v (o None)."""
    axis = HUGE_DIMS[dim]
    shapes = [tuple(x.shape) for x in xs[:3]] + [tuple(xs[0].shape)]
    if any(n != 1 for s in shapes for n in s[:axis]):
        raise ValueError(f"a huge {dim} stride needs size 1 in every dimension before it: {shapes[0]}")
    inner = [math.prod(s[axis + 1:]) for s in shapes]
    regions = [((n + 63) // 64) * 64 for n in inner]
    offsets = [sum(regions[:i]) for i in range(4)]
    buf = torch.empty(HUGE_STRIDE * (max(s[axis] for s in shapes) - 1) + sum(regions), dtype=dtype,
                      device="cuda")
    out = []
    for shape, off, n, x in zip(shapes, offsets, inner, list(xs[:3]) + [None]):
        strides = [0, 0, 0, 1]
        for a in (2, 1, 0):
            strides[a] = HUGE_STRIDE if a == axis else strides[a + 1] * shape[a + 1]
        view = torch.as_strided(buf, shape, tuple(strides), off)
        if x is not None:
            view.copy_(x)
        out.append(Placed(view, buf, None))
    return out


def make_case(shape, dist, layouts, scale, seed):
    """Placed q, k, v and a poisoned o for one trial."""
    dtype = DTYPES[shape["dtype"]]
    xq, xk, xv = values(shape, dist, scale, seed)
    if layouts["q"].startswith("huge_"):
        q, k, v, o = place_huge((xq, xk, xv), dtype, layouts["q"].split("_")[1])
        o.view.view(torch.int16).fill_(POISON[dtype])
        return q, k, v, o
    q, k, v = (place(x, layouts[n], dtype, PAD[dtype]) for n, x in zip("qkv", (xq, xk, xv)))
    o = place(None, (layouts["o"], tuple(xq.shape)), dtype, SENTINEL[dtype])
    o.view.view(torch.int16).fill_(POISON[dtype])  # a same-size dtype view works on strided views too
    return q, k, v, o


def poisoned_like(q):
    """A contiguous output buffer of q's shape filled with the poison NaN pattern."""
    o = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    o.view(torch.int16).fill_(POISON[q.dtype])
    return o


def poisoned_lse(q):
    B, H, S, _ = q.shape
    return torch.full((B, H, S), float("nan"), device=q.device, dtype=torch.float32)


def unwritten(o):
    """Boolean mask of elements still holding the poison pattern."""
    return o.view(torch.int16) == POISON[o.dtype]


def make_qkv(shape, seed, *, layout="contiguous", std=1.0):
    """Plain normal q, k, v in one layout: the launch, sanity and performance gates' inputs."""
    dtype = DTYPES[shape["dtype"]]
    xs = values(shape, {"name": "normal", "std": std}, shape["D"] ** -0.5, seed)
    return tuple(place(x, layout, dtype, PAD[dtype]).view for x in xs)
