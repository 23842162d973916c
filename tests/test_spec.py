"""gate.yaml validation: every real phase and control loads (with the floor merged in); each kind
of broken spec gives one SpecError that names the file and the key (and the line where the YAML
has one); a gate.yaml that tries to weaken the floor is rejected; a broken expect.yaml or floor
gives the same one-line error."""
import os

import pytest

from helpers import ROOT, ladder_cli
from ladder.errors import SpecError
from ladder.layout import control_dirs, phase_dirs
from ladder.spec import load_expect, load_floor, load_spec

PHASE_A = ROOT / "phases" / "phase_a"


def test_every_phase_and_control_spec_loads():
    dirs = phase_dirs() + control_dirs()
    assert any(d.name == "phase_a" for d in dirs)
    for d in dirs:
        if load_expect(d)["gate"] == "spec" if (d / "expect.yaml").is_file() else False:
            with pytest.raises(SpecError):
                load_spec(d)
            continue
        spec = load_spec(d)
        assert spec.workloads and spec.data["description"]


def test_the_floor_is_merged_into_every_phase():
    floor = load_floor()
    spec = load_spec(PHASE_A)
    c = spec.section("correctness")
    assert c["cases"][: len(floor["correctness"]["cases"])] == floor["correctness"]["cases"]
    assert c["trials"] == floor["correctness"]["trials"] and c["dtypes"] == ["fp16", "bf16"]
    assert spec.section("launch")["shapes"] == floor["launch"]["shapes"]
    assert spec.section("sanity")["sanitizer"]["tools"] == ["memcheck", "racecheck"]
    w = spec.workloads[0]
    assert (w["S_q"], w["S_k"], w["dtype"], w["causal"]) == (512, 512, "fp16", False)
    assert spec.gates == ["build", "launch", "sanity", "correctness", "performance"]


def test_the_performance_gate_judges_lse_by_the_correctness_tolerance_of_every_phase_and_control():
    # A copy in the performance section, so that changing the tolerance stales those records too.
    floor = load_floor()["correctness"]
    for d in phase_dirs() + control_dirs():
        if (d / "expect.yaml").is_file() and load_expect(d)["gate"] == "spec":
            continue
        spec = load_spec(d)
        assert spec.section("performance")["lse_tolerance"] == {
            "atol": spec.section("correctness")["lse_atol"], "rtol": floor["lse_rtol"]}


def test_sanity_runs_at_every_timed_workload_of_every_phase_and_control():
    # A plan, a workspace or a stream a kernel uses only at the timed sizes must meet sanity's
    # checks there (phases/floor.yaml, sanity.timed_workloads), not only the performance gate's.
    assert load_floor()["sanity"]["timed_workloads"] is True
    for d in phase_dirs() + control_dirs():
        if (d / "expect.yaml").is_file() and load_expect(d)["gate"] == "spec":
            continue
        spec = load_spec(d)
        shapes = spec.section("sanity")["shapes"]
        for w in spec.workloads:
            shape = {k: w[k] for k in ("B", "H", "S_q", "S_k", "D", "dtype", "causal")}
            assert shape in shapes, (d.name, w["name"])
        assert len(shapes) == len({tuple(sorted(s.items())) for s in shapes}), d.name  # each size once


def test_every_wgmma_phase_runs_synccheck():
    # wgmma.fence/commit_group/wait_group are .sync.aligned: only synccheck sees a warpgroup whose
    # warps reach one at different instructions, which gave right answers in every run and was
    # in phase_d and phase_e until control warp_vote_wait (phase_e's NOTES.md, seventh session).
    wgmma = [d for d in phase_dirs()
             if "HGMMA" in load_spec(d).section("build")["assert"].get("sass_require", [])]
    assert {d.name for d in wgmma} >= {"phase_d", "phase_e"}
    for d in wgmma:
        assert "synccheck" in load_spec(d).section("sanity")["sanitizer"]["tools"], d.name


def _broken(tmp_path, text, with_kernel=True, name="phase_x"):
    d = tmp_path / name
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


def test_a_phase_may_add_to_the_floor(tmp_path):
    text = _valid_text() + "\ncorrectness:\n  trials: 30\n  cases:\n    - {B: 3, H: 1, S: 77, D: 64}\n"
    spec = load_spec(_broken(tmp_path, text))
    assert spec.section("correctness")["trials"] == 30
    assert spec.section("correctness")["cases"][-1]["S_q"] == 77


@pytest.mark.parametrize("section, key", [
    ("correctness:\n  trials: 2\n", "correctness.trials"),
    ("correctness:\n  k: 10\n", "correctness.k"),
    ("correctness:\n  dtypes: [fp16]\n", "correctness.dtypes"),
    ("correctness:\n  causal: [false]\n", "correctness.causal"),
    ("sanity:\n  repeats: 1\n", "sanity.repeats"),
    ("sanity:\n  sanitizer:\n    tools: [memcheck]\n", "sanity.sanitizer.tools"),
])
def test_a_phase_that_weakens_the_floor_is_rejected(tmp_path, section, key):
    msg = _error(tmp_path, _valid_text() + "\n" + section)
    assert key in msg and "floor" in msg and "never remove" in msg


def test_yaml_syntax_error_names_the_line(tmp_path):
    msg = _error(tmp_path, "description: x\nlaunch: [unclosed\n")
    assert "YAML syntax error" in msg and "line" in msg


def test_empty_file(tmp_path):
    assert "empty" in _error(tmp_path, "")


