"""gate.yaml (+ the floor, phases/floor.yaml) -> a validated Spec. Nothing downstream runs on a
spec that did not validate, and every error names the file, the dotted key and (where the YAML
has one) the line.

The floor holds the launch, sanity and correctness cases every phase runs. A phase's gate.yaml
may add shapes, cases, trials, dtypes or sanitizer tools; it may never remove one, lower a count
or loosen a tolerance, and a gate.yaml that tries is rejected here, when it is loaded. Sanity
also runs at the sizes of the spec's own performance workloads (the floor's
sanity.timed_workloads)."""
import functools
import itertools
from dataclasses import dataclass
from pathlib import Path

import yaml

from .errors import SpecError
from .layout import FLOOR
from .schema import REQUIRED, Bool, Dict, Float, Int, Invalid, List, Map, Scalar, Str
from .vocab import DTYPES, HEAD_DIMS, LAYOUTS

SDPA_BASELINES = ("sdpa_flash", "sdpa_cudnn", "sdpa_efficient", "sdpa_math")
SDPA_CHOSEN = ("sdpa_best", "sdpa_default")
GATES = ("build", "launch", "sanity", "correctness", "performance", "profile")
VALUE_KINDS = ("normal", "large_logits", "sink", "all_negative", "v_offset", "heavy_tail", "wide_range", "zero_rows")
SANITIZERS = ("memcheck", "racecheck", "synccheck", "initcheck")


def _shape_post(with_name):
    def post(m, key):
        s = m.pop("S")
        if s is not None:
            if m["S_q"] is not None or m["S_k"] is not None:
                raise Invalid(key, "give either S or both S_q and S_k, not both")
            m["S_q"] = m["S_k"] = s
        elif m["S_q"] is None or m["S_k"] is None:
            raise Invalid(key, "missing sequence length: give S, or S_q and S_k")
        huge = m.get("huge_stride")
        if huge is not None:
            before = {"batch": [], "head": ["B"], "seq": ["B", "H"]}[huge]
            if any(m[d] != 1 for d in before):
                raise Invalid(key, f"huge_stride: {huge} needs {' and '.join(before)} = 1 (the views place "
                                   "the dimensions before the huge stride inside one region)")
        if with_name and m.get("name") is None:
            m["name"] = workload_name(m)
        return m
    return post


def shape_node(with_dtype=True, with_name=False, case=False, default=REQUIRED):
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
    if case:
        fields["trials"] = Int(default=None, min=1, doc="trials of this case; default the section's")
        fields["huge_stride"] = Str(default=None, choices=["batch", "head", "seq"],
                                    doc="views whose batch, head or row stride is above 2^31 elements (the "
                                        "dimensions before it must have size 1)")
    return Map(fields, default=default, post=_shape_post(with_name))


def workload_name(w):
    s = f"S{w['S_q']}" if w["S_q"] == w["S_k"] else f"Sq{w['S_q']}_Sk{w['S_k']}"
    return f"B{w['B']}_H{w['H']}_{s}_D{w['D']}_{w['dtype']}" + ("_causal" if w["causal"] else "")


# Target kinds. Against another kernel timed in the same run (vs): its time ratio, speedup or
# verdict from the event samples, or the ratio of CUDA-graph per-call times. The candidate's own
# figure (no vs): TFLOP/s from the event samples, or the CUDA-graph per-call time.
COMPARED_TARGETS = ("max_ratio", "min_speedup", "verdict", "max_graph_ratio")
OWN_TARGETS = ("min_tflops", "max_graph_us")


def _target_post(m, key):
    kinds = [k for k in COMPARED_TARGETS + OWN_TARGETS if m[k] is not None]
    if len(kinds) != 1:
        raise Invalid(key, f"give exactly one of {', '.join(COMPARED_TARGETS + OWN_TARGETS)}")
    if kinds[0] in OWN_TARGETS and m["vs"] is not None:
        raise Invalid(key, f"{kinds[0]} is the candidate's own figure: drop vs ({m['vs']!r})")
    if kinds[0] in COMPARED_TARGETS and m["vs"] is None:
        raise Invalid(key, f"{kinds[0]} compares the candidate with another kernel: name it in vs")
    return m


