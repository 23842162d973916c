"""make reproduce: every phase's performance gate measured again, in new processes, and each
verdict and target compared with the committed evidence's. Raw: both tables per phase (copied
from the two evidence files, which check-evidence cross-checks). Derived: every disagreement."""
from . import special


def table(perf_derived):
    """{"workload / kernel": verdict} and {"target i on workload": met} of a performance record."""
    verdicts = {f"{w['name']} / {n}": c["verdict"] for w in perf_derived.get("workloads", [])
                for n, c in w["comparisons"].items()}
    targets = {f"{t['target']['vs']} {i} on {t['workload']}": t["met"]
               for i, t in enumerate(perf_derived.get("targets", []))}
    return {"verdicts": verdicts, "targets": targets}


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    phases, disagreements = {}, []
    for phase, pair in raw["phases"].items():
        a, b = pair["committed"], pair["rerun"]
        diff = [f"{phase}: {k}: {a[kind].get(k)} then {b[kind].get(k)}"
                for kind in ("verdicts", "targets") for k in sorted(set(a[kind]) | set(b[kind]))
                if a[kind].get(k) != b[kind].get(k)]
        phases[phase] = {"verdicts": len(a["verdicts"]), "targets": len(a["targets"]), "disagreements": diff}
        disagreements += diff
    n_v = sum(p["verdicts"] for p in phases.values())
    n_t = sum(p["targets"] for p in phases.values())
    if disagreements:
        return {"status": "fail", "reason": f"{len(disagreements)} of {n_v + n_t} verdicts and targets disagree: "
                                            + "; ".join(disagreements[:3]), "phases": phases}
    return {"status": "pass", "reason": f"all {n_v} verdicts and {n_t} targets of {len(phases)} phase(s) reproduced",
            "phases": phases}
