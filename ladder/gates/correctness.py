"""Gate 4, correctness: judges the child's trial rows (ladder/gpu/correctness.py states the
method). A trial passes when the kernel's max error, over the elements more than one unit of the
dtype (at the exact answer's magnitude) from the exact answer, is at most k times the larger of
SDPA's own max error on the same inputs and the error of rounding the exact answer to the dtype
(a floor for where SDPA happens to be exact), every output element was written, nothing outside
the views changed, the log-sum-exp is within lse_atol + lse_rtol x |lse|, and the output is not
biased: its relative gain against the correctly rounded answer (in units of the dtype's unit
roundoff, with its standard error; ladder/gpu/correctness.py relative_bias) is within
bias_floor + bias_k x SDPA's own gain + bias_z standard errors. A max-error bound alone lets
through a kernel that rounds P or O toward zero: its errors all have one sign, yet each stays
under 2x SDPA's. SDPA's gain enters additively because tensor-core accumulation is itself
biased toward zero and grows with the keys summed: on an H100, V offset by 100 at S = 8192
(fp16), every phase's kernel reads -0.065 u and SDPA's flash backend -0.031 u.

Two refinements of the twenty-fifth session, each after correct kernels failed on new draws
(phases/phase_e/NOTES.md, twenty-fifth session):
- An element within one unit of the exact answer (one of its two neighbours in the dtype:
  faithfully rounded) is never over tolerance. k x the error of correct rounding is just under
  one unit wherever the case's largest rounding error is just under half a unit, so a kernel one
  unit off at one element of millions failed where SDPA rounded correctly; a kernel a unit off
  everywhere in one direction is the bias bound's to see.
- The bias bound's multiple of its standard error is Student's t with rows - 1 degrees of
  freedom, not the normal's bias_z: the standard error comes from the rows themselves, and from
  two rows (a residue case of S_q = 2) it read 1e-6 u and made a gain of -0.08 u "significant"."""
from .. import cases
from ..vocab import shape_label
from . import by_config, child_failure, special

# One row per trial, these fields in this order (compact: thousands of trials per config).
# Records made before the bias check end at outside_changed; their bias is not judged.
# Records made before the twenty-fifth session end at bias_sdpa: their max error is judged whole and
# their bias with bias_z itself.
ROW = ("trial", "err", "err_sdpa", "err_round", "lse_err", "lse_ref_absmax", "unwritten", "outside_changed",
       "bias", "bias_se", "bias_sdpa", "err_beyond_unit", "bias_units")


def bias_z(section, units):
    """The bias bound's multiple of its standard error, from `units` output rows. The standard error
    is estimated from the rows themselves, so with few rows it is itself uncertain: the multiple is
    Student's t with units - 1 degrees of freedom at the one-sided tail bias_z has under the normal
    (bias_z when units is unknown; no bound, None, from a single row)."""
    if units is None:
        return section["bias_z"]
    if units < 2:
        return None
    from scipy import stats
    return float(stats.t.isf(stats.norm.sf(section["bias_z"]), units - 1))


def judge(r, section):
    """(ok, tolerance, why) for one trial row (a dict of ROW)."""
    tol = section["k"] * max(r["err_sdpa"], r["err_round"]) + 1e-7
    lse_tol = section["lse_atol"] + section["lse_rtol"] * r["lse_ref_absmax"]
    why = []
    judged = r.get("err_beyond_unit", r["err"])
    if not judged <= tol:
        why.append(f"max error {judged:.3g} > tolerance {tol:.3g} (sdpa {r['err_sdpa']:.3g})"
                   + (", more than one unit of the dtype off" if "err_beyond_unit" in r else ""))
    if r["unwritten"]:
        why.append(f"{r['unwritten']} output elements never written")
    if r["outside_changed"]:
        why.append(f"{r['outside_changed']} elements outside the views changed (written past o's rows, or into inputs)")
    if not r["lse_err"] <= lse_tol:
        why.append(f"log-sum-exp error {r['lse_err']:.3g} > {lse_tol:.3g}")
    z = bias_z(section, r.get("bias_units"))
    if r.get("bias") is not None and r.get("bias_se") is not None and z is not None:
        bound = section["bias_floor"] + section["bias_k"] * abs(r["bias_sdpa"] or 0.0) + z * r["bias_se"]
        if not abs(r["bias"]) <= bound:
            why.append(f"output biased: gain {r['bias']:+.3f} u against the correctly rounded answer (se "
                       f"{r['bias_se']:.3f} u, sdpa {r['bias_sdpa'] or 0.0:+.3f} u) beyond {bound:.3f} u")
    return not why, tol, "; ".join(why)


