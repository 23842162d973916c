"""Work, bytes and floors for attention forward.

FLOPs: 4 * B * H * D * (visible query-key pairs): two matrix products of 2*D flops per pair.
With no mask a pair count of S_q * S_k; causal (top-left) sum_i min(i + 1, S_k), about half.
Bytes: q, k, v read once and o written once (2-byte elements), plus the fp32 log-sum-exp.
Physical floor: max(FLOPs / peak tensor rate, bytes / peak memory bandwidth), with the peaks
from the chip's own figures (SM count x max SM clock x 4096 dense fp16 FLOP/clk/SM on sm_90;
max memory clock x 2 x bus width). A time under the floor is not a fast kernel, it is a broken
measurement or a kernel that skips work."""

DENSE_FP16_FLOP_PER_CLK_PER_SM = {"9.0": 4096, "8.0": 2048, "8.9": 1024}


def visible_pairs(S_q, S_k, causal):
    if not causal:
        return S_q * S_k
    full = min(S_q, S_k)
    return full * (full + 1) // 2 + max(0, S_q - S_k) * S_k


def flops(w):
    return 4 * w["B"] * w["H"] * w["D"] * visible_pairs(w["S_q"], w["S_k"], w["causal"])


def min_bytes(w, elem=2):
    rows = w["B"] * w["H"]
    return rows * (2 * w["S_q"] * w["D"] + 2 * w["S_k"] * w["D"]) * elem + rows * w["S_q"] * 4


def peaks(probe):
    """Theoretical peak tensor FLOP/s and memory bytes/s from the device probe, or None."""
    try:
        per_clk = DENSE_FP16_FLOP_PER_CLK_PER_SM[probe["capability"]]
        flop_s = probe["sm_count"] * probe["sm_clock_max_mhz"] * 1e6 * per_clk
        byte_s = probe["mem_clock_max_mhz"] * 1e6 * 2 * probe["mem_bus_width_bits"] / 8
    except (KeyError, TypeError):
        return None
    return {"tensor_flop_s": flop_s, "dram_byte_s": byte_s}


def floor_s(w, peak):
    return max(flops(w) / peak["tensor_flop_s"], min_bytes(w) / peak["dram_byte_s"])
