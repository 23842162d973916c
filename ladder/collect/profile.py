"""Collects the profile gate: Nsight Compute on the standalone driver of the performance
candidate, clocks left alone (--clock-control none), the second launch profiled so module load
stays out; the CSV it prints, per workload."""
from ..gates.profile import METRICS
from ..toolchain.ninja_build import artifacts
from ..tools import find
from ..watchdog import run_watched


def collect(job):
    section = job.inputs["section"]
    config = job.inputs["context"]["config"]
    driver = artifacts(job.spec, config)["driver"]
    by_name = {w["name"]: w for w in job.spec.workloads}
    out = {}
    for name in section["workloads"]:
        w = by_name[name]
        args = [str(w[k]) for k in ("B", "H", "S_q", "S_k", "D")] + [w["dtype"], str(int(w["causal"])), "2"]
        cmd = [find("ncu"), "--clock-control", "none", "--launch-skip", "1", "--launch-count", "1", "--csv",
               "--page", "raw", "--metrics", ",".join(METRICS.values()), str(driver), *args]
        o = run_watched(cmd, section["timeout_s"])
        job.log.append(f"== {name}\n$ {' '.join(cmd)}\n{o.output}")
        text = o.output
        out[name] = {"returncode": o.returncode, "timed_out": o.timed_out,
                     "csv": text[text.find('"ID"'):] if '"ID"' in text else o.tail(20)}
    return {"config": config, "workloads": out}
