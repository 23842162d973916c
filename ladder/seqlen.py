"""make seqlen: TFLOP/s against sequence length for every phase and SDPA backend (ladder/
seqlen.yaml), in one watched child with the performance gate's measuring loop; writes
evidence/<device>/seqlen.json in the common record form, which the report plots."""
import time

from . import evidence, freshness
from .collect.performance import phase_config
from .environment import cuda_probe, device_name, environment, git_state, versions
from .gates import child_failure
from .layout import PACKAGE, device_dir, phase_dirs
from .registry import derive_fn
from .spec import load_seqlen, load_spec
from .toolchain.helpers import shared_library
from .toolchain.ninja_build import artifacts, run_ninja
from .watchdog import run_job

TIMEOUT_S = 580


def main():
    started, t0 = evidence.now(), time.time()
    probe, device = cuda_probe(), device_name()
    cfg = load_seqlen()
    specs = [load_spec(d) for d in phase_dirs()]
    inputs = freshness.seqlen_inputs(specs, device)
    log = []
    if not probe["available"]:
        raw = {"blocked": probe["reason"]}
    else:
        kernels = {}
        for spec in specs:
            config = phase_config(spec, device)
            run_ninja(spec, spec.config(config), spec.data["build"]["timeout_s"])
            kernels[spec.name] = str(artifacts(spec, config)["lib"])
        # The last phase is the "candidate" only in name: no A/A twin, no re-check, no verdicts.
        orders = {"workloads": cfg["workloads"], "timing": cfg["timing"], "kernels": dict(reversed(kernels.items())),
                  "candidate": specs[-1].name, "baselines": cfg["baselines"], "process": 0, "full": False,
                  "blocker_lib": str(shared_library(PACKAGE / "gpu" / "blocker.cu"))}
        o = run_job("performance", orders, TIMEOUT_S)
        log.append(o.output)
        why = child_failure(o.as_raw(), TIMEOUT_S)
        raw = {"error": why} if why else {"workloads": o.result["workloads"], "kernels": list(orders["kernels"])}
    derived = derive_fn("seqlen")(evidence.canonical(raw), inputs)
    meta = {"git": git_state(), "env": environment(), "versions": versions(), "started": started,
            "finished": evidence.now(), "duration_s": round(time.time() - t0, 2)}
    rec = evidence.record(kind="seqlen", name="seqlen", inputs=inputs, raw=evidence.canonical(raw), derived=derived, meta=meta)
    evidence.write(device_dir(device) / "seqlen.json", rec, "\n".join(log) + "\n")
    print(f"seqlen: {derived['status'].upper()}: {derived['reason']}")
    return 0 if derived["status"] in ("pass", "blocked") else 1
