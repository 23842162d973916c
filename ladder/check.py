"""check-evidence: validates every committed evidence file, recomputes every statistic from the
raw samples it carries, and lists evidence that is stale because its sources changed.
Invalid or inconsistent evidence fails (exit 1); stale evidence is listed (and fails with
--strict)."""
import json
import math
from pathlib import Path

from . import perf_analysis
from .calibration import rates
from .errors import LadderError
from .evidence import STATUSES
from .layout import CONTROLS, EVIDENCE, PHASES
from .sourcehash import source_hash
from .spec import GATES, load_spec
from .stats import summary

REQUIRED = {"schema": int, "kind": str, "phase": str, "gate": str, "status": str, "reason": str,
            "source_hash": str, "sources": dict, "harness_version": str, "git": dict, "env": dict,
            "measurements": dict, "started": str, "finished": str}
REL_TOL = 1e-9
CI_REL_TOL = 5e-3  # bootstrap intervals may move slightly across scipy versions; seeds are fixed


def _close(a, b, tol):
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=tol, abs_tol=1e-12)


def validate_record(rec, path):
    problems = []
    for key, typ in REQUIRED.items():
        if key not in rec:
            problems.append(f"missing key {key}")
        elif not isinstance(rec[key], typ):
            problems.append(f"{key} should be {typ.__name__}")
    if problems:
        return problems
    if rec["status"] not in STATUSES:
        problems.append(f"unknown status {rec['status']!r}")
    if rec["gate"] not in GATES or path.stem != rec["gate"]:
        problems.append(f"gate {rec['gate']!r} does not match file name {path.name}")
    if rec["phase"] != path.parent.name:
        problems.append(f"phase {rec['phase']!r} does not match folder {path.parent.name}")
    if rec["status"] == "blocked":
        problems.append("blocked evidence must never be committed (it belongs in .ladder-run/)")
    if rec["gate"] == "performance" and rec["status"] in ("pass", "fail") and "workloads" in rec["measurements"]:
        problems += recompute_performance(rec)
    return problems


def recompute_performance(rec):
    m = rec["measurements"]
    problems = []
    candidate = rec["phase"]
    atol = rec["thresholds"]["timing"]["recheck_atol"]
    redone = []
    for w in m["workloads"]:
        raw = {k: w[k] for k in ("workload", "samples_us", "low_clock", "rechecks", "clocks", "rounds", "stopped_on")}
        raw.update(default_backend=w["default_backend"], unsupported=w["unsupported"],
                   graph_us={n: k.get("graph_per_call_us") for n, k in w["kernels"].items()}
                   if any(k.get("graph_per_call_us") for k in w["kernels"].values()) else None)
        again = perf_analysis.analyze_workload(raw, candidate, m["peaks"], m["ceilings"], atol)
        redone.append(again)
        for name, k in w["kernels"].items():
            s = summary(w["samples_us"][name])
            for key in ("median", "q1", "q3", "iqr", "n"):
                if not _close(s[key], k[key], REL_TOL):
                    problems.append(f"{w['name']}/{name}: stored {key} {k[key]} != recomputed {s[key]}")
        for name, c in w["comparisons"].items():
            r = again["comparisons"][name]
            if not _close(r["ratio"], c["ratio"], REL_TOL):
                problems.append(f"{w['name']} vs {name}: stored ratio {c['ratio']} != recomputed {r['ratio']}")
            if not all(_close(a, b, CI_REL_TOL) for a, b in zip(r["ci"], c["ci"])):
                problems.append(f"{w['name']} vs {name}: stored CI {c['ci']} != recomputed {r['ci']}")
            if r["verdict"] != c["verdict"]:
                problems.append(f"{w['name']} vs {name}: stored verdict {c['verdict']} != recomputed {r['verdict']}")
        if bool(again["problems"]) != bool(w["problems"]):
            problems.append(f"{w['name']}: stored guard findings {w['problems']} != recomputed {again['problems']}")
    targets = perf_analysis.evaluate_targets(rec["thresholds"]["targets"], redone)
    if [t["met"] for t in targets] != [t["met"] for t in m.get("targets", [])]:
        problems.append("target outcomes do not recompute to the stored ones")
    return problems


def _spec_dir(rec):
    if rec.get("kind") == "control":
        return CONTROLS / rec["phase"]
    return PHASES / rec["phase"]


def check_calibration(path):
    rec = json.loads(path.read_text())
    r = rates(rec["raw"])
    problems = []
    for key in ("self_same_or_ambiguous_rate", "heavier_slower_rate"):
        if not _close(r[key], rec["rates"][key], REL_TOL):
            problems.append(f"{key}: stored {rec['rates'][key]} != recomputed {r[key]}")
    return problems


def check_tree(root=EVIDENCE):
    invalid, stale, n = [], [], 0
    hashes = {}
    for path in sorted(Path(root).rglob("*.json")):
        n += 1
        rel = path.relative_to(root)
        try:
            rec = json.loads(path.read_text())
        except json.JSONDecodeError as e:
            invalid.append(f"{rel}: not valid JSON ({e})")
            continue
        if path.name == "calibration.json":
            invalid += [f"{rel}: {p}" for p in check_calibration(path)]
            continue
        if path.name == "controls.json":
            if not isinstance(rec.get("rows"), list):
                invalid.append(f"{rel}: controls table has no rows")
            continue
        problems = validate_record(rec, path)
        invalid += [f"{rel}: {p}" for p in problems]
        if problems:
            continue
        spec_dir = _spec_dir(rec)
        if not (spec_dir / "gate.yaml").is_file():
            stale.append(f"{rel}: its phase {spec_dir.name} no longer exists")
            continue
        if spec_dir not in hashes:
            try:
                hashes[spec_dir] = source_hash(load_spec(spec_dir))
            except LadderError as e:
                hashes[spec_dir] = f"(spec invalid: {e})"
        if rec["source_hash"] != hashes[spec_dir]:
            stale.append(f"{rel}: recorded for sources {rec['source_hash']}, sources are now {hashes[spec_dir]}")
    for hist in sorted(Path(root).rglob("history.jsonl")):
        for i, line in enumerate(hist.read_text().splitlines(), 1):
            try:
                entry = json.loads(line)
                assert {"gate", "status", "source_hash"} <= set(entry)
            except (json.JSONDecodeError, AssertionError):
                invalid.append(f"{hist.relative_to(root)}:{i}: not a complete history entry")
    return n, invalid, stale


def main(strict=False, root=EVIDENCE):
    n, invalid, stale = check_tree(root)
    for line in invalid:
        print(f"INVALID {line}")
    for line in stale:
        print(f"STALE   {line}")
    print(f"check-evidence: {n} file(s), {len(invalid)} invalid, {len(stale)} stale")
    return 1 if invalid or (strict and stale) else 0
