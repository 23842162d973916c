"""Gate 6 (optional), profile: Nsight Compute's figures per workload (tensor-pipe utilisation,
for mma.sync and for wgmma, achieved occupancy, DRAM throughput, shared-memory bank conflicts)
(sm__pipe_tensor_cycles_active counts mma.sync and wgmma alike; the wgmma instruction count
shows which) from the CSV it printed, and the thresholds gate.yaml gives."""
from .. import parsers
from . import special, summarize

METRICS = {
    "tensor_pipe_pct": "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
    "hmma_pipe_pct": "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "gmma_instructions": "sm__inst_executed_pipe_tensor_op_gmma.sum",
    "achieved_occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram_throughput_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "smem_ld_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "smem_st_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smem_ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smem_st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "duration_ns": "gpu__time_duration.sum",
}
CHECKS = (("min_tensor_pipe_pct", "tensor_pipe_pct", lambda v, t: v >= t),
          ("min_achieved_occupancy_pct", "achieved_occupancy_pct", lambda v, t: v >= t),
          ("max_smem_bank_conflict_fraction", "smem_bank_conflict_fraction", lambda v, t: v <= t))


def figures(csv_text):
    out = parsers.ncu_csv(csv_text, METRICS)
    if out is None:
        return None
    conflicts = (out.get("smem_ld_bank_conflicts") or 0) + (out.get("smem_st_bank_conflicts") or 0)
    wavefronts = (out.get("smem_ld_wavefronts") or 0) + (out.get("smem_st_wavefronts") or 0)
    if wavefronts:
        # Each conflict costs one extra wavefront: the share of shared-memory wavefronts wasted.
        out["smem_bank_conflict_fraction"] = conflicts / wavefronts
    return out


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    th = inputs["section"]["thresholds"]
    failures, per = [], {}
    for name, r in raw["workloads"].items():
        f = figures(r["csv"]) if r["returncode"] == 0 and not r["timed_out"] else None
        if f is None:
            tail = " | ".join(r["csv"].strip().splitlines()[-2:])
            failures.append(f"{name}: ncu gave no metrics (exit {r['returncode']}{', timed out' if r['timed_out'] else ''}: {tail})")
            continue
        per[name] = f
        for key, fig, ok in CHECKS:
            if th[key] is not None and (f.get(fig) is None or not ok(f[fig], th[key])):
                failures.append(f"{name}: {fig} {f.get(fig)} vs {key} {th[key]:g}")
    if failures:
        return {"status": "fail", "reason": summarize(failures), "workloads": per, "config": raw["config"]}
    reason = f"profiled {raw['config']}: " + "; ".join(
        f"{n} tensor pipe {m.get('tensor_pipe_pct')}%, occupancy {m.get('achieved_occupancy_pct')}%" for n, m in per.items())
    return {"status": "pass", "reason": reason, "workloads": per, "config": raw["config"]}
