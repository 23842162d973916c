"""gate.yaml -> a validated Spec. Nothing downstream runs on a spec that did not validate, and
every error names the file, the dotted key and (where the YAML has one) the line."""
from dataclasses import dataclass
from pathlib import Path

import yaml

from .errors import SpecError
from .schema import REQUIRED, Bool, Dict, Float, Int, Invalid, List, Map, Scalar, Str

DTYPES = ("fp16", "bf16")
HEAD_DIMS = (64, 128)
SDPA_BASELINES = ("sdpa_flash", "sdpa_cudnn", "sdpa_efficient", "sdpa_math")
GATES = ("build", "launch", "sanity", "correctness", "performance", "profile")


def _shape_post(with_name):
    def post(m, key):
        s = m.pop("S")
        if s is not None:
            if m["S_q"] is not None or m["S_k"] is not None:
                raise Invalid(key, "give either S or both S_q and S_k, not both")
            m["S_q"] = m["S_k"] = s
        elif m["S_q"] is None or m["S_k"] is None:
            raise Invalid(key, "missing sequence length: give S, or S_q and S_k")
        if with_name and m.get("name") is None:
            m["name"] = workload_name(m)
        return m
    return post


def shape_node(with_dtype=True, with_name=False, default=REQUIRED):
    fields = {
        "B": Int(min=1), "H": Int(min=1),
        "S": Int(default=None, min=1), "S_q": Int(default=None, min=1), "S_k": Int(default=None, min=1),
        "D": Int(choices=HEAD_DIMS),
    }
    if with_dtype:
        fields["dtype"] = Str(default="fp16", choices=DTYPES)
        fields["causal"] = Bool(default=False)
    if with_name:
        fields["name"] = Str(default=None, pattern=r"[A-Za-z0-9_.-]+")
    return Map(fields, default=default, post=_shape_post(with_name))


def workload_name(w):
    s = f"S{w['S_q']}" if w["S_q"] == w["S_k"] else f"Sq{w['S_q']}_Sk{w['S_k']}"
    return f"B{w['B']}_H{w['H']}_{s}_D{w['D']}_{w['dtype']}" + ("_causal" if w["causal"] else "")


def shape_label(s):
    """Short human form of a shape, for reasons and logs."""
    label = f"B{s['B']} H{s['H']} S_q{s['S_q']} S_k{s['S_k']} D{s['D']}"
    if "dtype" in s:
        label += f" {s['dtype']}" + (" causal" if s["causal"] else "")
    return label


def _target_post(m, key):
    kinds = [k for k in ("max_ratio", "min_speedup", "verdict") if m[k] is not None]
    if len(kinds) != 1:
        raise Invalid(key, "give exactly one of max_ratio, min_speedup, verdict")
    return m


def _assert_post(m, key):
    if m["sass_require"] and m["sass_forbid"]:
        both = set(m["sass_require"]) & set(m["sass_forbid"])
        if both:
            raise Invalid(_join_key(key, "sass_forbid"), f"{sorted(both)} both required and forbidden")
    return m


def _join_key(a, b):
    return f"{a}.{b}" if a else b


TIMEOUT = Float(default=600.0, min=1.0)

