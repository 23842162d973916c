"""check-evidence: every committed evidence file, whatever its kind, is {inputs, raw, derived,
meta}. For each: the structure; the inputs hash recomputes from the recorded inputs; derived
recomputes from raw and inputs with the kind's own derive() (numpy and scipy versions recorded
beside it): every field equal, floats to within FLOAT_REL of each other; no blocked status;
files that restate others (reproduce, controls) agree with them. Evidence whose inputs no
longer hash to today's sources is listed as stale (it fails with --strict). A stale record's
derive() is not today's (the gate's modules are among its inputs), so where today's derives it
otherwise, that is said on its stale line, not counted as invalid: a rule added since must not
turn a record it never judged into a forgery. Reads evidence and pure derive functions only: no
runner, no build code."""
import json
import math
from pathlib import Path

from . import evidence, freshness
from .environment import nvcc_version, versions
from .errors import LadderError
from .layout import CONTROLS, EVIDENCE, PHASES, control_dirs
from .registry import derive_fn
from .spec import GATES, load_expect, load_spec

# The last bits of a float reduction depend on the CPU's SIMD width and the numpy version, so a
# float re-derived on another machine may differ there from the one the GPU machine recorded
# (6c1cdab's H100 records, re-derived by CI: 7 fields of 2 files, at most 2e-14 apart relative).
# Floats are therefore equal to within FLOAT_REL (or FLOAT_ABS near zero); every other field,
# verdicts, statuses, counts and flags included, must be identical. No verdict or target moves
# within 1e-9 of a ratio; an edited figure moves far more (tests/test_check_evidence.py).
FLOAT_REL = 1e-9
FLOAT_ABS = 1e-12

REQUIRED = {"schema": int, "kind": str, "name": str, "inputs": dict, "raw": dict, "derived": dict, "meta": dict}


