"""gate.yaml validation: every real phase and control loads; each kind of broken spec gives one
SpecError that names the file and the key (and the line where the YAML has one)."""
import os

import pytest

from helpers import ROOT, ladder_cli
from ladder.errors import SpecError
from ladder.layout import control_dirs, phase_dirs
from ladder.spec import load_spec

PHASE_A = ROOT / "phases" / "phase_a"


def test_every_phase_and_control_spec_loads():
    dirs = phase_dirs() + control_dirs()
    assert any(d.name == "phase_a" for d in dirs)
    for d in dirs:
        spec = load_spec(d)
        assert spec.workloads and spec.data["description"]


def test_defaults_are_filled_and_shapes_normalised():
    spec = load_spec(PHASE_A)
    w = spec.workloads[0]
    assert (w["S_q"], w["S_k"], w["dtype"], w["causal"]) == (512, 512, "fp16", False)
    assert spec.section("correctness")["trials"] == 100
    assert spec.gates == ["build", "launch", "sanity", "correctness", "performance"]


def _broken(tmp_path, text, with_kernel=True):
    d = tmp_path / "phase_x"
    d.mkdir()
    (d / "gate.yaml").write_text(text)
    if with_kernel:
        (d / "kernel.cu").write_text("// empty\n")
    return d


def _valid_text():
    return (PHASE_A / "gate.yaml").read_text()


def _error(tmp_path, text, with_kernel=True):
    with pytest.raises(SpecError) as e:
        load_spec(_broken(tmp_path, text, with_kernel))
    msg = str(e.value)
    assert "\n" not in msg
    assert "phase_x/gate.yaml" in msg
    return msg


def test_yaml_syntax_error_names_the_line(tmp_path):
    msg = _error(tmp_path, "description: x\nlaunch: [unclosed\n")
    assert "YAML syntax error" in msg and "line" in msg


def test_empty_file(tmp_path):
    assert "empty" in _error(tmp_path, "")


def test_unknown_key_names_key_and_line(tmp_path):
    text = _valid_text().replace("  trials: 100", "  trials: 100\n  trails: 5")
    msg = _error(tmp_path, text)
    assert "correctness.trails" in msg and "unknown key" in msg and "(line" in msg


def test_wrong_type(tmp_path):
    msg = _error(tmp_path, _valid_text().replace("trials: 100", "trials: many"))
    assert "correctness.trials" in msg and "expected an integer" in msg


def test_missing_required_field(tmp_path):
    text = "\n".join(l for l in _valid_text().splitlines() if not l.startswith("description"))
    msg = _error(tmp_path, text)
    assert "description" in msg and "missing" in msg


def test_missing_kernel(tmp_path):
    msg = _error(tmp_path, _valid_text(), with_kernel=False)
    assert "kernel" in msg and "does not exist" in msg


def test_unsupported_dtype_and_head_dim(tmp_path):
    msg = _error(tmp_path, _valid_text().replace("  trials: 100", "  trials: 100\n  dtypes: [fp8]"))
    assert "correctness.dtypes[0]" in msg and "fp8" in msg
    (tmp_path / "phase_x").rename(tmp_path / "old")
    msg = _error(tmp_path, _valid_text().replace("{B: 1, H: 1, S: 1, D: 64}", "{B: 1, H: 1, S: 1, D: 96}", 1))
    assert "D" in msg and "96" in msg


def test_targets_must_name_a_baseline_or_phase(tmp_path):
    text = _valid_text() + "  targets:\n    - {vs: phase_zzz, max_ratio: 1.0}\n"
    assert "performance.targets[0].vs" in _error(tmp_path, text)


def test_cli_prints_one_line_and_exits_2_on_a_broken_spec(sandbox):
    gate = sandbox / "phases" / "phase_a" / "gate.yaml"
    gate.write_text(gate.read_text().replace("  trials: 100", "  trials: 100\n  bogus: 1"))
    env = dict(os.environ, LADDER_ROOT=str(sandbox))
    r = ladder_cli("run", "phase_a", env=env)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "gate.yaml" in lines[0] and "correctness.bogus" in lines[0], r.stderr