def test_unknown_key_names_key_and_line(tmp_path):
    text = _valid_text().replace("  baselines:", "  baselines_typo: []\n  baselines:")
    msg = _error(tmp_path, text)
    assert "performance.baselines_typo" in msg and "unknown key" in msg and "(line" in msg


def test_wrong_type(tmp_path):
    msg = _error(tmp_path, _valid_text() + "\ncorrectness:\n  trials: many\n")
    assert "correctness.trials" in msg and "expected an integer" in msg


def test_missing_required_field(tmp_path):
    text = "\n".join(l for l in _valid_text().splitlines() if not l.startswith("description"))
    msg = _error(tmp_path, text)
    assert "description" in msg and "missing" in msg


def test_missing_kernel(tmp_path):
    msg = _error(tmp_path, _valid_text(), with_kernel=False)
    assert "kernel" in msg and "does not exist" in msg


def test_unsupported_dtype_and_head_dim(tmp_path):
    msg = _error(tmp_path, _valid_text() + "\ncorrectness:\n  dtypes: [fp8]\n")
    assert "correctness.dtypes[0]" in msg and "fp8" in msg
    (tmp_path / "phase_x").rename(tmp_path / "old")
    msg = _error(tmp_path, _valid_text().replace("{name: seed, B: 1, H: 8, S: 512, D: 64}",
                                                 "{name: seed, B: 1, H: 8, S: 512, D: 96}", 1))
    assert "D" in msg and "96" in msg


def test_targets_must_name_a_baseline_or_phase(tmp_path):
    text = _valid_text() + "  targets:\n    - {vs: phase_zzz, max_ratio: 1.0}\n"
    assert "performance.targets[0].vs" in _error(tmp_path, text)


def test_a_target_on_the_candidates_own_figure_names_no_kernel_and_a_comparison_names_one(tmp_path):
    base = _valid_text() + "  targets:\n"
    msg = _error(tmp_path, base + "    - {vs: sdpa_cudnn, min_tflops: 600}\n")
    assert "performance.targets[0]" in msg and "own figure" in msg and "drop vs" in msg
    (tmp_path / "phase_x").rename(tmp_path / "old1")
    msg = _error(tmp_path, base + "    - {max_graph_ratio: 0.6}\n")
    assert "performance.targets[0]" in msg and "name it in vs" in msg
    (tmp_path / "phase_x").rename(tmp_path / "old2")
    msg = _error(tmp_path, base + "    - {max_graph_us: 4.7, min_tflops: 600}\n")
    assert "exactly one of" in msg and "max_graph_us" in msg
    (tmp_path / "phase_x").rename(tmp_path / "old3")
    spec = load_spec(_broken(tmp_path, base + "    - {workloads: [seed], max_graph_us: 4.7}\n"
                                              "    - {vs: sdpa_cudnn, workloads: [seed], max_graph_ratio: 0.6}\n"))
    assert [t["vs"] for t in spec.data["performance"]["targets"]] == [None, "sdpa_cudnn"]
    assert spec.compared_phases == []


def test_sweep_axes_make_one_config_each(tmp_path):
    text = _valid_text().replace("  assert:", "  sweep:\n    defines: {NUM_WARPS: 4}\n    axes: {ROWS_PER_WARP: [4, 8], X: [1, 2]}\n  assert:", 1)
    spec = load_spec(_broken(tmp_path, text))
    names = [c["name"] for c in spec.configs]
    assert names == ["w4r8", "ROWS_PER_WARP=4,X=1", "ROWS_PER_WARP=4,X=2", "ROWS_PER_WARP=8,X=1", "ROWS_PER_WARP=8,X=2"]
    assert spec.config("ROWS_PER_WARP=8,X=2")["defines"] == {"NUM_WARPS": 4, "ROWS_PER_WARP": 8, "X": 2}
    assert [c["sweep"] for c in spec.configs] == [False, True, True, True, True]


def test_a_broken_expect_yaml_gives_one_line(tmp_path):
    d = tmp_path / "ctl"
    d.mkdir()
    (d / "expect.yaml").write_text("gate: sanity\nreason: [unclosed\n")
    with pytest.raises(SpecError) as e:
        load_expect(d)
    assert "\n" not in str(e.value) and "expect.yaml" in str(e.value) and "YAML syntax error" in str(e.value)
    (d / "expect.yaml").write_text("gate: sanity\nreason: '(unclosed'\ndefect: x\n")
    with pytest.raises(SpecError, match="not a valid regular expression"):
        load_expect(d)
    (d / "expect.yaml").write_text("gate: nonsense\nreason: x\ndefect: x\n")
    with pytest.raises(SpecError, match="gate"):
        load_expect(d)


def test_a_broken_floor_gives_one_line(tmp_path):
    bad = tmp_path / "floor.yaml"
    bad.write_text("launch:\n  shapes: []\n")
    with pytest.raises(SpecError) as e:
        load_floor(bad)
    assert "\n" not in str(e.value) and "floor.yaml" in str(e.value)


def test_cli_prints_one_line_and_exits_2_on_a_broken_spec(sandbox):
    gate = sandbox / "phases" / "phase_a" / "gate.yaml"
    gate.write_text(gate.read_text() + "\ncorrectness:\n  bogus: 1\n")
    env = dict(os.environ, LADDER_ROOT=str(sandbox))
    r = ladder_cli("run", "phase_a", env=env)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "gate.yaml" in lines[0] and "correctness.bogus" in lines[0], r.stderr
