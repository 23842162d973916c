"""Freshness, end to end on a sandbox copy with a pretend GPU (tests/fake_gpu_run.py): every
phase gets evidence for every gate (a real build, synthetic GPU raw data), check-evidence finds
it fresh, and then an edit stales exactly the evidence that depends on it:
- a phase's kernel.cu: that phase's evidence, and the performance evidence of the phases that
  compare against it (nothing else);
- a header: exactly the phases whose depfiles list it (and performance evidence comparing
  against them);
- a harness module: exactly the gates whose code imports it."""
import os
import re
import subprocess
import sys

import pytest

from helpers import ROOT, ladder_cli
from ladder.tools import available

pytestmark = pytest.mark.skipif(not (available("nvcc") and available("cuobjdump")), reason="needs nvcc and cuobjdump")


def _env(sandbox):
    env = dict(os.environ, LADDER_ROOT=str(sandbox))
    env.pop("REQUIRE_GPU", None)
    return env


def _stale(sandbox):
    r = ladder_cli("check-evidence", env=_env(sandbox))
    assert " 0 invalid" in r.stdout, r.stdout
    return sorted(re.findall(r"STALE   (\S+):", r.stdout))


@pytest.fixture(scope="module")
def evidenced(tmp_path_factory):
    """A sandbox whose phase_b includes a header of its own, with fresh evidence for every gate."""
    import shutil
    sandbox = tmp_path_factory.mktemp("fresh")
    for sub in ("phases", "kernels"):
        shutil.copytree(ROOT / sub, sandbox / sub, ignore=shutil.ignore_patterns("dev", ".build"))
    for d in sandbox.glob("phases/*/"):
        if not (d / "gate.yaml").is_file():
            shutil.rmtree(d)
    c = sandbox / "phases" / "phase_c" / "gate.yaml"  # one configuration is enough here
    text = c.read_text()
    c.write_text(re.sub(r"    - name: m128w4\n.*?(?=  assert:)", "", text, flags=re.S).replace(
        "  also_time: [m128w4, m64w4_qregs]\n", ""))
    (sandbox / "kernels" / "only_b.cuh").write_text("// included by phase_b alone\n#pragma once\n")
    kb = sandbox / "phases" / "phase_b" / "kernel.cu"
    kb.write_text('#include "only_b.cuh"\n' + kb.read_text())
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "fake_gpu_run.py")], env=dict(_env(sandbox),
                       PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    assert _stale(sandbox) == []
    return sandbox


def _edit(path, text):
    old = path.read_text()
    path.write_text(old + text)
    return old


ALL = ("build", "launch", "sanity", "correctness", "performance")


def test_editing_phase_a_stales_phase_a_and_the_performance_of_phases_comparing_against_it(evidenced):
    kernel = evidenced / "phases" / "phase_a" / "kernel.cu"
    old = _edit(kernel, "\n// an edit\n")
    try:
        stale = _stale(evidenced)
    finally:
        kernel.write_text(old)
    assert stale == sorted([f"fake-gpu/phase_a/{g}.json" for g in ALL] + ["fake-gpu/phase_b/performance.json"])
    assert _stale(evidenced) == []


def test_editing_a_header_stales_exactly_the_phases_that_include_it(evidenced):
    header = evidenced / "kernels" / "only_b.cuh"
    old = _edit(header, "// an edit\n")
    try:
        stale = _stale(evidenced)
    finally:
        header.write_text(old)
    assert stale == sorted([f"fake-gpu/phase_b/{g}.json" for g in ALL] + ["fake-gpu/phase_c/performance.json"])
    shared = evidenced / "kernels" / "attn_common.cuh"
    old = _edit(shared, "// an edit\n")
    try:
        stale = _stale(evidenced)
    finally:
        shared.write_text(old)
    assert {s.split("/")[1] for s in stale} == {d.name for d in (evidenced / "phases").iterdir() if d.is_dir()}


def test_a_gate_is_refused_when_the_gate_before_is_stale(evidenced):
    kernel = evidenced / "phases" / "phase_a" / "kernel.cu"
    old = _edit(kernel, "\n// an edit\n")
    try:
        r = subprocess.run([sys.executable, "-c",
                            "import sys; sys.path.insert(0, sys.argv[1]); import fake_gpu_run as f; "
                            "from ladder.spec import load_spec; from ladder.layout import PHASES; "
                            "print(f.runner.run(load_spec(PHASES / 'phase_a'), gates=['correctness']))",
                            str(ROOT / "tests")], env=dict(_env(evidenced), PYTHONPATH=str(ROOT)),
                           capture_output=True, text=True, timeout=300)
    finally:
        kernel.write_text(old)
    assert "refused" in r.stdout and "sanity evidence is stale" in r.stdout, r.stdout + r.stderr


def test_the_spec_loader_is_hashed_by_no_phase_gate():
    # What the loader gives a gate is hashed as data: its validated section (defaults filled in)
    # and, for performance, the build hashes of the phases its targets name. The loader's code is
    # not: a schema key added for one gate (the long residue sweep, twenty-second session) must
    # not stale every other gate's evidence. The performance collector gets the compared phases'
    # specs through a method of its own spec (Spec.compared_specs) for that reason.
    from ladder.freshness import harness_files
    for gate in ("launch", "sanity", "correctness", "performance"):
        files = harness_files(gate)
        assert "ladder/spec.py" not in files and "ladder/schema.py" not in files, gate
    assert "ladder/gpu/producer.cu" in harness_files("sanity") and "ladder/gpu/producer.cu" in harness_files("performance")


def test_a_sanity_edit_stales_sanity_and_not_performance():
    # The confinement rule both gates apply lives in its own module (nineteenth session): an edit
    # to the sanity gate's checks re-records sanity, not every performance record and calibration
    # that once imported the sanity gate's module for that rule.
    from ladder.freshness import harness_files
    for gate in ("performance", "correctness"):
        files = harness_files(gate)
        assert "ladder/gates/sanity.py" not in files and "ladder/gpu/sanity.py" not in files, gate
    assert "ladder/gates/confinement.py" in harness_files("performance")
    assert "ladder/gates/confinement.py" in harness_files("sanity")
    assert "ladder/gpu/confinement.py" in harness_files("sanity") and "ladder/gpu/confinement.py" in harness_files("performance")
    # So do the checks of calls that share something, which performance runs again once the
    # problem is hot (twenty-first session).
    assert "ladder/gpu/sharing.py" in harness_files("sanity") and "ladder/gpu/sharing.py" in harness_files("performance")
    # ... and judge them by one rule (twenty-second session).
    assert "ladder/gates/sharing.py" in harness_files("sanity") and "ladder/gates/sharing.py" in harness_files("performance")
    from ladder.freshness import calibration_inputs, seqlen_inputs
    from ladder.layout import ROOT
    from ladder.spec import load_spec
    spec = load_spec(ROOT / "phases" / "phase_a")
    for kind, inputs in (("calibration", calibration_inputs(spec, "h100-80gb-hbm3")),
                         ("seqlen", seqlen_inputs([spec], "h100-80gb-hbm3"))):
        assert not [f for f in inputs["files"] if f.endswith("/sanity.py")], kind
