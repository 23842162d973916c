"""Runs a phase's gates in order. A gate runs only when the gate before it has passing evidence
for the same source hash; otherwise it is recorded as refused, with the reason. GPU gates on a
machine with no CUDA device are recorded as blocked, in run-local output, never in evidence/."""
import importlib
import os
import time
import traceback

from . import evidence
from .environment import cuda_probe, device_name, environment, git_state
from .gates import Context, Result
from .layout import evidence_dir, is_control
from .sourcehash import source_digests, source_hash

GPU_GATES = ("launch", "sanity", "correctness", "performance", "profile")


def _gate_module(gate):
    return importlib.import_module(f"ladder.gates.{gate}")


def prerequisite_problem(out_dir, prev_gate, current_hash):
    """Why the gate after prev_gate may not run, or None when it may."""
    ev = evidence.read(out_dir, prev_gate)
    if ev is None:
        return f"no {prev_gate} evidence"
    if ev["source_hash"] != current_hash:
        return f"{prev_gate} evidence is for source hash {ev['source_hash']}, sources are now {current_hash}"
    if ev["status"] != "pass":
        return f"{prev_gate} did not pass ({ev['status']}: {ev['reason']})"
    return None


def run_gate(ctx, gate):
    if gate in GPU_GATES and not ctx.has_gpu:
        return Result("blocked", ctx.probe.get("reason", "no CUDA device"))
    try:
        return _gate_module(gate).run(ctx)
    except Exception as e:  # a harness bug must still leave evidence that says what happened
        return Result("error", f"{type(e).__name__}: {e}", log=[traceback.format_exc()])


def run(spec, gates=None, echo=print):
    """Runs the spec's gates (or the named subset, still in ladder order). Returns the list of
    (gate, status, reason)."""
    probe = cuda_probe()
    device = device_name()
    out_dir = evidence_dir(device, spec.dir)
    ctx = Context(spec=spec, device=device, probe=probe, out_dir=out_dir)
    h, sources, env, git = source_hash(spec), source_digests(spec), environment(), git_state()
    order = spec.gates
    selected = [g for g in order if gates is None or g in gates]
    outcomes = []
    for gate in selected:
        i = order.index(gate)
        started, t0 = evidence.now(), time.time()
        problem = prerequisite_problem(out_dir, order[i - 1], h) if i > 0 else None
        if gate in GPU_GATES and not ctx.has_gpu:
            result = run_gate(ctx, gate)
        elif problem:
            result = Result("refused", problem)
        else:
            echo(f"[{spec.name}] {gate} ...")
            result = run_gate(ctx, gate)
        result.measurements.setdefault("summary", result.reason)
        result.measurements["duration_s"] = round(time.time() - t0, 2)
        rec = evidence.record(
            phase=spec.name, gate=gate, status=result.status, reason=result.reason, source_hash=h,
            sources=sources, git=git, env=env, thresholds=spec.data.get(gate), started=started,
            measurements=result.measurements, kind="control" if is_control(spec.dir) else "phase")
        header = [f"{spec.name} / {gate}: {result.status.upper()}: {result.reason}",
                  f"source hash {h}, git {git['sha'][:12]}{' (dirty)' if git['dirty'] else ''}, "
                  f"device {device}, {started}", ""]
        evidence.write(out_dir, rec, "\n".join(header + [str(x) for x in result.log]) + "\n")
        echo(f"[{spec.name}] {gate}: {result.status.upper()}: {result.reason}")
        outcomes.append((gate, result.status, result.reason))
    return outcomes


def exit_code(outcomes):
    require_gpu = os.environ.get("REQUIRE_GPU") == "1"
    for _, status, _ in outcomes:
        if status == "pass" or (status == "blocked" and not require_gpu):
            continue
        return 1
    return 0
