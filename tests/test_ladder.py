"""The ladder's order and refusal rules, and what a machine with no CUDA device records."""
import json
import os
import subprocess
import sys

import pytest

from helpers import ROOT, ladder_cli
from ladder.tools import available

needs_nvcc = pytest.mark.skipif(not (available("nvcc") and available("cuobjdump")), reason="needs nvcc and cuobjdump")


def _fake_gpu(sandbox, *args):
    env = dict(os.environ, LADDER_ROOT=str(sandbox), PYTHONPATH=str(ROOT))
    env.pop("REQUIRE_GPU", None)
    return subprocess.run([sys.executable, str(ROOT / "tests" / "fake_gpu_run.py"), *args], env=env,
                          capture_output=True, text=True, timeout=600)


@needs_nvcc
def test_a_failing_gate_stops_the_ladder_and_later_gates_are_refused(sandbox):
    r = _fake_gpu(sandbox, "phase_a", "--fail=sanity")
    assert r.returncode == 1
    assert "phase_a build:pass launch:pass sanity:fail correctness:refused performance:refused" in r.stdout, r.stdout
    ev = sandbox / "evidence" / "fake-gpu" / "phase_a"
    corr = json.loads((ev / "correctness.json").read_text())
    assert corr["derived"]["status"] == "refused" and "sanity did not pass" in corr["derived"]["reason"]
    assert "12 of 1 output elements never written" in json.loads((ev / "sanity.json").read_text())["derived"]["reason"]
    history = [json.loads(l) for l in (ev / "history.jsonl").read_text().splitlines()]
    assert [h["gate"] for h in history] == ["build", "launch", "sanity", "correctness", "performance"]
    assert all(h["duration_s"] is not None for h in history)  # wall time of every gate is recorded
    r = _fake_gpu(sandbox, "phase_a")                          # fixed: the whole ladder passes
    assert r.returncode == 0 and "performance:pass" in r.stdout


@needs_nvcc
def test_a_gate_run_alone_without_its_build_outputs_says_so_and_records_nothing(sandbox):
    assert _fake_gpu(sandbox, "phase_a").returncode == 0
    ev = sandbox / "evidence" / "fake-gpu" / "phase_a" / "sanity.json"
    before = ev.read_bytes()
    for lib in (sandbox / ".ladder-run" / "build" / "phases" / "phase_a").glob("*/libattn.so"):
        lib.unlink()  # as on a fresh machine: build outputs are not carried with the checkout
    r = _fake_gpu(sandbox, "phase_a", "--gate=sanity")
    assert r.returncode == 2 and "libattn.so" in r.stdout and "run the build gate first" in r.stdout, r.stdout
    assert ev.read_bytes() == before
    r = _fake_gpu(sandbox, "phase_a", "--gate=build", "--gate=sanity")
    assert r.returncode == 0 and "sanity:pass" in r.stdout, r.stdout


@needs_nvcc
def test_cpu_machine_builds_and_blocks_gpu_gates_in_run_local_output(sandbox):
    env = dict(os.environ, LADDER_ROOT=str(sandbox), LADDER_FORCE_NO_GPU="1")
    env.pop("REQUIRE_GPU", None)
    r = ladder_cli("run", "phase_a", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "build: PASS" in r.stdout
    for gate in ("launch", "sanity", "correctness", "performance"):
        assert f"{gate}: BLOCKED" in r.stdout
    local = sandbox / ".ladder-run" / "cpu" / "phase_a"
    assert json.loads((local / "build.json").read_text())["derived"]["status"] == "pass"
    assert json.loads((local / "launch.json").read_text())["derived"]["status"] == "blocked"
    assert not (sandbox / "evidence").exists()  # a CPU run never writes committed evidence
    r = ladder_cli("run", "phase_a", env=dict(env, REQUIRE_GPU="1"))
    assert r.returncode == 1  # blocked is a failure when a GPU is required


def test_untracked_files_under_phases_make_evidence_dirty(tmp_path, monkeypatch):
    from ladder import environment
    repo = tmp_path / "repo"
    (repo / "phases").mkdir(parents=True)
    for cmd in (["git", "init", "-q"], ["git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q",
                                        "--allow-empty", "-m", "x"]):
        subprocess.run(cmd, cwd=repo, check=True)
    monkeypatch.setattr(environment, "ROOT", repo)
    monkeypatch.delenv("LADDER_GIT_DIRTY", raising=False)
    monkeypatch.delenv("LADDER_GIT_SHA", raising=False)
    environment.git_state.cache_clear()
    assert environment.git_state()["dirty"] is False
    (repo / "phases" / "phase_z").mkdir()
    (repo / "phases" / "phase_z" / "kernel.cu").write_text("// new, not committed\n")
    environment.git_state.cache_clear()
    assert environment.git_state()["dirty"] is True
    environment.git_state.cache_clear()
