"""Same-process A/B timing of phase_e builds (libraries built with -D overrides, see NOTES.md)
against cuDNN: interleaved rounds (alternating order), a 256 MB L2 flush before each call,
CUDA-event timed, medians; every build first checked against SDPA flash (max abs diff < 2e-2).
Rows of at most 512 keys are also timed as a CUDA graph of 20 back-to-back calls (L2 warm,
per-call time = replay / 20), the seed's own measure.
A dev tool, noisier than the gate (one process, no blocking kernel): the gate decides.

    python3 phases/phase_e/dev/time_variants.py --build DIR --names e,e_old,d --shapes ab [--rounds 40]
"""
import argparse
import statistics
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check  # noqa: E402  (the ctypes ABI mirror)

SHAPES = {  # (B, H, S, D, causal)
    "tile": ((4, 16, 4096, 128, False), (4, 16, 4096, 128, True), (2, 16, 8192, 128, False),
             (8, 16, 2048, 128, True), (16, 16, 1024, 128, False)),
    "ab": ((4, 16, 4096, 128, False), (4, 16, 4096, 128, True), (8, 16, 2048, 64, False),
           (8, 16, 2048, 64, True), (16, 16, 512, 64, False), (8, 16, 2048, 128, True)),
    "d64": ((8, 16, 2048, 64, False), (8, 16, 2048, 64, True), (16, 16, 512, 64, False),
            (16, 16, 512, 64, True), (4, 16, 4096, 128, False)),
    "loop64": ((8, 16, 2048, 64, False), (4, 16, 4096, 64, False), (2, 16, 8192, 64, False)),
    # thirty-third session: the rows the chained persistent d=64 kernel takes (non-causal, 513..4096
    # keys), then two it leaves alone (causal d=64, d=128).
    "chain64": ((8, 16, 2048, 64, False), (4, 16, 4096, 64, False), (16, 16, 1024, 64, False),
                (8, 16, 2048, 64, True), (4, 16, 4096, 128, False)),
    # twenty-third session: the rows WIDE_D64 takes (d=64 non-causal, 513..4096 keys; 2048 and 1024
    # keys end in a partial 192-key tile, 4096 too), then two it leaves alone (causal, d=128).
    "wide64": ((8, 16, 2048, 64, False), (4, 16, 4096, 64, False), (16, 16, 1024, 64, False),
               (8, 16, 2048, 64, True), (4, 16, 4096, 128, False)),
    "causal64": ((16, 16, 1024, 64, True), (8, 16, 2048, 64, True), (4, 16, 4096, 64, True),
                 (2, 16, 8192, 64, True), (1, 16, 16384, 64, True)),
    "short": ((1, 8, 512, 64, False), (1, 8, 512, 64, True), (2, 8, 512, 64, False), (1, 16, 512, 64, False),
              (1, 8, 333, 64, True), (16, 16, 512, 64, False)),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="folder of <name>.so")
    ap.add_argument("--names", required=True, help="comma-separated; the first is the reference")
    ap.add_argument("--shapes", choices=SHAPES, default="ab")
    ap.add_argument("--rounds", type=int, default=40)
    a = ap.parse_args()
    check.BUILD = Path(a.build)
    names = a.names.split(",")
    libs = {n: check.Lib(n) for n in names}
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
    for (B, H, S, D, causal) in SHAPES[a.shapes]:
        g = torch.Generator(device="cuda").manual_seed(1)
        q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16, generator=g) for _ in range(3))
        outs = {n: torch.empty_like(q) for n in names}

        def sd(backend):
            def f():
                with sdpa_kernel([backend]):
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            return f
        ref = sd(SDPBackend.FLASH_ATTENTION)()
        calls = {n: (lambda l=l, o=outs[n]: l(q, k, v, o, None, causal)) for n, l in libs.items()}
        calls["cudnn"] = sd(SDPBackend.CUDNN_ATTENTION)
        for n in names:
            assert calls[n]() == 0
            torch.cuda.synchronize()
            err = (outs[n].float() - ref.float()).abs().max().item()
            assert err < 2e-2, (n, err)
        times = {n: [] for n in calls}
        for _ in range(3):
            for f in calls.values():
                f()
        for r in range(a.rounds):
            for n in (list(calls) if r % 2 == 0 else list(calls)[::-1]):
                flush.zero_()
                ev[0].record()
                calls[n]()
                ev[1].record()
                ev[1].synchronize()
                times[n].append(ev[0].elapsed_time(ev[1]))
        flops = 4 * B * H * D * (S * (S + 1) / 2 if causal else S * S)
        med = {n: statistics.median(x) for n, x in times.items()}
        ref_n = names[0]
        print((B, H, S, D, causal), "  ".join(f"{n}={flops / med[n] / 1e9:.0f}" for n in calls),
              f"  {ref_n}/cudnn={med[ref_n] / med['cudnn']:.3f}",
              "  ".join(f"{n}/{ref_n}={med[n] / med[ref_n]:.3f}" for n in names[1:]), flush=True)
        if S <= 512:
            gt = {}
            for r in range(2):  # two passes in opposite orders
                for n in (list(calls) if r == 0 else list(calls)[::-1]):
                    gt.setdefault(n, []).append(check.graph_per_call_us(calls[n], a.rounds, ev))
            gm = {n: statistics.mean(x) for n, x in gt.items()}
            print((B, H, S, D, causal), "graph us/call:", "  ".join(f"{n}={gm[n]:.2f}" for n in calls),
                  f"  {ref_n}/cudnn={gm[ref_n] / gm['cudnn']:.3f}",
                  "  ".join(f"{n}/{ref_n}={gm[n] / gm[ref_n]:.3f}" for n in names[1:]), flush=True)


if __name__ == "__main__":
    main()
