"""Hopper building blocks, each on its own (tests/hopper_blocks/blocks.cu): a TMA tile load with the
128-byte swizzle, one wgmma with both operands in shared memory, one with A in registers and B
MN-major, and the S-accumulator -> A-fragment chain between them. numpy computes every expected
value; inputs are structured (identity, one-hot rows, index patterns) or small integers, so each
product is exact and a permuted layout shows up as a wrong element, not as rounding."""
import ctypes
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.gpu

SRC = Path(__file__).resolve().parent / "hopper_blocks" / "blocks.cu"
U16 = np.ctypeslib.ndpointer(dtype=np.uint16, flags="C_CONTIGUOUS")
F32 = np.ctypeslib.ndpointer(dtype=np.float32, flags="C_CONTIGUOUS")


def _nvcc():
    try:
        from ladder.tools import find
        found = find("nvcc")
    except Exception:  # the harness is optional here
        found = None
    return found or shutil.which("nvcc")


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    nvcc = _nvcc()
    if nvcc is None:
        pytest.skip("nvcc not found")
    out = tmp_path_factory.mktemp("hopper_blocks") / "blocks.so"
    cmd = [nvcc, "-O3", "-std=c++17", "-gencode=arch=compute_90a,code=sm_90a", "-Xcompiler", "-fPIC",
           "-shared", "-o", str(out), str(SRC)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    so = ctypes.CDLL(str(out))
    so.tma_tile_load.argtypes = [U16, ctypes.c_longlong] + [ctypes.c_int] * 4 + [ctypes.c_longlong] * 3 \
        + [ctypes.c_int] * 3 + [U16]
    so.wgmma_ss.argtypes = [U16, U16, ctypes.c_int, F32]
    so.wgmma_rs.argtypes = [U16, U16, ctypes.c_int, F32]
    so.wgmma_chain.argtypes = [U16, U16, U16, F32]
    for f in (so.tma_tile_load, so.wgmma_ss, so.wgmma_rs, so.wgmma_chain):
        f.restype = ctypes.c_int
    return so


def _bits(a):
    """float array -> contiguous fp16 bit patterns (the values used here are exact in fp16)."""
    h = np.ascontiguousarray(a, dtype=np.float16)
    assert np.array_equal(h.astype(np.float64), np.asarray(a, dtype=np.float64)), "input not exact in fp16"
    return h.view(np.uint16)


def _first_mismatch(got, want):
    bad = np.argwhere(got != want)
    if bad.size == 0:
        return ""
    i = tuple(bad[0])
    return f"{len(bad)} wrong elements, first at {i}: got {got[i]}, want {want[i]}"


# ---- 1. TMA ---------------------------------------------------------------------------------
@pytest.mark.parametrize("D,S,H,B,row0,h,b,layout", [
    (128, 100, 3, 2, 64, 1, 1, "bshd_padded"),  # two slabs, strided rows, rows >= S zero-filled
    (64, 300, 2, 3, 128, 1, 2, "bhsd"),         # one slab, contiguous [B, H, S, D], full box
    (128, 1, 2, 2, 0, 1, 0, "bshd_padded"),      # S = 1: one real row, 127 zero rows
])
def test_tma_tile_load_matches_host_swizzle(lib, D, S, H, B, row0, h, b, layout):
    rng = np.random.default_rng(7)
    if layout == "bhsd":                        # storage [B, H, S, D]
        shape, (ss, sh, sb) = (B, H, S, D), (D, S * D, H * S * D)
    else:                                       # storage [B, S, H, D + 8]: padded rows
        dp = D + 8
        shape, (ss, sh, sb) = (B, S, H, dp), (H * dp, dp, S * H * dp)
    storage = rng.integers(1, 65536, size=int(np.prod(shape)), dtype=np.uint16)  # 0 marks zero fill
    slabs = D // 64
    out = np.zeros(slabs * 128 * 64, dtype=np.uint16)
    rc = lib.tma_tile_load(storage, storage.size, D, S, H, B, ss, sh, sb, row0, h, b, out)
    assert rc == 0, f"tma_tile_load returned {rc}"

    logical = np.zeros((128, D), dtype=np.uint16)  # the box as [row][dim], zero past S
    for r in range(128):
        if row0 + r < S:
            base = b * sb + h * sh + (row0 + r) * ss
            logical[r] = storage[base:base + D]
    want = np.zeros((slabs, 128, 64), dtype=np.uint16)
    for s in range(slabs):
        for r in range(128):
            for pc in range(8):                 # physical 16-byte chunk pc holds logical pc ^ (r % 8)
                lc = pc ^ (r % 8)
                want[s, r, pc * 8:(pc + 1) * 8] = logical[r, s * 64 + lc * 8:s * 64 + lc * 8 + 8]
    got = out.reshape(slabs, 128, 64)
    assert np.array_equal(got, want), _first_mismatch(got, want)


# ---- 2. SS wgmma ----------------------------------------------------------------------------
def _ss_cases():
    rng = np.random.default_rng(11)
    idx = (np.arange(128)[:, None] * 64 + np.arange(64)[None, :]) % 2048 - 1024.0
    yield "identity_A", np.eye(64), idx                        # D[i, n] = B[n, i]
    onehot = np.zeros((128, 64))
    onehot[np.arange(128), np.arange(128) % 64] = 1            # B row n picks column n % 64 of A
    a_idx = (np.arange(64)[:, None] * 64 + np.arange(64)[None, :]) % 2048 - 1024.0
    yield "onehot_B", a_idx, onehot                            # D[i, n] = A[i, n % 64]
    for k in (16, 64, 128):
        yield f"random_k{k}", rng.integers(-3, 4, (64, k)).astype(float), rng.integers(-3, 4, (128, k)).astype(float)


@pytest.mark.parametrize("name,A,B", list(_ss_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_wgmma_ss_kmajor_both_operands_in_smem(lib, name, A, B):
    k = A.shape[1]
    out = np.zeros(64 * 128, dtype=np.float32)
    rc = lib.wgmma_ss(_bits(A), _bits(B), k, out)
    assert rc == 0, f"wgmma_ss returned {rc}"
    want = (A @ B.T).astype(np.float32)
    got = out.reshape(64, 128)
    assert np.array_equal(got, want), f"{name}: " + _first_mismatch(got, want)


# ---- 3. RS wgmma, B MN-major -----------------------------------------------------------------
def _rs_cases():
    rng = np.random.default_rng(13)
    for k in (16, 64, 128):
        onehot = np.zeros((64, k))
        onehot[np.arange(64), np.arange(64) % k] = 1           # row i of D = row i % k of B
        b_idx = (np.arange(k)[:, None] * 128 + np.arange(128)[None, :]) % 2048 - 1024.0
        yield f"onehot_A_k{k}", onehot, b_idx
    yield "random_k128", rng.integers(-3, 4, (64, 128)).astype(float), rng.integers(-3, 4, (128, 128)).astype(float)


@pytest.mark.parametrize("name,A,B", list(_rs_cases()), ids=lambda x: x if isinstance(x, str) else "")
def test_wgmma_rs_a_in_registers_b_mn_major(lib, name, A, B):
    k = A.shape[1]
    out = np.zeros(64 * 128, dtype=np.float32)
    rc = lib.wgmma_rs(_bits(A), _bits(B), k, out)
    assert rc == 0, f"wgmma_rs returned {rc}"
    want = (A @ B).astype(np.float32)
    got = out.reshape(64, 128)
    assert np.array_equal(got, want), f"{name}: " + _first_mismatch(got, want)


# ---- 4. accumulator reused as the A fragment --------------------------------------------------
def test_wgmma_accumulator_repacked_as_a_fragment(lib):
    rng = np.random.default_rng(17)
    A = rng.integers(-3, 4, (64, 64)).astype(float)
    B = rng.integers(-3, 4, (128, 64)).astype(float)
    V = rng.integers(-3, 4, (128, 128)).astype(float)
    out = np.zeros(64 * 128, dtype=np.float32)
    rc = lib.wgmma_chain(_bits(A), _bits(B), _bits(V), out)
    assert rc == 0, f"wgmma_chain returned {rc}"
    S = A @ B.T                                  # |S| <= 576: exact in fp16
    want = (S @ V).astype(np.float32)
    got = out.reshape(64, 128)
    assert np.array_equal(got, want), _first_mismatch(got, want)
