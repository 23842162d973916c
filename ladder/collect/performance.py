"""Collects the performance gate: the candidate, its A/A twin, the other configurations it is
timed with, the phases its targets name and torch's SDPA backends, in `processes` independent
watched children, plus more (up to max_processes) for workloads whose comparisons are not yet
resolved. With a sweep and no fixed config, a short pilot first picks the winner (the lowest
geometric mean over workloads), which then stands as the candidate."""
import secrets

from ..gates import child_failure
from ..gates.performance import analyze, pilot_winner, resolved
from ..layout import evidence_dir
from ..toolchain.helpers import shared_library
from ..toolchain.ninja_build import artifacts, run_ninja
from ..watchdog import run_job

PILOT_ROUNDS = 8


def phase_config(spec, device):
    """The configuration another phase is timed as: its fixed candidate, else its last recorded
    sweep winner, else its first configuration."""
    from .. import evidence
    perf = spec.data["performance"]
    if perf["config"]:
        return perf["config"]
    rec = evidence.read(evidence_dir(device, spec.dir) / "performance.json")
    if rec and rec["derived"].get("config"):
        return rec["derived"]["config"]
    return spec.configs[0]["name"]


def _lib(spec, config):
    run_ninja(spec, spec.config(config), spec.data["build"]["timeout_s"])
    return str(artifacts(spec, config)["lib"])


def collect(job):
    from ..layout import PACKAGE
    spec, section = job.spec, job.inputs["section"]
    timing = section["timing"]
    passing = [c["name"] for c in job.configs]
    blocker = str(shared_library(PACKAGE / "gpu" / "blocker.cu"))
    base = {"workloads": section["workloads"], "timing": timing, "blocker_lib": blocker,
            "producer_lib": str(shared_library(PACKAGE / "gpu" / "producer.cu"))}
    raw = {"pilot": None, "pilot_candidates": None, "failures": [], "processes": []}

    def child(orders, what):
        o = run_job("performance", dict(base, **orders), section["timeout_s"])
        job.log.append(f"== {what}\n{o.output}")
        why = child_failure(o.as_raw(), section["timeout_s"])
        if why:
            raw["failures"].append(f"{what}: {why}")
        return o.result

    sweep = [c["name"] for c in spec.configs if c["sweep"] and c["name"] in passing]
    if section["config"] is None and sweep:
        pilot_kernels = {f"{spec.name}[{c}]": _lib(spec, c) for c in sweep}
        first = next(iter(pilot_kernels))
        pilot = child({"kernels": pilot_kernels, "candidate": first, "baselines": [], "process": 0, "pilot": True,
                       "pilot_rounds": PILOT_ROUNDS}, "pilot")
        raw["pilot"], raw["pilot_candidates"] = pilot, list(pilot_kernels)
        winner = pilot_winner(pilot, list(pilot_kernels))[len(spec.name) + 1:-1] if pilot else sweep[0]
    else:
        winner = section["config"] or passing[0]
    kernels = {spec.name: _lib(spec, winner)}
    others = [c for c in section["also_time"] + sweep if c != winner and c in passing]
    for c in dict.fromkeys(others):
        kernels[f"{spec.name}[{c}]"] = _lib(spec, c)
    for name, other in spec.compared_specs().items():
        kernels[name] = _lib(other, phase_config(other, job.device))
    baselines = list(dict.fromkeys(section["baselines"] + [t["vs"] for t in section["targets"]
                                                           if (t["vs"] or "").startswith("sdpa_") and t["vs"] not in
                                                           ("sdpa_best", "sdpa_default")]))
    orders = {"kernels": kernels, "candidate": spec.name, "baselines": baselines}
    raw.update(candidate=spec.name, winner_config=winner, kernels=list(kernels),
               sweep_names=[n for n in kernels if n.startswith(spec.name + "[") and n[len(spec.name) + 1:-1] in sweep])
    for p in range(timing["processes"]):
        # Process 0 also values a few large problems drawn from a seed picked here for this run
        # alone (ladder/untimed.py): no one can aim a kernel around them. Its raw data records it.
        drawn = {"draw_seed": secrets.randbits(31)} if p == 0 else {}
        result = child(dict(orders, process=p, ceilings=p == 0, **drawn), f"process {p}")
        if result:
            raw["processes"].append(result)
    from ..roofline import peaks
    pk = peaks(job.probe)
    for p in range(timing["processes"], timing["max_processes"]):
        if not raw["processes"]:
            break
        ceil = raw["processes"][0]["ceilings"]
        todo = []
        for wi, w in enumerate(section["workloads"]):
            ps = [r["workloads"][wi] for r in raw["processes"] if r["workloads"][wi] is not None]
            todo.append(None if resolved(analyze(w["name"], ps, spec.name, pk, ceil, timing)) else w)
        if not any(todo):
            break
        result = child(dict(orders, process=p, workloads=todo), f"process {p} (unresolved workloads)")
        if result:
            raw["processes"].append(result)
    return raw
