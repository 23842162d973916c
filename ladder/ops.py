"""ladder.ops.attention(q, k, v, is_causal=False, scale=None): the fastest verified kernel as a
torch op (torch.library.custom_op, with a fake implementation so torch.compile traces it).

For the device it runs on, it takes the fastest phase whose gates all passed with fresh evidence
for that head dim, dtype and causality and the shape class (small: at most SMALL_ELEMENTS score
elements; large otherwise), as evidence/<device>/ says: lowest candidate median over that
class's workloads. Where none qualifies, or the input is one no phase takes (a dtype other than
fp16/bf16, a head dim other than 64/128, a non-unit stride in D, rows not 16-byte aligned), it
calls torch SDPA instead and says so once per reason. The chosen library is built on first use
(ninja) and cached; per call the Python work is a dictionary lookup and the ctypes launch."""
import functools
import warnings

import torch
import torch.nn.functional as F

SMALL_ELEMENTS = 1 << 24          # B*H*S_q*S_k at or under this: the small-shape class
_DTYPES = {torch.float16: "fp16", torch.bfloat16: "bf16"}
_said = set()


def _say_once(reason):
    if reason not in _said:
        _said.add(reason)
        warnings.warn(f"ladder.ops.attention: using torch SDPA: {reason}", stacklevel=3)


@functools.lru_cache(maxsize=None)
def _device_slug(index):
    from .layout import device_slug
    return device_slug(torch.cuda.get_device_properties(index).name)


@functools.lru_cache(maxsize=None)
def choose(device, D, dtype, causal, small):
    """(phase, config) of the fastest phase with fresh passing evidence, or (None, why)."""
    from . import evidence, freshness
    from .environment import nvcc_version
    from .layout import evidence_dir, phase_dirs
    from .spec import load_spec
    toolchain = nvcc_version()
    best, why = None, f"no phase has fresh passing evidence on {device} for D={D} {dtype} causal={causal}"
    for d in phase_dirs():
        spec = load_spec(d)
        recs = [evidence.read(evidence_dir(device, spec.dir) / f"{g}.json") for g in spec.gates]
        if not all(evidence.status(r) == "pass" and not freshness.staleness(r, spec, device, toolchain) for r in recs):
            continue
        perf = recs[spec.gates.index("performance")]["derived"]
        times = [w["kernels"][perf["candidate"]]["median"] / w["flops"] for w in perf["workloads"]
                 if w["workload"]["D"] == D and w["workload"]["dtype"] == dtype and w["workload"]["causal"] == causal
                 and (w["workload"]["B"] * w["workload"]["H"] * w["workload"]["S_q"] * w["workload"]["S_k"]
                      <= SMALL_ELEMENTS) == small]
        if times and (best is None or sum(times) / len(times) < best[0]):
            best = (sum(times) / len(times), spec, perf["config"])
    return (best[1], best[2]) if best else (None, why)


@functools.lru_cache(maxsize=None)
def _kernel(spec_dir, config):
    from .gpu.kernel import Kernel
    from .spec import load_spec
    from .toolchain.ninja_build import artifacts, run_ninja
    spec = load_spec(spec_dir)
    run_ninja(spec, spec.config(config), spec.data["build"]["timeout_s"])
    return Kernel(artifacts(spec, config)["lib"])


def _plan(q, k, v, is_causal):
    """The Kernel to run, or None with the reason SDPA runs instead."""
    if not q.is_cuda:
        return None, "inputs are not on a CUDA device"
    dtype = _DTYPES.get(q.dtype)
    if dtype is None or k.dtype != q.dtype or v.dtype != q.dtype:
        return None, f"dtype {q.dtype} (phases take float16 and bfloat16)"
    D = q.shape[-1]
    if D not in (64, 128) or q.dim() != 4:
        return None, f"head dim {D} or rank {q.dim()} (phases take [B, H, S, 64|128])"
    if any(t.stride(-1) != 1 for t in (q, k, v)):
        return None, "a non-unit stride in D"
    if any(t.data_ptr() % 16 or any(s % 8 for s in t.stride()[:-1]) for t in (q, k, v)):
        return None, "rows not 16-byte aligned"
    small = q.shape[0] * q.shape[1] * q.shape[2] * k.shape[2] <= SMALL_ELEMENTS
    spec, config = choose(_device_slug(q.device.index or 0), D, dtype, bool(is_causal), small)
    if spec is None:
        return None, config
    return _kernel(spec.dir, config), spec.name


@torch.library.custom_op("ladder::attention", mutates_args=())
def _attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, is_causal: bool, scale: float) -> torch.Tensor:
    kernel, what = _plan(q, k, v, is_causal)
    if kernel is None:
        _say_once(what)
        return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale)
    o = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    kernel(q, k, v, o, None, scale=scale, causal=is_causal)
    return o


@_attention.register_fake
def _(q, k, v, is_causal, scale):
    return torch.empty_like(q, memory_format=torch.contiguous_format)


def attention(q, k, v, is_causal=False, scale=None):
    """softmax(q k^T * scale, causal top-left) v for [B, H, S, D] tensors, like torch SDPA."""
    return _attention(q, k, v, bool(is_causal), float(q.shape[-1] ** -0.5 if scale is None else scale))


def which(q, k, v, is_causal=False):
    """The phase that attention() would run for these inputs, or "sdpa: <why>"."""
    kernel, what = _plan(q, k, v, is_causal)
    return what if kernel is not None else f"sdpa: {what}"
