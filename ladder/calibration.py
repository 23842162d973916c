"""make calibrate: runs the calibration (ladder/calibration.yaml; ladder/gates/calibration.py
states what it measures and what it must show) in `processes` watched children and writes
evidence/<device>/calibration.json in the common {inputs, raw, derived, meta} form."""
import time

from . import evidence, freshness
from .collect.performance import phase_config
from .gates import child_failure
from .environment import cuda_probe, device_name, environment, git_state, versions
from .layout import device_dir, find_phase
from .registry import derive_fn
from .spec import load_spec
from .toolchain.helpers import shared_library
from .toolchain.ninja_build import artifacts, run_ninja
from .watchdog import run_job

TIMEOUT_S = 600


def main():
    probe = cuda_probe()
    from .spec import load_calibration
    cfg = load_calibration()
    device = device_name()
    started, t0 = evidence.now(), time.time()
    spec = load_spec(find_phase(cfg["phase"]))
    inputs = freshness.calibration_inputs(spec, device)
    log = []
    if not probe["available"]:
        raw = {"blocked": probe["reason"]}
    else:
        from .layout import PACKAGE
        config = phase_config(spec, device)
        run_ninja(spec, spec.config(config), 600)
        orders = {"section": cfg, "timing": cfg["timing"], "lib": str(artifacts(spec, config)["lib"]),
                  "blocker_lib": str(shared_library(PACKAGE / "gpu" / "blocker.cu"))}
        raw = {"config": config, "processes": [], "failures": []}
        for p in range(cfg["processes"]):
            o = run_job("calibration", dict(orders, process=p), TIMEOUT_S)
            log.append(o.output)
            print(o.tail(6), flush=True)
            if o.result is None:
                raw["failures"].append(f"process {p}: {child_failure(o.as_raw(), TIMEOUT_S)}")
                break
            raw["processes"].append(o.result)
        if raw["failures"]:
            raw = {"error": "; ".join(raw["failures"])}
    derived = derive_fn("calibration")(evidence.canonical(raw), inputs)
    meta = {"git": git_state(), "env": environment(), "versions": versions(), "started": started,
            "finished": evidence.now(), "duration_s": round(time.time() - t0, 2)}
    rec = evidence.record(kind="calibration", name="calibration", inputs=inputs, raw=evidence.canonical(raw), derived=derived, meta=meta)
    evidence.write(device_dir(device) / "calibration.json", rec, "\n".join(log) + "\n")
    print(f"calibrate: {derived['status'].upper()}: {derived['reason']}")
    return 0 if derived["status"] in ("pass", "blocked") else 1
