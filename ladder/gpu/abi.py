"""The ctypes mirror of kernels/attn_abi.h, and a callable that launches a phase's kernel on
torch's current stream (so CUDA graphs capture it and events time it like any torch op)."""
import ctypes

import torch

ABI_VERSION = 1
DTYPE_CODES = {torch.float16: 0, torch.bfloat16: 1}


class AttnParams(ctypes.Structure):
    _fields_ = [
        ("q", ctypes.c_void_p), ("k", ctypes.c_void_p), ("v", ctypes.c_void_p), ("o", ctypes.c_void_p),
        ("lse", ctypes.c_void_p),
        *[(f"{t}_stride_{d}", ctypes.c_int64) for t in "qkvo" for d in "bhs"],
        ("B", ctypes.c_int32), ("H", ctypes.c_int32), ("S_q", ctypes.c_int32), ("S_k", ctypes.c_int32),
        ("D", ctypes.c_int32), ("softmax_scale", ctypes.c_float), ("causal", ctypes.c_int32),
        ("dtype", ctypes.c_int32),
    ]


class KernelError(RuntimeError):
    pass


class Kernel:
    def __init__(self, lib_path):
        self.path = str(lib_path)
        self.lib = ctypes.CDLL(self.path)
        self.lib.attn_fwd.restype = ctypes.c_int
        self.lib.attn_fwd.argtypes = [ctypes.POINTER(AttnParams), ctypes.c_void_p]
        self.lib.attn_abi_version.restype = ctypes.c_int
        version = self.lib.attn_abi_version()
        if version != ABI_VERSION:
            raise KernelError(f"{self.path}: ABI version {version}, harness expects {ABI_VERSION}")

    def __call__(self, q, k, v, o, lse=None, scale=None, causal=False):
        """o (and lse) are written in place. q, k, v, o: [B, H, S, D] views, unit stride in D."""
        B, H, S_q, D = q.shape
        S_k = k.shape[2]
        for name, t in (("q", q), ("k", k), ("v", v), ("o", o)):
            if t.stride(-1) != 1:
                raise KernelError(f"{name} needs unit stride in D, has strides {t.stride()}")
        p = AttnParams(
            q=q.data_ptr(), k=k.data_ptr(), v=v.data_ptr(), o=o.data_ptr(),
            lse=lse.data_ptr() if lse is not None else None,
            B=B, H=H, S_q=S_q, S_k=S_k, D=D,
            softmax_scale=D ** -0.5 if scale is None else scale,
            causal=int(causal), dtype=DTYPE_CODES[q.dtype])
        for name, t in (("q", q), ("k", k), ("v", v), ("o", o)):
            sb, sh, ss, _ = t.stride()
            setattr(p, f"{name}_stride_b", sb)
            setattr(p, f"{name}_stride_h", sh)
            setattr(p, f"{name}_stride_s", ss)
        err = self.lib.attn_fwd(ctypes.byref(p), ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
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
