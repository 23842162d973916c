"""FLOP and byte counts, and the physical floor."""
from ladder import roofline


def test_pairs_and_flops():
    assert roofline.visible_pairs(4, 4, False) == 16
    assert roofline.visible_pairs(4, 4, True) == 10
    assert roofline.visible_pairs(6, 4, True) == 10 + 2 * 4   # rows past S_k see every key
    assert roofline.visible_pairs(3, 8, True) == 6            # top-left: row i sees i + 1 keys
    w = {"B": 4, "H": 16, "S_q": 4096, "S_k": 4096, "D": 128, "causal": False}
    assert roofline.flops(w) == 4 * 4 * 16 * 4096 * 4096 * 128
    assert roofline.flops(dict(w, causal=True)) == 4 * 4 * 16 * 128 * (4096 * 4097 // 2)


def test_floor_uses_the_larger_term():
    probe = {"capability": "9.0", "sm_count": 132, "sm_clock_max_mhz": 1980, "mem_clock_max_mhz": 2619,
             "mem_bus_width_bits": 5120}
    peak = roofline.peaks(probe)
    assert abs(peak["tensor_flop_s"] / 1e12 - 1070.5) < 1 and abs(peak["dram_byte_s"] / 1e12 - 3.352) < 0.01
    big = {"B": 4, "H": 16, "S_q": 4096, "S_k": 4096, "D": 128, "causal": False}
    assert roofline.floor_s(big, peak) == roofline.flops(big) / peak["tensor_flop_s"]
    thin = {"B": 1, "H": 1, "S_q": 1, "S_k": 4096, "D": 128, "causal": False}
    assert roofline.floor_s(thin, peak) == roofline.min_bytes(thin) / peak["dram_byte_s"]
    assert roofline.peaks({}) is None
