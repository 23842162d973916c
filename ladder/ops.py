"""ladder.ops.attention(q, k, v, is_causal=False, scale=None): the fastest verified kernel as a
torch op (torch.library.custom_op, with a fake implementation so torch.compile traces it).

Which phase runs is read from the committed evidence for the device it runs on (ladder/choice.py
states the rule). Where none qualifies, or the input is one no phase takes (a dtype other than
fp16/bf16, a head dim other than 64/128, a non-unit stride in D, rows not 16-byte aligned), it
calls torch SDPA instead and says so once per reason.

Host cost. The chosen library is built on first use (ninja) and cached, and so is each choice.
Eager calls that need no autograd skip the custom-op dispatcher, whose Python cost is as large
as the seed's kernel; under torch.compile, or with inputs that require grad, the op runs."""
import functools
import warnings

import torch
import torch.nn.functional as F

from .choice import BASIS, SMALL_ELEMENTS, choose

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
def _kernel(spec_dir, config):
    from .gpu.kernel import Kernel
    from .spec import load_spec
    from .toolchain.ninja_build import artifacts, run_ninja
    spec = load_spec(spec_dir)
    run_ninja(spec, spec.config(config), spec.data["build"]["timeout_s"])
    return Kernel(artifacts(spec, config)["lib"])


def _plan(q, k, v, is_causal):
    """(the Kernel to run, its phase, the BASIS level it was chosen on), or (None, why SDPA runs
    instead, None)."""
    if not q.is_cuda:
        return None, "inputs are not on a CUDA device", None
    dtype = _DTYPES.get(q.dtype)
    if dtype is None or k.dtype != q.dtype or v.dtype != q.dtype:
        return None, f"dtype {q.dtype} (phases take float16 and bfloat16)", None
    D = q.shape[-1]
    if D not in (64, 128) or q.dim() != 4:
        return None, f"head dim {D} or rank {q.dim()} (phases take [B, H, S, 64|128])", None
    if any(t.stride(-1) != 1 for t in (q, k, v)):
        return None, "a non-unit stride in D", None
    if any(t.data_ptr() % 16 or any(s % 8 for s in t.stride()[:-1]) for t in (q, k, v)):
        return None, "rows not 16-byte aligned", None
    small = q.shape[0] * q.shape[1] * q.shape[2] * k.shape[2] <= SMALL_ELEMENTS
    spec, config, level = choose(_device_slug(q.device.index or 0), D, dtype, bool(is_causal), small)
    if spec is None:
        return None, config, None
    return _kernel(spec.dir, config), spec.name, level


def _run(q, k, v, is_causal, scale):
    kernel, what, _ = _plan(q, k, v, is_causal)
    if kernel is None:
        _say_once(what)
        return F.scaled_dot_product_attention(q, k, v, is_causal=is_causal, scale=scale)
    o = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    kernel(q, k, v, o, None, scale=scale, causal=is_causal)
    return o


@torch.library.custom_op("ladder::attention", mutates_args=())
def _attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, is_causal: bool, scale: float) -> torch.Tensor:
    return _run(q, k, v, is_causal, scale)


@_attention.register_fake
def _(q, k, v, is_causal, scale):
    return torch.empty_like(q, memory_format=torch.contiguous_format)


def attention(q, k, v, is_causal=False, scale=None):
    """softmax(q k^T * scale, causal top-left) v for [B, H, S, D] tensors, like torch SDPA."""
    scale = float(q.shape[-1] ** -0.5 if scale is None else scale)
    if torch.compiler.is_compiling() or (torch.is_grad_enabled() and (q.requires_grad or k.requires_grad
                                                                         or v.requires_grad)):
        return _attention(q, k, v, bool(is_causal), scale)
    return _run(q, k, v, bool(is_causal), scale)


def which(q, k, v, is_causal=False):
    """The phase that attention() would run for these inputs and what its choice was timed on,
    or "sdpa: <why>"."""
    kernel, what, level = _plan(q, k, v, is_causal)
    return f"{what} (chosen on workloads with {BASIS[level]})" if kernel is not None else f"sdpa: {what}"
