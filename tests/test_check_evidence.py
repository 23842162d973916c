"""check-evidence: stale evidence after a kernel edit, and statistics that no longer recompute."""
import json
import os

import numpy as np

from helpers import ladder_cli
from ladder import check, evidence, perf_analysis


def _cpu_env(sandbox):
    env = dict(os.environ, LADDER_ROOT=str(sandbox), LADDER_FORCE_NO_GPU="1")
    env.pop("REQUIRE_GPU", None)
    return env


def test_editing_a_kernel_makes_its_evidence_stale(sandbox):
    env = _cpu_env(sandbox)
    assert ladder_cli("run", "phase_a", "--gate", "build", env=env).returncode == 0
    dev = sandbox / "evidence" / "some-gpu" / "phase_a"
    dev.mkdir(parents=True)
    (dev / "build.json").write_text((sandbox / ".ladder-run" / "cpu" / "phase_a" / "build.json").read_text())
    r = ladder_cli("check-evidence", env=env)
    assert r.returncode == 0 and "0 invalid, 0 stale" in r.stdout, r.stdout
    kernel = sandbox / "phases" / "phase_a" / "kernel.cu"
    kernel.write_text(kernel.read_text().replace("ROWS_PER_WARP 8", "ROWS_PER_WARP 4"))
    r = ladder_cli("check-evidence", env=env)
    assert "STALE   some-gpu/phase_a/build.json" in r.stdout and r.returncode == 0
    assert ladder_cli("check-evidence", "--strict", env=env).returncode == 1


def _perf_record(tmp_path):
    rng = np.random.default_rng(0)
    w = {"name": "w", "B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}
    raw = {"workload": w, "samples_us": {"p": list(rng.normal(80, 1, 30)), "sdpa_flash": list(rng.normal(15, 0.2, 30))},
           "low_clock": {"p": [False] * 30, "sdpa_flash": [False] * 30}, "rechecks": [{"set": 0, "max_abs_diff": 1e-3}],
           "clocks": {}, "rounds": 30, "stopped_on": "noise", "default_backend": {"backend": "sdpa_flash"},
           "unsupported": {}}
    peaks = {"tensor_flop_s": 1e15, "dram_byte_s": 3e12}
    ceilings = {"fp16_matmul_tflops": 700.0, "copy_TBps": 3.0}
    targets = [{"vs": "sdpa_flash", "workloads": None, "max_ratio": 10.0, "min_speedup": None, "verdict": None}]
    ws = [perf_analysis.analyze_workload(raw, "p", peaks, ceilings, 0.02)]
    rec = evidence.record(phase="p", gate="performance", status="pass", reason="ok", source_hash="h", sources={},
                          git={"sha": "x", "dirty": False}, env={},
                          thresholds={"timing": {"recheck_atol": 0.02}, "targets": targets},
                          measurements={"workloads": ws, "peaks": peaks, "ceilings": ceilings,
                                        "targets": perf_analysis.evaluate_targets(targets, ws)},
                          started=evidence.now())
    path = tmp_path / "dev" / "p" / "performance.json"
    evidence.atomic_write(path, json.dumps(rec))
    return path, rec


def test_statistics_recompute_from_raw_samples(tmp_path):
    path, rec = _perf_record(tmp_path)
    assert check.validate_record(rec, path) == []
    rec["measurements"]["workloads"][0]["kernels"]["p"]["median"] *= 0.9
    rec["measurements"]["workloads"][0]["comparisons"]["sdpa_flash"]["ci"][1] = 3.0
    problems = check.validate_record(rec, path)
    assert any("stored median" in p for p in problems) and any("stored CI" in p for p in problems)


def test_blocked_or_malformed_evidence_is_invalid(tmp_path):
    path, rec = _perf_record(tmp_path)
    assert "blocked evidence must never be committed" in " ".join(check.validate_record(dict(rec, status="blocked"), path))
    del rec["source_hash"]
    assert check.validate_record(rec, path) == ["missing key source_hash"]
