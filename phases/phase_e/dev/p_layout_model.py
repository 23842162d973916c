"""CPU model of WIDE_D64's P store (dev/runs/twentythird/wide_d64.patch, `store_p`): checks, for
every BLOCK_N the patch allows, that the stmatrix addresses and registers of a consumer
warpgroup's 128 threads put P[row][key] (row < 64, key < BN) exactly where TMA's 128-byte swizzle
puts element (row, key) of a [64][BN] tile stored in 64-column slabs (the layout of Q, which the
same kind of descriptor reads as wgmma's K-major A operand), each element once.

    python3 phases/phase_e/dev/p_layout_model.py

What it takes as given (PTX ISA): the wgmma m64nN accumulator's fragment layout (warp w, lane
(g, t): acc[4i + 2h + e] = row 16w + g + 8h, column 8i + 2t + e), `stmatrix .m8n8.x4`'s (register
j of lane l holds row l / 4, columns 2(l % 4), +1 of matrix j; lanes 8j..8j+7 give the addresses
of matrix j's rows), and SWIZZLE_128B (16-byte chunk c of a 128-byte row r at chunk c ^ (r % 8)).
"""
P_SLAB = 64 * 128


def tma_sw128(row, key):
    """Byte offset of element (row, key) of a [64][BN] 16-bit tile, 64-key slabs, 128 B swizzle."""
    slab, c = divmod(key, 64)
    return slab * P_SLAB + row * 128 + ((c * 2 // 16) ^ (row % 8)) * 16 + (c * 2) % 16


def store_p_addr(warp, lane, kk):
    """The patch's address for `lane` of `warp` at k16 step kk (store_p)."""
    mi = lane // 8
    r = 16 * warp + (mi & 1) * 8 + (lane & 7)
    half = mi >> 1
    return r * 128 + (kk // 4) * P_SLAB + ((((kk % 4) * 2 + half) ^ (r & 7)) << 4)


def check(bn):
    written = {}
    for warp in range(4):
        addrs = {lane: [store_p_addr(warp, lane, kk) for kk in range(bn // 16)] for lane in range(32)}
        for lane in range(32):
            g, t = lane // 4, lane % 4
            for kk in range(bn // 16):
                # register j of this lane = pack(s[8kk + 2j], s[8kk + 2j + 1]) (store_p's x0..x3)
                for j in range(4):
                    for e in range(2):
                        idx = 8 * kk + 2 * j + e          # index into the thread's S fragment
                        i, rem = divmod(idx, 4)           # 8-column group i, then 2h + e
                        h = rem // 2
                        row, key = 16 * warp + g + 8 * h, 8 * i + 2 * t + e
                        # stmatrix: matrix j, its row g (address from lane 8j + g), element 2t + e
                        dst = addrs[8 * j + g][kk] + (2 * t + e) * 2
                        assert dst == tma_sw128(row, key), (bn, warp, lane, kk, j, e, row, key)
                        assert dst not in written, (bn, dst)
                        written[dst] = (row, key)
    assert len(written) == 64 * bn
    return len(written)


if __name__ == "__main__":
    for bn in range(64, 193, 16):
        print(f"BN={bn}: {check(bn)} elements, each where the 128-byte swizzle puts it, once")
