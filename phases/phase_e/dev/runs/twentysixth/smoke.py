"""Before the gate runs: the twenty-sixth session's new child code (ladder/gpu/threads.py, the
longer queue of ladder/gpu/queued.py) on a stand-in kernel (torch's attention in float32 writing o
and lse), and the threads check on a stand-in that keeps its call in one shared slot
between a host delay and the computation (host_race's defect), so both outcomes' code runs.
Seconds, no build. Exit 1 when the right stand-in is flagged or the racy one is not."""
import sys
import time

import torch

from ladder.gpu import queued, threads


class StandIn:
    """torch's float32 attention into o and lse, on the caller's thread's current stream."""
    codes = {torch.float16: 0, torch.bfloat16: 1}

    def __call__(self, q, k, v, o, lse=None, scale=None, causal=False, stream=None):
        with torch.cuda.stream(stream or torch.cuda.current_stream()):
            D = q.shape[-1]
            scale = D ** -0.5 if scale is None else scale
            s = torch.matmul(q.float(), k.float().transpose(-1, -2)) * scale
            if causal:
                keep = torch.ones(s.shape[-2:], dtype=torch.bool, device="cuda").tril()
                s = s.masked_fill(~keep, float("-inf"))
            o.copy_(torch.matmul(torch.softmax(s, -1), v.float()).to(o.dtype))
            if lse is not None:
                lse.copy_(torch.logsumexp(s, -1))


class Racy(StandIn):
    """The call's tensors kept in one slot shared by every thread, read back after a host delay."""
    slot = None

    def __call__(self, q, k, v, o, lse=None, scale=None, causal=False, stream=None):
        Racy.slot = (q, k, v, o, lse, scale, causal)
        time.sleep(20e-6)
        super().__call__(*Racy.slot, stream=stream)


q, k, v = (torch.randn(2, 3, n, 64, device="cuda", dtype=torch.float16) for n in (100, 257, 257))
got = queued.queued_calls(StandIn(), q, k, v, False)
print("queued", got["orders"], [(r["problem"], r["mismatches"], r["unwritten"]) for r in got["rows"]])
ok = (all(o["rings_mixed"] >= 18 for o in got["orders"]) and got["orders"][0]["calls"] >= 130
      and not any(r["mismatches"] or r["unwritten"] for r in got["rows"]))
for kernel, racy in ((StandIn(), False), (Racy(), True)):
    t0 = time.time()
    rows = threads.threaded_calls(kernel, q, k, v, False)["rows"]
    flagged = any(r["error"] or r["mismatches"] or r["lse_mismatches"] or r["unwritten"] for r in rows)
    print("threads", type(kernel).__name__, f"{time.time() - t0:.2f} s", rows)
    ok = ok and flagged == racy
big = [torch.randn(4, 16, 4096, 128, device="cuda", dtype=torch.float16) for _ in range(3)]
t0 = time.time()
got = queued.queued_calls(StandIn(), *big, True)
print("queued at (4,16,4096,128)", got["orders"], f"{time.time() - t0:.2f} s",
      f"peak {torch.cuda.max_memory_allocated() / 2**30:.1f} GiB")
ok = ok and all(o["rings_mixed"] >= 18 for o in got["orders"])
sys.exit(0 if ok else 1)
