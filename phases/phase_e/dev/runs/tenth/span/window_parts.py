"""Tenth session: what fills the performance gate's event window, per kernel, from CUPTI.

Each sample as the gate takes it: an L2 flush (a fill of twice the L2), a spin
kernel (torch.cuda._sleep) that holds the stream while the host enqueues, the start event, the
call, the end event. torch.profiler (CUPTI activity records: the GPU's own start and end of every
kernel and memset) runs around all samples. Per callable and shape, medians over samples, in us:
  window     the event window;
  lead       the spin kernel's end -> the call's first GPU operation's start;
  ops        the call's GPU operations (kernels, memsets) and each one's duration;
  busy       the call's first operation's start -> its last operation's end;
  rest       window - lead - busy (the end event's share, and the start event's lag behind the spin).
Callables: a one-element add (the floor of any launch), phase_e (dev/.build/e.so), SDPA's cuDNN
and flash backends.

    python3 phases/phase_e/dev/runs/tenth/span/window_parts.py --lib e [--rounds 200]
"""
import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import check  # noqa: E402  (the ctypes ABI mirror)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default="e")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--shapes", default="1,8,512,64;16,16,512,64")
    ap.add_argument("--spin-us", type=float, default=200.0)
    a = ap.parse_args()
    lib = check.Lib(a.lib)
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(2 * l2, dtype=torch.uint8, device="cuda")
    spin_cycles = int(a.spin_us * 1e-6 * torch.cuda.get_device_properties(0).clock_rate * 1e3)
    for shape in a.shapes.split(";"):
        B, H, S, D = map(int, shape.split(","))
        g = torch.Generator(device="cuda").manual_seed(0)
        q, k, v = (torch.randn(B, H, S, D, device="cuda", generator=g, dtype=torch.float16) for _ in range(3))
        o = torch.empty_like(q)
        lse = torch.empty(B, H, S, device="cuda", dtype=torch.float32)
        tiny = torch.zeros(1, device="cuda")
        calls = {
            "add1": lambda: tiny.add_(1.0),
            "phase_e": lambda: lib(q, k, v, o, lse),
            "cudnn": lambda: _sdpa(SDPBackend.CUDNN_ATTENTION, q, k, v),
            "flash": lambda: _sdpa(SDPBackend.FLASH_ATTENTION, q, k, v),
        }
        for f in calls.values():
            for _ in range(5):
                f()
        torch.cuda.synchronize()
        windows = {n: [] for n in calls}
        trace = Path(tempfile.mkdtemp()) / "trace.json"
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
            for r in range(a.rounds):
                for n, f in calls.items():
                    flush.fill_(r % 251)
                    torch.cuda._sleep(spin_cycles)
                    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                    e0.record()
                    f()
                    e1.record()
                    torch.cuda.synchronize()
                    windows[n].append(e0.elapsed_time(e1) * 1e3)
        prof.export_chrome_trace(str(trace))
        ev = json.loads(trace.read_text())["traceEvents"]
        ops = sorted((e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memset", "gpu_memcpy")),
                     key=lambda e: e["ts"])
        # Split the GPU timeline into samples: fill kernel, spin kernel, then the call's ops.
        samples, cur = [], None
        for e in ops:
            nm = e["name"]
            if "spin" in nm.lower() or "sleep" in nm.lower():
                cur = {"spin_end": e["ts"] + e["dur"], "ops": []}
                samples.append(cur)
            elif "fill" in nm.lower() and "elementwise" in nm.lower() and e["dur"] > 20:
                cur = None  # the flush (the one-element add is under 20 us)
            elif cur is not None:
                cur["ops"].append(e)
        names = list(calls)
        per = {n: [] for n in names}
        for i, smp in enumerate(samples):
            per[names[i % len(names)]].append(smp)
        print(f"({B},{H},{S},{D}) fp16, {a.rounds} samples per callable; medians, us", flush=True)
        print("callable  window   lead    busy    rest   ops (name: median duration)")
        for n in names:
            sm = [s for s in per[n] if s["ops"]]
            lead = [s["ops"][0]["ts"] - s["spin_end"] for s in sm]
            busy = [s["ops"][-1]["ts"] + s["ops"][-1]["dur"] - s["ops"][0]["ts"] for s in sm]
            w = windows[n][:len(sm)]
            rest = [wi - li - bi for wi, li, bi in zip(w, lead, busy)]
            kinds = {}
            for s in sm:
                for e in s["ops"]:
                    kinds.setdefault(e["name"][:60], []).append(e["dur"])
            desc = "; ".join(f"{k}: {statistics.median(v):.2f} (x{len(v) / len(sm):.0f})" for k, v in kinds.items())
            med = statistics.median
            print(f"{n:8s} {med(windows[n]):7.2f} {med(lead):7.2f} {med(busy):7.2f} {med(rest):7.2f}   {desc}", flush=True)


def _sdpa(backend, q, k, v):
    with sdpa_kernel([backend]):
        return F.scaled_dot_product_attention(q, k, v)


if __name__ == "__main__":
    main()
