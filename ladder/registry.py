"""The gates and evidence kinds, registered in one place: for each, the module that derives its
figures and status from raw data (pure: ladder/gates/), the parent-side module that collects the
raw data (ladder/collect/), and the child-side module that runs on the GPU (ladder/gpu/). Names
only, imported on use, so a reader that needs derive() never imports a runner."""
import importlib

from .spec import GATES

GPU_GATES = ("launch", "sanity", "correctness", "performance", "profile")

# gate -> (derive module, collect module, child module or None, other harness files it runs)
GATE_MODULES = {
    "build": ("ladder.gates.build", "ladder.collect.build", None, ("kernels/standalone_main.cu",)),
    "launch": ("ladder.gates.launch", "ladder.collect.launch", "ladder.gpu.launch", ()),
    "sanity": ("ladder.gates.sanity", "ladder.collect.sanity", "ladder.gpu.sanity", ("ladder/gpu/producer.cu",)),
    "correctness": ("ladder.gates.correctness", "ladder.collect.correctness", "ladder.gpu.correctness", ()),
    "performance": ("ladder.gates.performance", "ladder.collect.performance", "ladder.gpu.performance",
                    ("ladder/gpu/blocker.cu", "ladder/gpu/producer.cu")),
    "profile": ("ladder.gates.profile", "ladder.collect.profile", None, ()),
}
assert tuple(GATE_MODULES) == GATES

# Evidence kinds beyond the phase gates -> their derive modules.
KIND_MODULES = {
    "calibration": "ladder.gates.calibration",
    "controls": "ladder.gates.controls",
    "reproduce": "ladder.gates.reproduce",
    "seqlen": "ladder.gates.seqlen",
}


def derive_fn(kind, gate=None):
    """derive(raw, inputs) -> derived, for a phase gate (kind "gate") or another evidence kind."""
    name = GATE_MODULES[gate][0] if kind == "gate" else KIND_MODULES[kind]
    return importlib.import_module(name).derive


def collect_fn(gate):
    return importlib.import_module(GATE_MODULES[gate][1]).collect


def child_module(gate):
    return GATE_MODULES[gate][2]
