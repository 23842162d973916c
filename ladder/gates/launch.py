"""Gate 2, launch: every configuration runs the spec's launch shapes in its own child process
under a watchdog. A fault (illegal address, misaligned access) or a hang is that configuration's
failure, with the CUDA error text; the other configurations still run."""
from ..build.buildfile import artifacts
from ..child import run_worker
from ..spec import shape_label
from . import Result, summarize_failures


def run(ctx):
    spec = ctx.spec
    section = spec.section("launch")
    result, failures = Result("pass", ""), []
    for config in spec.data["build"]["configs"]:
        name = config["name"]
        outcome = run_worker("launch", section["timeout_s"], spec_dir=str(spec.dir), config=name,
                             lib=str(artifacts(spec, name)["lib"]))
        result.log.append(f"== config {name}\n{outcome.output}")
        if outcome.result is None:
            failures.append(f"{name}: {outcome.describe(section['timeout_s'])}")
            result.measurements[name] = {"ok": False, "error": outcome.describe(section["timeout_s"]),
                                         "output_tail": outcome.tail()}
            continue
        rows = outcome.result["shapes"]
        bad = [r for r in rows if not r["ok"]]
        for r in bad:
            failures.append(f"{name} at {shape_label(r['shape'])}: {r['error']}")
        result.measurements[name] = {"ok": not bad, "shapes": rows}
    if failures:
        result.status, result.reason = "fail", summarize_failures(failures)
    else:
        n = len(section["shapes"])
        result.reason = f"{len(spec.data['build']['configs'])} config(s) x {n} shape(s) launched and synchronised cleanly"
    return result
