"""Gate 4, correctness: the shape matrix x trials of ladder/gpu/correctness_body.py (its docstring
states the method and the tolerance), in a watched child per configuration."""
from . import Result, run_per_config, summarize_failures


def run(ctx):
    spec = ctx.spec
    c = spec.section("correctness")
    result, failures, total = Result("pass", ""), [], 0
    for name, delivered in run_per_config(spec, "correctness", c["timeout_s"], result, failures):
        groups = delivered["groups"]
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
