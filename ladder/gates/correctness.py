"""Gate 4, correctness: the shape matrix x trials of ladder/gpu/correctness_body.py (its docstring
states the method and the tolerance), in a watched child per configuration."""
from ..build.buildfile import artifacts
from ..child import run_worker
from . import Result, summarize_failures


def run(ctx):
    spec = ctx.spec
    c = spec.section("correctness")
    result, failures, total = Result("pass", ""), [], 0
    for config in spec.data["build"]["configs"]:
        name = config["name"]
        outcome = run_worker("correctness", c["timeout_s"], spec_dir=str(spec.dir), config=name,
                             lib=str(artifacts(spec, name)["lib"]))
        result.log.append(f"== config {name}\n{outcome.output}")
        if outcome.result is None:
            failures.append(f"{name}: {outcome.describe(c['timeout_s'])}")
            result.measurements[name] = {"error": outcome.describe(c["timeout_s"]), "output_tail": outcome.tail()}
            continue
        groups = outcome.result["groups"]
        result.measurements[name] = {"groups": groups}
        for g in groups:
            total += g["trials"]
            result.log.append(f"{name} {g['label']}: {g['trials'] - g['failed']}/{g['trials']} pass, max err "
                              f"{g['max_err']:.3g} (sdpa {g['max_err_sdpa']:.3g}), worst err/tol "
                              f"{g['worst_err_over_tol']:.3f}, max lse err {g['max_lse_err']:.3g}")
            if g["failed"]:
                failures.append(f"{name}: {g['failed']}/{g['trials']} trials fail; {g['failures'][0]['message']}")
    if failures:
        result.status, result.reason = "fail", summarize_failures(failures, limit=2)
    else:
        worst = max((g["worst_err_over_tol"] for cfg in result.measurements.values() if "groups" in cfg
                     for g in cfg["groups"]), default=0.0)
        result.reason = (f"{total} trials over {len(c['cases'])} cases x {len(c['dtypes'])} dtypes x "
                         f"{len(c['causal'])} masks within {c['k']:g}x SDPA's error (worst at {worst:.2f} of tolerance)")
    return result
