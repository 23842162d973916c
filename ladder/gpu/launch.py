"""Child side of the launch gate: every launch shape once, synchronised, errors caught. Returns
one row per shape: ok, or the error; a fault stops the list (the context is gone)."""
import time

import torch

from .inputs import make_qkv, poisoned_like, poisoned_lse
from .kernel import Kernel, error_line


def run(orders):
    kernel = Kernel(orders["lib"])
    rows = []
    for i, shape in enumerate(orders["section"]["shapes"]):
        t0 = time.perf_counter()
        try:
            q, k, v = make_qkv(shape, seed=1000 + i)
            o, lse = poisoned_like(q), poisoned_lse(q)
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            kernel(q, k, v, o, lse, causal=shape["causal"])
            torch.cuda.synchronize()
        except Exception as e:  # a fault leaves the context unusable: stop here, report it
            rows.append({"shape": shape, "ok": False, "error": error_line(e)})
            break
        rows.append({"shape": shape, "ok": True, "wall_ms": round((time.perf_counter() - t0) * 1e3, 3)})
        del q, k, v, o, lse
    return {"shapes": rows}
