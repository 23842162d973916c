"""How the performance gate times kernels on the GPU (one child process; the gate runs several).

- Rounds. In every round each kernel runs once, in a seeded random order (recorded), all on the
  same input set, which rotates round by round independently of the order. Only complete rounds
  count: a round where any hold timed out is kept in the raw data but marked.
- One sample: L2 flushed (a write of twice its size), then a blocking kernel holds the stream
  (ladder/gpu/blocker.cu), then the start event, the call, the end event are enqueued, and the
  host releases the hold. The GPU reaches the window with the call already queued, so host
  launch cost (tens of us for an SDPA call) cannot leak in; a hold that times out (the host took
  longer than blocker_timeout_ms to enqueue) marks its round.
- Warm-up by time, every kernel in turn.
- Inputs: several sets, refilled in place with fresh random values after the warm-up and after
  every full rotation (same addresses, new contents), so no timed call sees contents a call of
  the same kernel saw before, except where the caller gives two names one library (the A/A twin
  runs at a slightly different scale for that reason, ladder/gpu/performance.py). The
  candidate's timed output is re-checked against a float64 reference at a few rounds, with
  SDPA's error on the same inputs as the yardstick, and after every round compared bit for bit
  with an untimed call on the same inputs: a kernel that does less when it is timed is wrong in
  every round, not only in the sampled ones.
- Stopping: at least min_rounds, then every pair (candidate against each kernel) has a median
  half-width at most m/2 of this process's margin estimate; or max_rounds, or max_time_s.
- SM clock (NVML) read once per round.
- Every kernel is also timed as CUDA-graph replays: up to graph_calls calls (about 2 ms of work)
  captured in one graph, replay time / calls; the candidate's replayed output must match its
  eager output. Every graph of the workload is captured first, then replayed in rounds in a
  seeded random order, as the event samples are. Before every replay the caller may refill the
  graph's inputs, and its calls may differ from one another (ladder/gpu/performance.py varies the
  scale), so that no call repeats an earlier one: a kernel that remembers results cannot replay
  them here. Each replay sits behind a hold too, so the
  graph's own launch is out of the window, and replays whose hold timed out are not counted. On an H100 at the seed workload
  (phase_e, 5 us calls) 20 calls with the launch in the window read 0.3 us (7%) above 200 held
  calls, and that bias would count against every graph-time target.
- An empty kernel's event windows (event_samples, taken as the samples are) and its graph time
  behind the same flush give the GPU's own cost of a launch in an event window, which the
  performance gate's leak check allows for.
- The blocking kernel is launched once at construction: the first launch from its module loads
  the module (lazy loading), and on an H100 that first launch returned only when the hold ended."""
import ctypes
import math
import time

import numpy as np
import torch

from .. import stats


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
        return None if self._nvml is None else self._nvml.nvmlDeviceGetClockInfo(self._h, self._nvml.NVML_CLOCK_SM)


class L2Flusher:
    def __init__(self, l2_bytes):
        self.buf = torch.empty(2 * int(l2_bytes or 64 << 20), dtype=torch.uint8, device="cuda")
        self.i = 0

    def __call__(self):
        self.i = (self.i + 1) % 251
        self.buf.fill_(self.i)


class Blocker:
    def __init__(self, lib_path, timeout_ms):
        self.lib = ctypes.CDLL(str(lib_path))
        self.lib.blocker_create.restype = ctypes.c_void_p
        self.lib.blocker_hold.restype = ctypes.c_int64
        self.lib.blocker_hold.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p]
        self.lib.blocker_release.argtypes = [ctypes.c_void_p, ctypes.c_int64]
        self.lib.blocker_timed_out.argtypes = [ctypes.c_void_p, ctypes.c_int64]
        self.handle = self.lib.blocker_create()
        if not self.handle:
            raise RuntimeError("could not allocate the blocking kernel's mapped host memory")
        self.timeout_ns = int(timeout_ms * 1e6)
        self.release(self.hold())  # loads the module now, not inside the first timed hold
        torch.cuda.synchronize()

    def hold(self):
        epoch = self.lib.blocker_hold(self.handle, self.timeout_ns, torch.cuda.current_stream().cuda_stream)
        if epoch < 0:
            raise RuntimeError("blocking kernel failed to launch")
        return epoch

    def release(self, epoch):
        self.lib.blocker_release(self.handle, epoch)

    def timed_out(self, epoch):
        return bool(self.lib.blocker_timed_out(self.handle, epoch))


def _halfwidths(us, names, c, aa):
    """This process's margin estimate and every pair's median half-width, in log units."""
    x = np.log(np.asarray(us))
    hws = {j: stats.median_halfwidth(x[:, c] - x[:, j]) for j in range(len(names)) if j != c}
    m = 0.0
    if aa is not None:
        m = abs(float(np.median(x[:, c] - x[:, aa]))) + hws[aa]
    return m, hws