def _diff(a, b, path="derived", out=None, limit=4, near=None):
    """Paths where two JSON values differ (the first few); `near` collects the paths of floats
    that are equal only to within FLOAT_REL."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: {'missing' if k not in b else 'unexpected'}")
            else:
                _diff(a[k], b[k], f"{path}.{k}", out, limit, near)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _diff(x, y, f"{path}[{i}]", out, limit, near)
    elif type(a) is float and type(b) is float and math.isclose(a, b, rel_tol=FLOAT_REL, abs_tol=FLOAT_ABS):
        if a != b and near is not None:
            near.append(path)
    elif a != b:
        out.append(f"{path}: stored {json.dumps(b)[:80]} != recomputed {json.dumps(a)[:80]}")
    return out


def device_of(path, root):
    return Path(path).relative_to(root).parts[0]


def validate(rec, path, near=None, rederive=True):
    """Problems that make a file invalid (`near`: as _diff's). rederive False: all but derived
    against today's derive() (rederived(), which _check_file judges by freshness)."""
    problems = [f"{k} should be {t.__name__}" for k, t in REQUIRED.items() if not isinstance(rec.get(k), t)]
    if problems:
        return problems
    if rec["schema"] != evidence.SCHEMA_VERSION:
        return [f"schema {rec['schema']}, this harness reads {evidence.SCHEMA_VERSION}"]
    kind = rec["kind"]
    if kind not in evidence.KINDS:
        return [f"unknown kind {kind!r}"]
    if kind == "gate":
        if rec.get("gate") not in GATES or path.stem != rec["gate"]:
            problems.append(f"gate {rec.get('gate')!r} does not match file name {path.name}")
        if rec.get("phase") != path.parent.name:
            problems.append(f"phase {rec.get('phase')!r} does not match folder {path.parent.name}")
    elif path.stem != kind:
        problems.append(f"a {kind} record must be named {kind}.json")
    hashed = {k: rec["inputs"][k] for k in freshness.HASHED if k in rec["inputs"]}
    if freshness.finish(dict(hashed))["hash"] != rec["inputs"].get("hash"):
        problems.append("inputs hash does not recompute from the recorded inputs")
    if rec["derived"].get("status") == "blocked":
        problems.append("blocked evidence must never be committed (it belongs in .ladder-run/)")
    if kind == "reproduce":
        problems += _reproduce_cross_check(rec, path)
    return problems + (rederived(rec, near) if rederive else [])


def rederived(rec, near=None):
    """Where today's derive() of the record's raw data and inputs differs from its derived."""
    try:
        again = evidence.canonical(derive_fn(rec["kind"], rec.get("gate"))(rec["raw"], rec["inputs"]))
    except Exception as e:
        return [f"derive failed on the stored raw data: {type(e).__name__}: {e}"]
    note = ""
    if rec["meta"].get("versions", {}) != versions():
        note = f" (recorded with {rec['meta'].get('versions')}, checked with {versions()})"
    return [d + note for d in _diff(again, rec["derived"], near=near)]


def _reproduce_cross_check(rec, path):
    from .gates.reproduce import table
    out = []
    for phase, pair in rec["raw"].get("phases", {}).items():
        for side, file in (("committed", path.parent / phase / "performance.json"),
                           ("rerun", path.parent / "reproduce" / phase / "performance.json")):
            other = evidence.read(file)
            if other is None or evidence.canonical(table(other["derived"])) != pair[side]:
                out.append(f"{phase}: the {side} table does not match {file.relative_to(path.parent)}")
    return out


def staleness(rec, path, root, toolchain):
    device = device_of(path, root)
    kind = rec["kind"]
    if kind == "gate":
        base = CONTROLS if "controls" in path.relative_to(root).parts[1:-2] else PHASES
        spec_dir = base / rec["phase"]
        if not (spec_dir / "gate.yaml").is_file():
            return f"its phase {rec['phase']} no longer exists"
        try:
            return freshness.staleness(rec, load_spec(spec_dir), device, toolchain)
        except LadderError as e:
            return f"its spec does not load: {e}"
    if kind == "calibration":
        spec = load_spec(PHASES / rec["inputs"]["section"]["phase"])
        want = freshness.calibration_inputs(spec, device, toolchain)["hash"]
    elif kind == "controls":
        expects = {d.name: load_expect(d) for d in control_dirs()}
        hashes = {}
        for name, gates in rec["inputs"].get("compared_builds", {}).items():
            if (CONTROLS / name / "gate.yaml").is_file():
                try:
                    spec = load_spec(CONTROLS / name)
                    hashes[name] = {g: freshness.current_hash(spec, g, device, toolchain) for g in gates}
                except LadderError:
                    hashes[name] = {}
        want = freshness.controls_inputs(expects, hashes)["hash"]
    elif kind == "seqlen":
        from .layout import phase_dirs
        want = freshness.seqlen_inputs([load_spec(d) for d in phase_dirs()], device, toolchain)["hash"]
    else:
        want = freshness.reproduce_inputs({p: freshness.current_hash(load_spec(PHASES / p), "performance", device,
                                                                     toolchain)
                                           for p in rec["inputs"]["section"]})["hash"]
    have = rec["inputs"]["hash"]
    return None if want == have else f"recorded for inputs {have}, sources now hash to {want}"


def _check_file(path, root, toolchain):
    """(invalid lines, stale line or None, floats equal only to within FLOAT_REL) for one file."""
    rel = path.relative_to(root)
    try:
        rec = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        return [f"{rel}: not valid JSON ({e})"], None, 0
    near = []
    problems = validate(rec, path, near, rederive=False)
    if problems:
        return [f"{rel}: {p}" for p in problems], None, len(near)
    why = staleness(rec, path, root, toolchain)
    diffs = rederived(rec, near)
    if diffs and not why:
        return [f"{rel}: {p}" for p in diffs], None, len(near)
    if diffs:
        why += f"; today's derive() gives {len(diffs)} derived field(s) otherwise (its rules changed since)"
    return [], f"{rel}: {why}" if why else None, len(near)


def check_tree(root=EVIDENCE):
    """(files, invalid lines, stale lines, {file: floats equal only to within FLOAT_REL}). Files
    are checked in a pool of worker processes, largest first: calibration.json alone (300
    hierarchical bootstraps) took 34 of a serial run's 46 s."""
    from concurrent.futures import ProcessPoolExecutor
    toolchain = nvcc_version()
    paths = sorted(Path(root).rglob("*.json"))
    with ProcessPoolExecutor() as pool:
        futures = {p: pool.submit(_check_file, p, Path(root), toolchain)
                   for p in sorted(paths, key=lambda p: -p.stat().st_size)}
    invalid, stale, near = [], [], {}
    for p in paths:
        bad, why, n_near = futures[p].result()
        invalid += bad
        stale += [why] if why else []
        if n_near:
            near[str(p.relative_to(root))] = n_near
    n = len(paths)
    for hist in sorted(Path(root).rglob(evidence.HISTORY)):
        for i, line in enumerate(hist.read_text().splitlines(), 1):
            try:
                entry = json.loads(line)
                assert {"status", "finished"} <= set(entry)
            except (json.JSONDecodeError, AssertionError):
                invalid.append(f"{hist.relative_to(root)}:{i}: not a complete history entry")
    return n, invalid, stale, near


def main(strict=False, root=EVIDENCE):
    n, invalid, stale, near = check_tree(root)
    for line in invalid:
        print(f"INVALID {line}")
    for line in stale:
        print(f"STALE   {line}")
    if near:
        print(f"check-evidence: {sum(near.values())} float field(s) in {len(near)} file(s) recompute to within "
              f"{FLOAT_REL:g} relative, not bit for bit: {', '.join(sorted(near))}")
    print(f"check-evidence: {n} file(s), {len(invalid)} invalid, {len(stale)} stale")
    return 1 if invalid or (strict and stale) else 0