def _assert_post(m, key):
    both = set(m["sass_require"]) & set(m["sass_forbid"])
    if both:
        raise Invalid(f"{key}.sass_forbid" if key else "sass_forbid", f"{sorted(both)} both required and forbidden")
    return m


TIMEOUT = Float(default=600.0, min=1.0)
VALUE = Map({
    "name": Str(choices=VALUE_KINDS),
    "std": Float(default=1.0, min=0.0, doc="normal / large_logits: standard deviation of q, k, v"),
    "strength": Float(default=10.0, min=0.0, doc="sink / all_negative: size of the shared direction"),
    "offset": Float(default=0.0, doc="v_offset: common offset added to V"),
    "df": Float(default=2.0, min=1.0, doc="heavy_tail: Student-t degrees of freedom"),
    "fraction": Float(default=0.125, min=0.0, max=1.0, doc="zero_rows: share of the rows of q, k and v set to zero"),
    "dtypes": List(Str(choices=DTYPES), default=list(DTYPES), min_len=1, unique=True),
})

FLOOR_SCHEMA = Map({
    "launch": Map({"shapes": List(shape_node(), min_len=1)}),
    "sanity": Map({
        "repeats": Int(min=1),
        "shapes": List(shape_node(), min_len=1),
        "timed_workloads": Bool(doc="every phase's sanity also runs at its performance workloads' sizes"),
        "sanitizer": Map({
            "tools": List(Str(choices=SANITIZERS), min_len=1, unique=True),
            "shapes": List(shape_node(), min_len=1),
        }),
    }),
    "correctness": Map({
        "trials": Int(min=1),
        "k": Float(min=1.0),
        "lse_atol": Float(min=0.0),
        "lse_rtol": Float(min=0.0),
        "bias_floor": Float(min=0.0, doc="output gain (units of u) allowed whatever SDPA's"),
        "bias_k": Float(min=1.0, doc="output gain allowed, as a multiple of SDPA's own"),
        "bias_z": Float(min=1.0, doc="standard errors of the gain added to the bound"),
        "dtypes": List(Str(choices=DTYPES), min_len=1, unique=True),
        "causal": List(Bool(), min_len=1, unique=True),
        "values": List(VALUE, min_len=1),
        "layouts": List(Str(choices=LAYOUTS), min_len=1, unique=True),
        "scale_every": Int(min=1, doc="every n-th trial uses a softmax scale drawn from scale_range"),
        "scale_range": List(Float(min=1e-4), min_len=2),
        "cases": List(shape_node(with_dtype=False, case=True), min_len=1),
        "residues": Map({
            "moduli": List(Int(min=2), min_len=1, unique=True),
            "max_len": Int(min=2),
            "seed": Int(min=0),
            "long": Map({
                "min_len": Int(min=2),
                "max_len": Int(min=2),
                "short_max": Int(min=1, doc="the other length of a long case is in [1, short_max]"),
            }, doc="long lengths whose residues cover every value modulo each modulus, S_k and S_q in turn"),
        }),
    }),
})

