"""The seed's latency chain from inside the kernel: an ATTN_STAMPS build (check.py's e_stamps,
e_stamps_f0, e_stamps_bn128) records %globaltimer and clock64 at sixteen points of every CTA of the last 8
calls (NOTES.md, "Session of 2026-11-23 (fifth)"). This runs the seed (1,8,512,64) fp16,
non-causal, a few times eagerly and then as a CUDA graph of back-to-back calls (the gate's
measure), reads the ring, and prints raw numbers:
  - per point, the median and max over CTAs of the time since that CTA's entry (globaltimer ns,
    and clock64 cycles, which only compare within one SM);
  - the spread of entry and post-wait times across CTAs;
  - the hand-over between calls: the previous call's last exit (max over CTAs of h) to this
    call's first entry (negative: launched early under PDL) and first return from
    griddepcontrol.wait.
The stamps cost a few stores per CTA: compare the per-call time printed here with the plain build's.

    python3 phases/phase_e/dev/seed_chain.py --build phases/phase_e/dev/.build --lib e_stamps
"""
import argparse
import ctypes
import math
import statistics
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check  # noqa: E402  (the ctypes ABI mirror and the graph timer)

# The kernel's ring: [call % 8][CTA][point][globaltimer, clock64]. 8 points in kernel.cu; 16 with
# dev/runs/fifth/stamps16.patch applied (points inside the tile steps; --points 16).
SLOTS, CTAS, POINTS = 8, 256, 8
NAMES = ["a entry", "b pdl_wait done", "c Q landed (wg0)", "d tile-1 softmax", "e last P.V done",
         "f fold done", "g O stored", "h exit",
         "1 S(0) landed", "2 S(1) landed", "3 softmax(1) done", "4 P(0)V(0) done",
         "5 wg1 S(0) landed", "6 wg1 softmax(0)", "7 wg1 last P.V", "8 wg1 partial out"]
# Warpgroup 0's chain in time order (point indices), and warpgroup 1's beside it.
CHAIN = [0, 1, 2, 8, 3, 9, 10, 11, 4, 5, 6, 7]
CHAIN_W1 = [2, 12, 13, 14, 15, 5]


def read_ring(so):
    buf = (ctypes.c_uint64 * (SLOTS * CTAS * POINTS * 2))()
    rc = so.attn_stamps_read(ctypes.cast(buf, ctypes.c_void_p), ctypes.sizeof(buf))
    if rc != 0:
        raise SystemExit(f"attn_stamps_read: cuda error {rc}")
    calls = so.attn_stamps_calls()
    if calls < 0:
        raise SystemExit("attn_stamps_calls: cuda error")
    return list(buf), calls


CLK = (1 << 56) - 1  # the entry stamp's clock64 carries the SM id in its top byte


def call_rows(ring, slot):
    """CTA rows of one slot that were written (entry stamp set): {cta: [(gt, clk) x 8]}."""
    rows = {}
    for cta in range(CTAS):
        base = ((slot * CTAS) + cta) * POINTS * 2
        pts = [(ring[base + 2 * p], ring[base + 2 * p + 1] & CLK) for p in range(POINTS)]
        if pts[0][0] != 0:
            rows[cta] = pts
    return rows


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def per_point(rows):
    """Per point: (median ns, max ns, median cycles, max cycles) since the CTA's own entry."""
    out = []
    for p in range(POINTS):
        ns = [r[p][0] - r[0][0] for r in rows.values() if r[p][0] != 0]
        cy = [r[p][1] - r[0][1] for r in rows.values() if r[p][1] != 0]
        out.append((med(ns), max(ns) if ns else float("nan"), med(cy), max(cy) if cy else float("nan")))
    return out


