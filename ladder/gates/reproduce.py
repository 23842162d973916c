"""make reproduce: every phase's performance gate measured again, in new processes, and each
verdict and target compared with the committed evidence's. Raw: both tables per phase (copied
from the two evidence files, which check-evidence cross-checks). Derived:

- Targets: each must be met, or missed, in both runs.
- Verdicts, one pair at a time:
  - identical: agree;
  - two different claims (FASTER, SAME, SLOWER; ladder/stats.py): a contradiction;
  - a claim in one run and a withheld verdict in the other (AMBIGUOUS, UNRESOLVED, NO VERDICT):
    "withheld in one run". Not a contradiction: a reproduction interval whose end sits at the
    margin lands on either side of it from run to run, whatever the rule (all 3 verdicts that
    differed between the H100 evidence at 309a86a and its re-run were of this kind, their
    ratios 0.01-0.14% apart). Counted and listed, never hidden;
  - two different withheld verdicts: agree (neither run claims anything).
- Drift: per pair timed in both runs, |difference of log ratios| / sqrt(2), the drift of one
  invocation; its 95th percentile must be at most the invocation drift d the verdicts assume.
The status fails on a target that differs, a contradiction, or a drift over d."""
import math

import numpy as np

from .. import stats
from . import special

DRIFT_QUANTILE = 95


def table(perf_derived):
    """A performance record's verdicts and log ratios ("workload / kernel") and targets met
    ("vs i on workload"; "own i on workload" for a bound on the candidate's own figure)."""
    comps = {f"{w['name']} / {n}": c for w in perf_derived.get("workloads", []) for n, c in w["comparisons"].items()}
    targets = {f"{t['target'].get('vs') or 'own'} {i} on {t['workload']}": t["met"]
               for i, t in enumerate(perf_derived.get("targets", []))}
    return {"verdicts": {k: c["verdict"] for k, c in comps.items()},
            "log_ratios": {k: c["log_ratio"] for k, c in comps.items()}, "targets": targets}


def classify(a, b):
    if a == b:
        return "agree"
    if a in stats.CLAIMS and b in stats.CLAIMS:
        return "contradiction"
    if a in stats.CLAIMS or b in stats.CLAIMS:
        return "withheld in one run"
    return "agree"


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    phases, contradictions, withheld, target_diffs, drifts = {}, [], [], [], []
    for phase, pair in raw["phases"].items():
        a, b = pair["committed"], pair["rerun"]
        kinds = {k: classify(a["verdicts"].get(k), b["verdicts"].get(k))
                 for k in sorted(set(a["verdicts"]) | set(b["verdicts"]))}
        line = lambda k: f"{phase}: {k}: {a['verdicts'].get(k)} then {b['verdicts'].get(k)}"
        c = [line(k) for k, v in kinds.items() if v == "contradiction"]
        w = [line(k) for k, v in kinds.items() if v == "withheld in one run"]
        t = [f"{phase}: target {k}: met {a['targets'].get(k)} then {b['targets'].get(k)}"
             for k in sorted(set(a["targets"]) | set(b["targets"])) if a["targets"].get(k) != b["targets"].get(k)]
        d = [abs(a["log_ratios"][k] - b["log_ratios"][k]) / math.sqrt(2)
             for k in a.get("log_ratios", {}) if k in b.get("log_ratios", {})]
        phases[phase] = {"verdicts": len(kinds), "targets": len(a["targets"]), "identical":
                         sum(a["verdicts"].get(k) == b["verdicts"].get(k) for k in kinds),
                         "contradictions": c, "withheld_in_one_run": w, "target_differences": t,
                         "drift_max": max(d, default=0.0)}
        contradictions += c
        withheld += w
        target_diffs += t
        drifts += d
    n_v = sum(p["verdicts"] for p in phases.values())
    n_t = sum(p["targets"] for p in phases.values())
    identical = sum(p["identical"] for p in phases.values())
    drift = float(np.percentile(drifts, DRIFT_QUANTILE)) if drifts else 0.0
    out = {"phases": phases, "verdicts": n_v, "targets": n_t, "identical_verdicts": identical,
           "contradictions": len(contradictions), "withheld_in_one_run": len(withheld),
           "target_differences": len(target_diffs), "drift_quantile": DRIFT_QUANTILE,
           "drift_measured": drift, "drift_assumed": stats.INVOCATION_DRIFT, "pairs_for_drift": len(drifts)}
    summary = (f"re-run: {', '.join(sorted(phases)) or 'none'}; {n_t - len(target_diffs)} of {n_t} targets and {n_v - len(contradictions)} of {n_v} verdicts agree "
               f"({identical} identical, {len(withheld)} withheld in one run, {len(contradictions)} contradicted); "
               f"drift p{DRIFT_QUANTILE} {math.expm1(drift):.2%} per invocation against the {math.expm1(stats.INVOCATION_DRIFT):.2%} "
               f"the verdicts assume ({len(drifts)} pairs)")
    problems = target_diffs + contradictions
    if drift > stats.INVOCATION_DRIFT:
        problems.append(f"the measured invocation drift {math.expm1(drift):.2%} exceeds the assumed "
                        f"{math.expm1(stats.INVOCATION_DRIFT):.2%}")
    if problems:
        return dict(out, status="fail", reason=summary + ". " + "; ".join(problems[:3]))
    return dict(out, status="pass", reason=summary)
