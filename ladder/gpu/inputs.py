"""Seeded random attention inputs for a shape, in the layouts a kernel must accept."""
import torch

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
POISON = {torch.float16: 0x7E01, torch.bfloat16: 0x7F81}  # quiet NaNs with a recognisable payload


def make_qkv(shape, seed, *, layout="bhsd", scale=1.0, device="cuda"):
    """q, k, v as [B, H, S, D] views. layout "bshd" stores them as [B, S, H, D] (the layout
    of most models) so head and row strides differ from the contiguous case."""
    g = torch.Generator(device=device).manual_seed(seed)
    dtype = DTYPES[shape["dtype"]]
    B, H, Sq, Sk, D = shape["B"], shape["H"], shape["S_q"], shape["S_k"], shape["D"]

    def one(S):
        if layout == "bshd":
            t = torch.randn(B, S, H, D, generator=g, device=device, dtype=torch.float32) * scale
            return t.to(dtype).transpose(1, 2)
        t = torch.randn(B, H, S, D, generator=g, device=device, dtype=torch.float32) * scale
        return t.to(dtype)

    return one(Sq), one(Sk), one(Sk)


def poisoned_like(q):
    """An output buffer of q's shape filled with a NaN bit pattern no kernel computes by accident."""
    o = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    o.view(torch.int16).fill_(POISON[q.dtype])
    return o


def poisoned_lse(q):
    B, H, S, _ = q.shape
    return torch.full((B, H, S), float("nan"), device=q.device, dtype=torch.float32)


def unwritten(o):
    """Boolean mask of elements still holding the poison pattern."""
    return o.view(torch.int16) == POISON[o.dtype]