SCHEMA = Map({
    "description": Str(doc="one line for the README's phase table"),
    "kernel": Str(default="kernel.cu"),
    "build": Map({
        "arches": List(Str(pattern=r"sm_\d+a?"), default=["sm_90a"], min_len=1, unique=True),
        "nvcc_flags": List(Str(), default=[]),
        "configs": List(Map({
            "name": Str(pattern=r"[A-Za-z0-9_-]+"),
            "defines": Dict(Scalar(), key_pattern=r"[A-Za-z_][A-Za-z0-9_]*", default={}),
        }), default=None, min_len=1),
        "sweep": Map({
            "defines": Dict(Scalar(), key_pattern=r"[A-Za-z_][A-Za-z0-9_]*", default={}),
            "axes": Dict(List(Scalar(), min_len=1, unique=True), key_pattern=r"[A-Za-z_][A-Za-z0-9_]*"),
        }, default=None, doc="a product of configurations; each passes or is rejected with its reason"),
        "assert": Map({
            "max_registers": Int(default=None, min=1),
            "max_smem_bytes": Int(default=None, min=0),
            "max_spill_bytes": Int(default=None, min=0),
            "max_stack_bytes": Int(default=None, min=0),
            "sass_require": List(Str(), default=[]),
            "sass_forbid": List(Str(), default=[]),
            "ptxas_warnings_forbid": List(Str(pattern=r"C\d{1,4}"), default=[],
                                          doc="ptxas warning codes (or prefixes) that fail the build"),
        }, default={}, post=_assert_post),
        "timeout_s": TIMEOUT,
    }, default={}),
    "launch": Map({
        "timeout_s": Float(default=120.0, min=1.0),
        "shapes": List(shape_node(), default=[]),
    }, default={}),
    "sanity": Map({
        "timeout_s": TIMEOUT,
        "shapes": List(shape_node(), default=[]),
        "repeats": Int(default=None, min=1),
        "sanitizer": Map({
            "tools": List(Str(choices=SANITIZERS), default=[], unique=True),
            "shapes": List(shape_node(), default=[]),
            "timeout_s": Float(default=300.0, min=1.0),
        }, default={}),
    }, default={}),
    "correctness": Map({
        "timeout_s": Float(default=600.0, min=1.0),
        "seed": Int(default=0, min=0),
        "trials": Int(default=None, min=1),
        "k": Float(default=None, min=1.0),
        "lse_atol": Float(default=None, min=0.0),
        "dtypes": List(Str(choices=DTYPES), default=[], unique=True),
        "causal": List(Bool(), default=[], unique=True),
        "cases": List(shape_node(with_dtype=False, case=True), default=[]),
    }, default={}),
    "performance": Map({
        "timeout_s": Float(default=900.0, min=1.0),
        "workloads_from": Str(default=None, doc="take another phase's workloads first"),
        "workloads": List(shape_node(with_name=True), default=[]),
        "config": Str(default=None, doc="the candidate config; default the first, or the sweep's winner"),
        "also_time": List(Str(), default=[], unique=True,
                          doc="other build configs timed in the same run, for tuning (no targets)"),
        "baselines": List(Str(choices=SDPA_BASELINES), default=["sdpa_flash", "sdpa_cudnn", "sdpa_efficient"],
                          unique=True),
        "targets": List(Map({
            "vs": Str(default=None, doc="the kernel compared with: an SDPA baseline or another phase"),
            "workloads": List(Str(), default=None),
            "max_ratio": Float(default=None, min=0.0),
            "min_speedup": Float(default=None, min=0.0),
            "verdict": Str(default=None, choices=("faster", "not_slower", "same")),
            "max_graph_ratio": Float(default=None, min=0.0, doc="graph per-call time over vs's, at most"),
            "min_tflops": Float(default=None, min=0.0, doc="the candidate's TFLOP/s, at least"),
            "max_graph_us": Float(default=None, min=0.0, doc="the candidate's graph per-call time (us), at most"),
        }, post=_target_post), default=[]),
        "timing": Map({
            "warmup_s": Float(default=0.2, min=0.0),
            "blocker_timeout_ms": Float(default=50.0, min=1.0),
            "min_rounds": Int(default=20, min=5),
            "max_rounds": Int(default=3000, min=5),
            "max_time_s": Float(default=6.0, min=0.1, doc="per workload and process"),
            "processes": Int(default=3, min=1, doc="independent processes per workload, at least"),
            "max_processes": Int(default=5, min=1),
            "min_margin": Float(default=0.01, min=0.0, max=0.5),
            "input_sets": Int(default=4, min=2),
            "rechecks": Int(default=3, min=1, doc="timed outputs re-checked per workload and process"),
            "recheck_k": Float(default=2.0, min=1.0),
            "graph_calls": Int(default=200, min=1, doc="at most this many calls per graph (~2 ms of work)"),
            "leak_ratio": Float(default=1.3, min=1.0),
            "determinism_repeats": Int(default=2, min=1),
            "seed": Int(default=0, min=0),
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

    @property
    def configs(self):
        """Every build configuration: the explicit ones, then the sweep's (marked sweep: true)."""
        return self.data["build"]["configs"]

    def config(self, name=None):
        if name is None:
            return self.configs[0]
        for c in self.configs:
            if c["name"] == name:
                return c
        raise KeyError(name)

    @property
    def workloads(self):
        return self.data["performance"]["workloads"]

    @property
    def compared_phases(self):
        """Other phases the performance gate times (targets that name a phase)."""
        return sorted({t["vs"] for t in self.data["performance"]["targets"]
                       if t["vs"] is not None and t["vs"] not in SDPA_BASELINES + SDPA_CHOSEN})

    def compared_specs(self):
        """{phase: its loaded spec} of the compared phases. A method, so that the performance
        collector reads them without importing this loader: its freshness hash then does not
        change with a schema edit for another gate (what it takes from them is hashed as their
        build hashes)."""
        return {name: load_spec(self.dir.parent / name) for name in self.compared_phases}


def _yaml_line(text, key):
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


def _parse(path, what):
    """YAML text -> (text, mapping), or SpecError naming the file and line."""
    if not path.is_file():
        raise SpecError(path, None, f"missing; {what}")
    text = path.read_text()
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else None
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise SpecError(path, where, f"YAML syntax error: {problem}") from None
    if raw is None:
        raise SpecError(path, None, f"file is empty; {what}")
    if not isinstance(raw, dict):
        raise SpecError(path, None, f"expected a mapping at the top level, got {type(raw).__name__}")
    return text, raw


def validate(path, text, raw, schema):
    try:
        return schema.validate(raw, "")
    except Invalid as e:
        line = _yaml_line(text, e.key)
        raise SpecError(path, f"{e.key} (line {line})" if line else e.key, e.message) from None


@functools.lru_cache(maxsize=8)
def _floor_cached(path, mtime_ns):
    text, raw = _parse(path, "the ladder-wide floor of launch, sanity and correctness cases")
    return validate(path, text, raw, FLOOR_SCHEMA)


def load_floor(path=None):
    path = Path(path or FLOOR)
    mtime = path.stat().st_mtime_ns if path.is_file() else 0
    return _copy(_floor_cached(path, mtime))


def _copy(x):
    import copy
    return copy.deepcopy(x)


def load_spec(phase_dir) -> Spec:
    phase_dir = Path(phase_dir)
    path = phase_dir / "gate.yaml"
    text, raw = _parse(path, "a phase folder needs kernel.cu and gate.yaml with description, build and "
                             "performance (launch, sanity and correctness add to phases/floor.yaml)")
    data = validate(path, text, raw, SCHEMA)
    spec = Spec(name=phase_dir.name, dir=phase_dir, path=path, data=data)
    _resolve(spec, text)
    return spec


def sweep_configs(sweep):
    """The product of a sweep's axes, one config each, named NAME=value,NAME=value."""
    if not sweep:
        return []
    names = list(sweep["axes"])
    out = []
    for values in itertools.product(*(sweep["axes"][n] for n in names)):
        defines = dict(sweep["defines"], **dict(zip(names, values)))
        out.append({"name": ",".join(f"{n}={v}" for n, v in zip(names, values)), "defines": defines, "sweep": True})
    return out


def _resolve(spec, text):
    """Cross-file rules: kernel present, floor merged, sweep expanded, workloads inherited,
    target references."""
    def fail(key, message):
        line = _yaml_line(text, key)
        raise SpecError(spec.path, f"{key} (line {line})" if line else key, message)

    if not spec.kernel.is_file():
        fail("kernel", f"{spec.kernel} does not exist; every phase needs its kernel source")
    build = spec.data["build"]
    explicit = [dict(c, sweep=False) for c in (build["configs"] or [])]
    if build["configs"] is None and build["sweep"] is None:
        explicit = [{"name": "default", "defines": {}, "sweep": False}]
    build["configs"] = explicit + sweep_configs(build["sweep"])
    names = [c["name"] for c in build["configs"]]
    if len(set(names)) != len(names):
        fail("build.configs", "configuration names must be unique")
    _merge_floor(spec, fail)

    perf = spec.data["performance"]
    src = perf["workloads_from"]
    if src is not None:
        other = spec.dir.parent / src
        if src == spec.name or not (other / "gate.yaml").is_file():
            fail("performance.workloads_from", f"no other phase named {src!r} beside {spec.dir}")
        perf["workloads"] = load_spec(other).workloads + perf["workloads"]
    if not perf["workloads"]:
        fail("performance.workloads", "no workloads: list some, or name a phase in workloads_from")
    wnames = [w["name"] for w in perf["workloads"]]
    dupes = sorted({n for n in wnames if wnames.count(n) > 1})
    if dupes:
        fail("performance.workloads", f"duplicate workload names {dupes}")
    if load_floor()["sanity"]["timed_workloads"]:
        shapes = spec.data["sanity"]["shapes"]
        shapes += [s for s in _unique(_shape_of(w) for w in perf["workloads"]) if s not in shapes]
    if perf["config"] is not None and perf["config"] not in names:
        fail("performance.config", f"no build config named {perf['config']!r}; have {names}")
    for name in perf["also_time"]:
        if name not in names:
            fail("performance.also_time", f"no build config named {name!r}; have {names}")
    for i, t in enumerate(perf["targets"]):
        vs = t["vs"]
        known = vs is None or vs in SDPA_BASELINES + SDPA_CHOSEN
        if not known and (vs == spec.name or not (spec.dir.parent / vs / "gate.yaml").is_file()):
            fail(f"performance.targets[{i}].vs",
                 f"{vs!r} is neither an SDPA baseline ({', '.join(SDPA_BASELINES + SDPA_CHOSEN)}) "
                 f"nor another phase beside this one")
        for w in t["workloads"] or []:
            if w not in wnames:
                fail(f"performance.targets[{i}].workloads", f"no workload named {w!r}; have {wnames}")
    prof = spec.data["profile"]
    for w in (prof or {}).get("workloads", []):
        if w not in wnames:
            fail("profile.workloads", f"no workload named {w!r}; have {wnames}")


SHAPE_KEYS = ("B", "H", "S_q", "S_k", "D", "dtype", "causal")


def _shape_of(workload):
    return {k: workload[k] for k in SHAPE_KEYS}


def _unique(items):
    out = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


def _merge_floor(spec, fail):
    """The floor's cases first, then the phase's; counts and tolerances no weaker than the
    floor's. A phase that tries to weaken the floor is rejected."""
    floor = load_floor()
    d = spec.data
    never = "; a phase may add to the floor (phases/floor.yaml), never remove from it"

    def at_least(key, mine, floors):
        if mine is not None and mine < floors:
            fail(key, f"{mine} is below the floor's {floors}{never}")
        return floors if mine is None else mine

    def at_most(key, mine, floors):
        if mine is not None and mine > floors:
            fail(key, f"{mine} is looser than the floor's {floors}{never}")
        return floors if mine is None else mine

    def superset(key, mine, floors):
        missing = [x for x in floors if x not in mine]
        if mine and missing:
            fail(key, f"{mine} leaves out {missing}, which the floor requires{never}")
        return list(floors) + [x for x in mine if x not in floors]

    d["launch"]["shapes"] = floor["launch"]["shapes"] + d["launch"]["shapes"]
    s, fs = d["sanity"], floor["sanity"]
    s["shapes"] = fs["shapes"] + s["shapes"]
    s["repeats"] = at_least("sanity.repeats", s["repeats"], fs["repeats"])
    s["sanitizer"]["tools"] = superset("sanity.sanitizer.tools", s["sanitizer"]["tools"], fs["sanitizer"]["tools"])
    s["sanitizer"]["shapes"] = fs["sanitizer"]["shapes"] + s["sanitizer"]["shapes"]
    c, fc = d["correctness"], floor["correctness"]
    c["trials"] = at_least("correctness.trials", c["trials"], fc["trials"])
    c["k"] = at_most("correctness.k", c["k"], fc["k"])
    c["lse_atol"] = at_most("correctness.lse_atol", c["lse_atol"], fc["lse_atol"])
    c["dtypes"] = superset("correctness.dtypes", c["dtypes"], fc["dtypes"])
    c["causal"] = superset("correctness.causal", c["causal"], fc["causal"])
    for key in ("lse_rtol", "bias_floor", "bias_k", "bias_z", "values", "layouts", "scale_every", "scale_range", "residues"):
        c[key] = fc[key]
    c["cases"] = fc["cases"] + c["cases"]
    # The performance gate values the log-sum-exp too, at the timed sizes (ladder/untimed.py),
    # with the tolerance correctness judges it by; a copy in its own section, so that a change to
    # that tolerance stales the performance records as well.
    d["performance"]["lse_tolerance"] = {"atol": c["lse_atol"], "rtol": c["lse_rtol"]}


CALIBRATION = Path(__file__).with_name("calibration.yaml")
CALIBRATION_SCHEMA = Map({
    "phase": Str(),
    "processes": Int(min=3),
    "per_repetition": Int(min=2),
    "repetitions": Int(min=10),
    "baselines": List(Str(choices=SDPA_BASELINES), default=[]),
    "workloads": List(Map({
        "name": Str(pattern=r"[A-Za-z0-9_-]+"),
        "B": Int(min=1), "H": Int(min=1), "S": Int(min=1), "D": Int(choices=HEAD_DIMS),
        "rounds": Int(min=5),
        "shifts": List(Float(min=0.0, max=0.5), default=[]),
        "heavier_heads": Int(default=None, min=1),
        "must_find": List(Str(), min_len=1),
    }), min_len=1),
    "timing": SCHEMA.fields["performance"].fields["timing"],
    "required": Map({"aa_false_upper": Float(min=0.0, max=1.0), "found_rate": Float(min=0.0, max=1.0)}),
})


def load_calibration(path=None):
    path = Path(path or CALIBRATION)
    text, raw = _parse(path, "the calibration of the performance verdicts")
    return validate(path, text, raw, CALIBRATION_SCHEMA)


EXPECT_SCHEMA = Map({"gate": Str(choices=("spec",) + GATES), "reason": Str(), "defect": Str()})


def load_expect(control_dir):
    """A negative control's expect.yaml: the gate that must reject it ("spec": its gate.yaml must
    be rejected on load), the reason (a regular expression) and the defect, in words."""
    import re
    path = Path(control_dir) / "expect.yaml"
    text, raw = _parse(path, "a control needs expect.yaml with gate, reason and defect")
    data = validate(path, text, raw, EXPECT_SCHEMA)
    try:
        re.compile(data["reason"])
    except re.error as e:
        raise SpecError(path, "reason", f"not a valid regular expression: {e}") from None
    return data


SEQLEN = Path(__file__).with_name("seqlen.yaml")
SEQLEN_SCHEMA = Map({
    "tokens": Int(min=1),
    "heads": Int(min=1),
    "seq_lens": List(Int(min=1), min_len=1, unique=True),
    "head_dims": List(Int(choices=HEAD_DIMS), min_len=1, unique=True),
    "causal": List(Bool(), min_len=1, unique=True),
    "baselines": List(Str(choices=SDPA_BASELINES), default=[]),
    "timing": SCHEMA.fields["performance"].fields["timing"],
})


def load_seqlen(path=None):
    """The sequence-length chart's settings, with its workloads expanded (named sl<S>_d<D>[_causal])."""
    path = Path(path or SEQLEN)
    text, raw = _parse(path, "the sequence-length chart's settings")
    cfg = validate(path, text, raw, SEQLEN_SCHEMA)
    cfg["workloads"] = [{"name": f"sl{S}_d{D}" + ("_causal" if c else ""), "B": max(1, cfg["tokens"] // S),
                         "H": cfg["heads"], "S_q": S, "S_k": S, "D": D, "dtype": "fp16", "causal": c}
                        for D in cfg["head_dims"] for c in cfg["causal"] for S in cfg["seq_lens"]]
    return cfg
