"""Before the gate runs: ladder/gpu/unsupported.py and the new queued order, on a stand-in kernel
(torch SDPA writing o and lse) that refuses what kernels/attn_abi.h's phases refuse, and on one
that answers everything, so both outcomes' code runs. Seconds, no build."""
import math
import sys

import torch
import torch.nn.functional as F

from ladder.gpu import queued, unsupported
from ladder.gpu.kernel import KernelError


class StandIn:
    def __init__(self, refuse):
        self.refuse = refuse

    codes = {torch.float16: 0, torch.bfloat16: 1}

    def __call__(self, q, k, v, o, lse=None, scale=None, causal=False, stream=None):
        D = q.shape[-1]
        scale = D ** -0.5 if scale is None else scale
        if self.refuse and (D not in (64, 128) or not scale > 0 or self.codes[q.dtype] not in (0, 1)
                            or any(t.data_ptr() % 16 or t.stride(2) % 8 for t in (q, k, v, o))):
            raise KernelError("attn_fwd returned CUDA error 1 (cudaErrorInvalidValue)")
        q, k, v = (t.clone(memory_format=torch.contiguous_format) for t in (q, k, v))  # cuBLAS: aligned
        s = torch.matmul(q.float(), k.float().transpose(-1, -2)) * scale
        if causal:
            s = s.masked_fill(~torch.ones(s.shape[-2:], dtype=torch.bool, device="cuda").tril(), -math.inf)
        o.copy_(torch.matmul(torch.softmax(s, -1), v.float()).to(o.dtype))
        if lse is not None:
            lse.copy_(torch.logsumexp(s, -1))
        return o


shape = {"B": 2, "H": 3, "S_q": 100, "S_k": 257, "D": 64, "dtype": "fp16", "causal": False}
for refuse in (True, False):
    rows = unsupported.observe(StandIn(refuse), dict(shape), 3000)
    for r in rows:
        print(refuse, r["variant"], r["outcome"], {k: r[k] for k in ("err", "tol", "lse_err", "lse_tol", "outside",
                                                                     "written") if k in r})
q, k, v = (torch.randn(2, 3, n, 64, device="cuda", dtype=torch.float16) for n in (100, 257, 257))
got = queued.queued_calls(StandIn(True), q, k, v, False)
print("queued", got["ran_ahead"], [(r["problem"], r["mismatches"], r["unwritten"]) for r in got["rows"]])
sys.exit(0 if all(got["ran_ahead"]) and not any(r["mismatches"] or r["unwritten"] for r in got["rows"]) else 1)