def report(ring, calls, label, ncalls):
    """The last `ncalls` complete calls in the ring (at most 8), oldest first."""
    idx = list(range(max(0, calls - min(ncalls, SLOTS)), calls))
    if not idx:
        print(f"{label}: no call recorded")
        return
    per_call = [(i, call_rows(ring, i % SLOTS)) for i in idx]
    print(f"\n== {label}: calls {idx[0]}..{idx[-1]} of {calls}; CTAs stamped per call: "
          f"{[len(r) for _, r in per_call]}")
    # globaltimer step: what the ns figures can resolve.
    gts = sorted({pt[0] for _, rows in per_call for r in rows.values() for pt in r if pt[0]})
    step = 0
    for x in gts[1:]:
        step = math.gcd(step, x - gts[0])
    ghz = [(r[7][1] - r[0][1]) / (r[7][0] - r[0][0]) for _, rows in per_call for r in rows.values()
           if r[7][0] > r[0][0] and r[7][1] > r[0][1]]
    print(f"globaltimer step (gcd of differences) {step} ns; SM clock from clock64/globaltimer "
          f"a->h: median {med(ghz):.3f} GHz")
    print("per call (ns): spread over CTAs of a and of b; the previous call's last exit to this call's"
          " first a, first b, and last exit (the period)")
    prev_exit = None
    for i, rows in per_call:
        a = [r[0][0] for r in rows.values()]
        b = [r[1][0] for r in rows.values() if r[1][0]]
        h = [r[7][0] for r in rows.values() if r[7][0]]
        line = f"  call {i}: spread a {max(a) - min(a)} b {max(b) - min(b) if b else 'nan'}"
        if prev_exit is not None and b and h:
            line += f" | prev exit -> a {min(a) - prev_exit} b {min(b) - prev_exit} period {max(h) - prev_exit}"
        print(line)
        prev_exit = max(h) if h else None
    print("per point, since the CTA's entry: median over calls of (median over CTAs) / max over calls of "
          "(max over CTAs); ns, then clock64 cycles")
    pts = [per_point(rows) for _, rows in per_call]
    for p in range(POINTS):
        print(f"  {NAMES[p]:18s} ns med {med([x[p][0] for x in pts]):8.0f} max {max(x[p][1] for x in pts):8.0f}"
              f"   cyc med {med([x[p][2] for x in pts]):8.0f} max {max(x[p][3] for x in pts):8.0f}")
    # Step by step (median over CTAs of the difference to the previous point), the last call.
    rows = per_call[-1][1]
    for label, chain in (("warpgroup 0", CHAIN), ("warpgroup 1", CHAIN_W1)):
        if not chain:
            continue
        steps = []
        for p, q in zip(chain, chain[1:]):
            d = [r[q][0] - r[p][0] for r in rows.values() if r[q][0] and r[p][0]]
            steps.append(f"{NAMES[q][0]}-{NAMES[p][0]} {med(d):.0f}")
        print(f"  last call, {label}, point to point (median over CTAs, ns): " + "  ".join(steps))


