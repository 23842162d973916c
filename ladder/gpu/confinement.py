"""Child side of the sanity gate's confinement check: a call touches nothing but its tensors and
its stream. The ABI (kernels/attn_abi.h) says a call runs on `stream` alone; these two
observations look at what it could touch besides, and return them raw.

- device_state(stream): the settings a library could change in the process to favour itself
  over whatever runs beside it or after it, read through the driver API (libcuda, the one
  context every runtime copy shares): the L2 set-aside for persisting accesses and the L2 fetch
  granularity (cuCtxGetLimit), the cache preference (cuCtxGetCacheConfig), and on `stream` its
  access-policy window, synchronisation policy and priority (cuStreamGetAttribute,
  cuStreamGetPriority). A window that marks a kernel's K and V persisting, with a set-aside,
  keeps them in L2 across the performance gate's flush: its cold calls would be timed warm, and
  the set-aside is taken from every other kernel. A driver error is kept as {"error": code}.
- activities(launch, stream): every kernel, copy and memset the GPU ran from a marker kernel
  enqueued on `stream` before the call, through a second marker behind it, until SETTLE_S after
  both were complete: name, kind and stream, from the CUDA profiler (CUPTI, through
  torch.profiler's Chrome trace). Work on another stream runs outside the caller's window and
  beside whatever the caller runs next (in the performance gate, a competitor being timed).

Work launched later than SETTLE_S after the call (from a host thread of the library's own) is
not seen; tests/controls/README.md lists it as open."""
import ctypes
import json
import os
import tempfile
import time

import torch

from .inputs import make_qkv, poisoned_like, poisoned_lse
from .kernel import error_line

MARKER = "spin_kernel"   # the kernel of torch.cuda._sleep, a marker on the caller's stream
MARKER_CYCLES = 1000
SETTLE_S = 0.05
KINDS = ("kernel", "gpu_memcpy", "gpu_memset")

_LIMITS = {"persisting_l2_bytes": 0x06, "max_l2_fetch_granularity": 0x05}  # CUlimit
_ACCESS_POLICY_WINDOW, _SYNCHRONIZATION_POLICY = 1, 3                      # CUlaunchAttributeID


class _Window(ctypes.Structure):  # CUaccessPolicyWindow
    _fields_ = [("base_ptr", ctypes.c_void_p), ("num_bytes", ctypes.c_size_t), ("hit_ratio", ctypes.c_float),
                ("hit_prop", ctypes.c_int), ("miss_prop", ctypes.c_int)]


class _AttrValue(ctypes.Union):  # CUlaunchAttributeValue: 64 bytes
    _fields_ = [("pad", ctypes.c_char * 64), ("window", _Window), ("policy", ctypes.c_int)]


_lib = None


def _driver():
    global _lib
    if _lib is None:
        _lib = ctypes.CDLL("libcuda.so.1")
    return _lib


def device_state(stream=None):
    """The context's settings, and with a torch.cuda.Stream those of that stream too."""
    lib = _driver()
    state = {}
    for name, limit in _LIMITS.items():
        v = ctypes.c_size_t(0)
        err = lib.cuCtxGetLimit(ctypes.byref(v), ctypes.c_int(limit))
        state[name] = v.value if err == 0 else {"error": err}
    cfg = ctypes.c_int(0)
    err = lib.cuCtxGetCacheConfig(ctypes.byref(cfg))
    state["cache_config"] = cfg.value if err == 0 else {"error": err}
    if stream is None:
        return state
    handle = ctypes.c_void_p(stream.cuda_stream)
    value = _AttrValue()
    err = lib.cuStreamGetAttribute(handle, ctypes.c_int(_ACCESS_POLICY_WINDOW), ctypes.byref(value))
    w = value.window
    state["stream_access_policy_window"] = {"error": err} if err else {
        "base_ptr": w.base_ptr or 0, "num_bytes": w.num_bytes, "hit_ratio": w.hit_ratio, "hit_prop": w.hit_prop,
        "miss_prop": w.miss_prop}
    value = _AttrValue()
    err = lib.cuStreamGetAttribute(handle, ctypes.c_int(_SYNCHRONIZATION_POLICY), ctypes.byref(value))
    state["stream_synchronization_policy"] = {"error": err} if err else value.policy
    prio = ctypes.c_int(0)
    err = lib.cuStreamGetPriority(handle, ctypes.byref(prio))
    state["stream_priority"] = {"error": err} if err else prio.value
    return state


def activities(launch, stream):
    """launch() enqueues the call on the current stream; it runs with `stream` current, between
    two markers. Returns the GPU's operations in start order: {name, kind, stream, start_us}
    (start relative to the first operation seen)."""
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        with torch.cuda.stream(stream):
            torch.cuda._sleep(MARKER_CYCLES)
            launch()
            torch.cuda._sleep(MARKER_CYCLES)
        torch.cuda.synchronize()
        time.sleep(SETTLE_S)
        torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f).get("traceEvents", [])
    ops = sorted((e for e in events if e.get("ph") == "X" and e.get("cat") in KINDS), key=lambda e: e.get("ts", 0))
    t0 = ops[0]["ts"] if ops else 0
    return [{"name": e.get("name", "")[:160], "kind": e["cat"], "stream": (e.get("args") or {}).get("stream"),
             "start_us": round(e.get("ts", 0) - t0, 1)} for e in ops]


def observe_once(kernel, shape, seed):
    """observe() on new inputs for `shape` (a sanity shape or a timed workload), poisoned outputs.
    A failure is recorded as {"error": ...}, on which the gates fail closed; the caller's other
    observations are kept."""
    try:
        q, k, v = make_qkv(shape, seed)
        return observe(kernel, q, k, v, poisoned_like(q), poisoned_lse(q), shape["causal"])
    except Exception as e:
        return {"error": error_line(e)}


def observe(kernel, q, k, v, o, lse, causal):
    """One call on a stream of its own: the device state before and after it, and the GPU's
    operations around it."""
    stream = torch.cuda.Stream()
    before = device_state(stream)
    ops = activities(lambda: kernel(q, k, v, o, lse, causal=causal), stream)
    torch.cuda.synchronize()
    return {"before": before, "after": device_state(stream), "activities": ops, "marker": MARKER}
