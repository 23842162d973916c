"""The Python side of kernels/attn_abi.h. The header is the one place the ABI version and the
dtype codes live: they are read from it here. AttnParams is mirrored field by field for ctypes;
tests/test_abi.py compiles a probe with nvcc and checks the mirror's size and every offset
against the C struct. Needs no torch, so readers and CPU tests can import it."""
import ctypes
import functools
import re

from .layout import KERNELS

HEADER = KERNELS / "attn_abi.h"


@functools.lru_cache(maxsize=None)
def _header_constants():
    text = HEADER.read_text()
    version = re.search(r"#define\s+ATTN_ABI_VERSION\s+(\d+)", text)
    enum = re.search(r"enum\s+AttnDtype\s*\{([^}]*)\}", text)
    if not version or not enum:
        raise RuntimeError(f"{HEADER}: no ATTN_ABI_VERSION define or AttnDtype enum")
    codes = {name.lower(): int(value) for name, value in re.findall(r"ATTN_(\w+)\s*=\s*(\d+)", enum.group(1))}
    return int(version.group(1)), codes


def abi_version():
    return _header_constants()[0]


def dtype_codes():
    """{"fp16": 0, "bf16": 1} as the header's enum AttnDtype says."""
    return dict(_header_constants()[1])


class AttnParams(ctypes.Structure):
    _fields_ = [
        ("q", ctypes.c_void_p), ("k", ctypes.c_void_p), ("v", ctypes.c_void_p), ("o", ctypes.c_void_p),
        ("lse", ctypes.c_void_p),
        *[(f"{t}_stride_{d}", ctypes.c_int64) for t in "qkvo" for d in "bhs"],
        ("B", ctypes.c_int32), ("H", ctypes.c_int32), ("S_q", ctypes.c_int32), ("S_k", ctypes.c_int32),
        ("D", ctypes.c_int32), ("softmax_scale", ctypes.c_float), ("causal", ctypes.c_int32),
        ("dtype", ctypes.c_int32),
    ]


def layout():
    """(sizeof, {field: offset}) of the mirror, to compare with the compiled struct."""
    return ctypes.sizeof(AttnParams), {name: getattr(AttnParams, name).offset for name, _ in AttnParams._fields_}
