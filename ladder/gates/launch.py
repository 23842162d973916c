"""Gate 2, launch: every configuration runs the spec's launch shapes in its own child process
under a watchdog. A fault (illegal address, misaligned access) or a hang is that configuration's
failure, with the CUDA error text; the other configurations still run."""
from ..spec import shape_label
from . import Result, run_per_config, summarize_failures


def run(ctx):
    spec = ctx.spec
    section = spec.section("launch")
    result, failures = Result("pass", ""), []
    for name, delivered in run_per_config(spec, "launch", section["timeout_s"], result, failures):
        rows = delivered["shapes"]
        bad = [r for r in rows if not r["ok"]]
        failures += [f"{name} at {shape_label(r['shape'])}: {r['error']}" for r in bad]
        result.measurements[name] = {"ok": not bad, "shapes": rows}
    if failures:
        result.status, result.reason = "fail", summarize_failures(failures)
    else:
        n = len(section["shapes"])
        result.reason = f"{len(spec.data['build']['configs'])} config(s) x {n} shape(s) launched and synchronised cleanly"
    return result
