"""Runs a phase's gates in order. A gate runs only when the gate before it has passing evidence
whose inputs hash to what today's sources give (ladder/freshness.py); otherwise it is recorded as
refused, with the reason. GPU gates on a machine with no CUDA device are recorded as blocked, in
run-local output, never in evidence/. Every record is {inputs, raw, derived, meta}: the gate's
collector gathers raw data, its derive() alone decides figures and status."""
import os
import threading
import time
import traceback

from . import evidence, freshness
from .collect import Job
from .environment import cuda_probe, device_name, environment, git_state, nvcc_version, versions
from .layout import evidence_dir
from .registry import GPU_GATES, collect_fn, derive_fn
from .roofline import peaks

_print_lock = threading.Lock()


def prerequisite_problem(spec, gate, device, toolchain):
    """Why `gate` may not run yet (the gate before it has no fresh passing evidence), or None."""
    order = spec.gates
    i = order.index(gate)
    if i == 0:
        return None
    prev = order[i - 1]
    rec = evidence.read(evidence_dir(device, spec.dir) / f"{prev}.json")
    if rec is None:
        return f"no {prev} evidence"
    if evidence.status(rec) != "pass":
        return f"{prev} did not pass ({evidence.status(rec)}: {rec['derived']['reason']})"
    stale = freshness.staleness(rec, spec, device, toolchain)
    if stale:
        return f"{prev} evidence is stale: {stale}"
    return None


def _previous_passing(spec, gate, device):
    """[{name, sweep}] of the configurations that passed the gate before (all, for build)."""
    order = spec.gates
    i = order.index(gate)
    sweep = {c["name"]: c["sweep"] for c in spec.configs}
    if i == 0:
        return [{"name": n, "sweep": s} for n, s in sweep.items()]
    back = "correctness" if gate in ("performance", "profile") else order[i - 1]
    rec = evidence.read(evidence_dir(device, spec.dir) / f"{back}.json")
    passing = (rec or {}).get("derived", {}).get("passing", [])
    return [{"name": n, "sweep": sweep[n]} for n in passing if n in sweep]


def gate_inputs(spec, gate, device, toolchain, probe, headers=None):
    from .spec import load_spec
    if gate == "build":
        inputs = freshness.build_inputs(spec, headers or [], toolchain)
    else:
        b = freshness.current_hash(spec, "build", device, toolchain)
        compared = None
        if gate == "performance":
            compared = {n: freshness.current_hash(load_spec(spec.dir.parent / n), "build", device, toolchain)
                        for n in spec.compared_phases}
        inputs = freshness.gate_inputs(spec, gate, b, compared)
    inputs["configs"] = _previous_passing(spec, gate, device)
    inputs["context"] = {"phase": spec.name, "device": device}
    if gate == "performance":
        inputs["context"]["peaks"] = peaks(probe)
    if gate == "profile":
        perf = evidence.read(evidence_dir(device, spec.dir) / "performance.json")
        inputs["context"]["config"] = (perf or {}).get("derived", {}).get("config") or spec.configs[0]["name"]
    return inputs


def run_gate(spec, gate, device, probe, toolchain, echo, out_dir=None):
    started, t0 = evidence.now(), time.time()
    log = []
    inputs = None if gate == "build" else gate_inputs(spec, gate, device, toolchain, probe)
    headers = []
    if gate in GPU_GATES and not probe.get("available"):
        raw = {"blocked": probe.get("reason", "no CUDA device")}
    else:
        problem = prerequisite_problem(spec, gate, device, toolchain)
        if problem:
            raw = {"refused": problem}
        else:
            echo(f"[{spec.name}] {gate} ...")
            job = Job(spec=spec, gate=gate, inputs=inputs or {"section": spec.data["build"]},
                      configs=_previous_passing(spec, gate, device), device=device, probe=probe, log=log)
            try:
                raw = collect_fn(gate)(job)
            except Exception as e:  # a harness bug must still leave evidence that says what happened
                raw = {"error": f"{type(e).__name__}: {e}\n{traceback.format_exc()}"}
                log.append(traceback.format_exc())
            headers = job.headers
    if gate == "build":
        inputs = gate_inputs(spec, gate, device, toolchain, probe, headers)
    derived = derive_fn("gate", gate)(evidence.canonical(raw), inputs)
    meta = {"git": git_state(), "env": environment(), "versions": versions(), "started": started,
            "finished": evidence.now(), "duration_s": round(time.time() - t0, 2)}
    rec = evidence.record(kind="gate", name=f"{spec.name}/{gate}", phase=spec.name, gate=gate, inputs=inputs,
                          raw=evidence.canonical(raw), derived=derived, meta=meta)
    git = meta["git"]
    header = [f"{spec.name} / {gate}: {derived['status'].upper()}: {derived['reason']}",
              f"inputs {inputs['hash']}, git {git['sha'][:12]}{' (dirty)' if git['dirty'] else ''}, "
              f"device {device}, {started}, {meta['duration_s']} s", ""]
    evidence.write((out_dir or evidence_dir(device, spec.dir)) / f"{gate}.json", rec, "\n".join(header + [str(x) for x in log]) + "\n")
    echo(f"[{spec.name}] {gate}: {derived['status'].upper()}: {derived['reason']}")
    return gate, derived["status"], derived["reason"]


def run(spec, gates=None, echo=print):
    """Runs the spec's gates (or the named subset, still in ladder order). Returns the list of
    (gate, status, reason)."""
    probe, device, toolchain = cuda_probe(), device_name(), nvcc_version()
    return [run_gate(spec, g, device, probe, toolchain, echo) for g in spec.gates if gates is None or g in gates]


def run_all(specs, echo=print):
    """Every phase: build to correctness for all phases at once (those gates time nothing; each
    phase's GPU work is in its own children), then performance and profile one phase at a time,
    with the GPU otherwise idle."""
    from concurrent.futures import ThreadPoolExecutor
    untimed = ("build", "launch", "sanity", "correctness")

    def locked(msg):
        with _print_lock:
            echo(msg)

    with ThreadPoolExecutor(max_workers=max(1, len(specs))) as pool:
        first = list(pool.map(lambda s: run(s, gates=untimed, echo=locked), specs))
    second = [run(s, gates=[g for g in s.gates if g not in untimed], echo=echo) for s in specs]
    return [a + b for a, b in zip(first, second)]


def exit_code(outcomes):
    require_gpu = os.environ.get("REQUIRE_GPU") == "1"
    for _, status, _ in outcomes:
        if status == "pass" or (status == "blocked" and not require_gpu):
            continue
        return 1
    return 0
