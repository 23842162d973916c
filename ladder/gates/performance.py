"""Gate 5, performance: times the candidate against torch's SDPA backends (and any phase a target
names) in one watched child; ladder/gpu/timing.py states the measuring method and
ladder/stats.py the statistics. Fails on an unmet target, a time under the physical floor, or a
re-checked timed output that is wrong."""
from ..build.buildfile import BuildFailed, artifacts, run_ninja
from ..child import run_worker
from ..perf_analysis import analyze_workload, evaluate_targets
from ..roofline import peaks
from ..spec import load_spec
from . import Result, summarize_failures


def _libs(spec):
    libs = {spec.name: str(artifacts(spec, spec.perf_config["name"])["lib"])}
    for name in spec.section("performance")["also_time"]:
        libs[f"{spec.name}[{name}]"] = str(artifacts(spec, name)["lib"])
    for t in spec.section("performance")["targets"]:
        other = spec.dir.parent / t["vs"]
        if (other / "gate.yaml").is_file() and t["vs"] not in libs:
            o = load_spec(other)
            run_ninja(o, o.perf_config, o.data["build"]["timeout_s"])
            libs[o.name] = str(artifacts(o, o.perf_config["name"])["lib"])
    return libs


def run(ctx):
    spec = ctx.spec
    perf = spec.section("performance")
    result = Result("pass", "")
    try:
        libs = _libs(spec)
    except BuildFailed as e:
        return Result("error", f"could not build a phase a target compares against: {e}", log=[e.log])
    outcome = run_worker("performance", perf["timeout_s"], spec_dir=str(spec.dir), libs=libs)
    result.log.append(outcome.output)
    if outcome.result is None:
        return Result("fail", outcome.describe(perf["timeout_s"]), {"output_tail": outcome.tail()}, result.log)
    raw = outcome.result
    pk = peaks(ctx.probe)
    workloads = [analyze_workload(w, spec.name, pk, raw["ceilings"], perf["timing"]["recheck_atol"])
                 for w in raw["workloads"]]
    targets = evaluate_targets(perf["targets"], workloads)
    failures = [p for w in workloads for p in w["problems"]]
    failures += [f"target vs {t['vs']} on {t['workload']} not met: {t['why']}" for t in targets if not t["met"]]
    result.measurements.update(config=spec.perf_config["name"], ceilings=raw["ceilings"], peaks=pk,
                               workloads=workloads, targets=targets, kernels=list(libs))
    for w in workloads:
        c = w["kernels"][spec.name]
        line = [f"{w['name']}: {spec.name} {c['median']:.1f} us ({c['tflops']:.1f} TFLOP/s, n={c['n']})"]
        for name, comp in w["comparisons"].items():
            k = w["kernels"][name]
            line.append(f"{name} {k['median']:.1f} us ratio {comp['ratio']:.3f} "
                        f"[{comp['ci'][0]:.3f}, {comp['ci'][1]:.3f}] {comp['verdict']}")
        result.log.append("; ".join(line))
    if failures:
        result.status, result.reason = "fail", summarize_failures(failures, limit=2)
    else:
        met = len(targets)
        result.reason = f"{len(workloads)} workload(s) timed; {met} target check(s) met" if met else \
            f"{len(workloads)} workload(s) timed; no targets declared"
    result.measurements["summary"] = result.reason
    return result
