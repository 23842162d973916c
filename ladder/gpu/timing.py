"""How the performance gate times kernels on the GPU.

- CUDA events around each call, on torch's current stream.
- Before every timed call, outside the timed window, L2 is flushed by writing a buffer twice
  its size, then the stream is held by a spin kernel (torch.cuda._sleep, hold_us long) while the
  host enqueues the start event and the call: the GPU reaches the window with the call already
  queued, so host launch cost (tens of us for an SDPA call) does not leak into the window.
- Warm-up by time, every kernel in turn.
- Candidates and baselines are interleaved round by round (order rotating each round), so drift
  in clocks or temperature lands on all of them alike.
- Inputs rotate over several sets; after each full rotation every set is refilled in place
  with fresh random values (same addresses, new contents: a kernel that caches by address is
  caught by the re-check); every few rounds the candidate's output is re-checked against SDPA.
- Stopping on noise: every kernel has at least min_samples, and the relative standard error of
  each median is under rel_noise; or max_samples, or max_time_s.
- The SM clock is read (NVML) before, after, and once per round; samples from rounds where it
  was under 90% of its maximum are flagged.
- For short kernels, CUDA-graph replay as well: graph_calls calls captured in one graph, replay
  time / graph_calls, so per-call host cost does not hide the kernel."""
import time

import numpy as np
import torch

from ..stats import rel_noise


class Clock:
    def __init__(self):
        try:
            import pynvml
            pynvml.nvmlInit()
            self._nvml, self._h = pynvml, pynvml.nvmlDeviceGetHandleByIndex(0)
            self.max_mhz = pynvml.nvmlDeviceGetMaxClockInfo(self._h, pynvml.NVML_CLOCK_SM)
        except Exception:
            self._nvml, self.max_mhz = None, None

    def read(self):
        if self._nvml is None:
            return None
        return self._nvml.nvmlDeviceGetClockInfo(self._h, self._nvml.NVML_CLOCK_SM)


class L2Flusher:
    def __init__(self, l2_bytes):
        self.buf = torch.empty(2 * int(l2_bytes or 64 << 20), dtype=torch.uint8, device="cuda")
        self.i = 0

    def __call__(self):
        self.i = (self.i + 1) % 251
        self.buf.fill_(self.i)


def measure(fns, n_sets, timing, flusher, clock, refresh, recheck, echo=lambda s: None):
    """fns: {name: fn(set_index)}. refresh(): refill every input set in place. recheck(set_index):
    compares the candidate's last output on that set; returns a record. Returns raw samples (us)
    per name, with per-sample clock flags, and the recheck records."""
    names = list(fns)
    hold_cycles = int(timing["hold_us"] * (clock.max_mhz or 2000))
    deadline = time.perf_counter() + timing["warmup_s"]
    warm = 0
    while time.perf_counter() < deadline or warm < 2:
        for n in names:
            fns[n](warm % n_sets)
        torch.cuda.synchronize()
        warm += 1
    samples = {n: [] for n in names}
    low_clock = {n: [] for n in names}
    rechecks = []
    clocks = {"before_mhz": clock.read(), "max_mhz": clock.max_mhz, "per_round_mhz": []}
    t_start = time.perf_counter()
    rnd = 0
    while True:
        s = rnd % n_sets
        order = names[rnd % len(names):] + names[:rnd % len(names)]
        events = []
        for n in order:
            flusher()
            torch.cuda._sleep(hold_cycles)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fns[n](s)
            end.record()
            events.append((n, start, end))
        torch.cuda.synchronize()
        mhz = clock.read()
        clocks["per_round_mhz"].append(mhz)
        low = bool(mhz is not None and clock.max_mhz and mhz < 0.9 * clock.max_mhz)
        for n, start, end in events:
            samples[n].append(start.elapsed_time(end) * 1e3)
            low_clock[n].append(low)
        if rnd % timing["recheck_every"] == 0:
            rechecks.append(recheck(s))
        if s == n_sets - 1:
            refresh()
        rnd += 1
        counts = min(len(v) for v in samples.values())
        elapsed = time.perf_counter() - t_start
        quiet = all(rel_noise(v) <= timing["rel_noise"] for v in samples.values())
        if (counts >= timing["min_samples"] and quiet) or counts >= timing["max_samples"] \
                or (elapsed >= timing["max_time_s"] and counts >= 5):
            stop = "noise" if quiet and counts >= timing["min_samples"] else \
                "max_samples" if counts >= timing["max_samples"] else "max_time"
            break
    clocks["after_mhz"] = clock.read()
    echo(f"  {rnd} rounds in {elapsed:.1f} s, stopped on {stop}")
    return {"samples_us": samples, "low_clock": low_clock, "rechecks": rechecks, "clocks": clocks,
            "rounds": rnd, "stopped_on": stop, "elapsed_s": round(elapsed, 2)}


def graph_per_call_us(fn, calls, replays=10):
    """Median over replays of (graph replay time / calls) for `calls` captured calls of fn()."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(calls):
            fn()
    g.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(replays):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        g.replay()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / calls)
    return float(np.median(times))


def ceilings():
    """Measured matrix-product and copy ceilings of this device, this run."""
    out = {}
    for name, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        n = 8192
        a = torch.randn(n, n, device="cuda", dtype=dtype)
        b = torch.randn(n, n, device="cuda", dtype=dtype)
        out[f"{name}_matmul_tflops"] = 2 * n**3 / _median_s(lambda: a @ b) / 1e12
    src = torch.empty(1 << 30, dtype=torch.uint8, device="cuda").fill_(1)
    dst = torch.empty_like(src)
    out["copy_TBps"] = 2 * src.numel() / _median_s(lambda: dst.copy_(src)) / 1e12
    return out


def _median_s(fn, reps=10):
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return float(np.median(times))
