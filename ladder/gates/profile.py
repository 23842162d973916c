"""Gate 6 (optional), profile: Nsight Compute on the standalone driver, clocks left alone
(--clock-control none), second launch profiled so module load stays out. Records tensor-pipe
utilisation, achieved occupancy, DRAM throughput and shared-memory bank conflicts per workload,
and gates the thresholds gate.yaml gives."""
import csv
import io

from ..build.buildfile import artifacts
from ..child import run_watched
from ..tools import find
from . import Result, summarize_failures

METRICS = {
    "tensor_pipe_pct": "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "achieved_occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram_throughput_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "smem_ld_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "smem_st_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smem_ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smem_st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "duration_ns": "gpu__time_duration.sum",
}


def parse_csv(text):
    """ncu --csv --page raw: a header row of metric names, a units row, one row per kernel."""
    rows = list(csv.reader(io.StringIO(text[text.find('"ID"'):] if '"ID"' in text else text)))
    if len(rows) < 3:
        return None
    header, values = rows[0], rows[2]
    out = {}
    for key, metric in METRICS.items():
        if metric in header:
            cell = values[header.index(metric)].replace(",", "")
            try:
                out[key] = float(cell)
            except ValueError:
                out[key] = None
    conflicts = (out.get("smem_ld_bank_conflicts") or 0) + (out.get("smem_st_bank_conflicts") or 0)
    wavefronts = (out.get("smem_ld_wavefronts") or 0) + (out.get("smem_st_wavefronts") or 0)
    if wavefronts:
        # Each conflict costs one extra wavefront: the share of shared-memory wavefronts wasted.
        out["smem_bank_conflict_fraction"] = conflicts / wavefronts
    return out


def run(ctx):
    spec = ctx.spec
    prof = spec.section("profile")
    driver = artifacts(spec, spec.perf_config["name"])["driver"]
    by_name = {w["name"]: w for w in spec.workloads}
    result, failures = Result("pass", ""), []
    th = prof["thresholds"]
    for name in prof["workloads"]:
        w = by_name[name]
        args = [str(w[k]) for k in ("B", "H", "S_q", "S_k", "D")] + [w["dtype"], str(int(w["causal"])), "2"]
        cmd = [find("ncu"), "--clock-control", "none", "--launch-skip", "1", "--launch-count", "1", "--csv",
               "--page", "raw", "--metrics", ",".join(METRICS.values()), str(driver), *args]
        out = run_watched(cmd, prof["timeout_s"])
        result.log.append(f"== {name}\n$ {' '.join(cmd)}\n{out.output}")
        figures = parse_csv(out.output) if out.returncode == 0 else None
        if figures is None:
            failures.append(f"{name}: ncu gave no metrics ({out.describe(prof['timeout_s'])})")
            continue
        result.measurements[name] = figures
        checks = [("min_tensor_pipe_pct", "tensor_pipe_pct", lambda v, t: v >= t),
                  ("min_achieved_occupancy_pct", "achieved_occupancy_pct", lambda v, t: v >= t),
                  ("max_smem_bank_conflict_fraction", "smem_bank_conflict_fraction", lambda v, t: v <= t)]
        for key, fig, ok in checks:
            if th[key] is not None and (figures.get(fig) is None or not ok(figures[fig], th[key])):
                failures.append(f"{name}: {fig} {figures.get(fig)} vs {key} {th[key]:g}")
    if failures:
        result.status, result.reason = "fail", summarize_failures(failures)
    else:
        result.reason = f"profiled {', '.join(prof['workloads'])}: " + "; ".join(
            f"{n} tensor pipe {m.get('tensor_pipe_pct')}%, occupancy {m.get('achieved_occupancy_pct')}%"
            for n, m in result.measurements.items())
    return result
