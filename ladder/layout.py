"""Where things live: phases, controls, build outputs, committed evidence and run-local output."""
import os
import re
from pathlib import Path

ROOT = Path(os.environ.get("LADDER_ROOT", Path(__file__).resolve().parent.parent))
PHASES = ROOT / "phases"
CONTROLS = ROOT / "tests" / "controls"
KERNELS = ROOT / "kernels"
BUILD = ROOT / "build"
EVIDENCE = ROOT / "evidence"
# Output of runs that must never land in evidence/: machines with no CUDA device.
RUN_LOCAL = ROOT / ".ladder-run"


def phase_dirs():
    """Every phase, in ladder order: a sorted glob, no list to keep by hand."""
    return sorted(p.parent for p in PHASES.glob("*/gate.yaml"))


def control_dirs():
    return sorted(p.parent for p in CONTROLS.glob("*/gate.yaml"))


def find_phase(name):
    for d in phase_dirs():
        if d.name == name:
            return d
    return None


def device_slug(gpu_name):
    name = re.sub(r"^nvidia\s+", "", gpu_name.strip(), flags=re.I)
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def is_control(spec_dir):
    return Path(spec_dir).resolve().parent == CONTROLS.resolve()


def evidence_dir(device, spec_dir):
    """Committed evidence for a GPU device; run-local output for a machine with no CUDA device."""
    base = EVIDENCE / device if device != "cpu" else RUN_LOCAL / "cpu"
    kind = "controls" if is_control(spec_dir) else ""
    return base / kind / Path(spec_dir).name if kind else base / Path(spec_dir).name


def build_dir(spec_dir, config):
    spec_dir = Path(spec_dir).resolve()
    if spec_dir.parent == PHASES.resolve() or spec_dir.parent == CONTROLS.resolve():
        kind = "controls" if is_control(spec_dir) else "phases"
        return BUILD / kind / spec_dir.name / config
    return spec_dir / ".build" / config  # a phase folder outside this checkout (tests' copies)
