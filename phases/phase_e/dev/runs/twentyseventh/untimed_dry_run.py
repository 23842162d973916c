"""Dry run of untimed_values.patch's GPU side, with the patch applied to the tree sent; it records
no evidence. At (8,16,2048,64), causal and not, timed in fp16 contiguous: the untimed checks of a
correct library (phase_e) and of the control lossy_bf16_at_scale, judged by the patch's rule,
then the time of one float64 reference at (4,16,4096,128), the cost the patch's notes estimate.
    python3 untimed_dry_run.py PHASE_E_LIB CONTROL_LIB"""
import sys
import time

import torch

from ladder.gates.performance import untimed_problems
from ladder.gpu.kernel import Kernel
from ladder.gpu.performance import untimed_checks
from ladder.gpu.reference import reference
from ladder.untimed import problems

TIMING = {"recheck_k": 2.0}
WORKLOADS = [{"B": 8, "H": 16, "S_q": 2048, "S_k": 2048, "D": 64, "dtype": "fp16", "causal": c} for c in (False, True)]

for name, lib in (("phase_e", sys.argv[1]), ("lossy_bf16_at_scale", sys.argv[2])):
    kernel = Kernel(lib)
    t0 = time.perf_counter()
    rows = [r for i, p in enumerate(problems(WORKLOADS)) for r in untimed_checks(kernel, p, 1000 + 2 * i)]
    print(f"{name}: {len(rows)} checks in {time.perf_counter() - t0:.1f} s", flush=True)
    for r in rows:
        what = r.get("refused") or f"err {r['err']:.3g}, sdpa {r['err_sdpa']:.3g}, round {r['err_round']:.3g}"
        print(f"  {r['dtype']} {'causal' if r['causal'] else 'full'} {r['layout']}: {what}")
    for p in untimed_problems(rows, name, TIMING):
        print("  PROBLEM", p)
x = torch.randn(4, 16, 4096, 128, device="cuda")
for _ in range(2):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    reference(x, x, x, 128 ** -0.5, False)
    torch.cuda.synchronize()
    print(f"float64 reference at (4,16,4096,128): {time.perf_counter() - t0:.1f} s", flush=True)
