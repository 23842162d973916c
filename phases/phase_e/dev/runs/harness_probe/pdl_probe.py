"""Device probe (not evidence), run from the repository root with PYTHONPATH=.: the PDL check on
phase_e's sanity child and at two timed sizes, then graph per-call timing open against held."""
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import torch

from ladder.gates.sanity import shape_problems
from ladder.gpu.inputs import make_qkv, poisoned_like
from ladder.gpu.kernel import Kernel
from ladder.gpu.pdl import Producer, launch_behind_producer
from ladder.layout import PACKAGE
from ladder.spec import load_spec
from ladder.toolchain.helpers import shared_library
from ladder.toolchain.ninja_build import artifacts, run_ninja
from ladder.watchdog import run_job

spec = load_spec(Path("phases/phase_e"))
prod = str(shared_library(PACKAGE / "gpu" / "producer.cu"))
cfgs = ["PINGPONG=0,SPLIT_KV=1", "PINGPONG=1,SPLIT_KV=0", "nopdl"]
with ThreadPoolExecutor(3) as ex:
    list(ex.map(lambda c: run_ninja(spec, spec.config(c), 900), cfgs))
for cfg in cfgs:
    out = run_job("sanity", {"section": spec.section("sanity"), "config": cfg, "lib": str(artifacts(spec, cfg)["lib"]),
                             "producer_lib": prod}, 300)
    for row in (out.result or {}).get("shapes", []):
        f = row.get("figures", {})
        print(cfg, row["shape"]["S_q"], row.get("error"), f.get("pdl_producer"), shape_problems(f) if f else "")
    if not out.result:
        print(cfg, "NO RESULT", out.output[-2000:])
producer = Producer(prod)
k = Kernel(artifacts(spec, cfgs[0])["lib"])
for shape in ({"B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False},
              {"B": 4, "H": 16, "S_q": 4096, "S_k": 4096, "D": 128, "dtype": "fp16", "causal": False}):
    q, kk, v = make_qkv(shape, 1)
    new = make_qkv(shape, 2)
    exp = poisoned_like(q)
    k(*new, exp)
    o = poisoned_like(q)
    launch_behind_producer(producer, (q, kk, v), new, lambda: k(q, kk, v, o))
    print("phase_e behind producer", shape["S_q"], shape["D"], int((o.view(torch.int16) != exp.view(torch.int16)).sum()))

# Graph per-call time at the seed: how much of the graph launch sits in the timed window?
import numpy as np
from ladder.gpu.timing import Blocker, graph_per_call_us
blocker = Blocker(shared_library(PACKAGE / "gpu" / "blocker.cu"), 200)
shape = {"B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}
q, kk, v = make_qkv(shape, 1)
o = torch.empty_like(q)
libs = {"phase_e": k, "nopdl": Kernel(artifacts(spec, "nopdl")["lib"])}


def held(g, calls, replays=5):
    ts = []
    for _ in range(replays):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        ep = blocker.hold()
        s.record()
        g.replay()
        e.record()
        blocker.release(ep)
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) * 1e3 / calls)
    return float(np.median(ts))


for name, kern in libs.items():
    for calls in (20, 200, 1000):
        for rep in range(3):
            t, g = graph_per_call_us(lambda: kern(q, kk, v, o), calls)
            print(f"graph {name} calls={calls}: open {t:.3f} us, held {held(g, calls):.3f} us")
            del g
