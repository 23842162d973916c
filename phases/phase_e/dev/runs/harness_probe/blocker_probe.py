"""Device probe: does the blocking kernel hold the stream? And graph per-call timing variants."""
import time

import numpy as np
import torch

from ladder.gpu.inputs import make_qkv
from ladder.gpu.kernel import Kernel
from ladder.gpu.timing import Blocker, graph_per_call_us
from ladder.layout import PACKAGE
from ladder.spec import load_spec
from ladder.toolchain.helpers import shared_library
from ladder.toolchain.ninja_build import artifacts, run_ninja

lib = shared_library(PACKAGE / "gpu" / "blocker.cu")
b = Blocker(lib, 2000)
x = torch.zeros(1, device="cuda")
torch.cuda.synchronize()
for trial in range(4):
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    ep = b.hold()
    x.add_(1)
    e1.record()
    t0 = time.perf_counter()
    time.sleep(0.2)
    q1 = e1.query()
    b.release(ep)
    torch.cuda.synchronize()
    print(f"trial {trial}: epoch {ep} done after 200 ms sleep: {q1}; held {e0.elapsed_time(e1):.1f} ms; "
          f"timed_out {b.timed_out(ep)}; host {1e3 * (time.perf_counter() - t0):.0f} ms", flush=True)

spec = load_spec("phases/phase_e")
cfgs = ["PINGPONG=0,SPLIT_KV=0", "nopdl"]
for c in cfgs:
    run_ninja(spec, spec.config(c), 900)
shape = {"B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}
q, k, v = make_qkv(shape, 1)
o = torch.empty_like(q)
bt = Blocker(lib, 50)


def held(g, calls, replays=5):
    ts = []
    for _ in range(replays):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        ep = bt.hold()
        s.record()
        g.replay()
        e.record()
        bt.release(ep)
        torch.cuda.synchronize()
        ts.append((s.elapsed_time(e) * 1e3 / calls, bt.timed_out(ep)))
    return float(np.median([t for t, _ in ts])), sum(o for _, o in ts)


from ladder.gpu.reference import sdpa
fns = {c: (lambda kern: lambda: kern(q, k, v, o))(Kernel(artifacts(spec, c)["lib"])) for c in cfgs}
fns["sdpa_cudnn"] = lambda: sdpa(q, k, v, 0.125, False, backend="sdpa_cudnn")
for rep in range(2):
    for name, f in fns.items():
        for calls in (20, 200):
            t, g = graph_per_call_us(f, calls)
            h, outs = held(g, calls)
            print(f"graph {name} calls={calls}: open {t:.3f} us, held {h:.3f} us (holds timed out: {outs})", flush=True)
            del g
