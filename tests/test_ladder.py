"""The ladder's order and refusal rules, and what a machine with no CUDA device records."""
import json
import os

import pytest

from helpers import ladder_cli
from ladder import evidence
from ladder import ladder as lad
from ladder.gates import Result
from ladder.spec import load_spec

GPU = {"available": True, "gpu": "Fake GPU", "reason": ""}


@pytest.fixture
def fake_gpu_ladder(tmp_path, monkeypatch):
    """ladder.run with a pretend GPU, evidence under tmp_path, and gate bodies the test scripts."""
    monkeypatch.setattr(lad, "cuda_probe", lambda: GPU)
    monkeypatch.setattr(lad, "device_name", lambda: "fake-gpu")
    monkeypatch.setattr(lad, "evidence_dir", lambda device, d: tmp_path / device / d.name)
    monkeypatch.setattr(lad, "environment", lambda: {"fake": True})
    script = {}
    monkeypatch.setattr(lad, "run_gate", lambda ctx, gate: script.get(gate, Result("pass", f"{gate} ok")))
    return script, tmp_path / "fake-gpu"


def test_a_failing_gate_stops_the_ladder_and_later_gates_are_refused(fake_gpu_ladder, sandbox):
    script, ev = fake_gpu_ladder
    spec = load_spec(sandbox / "phases" / "phase_a")
    script["sanity"] = Result("fail", "12 elements never written")
    out = lad.run(spec, echo=lambda *_: None)
    assert [s for _, s, _ in out] == ["pass", "pass", "fail", "refused", "refused"]
    corr = evidence.read(ev / "phase_a", "correctness")
    assert corr["status"] == "refused" and "sanity did not pass" in corr["reason"]
    assert lad.exit_code(out) == 1
    history = (ev / "phase_a" / "history.jsonl").read_text().splitlines()
    assert [json.loads(l)["gate"] for l in history] == spec.gates


def test_a_gate_is_refused_when_the_previous_evidence_is_for_other_sources(fake_gpu_ladder, sandbox):
    script, ev = fake_gpu_ladder
    spec = load_spec(sandbox / "phases" / "phase_a")
    assert lad.exit_code(lad.run(spec, echo=lambda *_: None)) == 0
    kernel = sandbox / "phases" / "phase_a" / "kernel.cu"
    kernel.write_text(kernel.read_text() + "\n// changed\n")
    out = lad.run(spec, gates=["correctness"], echo=lambda *_: None)
    assert out[0][1] == "refused" and "source hash" in out[0][2]


def test_prerequisite_problem_reads_status_and_hash(tmp_path):
    assert lad.prerequisite_problem(tmp_path, "build", "abc") == "no build evidence"
    rec = {"gate": "build", "status": "fail", "reason": "spilled", "source_hash": "abc"}
    evidence.atomic_write(tmp_path / "build.json", json.dumps(rec))
    assert "did not pass" in lad.prerequisite_problem(tmp_path, "build", "abc")
    rec["status"] = "pass"
    evidence.atomic_write(tmp_path / "build.json", json.dumps(rec))
    assert lad.prerequisite_problem(tmp_path, "build", "abc") is None
    assert "source hash" in lad.prerequisite_problem(tmp_path, "build", "xyz")


def test_cpu_machine_builds_and_blocks_gpu_gates_in_run_local_output(sandbox):
    env = dict(os.environ, LADDER_ROOT=str(sandbox), LADDER_FORCE_NO_GPU="1")
    env.pop("REQUIRE_GPU", None)
    r = ladder_cli("run", "phase_a", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "build: PASS" in r.stdout
    for gate in ("launch", "sanity", "correctness", "performance"):
        assert f"{gate}: BLOCKED" in r.stdout
    local = sandbox / ".ladder-run" / "cpu" / "phase_a"
    assert json.loads((local / "build.json").read_text())["status"] == "pass"
    assert json.loads((local / "launch.json").read_text())["status"] == "blocked"
    assert not (sandbox / "evidence").exists()  # a CPU run never writes committed evidence

    r = ladder_cli("run", "phase_a", env=dict(env, REQUIRE_GPU="1"))
    assert r.returncode == 1  # blocked is a failure when a GPU is required
