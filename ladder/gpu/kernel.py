"""A phase's kernel as a Python callable: launches attn_fwd on torch's current stream (so CUDA
graphs capture it and events time it like any torch op), with the ctypes mirror of the ABI from
ladder/abi.py."""
import ctypes

import torch

from ..abi import AttnParams, abi_version, dtype_codes

_TORCH_DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}


class KernelError(RuntimeError):
    pass


def error_line(e):
    """What a child records of an exception: its type and the first line of its text (torch
    appends pages of debugging advice after it)."""
    return f"{type(e).__name__}: {(str(e).strip().splitlines() or [''])[0]}"


class Kernel:
    def __init__(self, lib_path):
        self.path = str(lib_path)
        self.lib = ctypes.CDLL(self.path)
        self.lib.attn_fwd.restype = ctypes.c_int
        self.lib.attn_fwd.argtypes = [ctypes.POINTER(AttnParams), ctypes.c_void_p]
        self.lib.attn_abi_version.restype = ctypes.c_int
        version = self.lib.attn_abi_version()
        if version != abi_version():
            raise KernelError(f"{self.path}: ABI version {version}, harness expects {abi_version()}")
        self.codes = {_TORCH_DTYPES[name]: code for name, code in dtype_codes().items()}

    def __call__(self, q, k, v, o, lse=None, scale=None, causal=False, stream=None):
        """o (and lse) are written in place. q, k, v, o: [B, H, S, D] views, unit stride in D.
        Runs on `stream` (a torch.cuda.Stream), by default torch's current stream."""
        B, H, S_q, D = q.shape
        for name, t in (("q", q), ("k", k), ("v", v), ("o", o)):
            if t.stride(-1) != 1:
                raise KernelError(f"{name} needs unit stride in D, has strides {t.stride()}")
        p = AttnParams(
            q=q.data_ptr(), k=k.data_ptr(), v=v.data_ptr(), o=o.data_ptr(),
            lse=lse.data_ptr() if lse is not None else None,
            B=B, H=H, S_q=S_q, S_k=k.shape[2], D=D,
            softmax_scale=D ** -0.5 if scale is None else scale,
            causal=int(causal), dtype=self.codes[q.dtype])
        for name, t in (("q", q), ("k", k), ("v", v), ("o", o)):
            sb, sh, ss, _ = t.stride()
            setattr(p, f"{name}_stride_b", sb)
            setattr(p, f"{name}_stride_h", sh)
            setattr(p, f"{name}_stride_s", ss)
        s = stream if stream is not None else torch.cuda.current_stream()
        err = self.lib.attn_fwd(ctypes.byref(p), ctypes.c_void_p(s.cuda_stream))
        if err != 0:
            raise KernelError(f"attn_fwd returned CUDA error {err} ({_error_name(err)})")
        return o


def _error_name(code):
    try:
        lib = ctypes.CDLL("libcudart.so")
    except OSError:
        return "see cudaError_t"
    lib.cudaGetErrorName.restype = ctypes.c_char_p
    return lib.cudaGetErrorName(code).decode()