def item_chain(so, lib, shape):
    """A grid of several waves: one call at a time (after a reset and a 256 MB write that
    evicts L2, as the gate's timing does), the first 256 CTAs' stamps merged over the ring's
    slots (CTAs that start after CTA 0 has bumped the call counter land in the next slot). Per
    CTA: the SM it ran on, so that a CTA of the second wave is paired with the CTA it replaced
    (the latest exit on that SM before its entry). Prints, over the second-wave CTAs, the medians
    of: the replaced CTA's exit to this entry, and each point since entry."""
    parts = shape.split(",")
    B, H, S, D = (int(x) for x in parts[:4])
    causal = len(parts) > 4 and parts[4] in ("1", "causal", "true")
    g = torch.Generator(device="cuda").manual_seed(1)
    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16, generator=g) for _ in range(3))
    o = torch.empty_like(q)
    flush = torch.empty(64 << 20, dtype=torch.float32, device="cuda")
    print(f"item chain of {lib.name if hasattr(lib, 'name') else 'lib'} at {(B, H, S, D)} causal={causal}")
    assert lib(q, k, v, o, None, causal) == 0
    torch.cuda.synchronize()
    ref = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    print(f"max |o - sdpa| = {(o.float() - ref.float()).abs().max().item():.2e}")
    for rep in range(3):
        assert so.attn_stamps_reset() == 0
        flush.fill_(rep)
        torch.cuda.synchronize()
        lib(q, k, v, o, None, causal)
        torch.cuda.synchronize()
        ring, _ = read_ring(so)
        rows, smid = {}, {}
        for slot in range(SLOTS):
            for cta, r in call_rows(ring, slot).items():
                rows.setdefault(cta, r)
        for cta in rows:
            for slot in range(SLOTS):
                b = ((slot * CTAS) + cta) * POINTS * 2
                if ring[b] != 0:
                    smid[cta] = ring[b + 1] >> 56
                    break
        nsm = len(set(smid.values()))
        first = {c: r for c, r in rows.items() if c < nsm}
        later = {c: r for c, r in rows.items() if c >= nsm}
        gaps = []
        for c, r in later.items():
            prev = [rows[p][7][0] for p in rows if p != c and smid[p] == smid[c] and rows[p][7][0]
                    and rows[p][7][0] <= r[0][0]]
            if prev:
                gaps.append(r[0][0] - max(prev))
        print(f"\n== call {rep}: {len(rows)} CTAs stamped on {nsm} SMs; first wave {len(first)}, later {len(later)}")
        print(f"  replaced CTA's exit -> entry (ns), later CTAs: median {med(gaps):.0f}, "
              f"p10 {sorted(gaps)[len(gaps) // 10] if gaps else float('nan')}, max {max(gaps) if gaps else float('nan')}")
        for label, rs in (("first wave", first), ("later", later)):
            pp = per_point(rs) if rs else []
            print(f"  {label}: per point since entry, median over CTAs (ns): " +
                  "  ".join(f"{NAMES[p][0]} {pp[p][0]:.0f}" for p in range(POINTS)) if pp else f"  {label}: none")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(check.BUILD), help="folder of <lib>.so")
    ap.add_argument("--lib", default="e_stamps", help="an ATTN_STAMPS build")
    ap.add_argument("--eager", type=int, default=5, help="eager calls, each followed by a sync")
    ap.add_argument("--calls", type=int, default=200, help="calls captured in the graph")
    ap.add_argument("--rounds", type=int, default=20, help="timed graph replays")
    ap.add_argument("--points", type=int, choices=(8, 16), default=8, help="stamp points per CTA in the build")
    ap.add_argument("--shape", help="B,H,S,D[,causal]: a multi-wave shape instead of the seed (item_chain)")
    a = ap.parse_args()
    global POINTS, CHAIN, CHAIN_W1
    POINTS = a.points
    if POINTS == 8:  # the chain of points a..h only
        CHAIN, CHAIN_W1 = list(range(8)), []
    check.BUILD = Path(a.build)
    lib = check.Lib(a.lib)
    so = lib.so
    if not hasattr(so, "attn_stamps_read"):  # ctypes looks the symbol up here
        raise SystemExit(f"{a.lib}: not an ATTN_STAMPS build (no attn_stamps_read)")
    so.attn_stamps_read.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    so.attn_stamps_read.restype = ctypes.c_int
    so.attn_stamps_reset.restype = ctypes.c_int
    so.attn_stamps_calls.restype = ctypes.c_longlong

    if a.shape:
        item_chain(so, lib, a.shape)
        return
    B, H, S, D = 1, 8, 512, 64
    g = torch.Generator(device="cuda").manual_seed(1)
    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16, generator=g) for _ in range(3))
    o = torch.empty_like(q)

    def f():
        return lib(q, k, v, o, None, False)

    print(f"{a.lib} ({a.build}) on {torch.cuda.get_device_name()}: seed {(B, H, S, D)} fp16 non-causal")
    assert f() == 0
    torch.cuda.synchronize()
    err = (o.float() - F.scaled_dot_product_attention(q, k, v).float()).abs().max().item()
    print(f"max |o - sdpa| = {err:.2e}")
    if not err < 2e-2:
        raise SystemExit("wrong output: stopping")

    assert so.attn_stamps_reset() == 0
    for _ in range(a.eager):
        f()
        torch.cuda.synchronize()
    ring, calls = read_ring(so)
    report(ring, calls, f"eager, each call after a sync ({a.eager})", a.eager)

    assert so.attn_stamps_reset() == 0
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
    us = check.graph_per_call_us(f, a.rounds, ev, a.calls)
    torch.cuda.synchronize()
    ring, calls = read_ring(so)
    report(ring, calls, f"graph of {a.calls} back-to-back calls, end of the last replay", SLOTS)
    print(f"\ngraph per-call {a.lib}: {us:.3f} us ({a.rounds} replays of {a.calls} calls, median)")


if __name__ == "__main__":
    main()