SCHEMA = Map({
    "description": Str(doc="one line for the README's phase table"),
    "kernel": Str(default="kernel.cu"),
    "build": Map({
        "arches": List(Str(pattern=r"sm_\d+a?"), default=["sm_90a"], min_len=1, unique=True),
        "nvcc_flags": List(Str(), default=[]),
        "configs": List(Map({
            "name": Str(pattern=r"[A-Za-z0-9_-]+"),
            "defines": Dict(Scalar(), key_pattern=r"[A-Za-z_][A-Za-z0-9_]*", default={}),
        }), default=[{"name": "default", "defines": {}}], min_len=1),
        "assert": Map({
            "max_registers": Int(default=None, min=1),
            "max_smem_bytes": Int(default=None, min=0),
            "max_spill_bytes": Int(default=None, min=0),
            "max_stack_bytes": Int(default=None, min=0),
            "sass_require": List(Str(), default=[]),
            "sass_forbid": List(Str(), default=[]),
        }, default={}, post=_assert_post),
        "timeout_s": TIMEOUT,
    }, default={}),
    "launch": Map({
        "timeout_s": Float(default=120.0, min=1.0),
        "shapes": List(shape_node(), min_len=1),
    }),
    "sanity": Map({
        "timeout_s": TIMEOUT,
        "shapes": List(shape_node(), min_len=1),
        "repeats": Int(default=3, min=1),
        "sanitizer": Map({
            "tools": List(Str(choices=("memcheck", "racecheck", "synccheck", "initcheck")),
                          default=["memcheck", "racecheck"], unique=True),
            "shape": shape_node(default={"B": 1, "H": 2, "S_q": 77, "S_k": 150, "D": 64}),
            "timeout_s": Float(default=300.0, min=1.0),
        }, default={}),
    }),
    "correctness": Map({
        "timeout_s": Float(default=1800.0, min=1.0),
        "trials": Int(default=100, min=1),
        "seed": Int(default=0, min=0),
        "k": Float(default=2.0, min=1.0),
        "lse_atol": Float(default=1e-3, min=0.0),
        "dtypes": List(Str(choices=DTYPES), default=list(DTYPES), min_len=1, unique=True),
        "causal": List(Bool(), default=[False, True], min_len=1, unique=True),
        "cases": List(shape_node(with_dtype=False), min_len=1),
    }),
    "performance": Map({
        "timeout_s": Float(default=1800.0, min=1.0),
        "workloads_from": Str(default=None, doc="take another phase's workloads first"),
        "workloads": List(shape_node(with_name=True), default=[]),
        "config": Str(default=None, doc="which build config is the candidate; default the first"),
        "also_time": List(Str(), default=[], unique=True,
                          doc="other build configs timed in the same run, for tuning (no targets)"),
        "baselines": List(Str(choices=SDPA_BASELINES), default=["sdpa_flash", "sdpa_cudnn", "sdpa_efficient"],
                          unique=True),
        "targets": List(Map({
            "vs": Str(),
            "workloads": List(Str(), default=None),
            "max_ratio": Float(default=None, min=0.0),
            "min_speedup": Float(default=None, min=0.0),
            "verdict": Str(default=None, choices=("faster", "not_slower", "same")),
        }, post=_target_post), default=[]),
        "timing": Map({
            "warmup_s": Float(default=0.2, min=0.0),
            "hold_us": Float(default=100.0, min=0.0),
            "min_samples": Int(default=20, min=5),
            "max_samples": Int(default=300, min=5),
            "max_time_s": Float(default=15.0, min=0.1),
            "rel_noise": Float(default=0.005, min=0.0),
            "input_sets": Int(default=4, min=2),
            "recheck_every": Int(default=5, min=1),
            "recheck_atol": Float(default=0.02, min=0.0),
            "graph_max_us": Float(default=200.0, min=0.0),
            "graph_calls": Int(default=20, min=1),
        }, default={}),
    }),
    "profile": Map({
        "timeout_s": TIMEOUT,
        "workloads": List(Str(), min_len=1),
        "thresholds": Map({
            "min_tensor_pipe_pct": Float(default=None, min=0.0),
            "min_achieved_occupancy_pct": Float(default=None, min=0.0),
            "max_smem_bank_conflict_fraction": Float(default=None, min=0.0),
        }, default={}),
    }, default=None),
})


@dataclass(frozen=True)
class Spec:
    name: str
    dir: Path
    path: Path
    data: dict

    @property
    def kernel(self) -> Path:
        return self.dir / self.data["kernel"]

    def section(self, gate):
        return self.data[gate]

    @property
    def gates(self):
        return [g for g in GATES if g != "profile" or self.data["profile"] is not None]

    def config(self, name=None):
        configs = self.data["build"]["configs"]
        if name is None:
            return configs[0]
        for c in configs:
            if c["name"] == name:
                return c
        raise KeyError(name)

    @property
    def perf_config(self):
        return self.config(self.data["performance"]["config"])

    @property
    def workloads(self):
        return self.data["performance"]["workloads"]