def group_figures(group, section, all_cases):
    case = all_cases[group["case"]]
    shape = dict(case, dtype=group["dtype"], causal=group["causal"])
    rows = [dict(zip(ROW, r)) for r in group["rows"]]
    judged = [(r, *judge(r, section)) for r in rows]
    fails = [(r, why) for r, ok, _, why in judged if not ok]
    message = None
    if fails:
        r, why = fails[0]
        d = group["details"].get(str(r["trial"]), {})
        plan = d.get("plan", {})
        message = (f"{shape_label(shape)} trial {r['trial']} ({plan.get('values', {}).get('name', '?')} values, "
                   f"layouts {plan.get('layouts')}, scale {plan.get('scale', 0):.3g}): {why}; "
                   f"{d.get('n_over', '?')} of {d.get('n_elements', '?')} elements over tolerance, first at "
                   f"(b,h,s,d)={d.get('first_over')}, worst at {d.get('worst_at')} (kernel {d.get('worst_kernel')}, "
                   f"ref {d.get('worst_ref')})")
    elif group.get("error"):
        message = f"{shape_label(shape)} {group['error']}"
    elif len(rows) < group["planned"]:
        message = f"{shape_label(shape)}: only {len(rows)} of {group['planned']} trials ran"
    worst = max((r.get("err_beyond_unit", r["err"]) / tol for r, _, tol, _ in judged), default=0.0)
    return {"label": shape_label(shape), "trials": len(rows), "failed": len(fails), "residue": bool(case.get("residue")),
            "max_err": max((r["err"] for r in rows), default=None),
            "max_err_sdpa": max((r["err_sdpa"] for r in rows), default=None),
            "worst_err_over_tol": worst, "message": message}


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    section, configs = inputs["section"], inputs["configs"]
    all_cases = list(section["cases"]) + cases.residue_cases(section["residues"])
    planned = len(cases.groups(section))
    failures, figures = {}, {}
    for c in configs:
        outcome = raw["configs"][c["name"]]
        why = child_failure(outcome, section["timeout_s"])
        if why:
            failures[c["name"]] = [why]
            continue
        groups = [group_figures(g, section, all_cases) for g in outcome["result"]["groups"]]
        fails = [g["message"] for g in groups if g["message"]]
        if len(groups) < planned and not fails:
            fails.append(f"only {len(groups)} of {planned} groups ran")
        failures[c["name"]] = fails
        worst = max((g["worst_err_over_tol"] for g in groups), default=0.0)
        figures[c["name"]] = {"groups": len(groups), "trials": sum(g["trials"] for g in groups),
                              "failed_groups": sum(1 for g in groups if g["message"]),
                              "worst_err_over_tol": worst, "wall_s": outcome["result"].get("wall_s"),
                              "worst_groups": sorted(groups, key=lambda g: -g["worst_err_over_tol"])[:5]}
    n_trials = sum(t for *_, t in cases.groups(section))
    out = by_config(configs, failures, lambda ok: (
        f"{n_trials} trials in {planned} groups (floor + phase cases, {len(section['values'])} value "
        f"distributions, per-tensor layouts, residue sweep) within {section['k']:g}x SDPA's error (worst at "
        f"{max(figures[n]['worst_err_over_tol'] for n in ok):.2f} of tolerance)"))
    out["configs"] = figures
    return out
