"""The controls the build gate (or the spec loader) must reject, run through the controls runner
with no GPU: this is how CI proves on every push that those gates can fail."""
import os

import pytest

from helpers import ladder_cli
from ladder.layout import control_dirs
from ladder.spec import load_expect
from ladder.tools import available


def test_every_control_declares_a_gate_and_a_reason():
    dirs = control_dirs()
    assert len(dirs) >= 35
    gates = {load_expect(d)["gate"] for d in dirs}
    assert {"spec", "build", "launch", "sanity", "correctness", "performance"} <= gates


@pytest.mark.skipif(not (available("nvcc") and available("cuobjdump")), reason="needs nvcc and cuobjdump")
def test_build_gate_controls_are_rejected_for_the_expected_reason(sandbox):
    env = dict(os.environ, LADDER_ROOT=str(sandbox), LADDER_FORCE_NO_GPU="1")
    env.pop("REQUIRE_GPU", None)
    r = ladder_cli("controls", "--build-only", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    build_controls = [d.name for d in control_dirs() if load_expect(d)["gate"] in ("build", "spec")]
    for name in build_controls:
        assert f"control {name}: expected {load_expect(sandbox / 'tests' / 'controls' / name)['gate']}" in r.stdout
    assert r.stdout.count("-> match") == len(build_controls), r.stdout
    table = (sandbox / ".ladder-run" / "cpu" / "controls-partial" / "controls.md").read_text()
    assert table.count("| yes |") == len(build_controls)


@pytest.mark.skipif(not available("nvcc"), reason="needs nvcc")
@pytest.mark.parametrize("control", [d.name for d in control_dirs() if load_expect(d)["gate"] not in ("spec", "build")])
def test_every_control_a_later_gate_must_reject_compiles(control):
    """A control that does not build is rejected by the build gate, for the wrong reason."""
    import subprocess
    from ladder.layout import CONTROLS, KERNELS
    from ladder.tools import find
    r = subprocess.run([find("nvcc"), "-std=c++17", f"-I{KERNELS}", "-gencode=arch=compute_90a,code=sm_90a",
                        "-c", "-o", "/dev/null", "-x", "cu", str(CONTROLS / control / "kernel.cu")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