def _yaml_line(path, text, key):
    """Best-effort 1-based line of a dotted key (a.b[2].c) in the YAML text."""
    try:
        node = yaml.compose(text)
    except yaml.YAMLError:
        return None
    line = None
    for part in key.replace("[", ".[").split("."):
        if not part or node is None:
            continue
        if part.startswith("["):
            idx = int(part[1:-1])
            if not isinstance(node, yaml.SequenceNode) or idx >= len(node.value):
                break
            node = node.value[idx]
            line = node.start_mark.line + 1
        elif isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if k.value == part:
                    line, node = k.start_mark.line + 1, v
                    break
            else:
                break
        else:
            break
    return line


def load_spec(phase_dir) -> Spec:
    phase_dir = Path(phase_dir)
    path = phase_dir / "gate.yaml"
    if not path.is_file():
        raise SpecError(path, None, "no gate.yaml here; a phase folder needs kernel.cu and gate.yaml")
    text = path.read_text()
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else None
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise SpecError(path, where, f"YAML syntax error: {problem}") from None
    if raw is None:
        raise SpecError(path, None, "file is empty; expected a mapping with description, launch, "
                                    "sanity, correctness and performance")
    if not isinstance(raw, dict):
        raise SpecError(path, None, f"expected a mapping at the top level, got {type(raw).__name__}")
    try:
        data = SCHEMA.validate(raw, "")
    except Invalid as e:
        line = _yaml_line(path, text, e.key)
        key = f"{e.key} (line {line})" if line else e.key
        raise SpecError(path, key, e.message) from None
    spec = Spec(name=phase_dir.name, dir=phase_dir, path=path, data=data)
    _resolve(spec, text)
    return spec


def _resolve(spec, text):
    """Cross-file rules: kernel present, inherited workloads, target references."""
    def fail(key, message):
        line = _yaml_line(spec.path, text, key)
        raise SpecError(spec.path, f"{key} (line {line})" if line else key, message)

    if not spec.kernel.is_file():
        fail("kernel", f"{spec.kernel} does not exist; every phase needs its kernel source")
    perf = spec.data["performance"]
    src = perf["workloads_from"]
    if src is not None:
        other = spec.dir.parent / src
        if src == spec.name or not (other / "gate.yaml").is_file():
            fail("performance.workloads_from", f"no other phase named {src!r} beside {spec.dir}")
        perf["workloads"] = load_spec(other).workloads + perf["workloads"]
    if not perf["workloads"]:
        fail("performance.workloads", "no workloads: list some, or name a phase in workloads_from")
    names = [w["name"] for w in perf["workloads"]]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        fail("performance.workloads", f"duplicate workload names {dupes}")
    configs = [c["name"] for c in spec.data["build"]["configs"]]
    if len(set(configs)) != len(configs):
        fail("build.configs", "configuration names must be unique")
    if perf["config"] is not None and perf["config"] not in configs:
        fail("performance.config", f"no build config named {perf['config']!r}; have {configs}")
    for name in perf["also_time"]:
        if name not in configs:
            fail("performance.also_time", f"no build config named {name!r}; have {configs}")
    for i, t in enumerate(perf["targets"]):
        vs = t["vs"]
        known = vs in SDPA_BASELINES or vs in ("sdpa_best", "sdpa_default")
        if not known and (vs == spec.name or not (spec.dir.parent / vs / "gate.yaml").is_file()):
            fail(f"performance.targets[{i}].vs",
                 f"{vs!r} is neither an SDPA baseline ({', '.join(SDPA_BASELINES)}, sdpa_best, "
                 f"sdpa_default) nor another phase beside this one")
        for w in t["workloads"] or []:
            if w not in names:
                fail(f"performance.targets[{i}].workloads", f"no workload named {w!r}; have {names}")
    prof = spec.data["profile"]
    for w in (prof or {}).get("workloads", []):
        if w not in names:
            fail("profile.workloads", f"no workload named {w!r}; have {names}")
