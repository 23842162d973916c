"""`ladder evidence` records the whole run's wall time in the device's history (issues 10 and 11
ask for it), naming every gate that did not pass; the gates themselves are stubbed out here."""
import json
import os
import sys

from ladder import cli, environment, layout, runner
from ladder.toolchain import ninja_build


def _run(monkeypatch, tmp_path, outcome):
    monkeypatch.setattr(cli, "_share_bytecode", lambda: None)  # leaves this process's environment alone
    monkeypatch.setattr(ninja_build, "prebuild", lambda specs: None)
    monkeypatch.setattr(runner, "run_all", lambda specs: [list(outcome(s)) for s in specs])
    monkeypatch.setattr(environment, "device_name", lambda: "fake-gpu")
    monkeypatch.setattr(layout, "device_dir", lambda device: tmp_path / device)
    rc = cli.main(["evidence", "--no-report"])
    lines = (tmp_path / "fake-gpu" / "history.jsonl").read_text().splitlines()
    assert len(lines) == 1
    return rc, json.loads(lines[0])


def test_evidence_run_records_its_wall_time(monkeypatch, tmp_path):
    rc, entry = _run(monkeypatch, tmp_path, lambda s: [("build", "pass", "ok"), ("performance", "pass", "ok")])
    assert rc == 0
    assert entry["kind"] == "evidence" and entry["status"] == "pass"
    assert entry["duration_s"] >= 0 and entry["started"] <= entry["finished"]
    assert entry["phases"] == [d.name for d in layout.phase_dirs()]
    assert f"{len(entry['phases'])} phase(s) in" in entry["reason"]


def test_evidence_run_names_the_gates_that_did_not_pass(monkeypatch, tmp_path):
    def outcome(spec):
        yield ("build", "pass", "ok")
        if spec.name == "phase_b":
            yield ("performance", "fail", "target not met")
        else:
            yield ("performance", "blocked", "no CUDA device")
    rc, entry = _run(monkeypatch, tmp_path, outcome)
    assert rc == 1
    assert entry["status"] == "fail"
    assert "phase_b performance (fail)" in entry["reason"] and "phase_a performance (blocked)" in entry["reason"]


def test_evidence_run_without_a_gpu_is_blocked_not_passed(monkeypatch, tmp_path):
    rc, entry = _run(monkeypatch, tmp_path, lambda s: [("build", "pass", "ok"), ("launch", "blocked", "no CUDA device")])
    assert entry["status"] == "blocked" and "(blocked)" in entry["reason"]


def test_children_share_one_bytecode_cache(monkeypatch, tmp_path):
    monkeypatch.setattr(cli, "RUN_LOCAL", tmp_path)
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    monkeypatch.setattr(sys, "pycache_prefix", None)
    cli._share_bytecode()
    assert os.environ["PYTHONPYCACHEPREFIX"] == sys.pycache_prefix == str(tmp_path / "pycache")
    assert (tmp_path / "pycache").is_dir()


def test_a_users_own_bytecode_cache_wins(monkeypatch, tmp_path):
    monkeypatch.setattr(cli, "RUN_LOCAL", tmp_path)
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", "/somewhere/else")
    monkeypatch.setattr(sys, "pycache_prefix", None)
    cli._share_bytecode()
    assert os.environ["PYTHONPYCACHEPREFIX"] == "/somewhere/else" and sys.pycache_prefix is None
