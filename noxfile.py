"""nox sessions, one per phase (generated from phases/*/gate.yaml), plus the shared ones.

Every session runs in the interpreter that runs nox (no virtualenv): the GPU machine has torch
with CUDA already and no package registry to build a virtualenv from."""
import sys
from pathlib import Path

import nox

nox.options.default_venv_backend = "none"
nox.options.sessions = ["tests"]
PY = sys.executable


def _ladder(*args):
    def session(s):
        s.run(PY, "-m", "ladder", *args, *s.posargs)
    return session


for gate_yaml in sorted(Path(__file__).parent.glob("phases/*/gate.yaml")):
    phase = gate_yaml.parent.name
    nox.session(name=phase, venv_backend="none")(_ladder("run", phase))

nox.session(name="evidence", venv_backend="none")(_ladder("evidence"))
nox.session(name="check_evidence", venv_backend="none")(_ladder("check-evidence"))
nox.session(name="report", venv_backend="none")(_ladder("report"))
nox.session(name="controls", venv_backend="none")(_ladder("controls"))
nox.session(name="calibrate", venv_backend="none")(_ladder("calibrate"))
nox.session(name="reproduce", venv_backend="none")(_ladder("reproduce"))
nox.session(name="seqlen", venv_backend="none")(_ladder("seqlen"))


@nox.session(venv_backend="none")
def tests(s):
    s.run(PY, "-m", "pytest", *s.posargs)
