"""Where things live: phases and the floor every phase runs, controls, build outputs, committed
evidence, and run-local output (git-ignored, never evidence)."""
import os
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("LADDER_ROOT", PACKAGE.parent))
PHASES = ROOT / "phases"
FLOOR = PHASES / "floor.yaml"
CONTROLS = ROOT / "tests" / "controls"
KERNELS = ROOT / "kernels"
EVIDENCE = ROOT / "evidence"
# Everything a run makes that is not evidence: build outputs, and what a machine with no CUDA
# device records for its (blocked) GPU gates.
RUN_LOCAL = ROOT / ".ladder-run"
BUILD = RUN_LOCAL / "build"


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


def device_dir(device):
    """Committed evidence for a GPU device; run-local output for a machine with no CUDA device."""
    return EVIDENCE / device if device != "cpu" else RUN_LOCAL / "cpu"


def evidence_dir(device, spec_dir):
    base = device_dir(device)
    return base / "controls" / Path(spec_dir).name if is_control(spec_dir) else base / Path(spec_dir).name


def build_dir(spec_dir, config):
    spec_dir = Path(spec_dir).resolve()
    safe = re.sub(r"[^A-Za-z0-9_.-]", "-", config)
    if spec_dir.parent in (PHASES.resolve(), CONTROLS.resolve()):
        kind = "controls" if is_control(spec_dir) else "phases"
        return BUILD / kind / spec_dir.name / safe
    return spec_dir / ".build" / safe  # a phase folder outside this checkout (tests' copies)


def rel(path):
    """A path relative to the repository root where it lies inside it, else as given."""
    for base in (ROOT, PACKAGE.parent):
        try:
            return str(Path(path).resolve().relative_to(base.resolve()))
        except ValueError:
            continue
    return str(path)
