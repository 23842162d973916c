"""make reproduce: re-runs every phase's performance gate (or those named by --only) in new
processes, writing the new records under evidence/<device>/reproduce/<phase>/, and compares each
verdict and target with the committed evidence: evidence/<device>/reproduce.json
(ladder/gates/reproduce.py)."""
import time

from . import evidence, freshness, runner
from .environment import cuda_probe, device_name, environment, git_state, nvcc_version, versions
from .gates.reproduce import table
from .layout import device_dir, evidence_dir, phase_dirs
from .registry import derive_fn
from .spec import load_spec


def main(only=None):
    """only: phase names to re-run (all when empty); the others are listed as not asked for."""
    started, t0 = evidence.now(), time.time()
    probe, device, toolchain = cuda_probe(), device_name(), nvcc_version()
    phases, hashes, lines = {}, {}, []
    if probe["available"]:
        for d in phase_dirs():
            spec = load_spec(d)
            if only and spec.name not in only:
                lines.append(f"{spec.name}: not asked for (--only {' '.join(only)}); skipped")
                continue
            committed = evidence.read(evidence_dir(device, spec.dir) / "performance.json")
            if committed is None or freshness.staleness(committed, spec, device, toolchain):
                lines.append(f"{spec.name}: no fresh committed performance evidence; skipped")
                continue
            out = device_dir(device) / "reproduce" / spec.name
            runner.run_gate(spec, "performance", device, probe, toolchain, print, out_dir=out)
            rerun = evidence.read(out / "performance.json")
            hashes[spec.name] = committed["inputs"]["hash"]
            phases[spec.name] = {"committed": table(committed["derived"]), "rerun": table(rerun["derived"])}
        raw = {"phases": phases, "skipped": lines}
    else:
        raw = {"blocked": probe["reason"]}
    inputs = freshness.reproduce_inputs(hashes)
    derived = derive_fn("reproduce")(evidence.canonical(raw), inputs)
    meta = {"git": git_state(), "env": environment(), "versions": versions(), "started": started,
            "finished": evidence.now(), "duration_s": round(time.time() - t0, 2)}
    rec = evidence.record(kind="reproduce", name="reproduce", inputs=inputs, raw=evidence.canonical(raw), derived=derived, meta=meta)
    evidence.write(device_dir(device) / "reproduce.json", rec)
    print(f"reproduce: {derived['status'].upper()}: {derived['reason']}")
    return 0 if derived["status"] in ("pass", "blocked") else 1