def measure(fns, candidate, aa_name, n_sets, timing, flusher, blocker, clock, refresh, recheck, rng,
            fixed_rounds=None, echo=lambda s: None, verify=None):
    """fns: {name: fn(set index)}. verify(set index): elements of the candidate's timed output
    that differ from an untimed call's, after every round. Returns the raw record of this workload
    in this process."""
    names = list(fns)
    c = names.index(candidate)
    aa = names.index(aa_name) if aa_name in names else None
    deadline = time.perf_counter() + timing["warmup_s"]
    warm = 0
    while time.perf_counter() < deadline or warm < 2:
        for n in names:
            fns[n](warm % n_sets)
        torch.cuda.synchronize()
        warm += 1
    refresh()  # timed rounds start on contents no warm-up call has seen
    recheck_at = {0, 9, 39, 99, 199}
    raw = {"names": names, "us": [], "order": [], "set": [], "timed_out": [], "mhz": [], "rechecks": [],
           "timed_mismatches": [], "verified_rounds": 0}
    complete = []
    t_start = time.perf_counter()
    rnd, stop = 0, None
    while stop is None:
        s = rnd % n_sets
        order = [int(i) for i in rng.permutation(len(names))]
        events = []
        for i in order:
            flusher()
            epoch = blocker.hold()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fns[names[i]](s)
            end.record()
            blocker.release(epoch)
            events.append((i, start, end, epoch))
        torch.cuda.synchronize()
        us = [0.0] * len(names)
        out = []
        for i, start, end, epoch in events:
            us[i] = round(start.elapsed_time(end) * 1e3, 3)
            if blocker.timed_out(epoch):
                out.append(i)
        raw["us"].append(us)
        raw["order"].append(order)
        raw["set"].append(s)
        raw["timed_out"].append(out)
        raw["mhz"].append(clock.read())
        if not out:
            complete.append(us)
        if recheck is not None and rnd in recheck_at and len(raw["rechecks"]) < timing["rechecks"]:
            raw["rechecks"].append(dict(recheck(s), round=rnd))
        if verify is not None:
            bad = verify(s)
            raw["verified_rounds"] += 1
            if bad:
                raw["timed_mismatches"].append([rnd, bad])
        if s == n_sets - 1:
            refresh()
        rnd += 1
        n = len(complete)
        elapsed = time.perf_counter() - t_start
        if fixed_rounds is not None:
            stop = "fixed" if rnd >= fixed_rounds else None
        elif n >= timing["min_rounds"]:
            m, hws = _halfwidths(complete, names, c, aa)
            m = max(m, math.log1p(timing["min_margin"]))
            if all(h <= m / 2 for h in hws.values()):
                stop = "resolved"
        if stop is None and fixed_rounds is None and (rnd >= timing["max_rounds"] or elapsed >= timing["max_time_s"]):
            stop = "max_rounds" if rnd >= timing["max_rounds"] else "max_time"
    raw.update(stopped_on=stop, elapsed_s=round(time.perf_counter() - t_start, 2), max_mhz=clock.max_mhz)
    echo(f"  {rnd} rounds ({len(complete)} complete) in {raw['elapsed_s']} s, stopped on {stop}")
    return raw


def event_samples(fn, n, flusher, blocker):
    """n event windows around fn(), each taken as measure() takes one (L2 flushed, the stream
    held while the window is enqueued), in us; windows whose hold timed out are left out."""
    windows = []
    for _ in range(n):
        flusher()
        epoch = blocker.hold()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        blocker.release(epoch)
        windows.append((start, end, epoch))
    torch.cuda.synchronize()
    us = [start.elapsed_time(end) * 1e3 for start, end, epoch in windows if not blocker.timed_out(epoch)]
    if not us:
        raise RuntimeError(f"every hold of {n} event windows timed out")
    return us


def capture_graph(fn, calls):
    """A CUDA graph of `calls` calls fn(0), fn(1), ... (the index lets calls differ), after
    three warm-up calls on a side stream."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for i in range(3):
            fn(i % calls)
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for i in range(calls):
            fn(i)
    g.replay()
    torch.cuda.synchronize()
    return g


def graph_rounds(graphs, calls, blocker, rng, replays=5, before=lambda: None):
    """{name: median over replays of (replay time / calls)} for already captured graphs. Replays
    go in rounds, every graph once per round in a seeded random order, each behind a hold and
    after before() (outside the window); a replay whose hold timed out is not counted, and rounds
    go on (at most 4 x replays) until every graph has `replays` counted ones. Timing one graph's
    replays back to back and then the next read the first graph of a workload 1.5% slower than its
    A/A twin timed last (H100, seed)."""
    names = list(graphs)
    times = {n: [] for n in names}
    rounds = 0
    while rounds < 4 * replays and any(len(t) < replays for t in times.values()):
        for i in rng.permutation(len(names)):
            n = names[int(i)]
            if len(times[n]) >= replays:
                continue
            before()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            epoch = blocker.hold()
            start.record()
            graphs[n].replay()
            end.record()
            blocker.release(epoch)
            torch.cuda.synchronize()
            if not blocker.timed_out(epoch):
                times[n].append(start.elapsed_time(end) * 1e3 / calls)
        rounds += 1
    empty = [n for n in names if not times[n]]
    if empty:
        raise RuntimeError(f"every hold before a graph replay of {', '.join(empty)} timed out ({rounds} rounds)")
    return {n: float(np.median(t)) for n, t in times.items()}


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
