"""The controls the build gate must reject, run through the controls runner with no GPU: this
is how CI proves on every push that the build gate can fail."""
import os

import pytest

from helpers import ladder_cli
from ladder.controls import load_expect
from ladder.layout import control_dirs
from ladder.tools import available


def test_every_control_declares_a_gate_and_a_reason():
    dirs = control_dirs()
    assert len(dirs) >= 17
    gates = {load_expect(d)["gate"] for d in dirs}
    assert {"build", "launch", "sanity", "correctness", "performance"} <= gates


@pytest.mark.skipif(not (available("nvcc") and available("cuobjdump")), reason="needs nvcc and cuobjdump")
def test_build_gate_controls_are_rejected_for_the_expected_reason(sandbox):
    env = dict(os.environ, LADDER_ROOT=str(sandbox), LADDER_FORCE_NO_GPU="1")
    r = ladder_cli("controls", "--build-only", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "control spills: expected build, observed build (fail) -> match" in r.stdout
    assert "control smem_over: expected build, observed build (fail) -> match" in r.stdout
    table = (sandbox / ".ladder-run" / "cpu" / "controls" / "partial" / "controls.md").read_text()
    assert table.count("| yes |") == 2
