"""Freshness: what each gate's evidence depends on, hashed, and the one function that says
whether evidence still matches today's sources. The runner (may a gate run?), check-evidence
(is committed evidence stale?) and the report (mark stale cells) all call current_hash().

- build: kernel.cu, the exact headers the compiler's depfiles list (recorded in the build
  evidence; a header edit changes only the phases whose depfiles list it), the standalone
  driver's source, the build section, the nvcc version, and the harness modules the build runs.
- every later gate: the build hash, its own validated section (the floor merged in), and the
  content of the harness modules it runs (their import closure inside this package).
- performance also: the build hashes of the phases it compares against.
Nothing is bumped by hand: a harness edit stales exactly the gates whose modules it touches."""
import ast
import functools
import hashlib
import json
from pathlib import Path

from .layout import PACKAGE, ROOT, evidence_dir, rel
from .registry import GATE_MODULES

HASHED = ("files", "section", "toolchain", "build_hash", "compared_builds")


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _module_path(name):
    parts = name.split(".")
    assert parts[0] == "ladder", name
    base = PACKAGE.joinpath(*parts[1:])
    return base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"


def _imports(path, package):
    """Modules of this package that `path` imports, anywhere in the file (lazy imports too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("ladder"):
                mod = node.module
            else:
                continue
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("ladder"))
    return {m for m in out if _module_path(m).is_file()}


@functools.lru_cache(maxsize=None)
def module_closure(roots):
    """Every module of this package reachable by imports from the roots, with its parents."""
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) not in seen]
        path = _module_path(name)
        package = name if path.name == "__init__.py" else ".".join(parts[:-1])
        todo += sorted(_imports(path, package) - seen)
    return tuple(sorted(seen))


def files_of(roots, extra=()):
    """{relative path: sha256} of the modules reachable from `roots` and the extra files."""
    files = {rel(_module_path(m)): digest(_module_path(m)) for m in module_closure(tuple(roots))}
    for f in extra:
        path = (PACKAGE.parent / f) if f.startswith("ladder/") else (ROOT / f)
        files[f] = digest(path)
    return files


def harness_files(gate):
    """{relative path: sha256} of the harness code a gate runs."""
    derive, collect, child, extra = GATE_MODULES[gate]
    return files_of((derive, collect) + ((child, "ladder.gpu.job") if child else ()), extra)


def finish(inputs):
    """inputs with "hash" set over its hashed parts."""
    hashed = {k: inputs[k] for k in HASHED if k in inputs}
    inputs["hash"] = hashlib.sha256(json.dumps(hashed, sort_keys=True).encode()).hexdigest()[:16]
    return inputs


def build_inputs(spec, headers, toolchain):
    """headers: paths the depfiles list (kernel and driver), besides the kernel itself."""
    files = {rel(spec.kernel): digest(spec.kernel)}
    for h in sorted(set(headers)):
        p = ROOT / h if not Path(h).is_absolute() else Path(h)
        files[rel(p)] = digest(p) if p.is_file() else "missing"
    files.update(harness_files("build"))
    return finish({"files": files, "section": spec.data["build"], "toolchain": toolchain})


def gate_inputs(spec, gate, build_hash, compared_builds=None):
    inputs = {"files": harness_files(gate), "section": spec.data[gate], "build_hash": build_hash}
    if compared_builds is not None:
        inputs["compared_builds"] = compared_builds
    return finish(inputs)


def _recorded_build(spec, device):
    from . import evidence
    return evidence.read(evidence_dir(device, spec.dir) / "build.json")


def recorded_headers(build_rec, spec):
    """The header files a build record depended on (everything it hashed but the kernel and
    the harness)."""
    if not build_rec:
        return []
    harness = set(harness_files("build"))
    return [f for f in build_rec["inputs"]["files"] if f not in harness and f != rel(spec.kernel)]


def current_hash(spec, gate, device, toolchain=None):
    """The input hash `gate` evidence of `spec` must carry to be fresh today, on `device`'s
    evidence. toolchain None: take the build record's (a machine with no nvcc cannot check it)."""
    build_rec = _recorded_build(spec, device)
    if toolchain is None:
        toolchain = build_rec["inputs"].get("toolchain") if build_rec else None
    b = build_inputs(spec, recorded_headers(build_rec, spec), toolchain)["hash"]
    if gate == "build":
        return b
    compared = None
    if gate == "performance":
        from .spec import load_spec
        compared = {name: current_hash(load_spec(spec.dir.parent / name), "build", device, toolchain)
                    for name in spec.compared_phases}
    return gate_inputs(spec, gate, b, compared)["hash"]


def staleness(rec, spec, device, toolchain=None):
    """None when `rec` (evidence of spec's gate) matches today's sources, else why not."""
    want = current_hash(spec, rec["gate"], device, toolchain)
    have = rec["inputs"].get("hash")
    if have == want:
        return None
    return f"recorded for inputs {have}, sources now hash to {want}"


def calibration_inputs(spec, device, toolchain=None):
    from .spec import load_calibration
    return finish({"files": files_of(("ladder.gates.calibration", "ladder.calibration", "ladder.gpu.calibration",
                                      "ladder.gpu.job"), ("ladder/gpu/blocker.cu",)),
                   "section": load_calibration(), "build_hash": current_hash(spec, "build", device, toolchain)})


def controls_inputs(expects, gate_hashes):
    """expects: {control: expect.yaml data}; gate_hashes: {control: {gate: input hash}} of the
    control evidence the table summarises."""
    return finish({"files": files_of(("ladder.gates.controls", "ladder.controls")),
                   "section": expects, "compared_builds": gate_hashes})


def reproduce_inputs(perf_hashes):
    """perf_hashes: {phase: today's performance input hash} the re-run measured against."""
    return finish({"files": files_of(("ladder.gates.reproduce", "ladder.reproduce")), "section": perf_hashes})


def seqlen_inputs(specs, device, toolchain=None):
    from .spec import load_seqlen
    return finish({"files": files_of(("ladder.gates.seqlen", "ladder.seqlen", "ladder.gpu.performance",
                                      "ladder.gpu.job"), ("ladder/gpu/blocker.cu",)),
                   "section": load_seqlen(),
                   "compared_builds": {s.name: current_hash(s, "build", device, toolchain) for s in specs}})
