"""Calibration of the verdict statistics, with the performance gate's own measuring loop:
phase_a against itself `repeats` times (SAME or AMBIGUOUS must come out at the required rate)
and phase_a on 5% more heads against phase_a (SLOWER at the required rate). Evidence:
evidence/<device>/calibration.json with every raw sample, so check-evidence recomputes the rates."""
import json
from pathlib import Path

import yaml

from . import evidence
from .build.buildfile import artifacts, run_ninja
from .child import run_worker
from .environment import cuda_probe, device_name, environment, git_state
from .layout import EVIDENCE, find_phase
from .spec import load_spec
from .stats import compare

CONFIG = Path(__file__).with_name("calibration.yaml")


def rates(raw):
    """Verdict lists and rates from the raw samples: what check-evidence recomputes."""
    self_v = [compare(r["a"], r["b"])["verdict"] for r in raw["self"]]
    heavy_v = [compare(r["a"], r["b"])["verdict"] for r in raw["heavier"]]
    return {
        "self_verdicts": self_v, "heavier_verdicts": heavy_v,
        "self_same_or_ambiguous_rate": sum(v in ("SAME", "AMBIGUOUS") for v in self_v) / len(self_v),
        "heavier_slower_rate": sum(v == "SLOWER" for v in heavy_v) / len(heavy_v),
    }


def main():
    cfg = yaml.safe_load(CONFIG.read_text())
    if not cuda_probe()["available"]:
        print(f"calibrate: blocked: {cuda_probe()['reason']}")
        return 0
    spec = load_spec(find_phase(cfg["phase"]))
    run_ninja(spec, spec.perf_config, 600)
    started = evidence.now()
    outcome = run_worker("calibration", 3000, config=cfg, lib=str(artifacts(spec, spec.perf_config["name"])["lib"]))
    if outcome.result is None:
        print(f"calibrate: failed: {outcome.describe(3000)}\n{outcome.tail()}")
        return 1
    r = rates(outcome.result)
    need = cfg["required"]
    ok = r["self_same_or_ambiguous_rate"] >= need["self_same_or_ambiguous_rate"] and \
        r["heavier_slower_rate"] >= need["heavier_slower_rate"]
    rec = {"schema": evidence.SCHEMA_VERSION, "kind": "calibration", "status": "pass" if ok else "fail",
           "config": cfg, "rates": r, "raw": outcome.result, "git": git_state(), "env": environment(),
           "started": started, "finished": evidence.now()}
    evidence.atomic_write(EVIDENCE / device_name() / "calibration.json", json.dumps(rec, indent=1) + "\n")
    print(f"calibrate: self SAME/AMBIGUOUS {r['self_same_or_ambiguous_rate']:.0%} (need "
          f"{need['self_same_or_ambiguous_rate']:.0%}); 5% heavier SLOWER {r['heavier_slower_rate']:.0%} "
          f"(need {need['heavier_slower_rate']:.0%}) -> {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1
