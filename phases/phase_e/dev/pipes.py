"""Pipe utilisation of one phase_e build, and of cuDNN, per shape (a dev tool; run under ncu):

    ncu --clock-control none -k regex:'attn_fwd|sdpa' --metrics $(python3 pipes.py --metrics) \
        python3 phases/phase_e/dev/pipes.py --build DIR --lib e

One call of the build and one of torch's cuDNN SDPA per shape; ncu replays each kernel per metric
pass (caches flushed between passes, its default), so the figures are per-kernel, not graph-warm.
"""
import argparse
import sys
from pathlib import Path

METRICS = [
    "gpu__time_duration.sum",
    "dram__bytes_read.sum",                                               # cold (ncu flushes caches)
    "dram__bytes_write.sum",
    "lts__t_sector_hit_rate.pct",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
    # The same over the kernel's elapsed cycles: the profile gate's figure (above) is per active
    # SM cycle, so an SM that idles through a tail counts less there than here (ninth session).
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
    "sm__cycles_active.avg",
    "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active",        # MUFU (ex2)
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active",
    "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_selected_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio",
]
SHAPES = ((8, 16, 2048, 64, False), (8, 16, 2048, 64, True), (16, 16, 512, 64, False), (1, 8, 512, 64, False),
          (4, 16, 4096, 128, False), (4, 16, 4096, 128, True))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--metrics", action="store_true", help="print the metric list for ncu and exit")
    ap.add_argument("--build")
    ap.add_argument("--lib", default="e")
    ap.add_argument("--shape", help="B,H,S,D[,causal]: this shape only (default: the six below)")
    a = ap.parse_args()
    if a.metrics:
        print(",".join(METRICS))
        return
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import check
    check.BUILD = Path(a.build)
    lib = check.Lib(a.lib)
    shapes = SHAPES
    if a.shape:
        f = [int(x) for x in a.shape.split(",")]
        shapes = ((f[0], f[1], f[2], f[3], bool(f[4]) if len(f) > 4 else False),)
    for (B, H, S, D, causal) in shapes:
        q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.float16) for _ in range(3))
        o = torch.empty_like(q)
        assert lib(q, k, v, o, None, causal) == 0
        with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
            F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        torch.cuda.synchronize()
        print("shape", (B, H, S, D, causal), flush=True)


if __name__ == "__main__":
    main()
