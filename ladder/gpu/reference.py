"""The float64 reference and torch's SDPA in the same low precision as the kernel."""
import contextlib

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = {
    "sdpa_flash": SDPBackend.FLASH_ATTENTION,
    "sdpa_cudnn": SDPBackend.CUDNN_ATTENTION,
    "sdpa_efficient": SDPBackend.EFFICIENT_ATTENTION,
    "sdpa_math": SDPBackend.MATH,
}


def causal_mask(S_q, S_k, device):
    """Top-left aligned, as torch's is_causal: query i sees keys j <= i."""
    return torch.ones(S_q, S_k, dtype=torch.bool, device=device).tril()


def reference(q, k, v, scale, causal):
    """(o, lse) in float64; chunked over batch*heads so large shapes fit in memory."""
    B, H, S_q, D = q.shape
    S_k = k.shape[2]
    q64, k64, v64 = (t.double().reshape(B * H, -1, D) for t in (q, k, v))
    o = torch.empty(B * H, S_q, D, dtype=torch.float64, device=q.device)
    lse = torch.empty(B * H, S_q, dtype=torch.float64, device=q.device)
    # 2^26 scores per chunk: 512 MB per float64 temporary, about 2 GB at the peak of one process,
    # so that a dozen gate processes side by side fit in an H100's memory (at 2^28 each held
    # ~8 GB, and `make evidence`'s correctness of five phases at once ran out of memory).
    chunk = max(1, int(2**26 // max(1, S_q * S_k)))
    mask = causal_mask(S_q, S_k, q.device) if causal else None
    for i in range(0, B * H, chunk):
        s = torch.matmul(q64[i:i + chunk], k64[i:i + chunk].transpose(1, 2)) * scale
        if mask is not None:
            s = s.masked_fill(~mask, float("-inf"))
        lse[i:i + chunk] = torch.logsumexp(s, dim=-1)
        o[i:i + chunk] = torch.matmul(torch.softmax(s, dim=-1), v64[i:i + chunk])
    return o.reshape(B, H, S_q, D), lse.reshape(B, H, S_q)


def sdpa(q, k, v, scale, causal, backend=None):
    """torch SDPA; backend None lets torch's dispatch choose, as a user's call would."""
    ctx = sdpa_kernel([BACKENDS[backend]]) if backend else contextlib.nullcontext()
    with ctx:
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)


def sdpa_error_baseline(q, k, v, scale, causal):
    """SDPA in the inputs' precision, as the yardstick of achievable error: the flash backend
    (FlashAttention-2: fp32 accumulation, online softmax, no per-shape planning, so thousands of
    distinct shapes cost nothing extra), else the efficient one, else math (where no fused
    backend takes the inputs, e.g. very large grids)."""
    for backend in ("sdpa_flash", "sdpa_efficient", "sdpa_math"):
        try:
            return sdpa(q, k, v, scale, causal, backend=backend)
        except RuntimeError:
            continue
    raise RuntimeError("no SDPA backend accepts these inputs")


def default_backend(q, k, v, scale, causal):
    """Which backend torch's default dispatch ran for these inputs, read off the names of the
    CUDA kernels the call launched (torch exposes no stable API for its choice)."""
    from torch.profiler import ProfilerActivity, profile
    sdpa(q, k, v, scale, causal)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        sdpa(q, k, v, scale, causal)
        torch.cuda.synchronize()
    names = sorted({e.name for e in prof.events() if e.device_type.name == "CUDA"})
    joined = " ".join(names).lower()
    if "flash" in joined and "cudnn" not in joined:
        choice = "sdpa_flash"
    elif "cudnn" in joined or "fort_native" in joined:
        choice = "sdpa_cudnn"
    elif "fmha" in joined or "cutlass" in joined or "efficient" in joined:
        choice = "sdpa_efficient"
    else:
        choice = "sdpa_math"
    return {"backend": choice, "kernels": names[:8]}
