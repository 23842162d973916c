"""make controls: negative controls, kernels (or gate specs) broken on purpose, each of which one
named gate must reject for a named reason (tests/controls/<name>/expect.yaml; gate "spec" means
its gate.yaml must be rejected when loaded). Each control runs through the ladder up to its
expected gate; the table of expected against observed is evidence/<device>/controls.json (the
common record form) and controls.md. Partial runs (--only, --build-only, or no GPU) go to
run-local output."""
import os
import time

from . import evidence, freshness, runner
from .environment import cuda_probe, device_name, environment, git_state, nvcc_version, versions
from .errors import SpecError
from .gates.controls import render
from .layout import RUN_LOCAL, control_dirs, device_dir, evidence_dir
from .registry import derive_fn
from .spec import load_expect, load_spec
from .toolchain.ninja_build import prebuild

MAX_JOBS = 16  # about 2 GB of GPU memory each at the correctness gate's peak


def problems(rec):
    """Every problem a gate's record lists per configuration (the sanity gate's), beyond the
    first three its reason names; [] for a gate that lists none."""
    configs = rec["derived"].get("configs")
    return [p for c in (configs or {}).values() if isinstance(c, dict) for p in c.get("problems") or []]


def run_control(control_dir, echo=print, resume=False, device=None, run=True):
    """{control, expect, outcomes: [[gate, status, reason, input hash, problems]]}. resume: a gate whose
    evidence is already fresh is not run again (its record stands), as make would. run=False:
    nothing runs; a gate with no pass or fail on record on `device` is recorded as missing, and
    one whose record is stale is read as recorded and named in the entry's "stale" list (what that
    run saw, which a table must not count as today's)."""
    expect = load_expect(control_dir)
    entry = {"control": control_dir.name, "expect": expect}
    try:
        spec = load_spec(control_dir)
    except SpecError as e:
        return dict(entry, outcomes=[["spec", "fail", str(e), None]])
    outcomes = [["spec", "pass", "gate.yaml loads", None]]
    if expect["gate"] == "spec":
        return dict(entry, outcomes=outcomes)
    device, toolchain = device or device_name(), nvcc_version()
    stale = []
    for gate in spec.gates[: spec.gates.index(expect["gate"]) + 1]:
        rec = evidence.read(evidence_dir(device, spec.dir) / f"{gate}.json")
        decided = rec is not None and evidence.status(rec) in ("pass", "fail")
        fresh = (resume or not run) and decided and freshness.staleness(rec, spec, device, toolchain) is None
        if not fresh and not run:
            if not decided:
                outcomes.append([gate, "missing", "no fresh evidence for this gate on record", None])
                break
            stale.append(gate)
        elif not fresh:
            runner.run(spec, gates=[gate], echo=echo)
            rec = evidence.read(evidence_dir(device, spec.dir) / f"{gate}.json")
        outcomes.append([gate, evidence.status(rec), rec["derived"]["reason"], rec["inputs"]["hash"], problems(rec)])
        if evidence.status(rec) != "pass":
            break
    return dict(entry, outcomes=outcomes, **({"stale": stale} if stale else {}))


def main(only=None, build_only=False, resume=False, tabulate=None, jobs=None):
    """tabulate=DEVICE: run nothing; the table from that device's control evidence (for a run cut
    off after its controls' gates were recorded but before the table was), a control read from
    stale records marked stale and not counted as matched.
    jobs: controls run at once (default: one per CPU core, at most MAX_JOBS)."""
    started, t0 = evidence.now(), time.time()
    dirs = [d for d in control_dirs() if not only or d.name in only]
    if build_only:
        dirs = [d for d in dirs if load_expect(d)["gate"] in ("spec", "build")]
    specs = []
    for d in dirs:
        try:
            specs.append(load_spec(d))
        except SpecError:
            pass
    if not tabulate:
        prebuild(specs)
    # Several controls at once, up to the performance gate: what those gates reject (a fault, a
    # wrong value, a race) does not depend on the GPU being idle. The correctness gate's children
    # are mostly host work (the float64 reference, SDPA, the judging), so more at once than the
    # six of earlier sessions pays: on the H200 (16 cores), the 16 controls that correctness
    # rejects ran 16 at a time in 293 s; their gates' recorded durations, run six at a time in the
    # twenty-fourth session, summed to 2944 s.
    # The controls that performance must reject run after those, one at a time. Sharing the GPU
    # hid them: a kernel slowed by its neighbours' work no longer reads under the physical floor,
    # and a warm-up bounded in seconds makes too few calls to reach the path that changes once a
    # problem is hot (H200, twenty-seventh session: five of ten passed beside 42 other gates,
    # three of ten five at a time; phases/phase_e/NOTES.md).
    from concurrent.futures import ThreadPoolExecutor

    def one(d):
        return run_control(d, echo=lambda *_: None, resume=resume, device=tabulate, run=not tabulate)
    timed = [d for d in dirs if load_expect(d)["gate"] == "performance"]
    shared = [d for d in dirs if d not in timed]
    with ThreadPoolExecutor(max_workers=jobs or min(MAX_JOBS, os.cpu_count() or 1)) as pool:
        done = dict(zip(shared, pool.map(one, shared)))
    done.update((d, one(d)) for d in timed)
    entries = [done[d] for d in dirs]
    expects = {e["control"]: e["expect"] for e in entries}
    hashes = {e["control"]: {o[0]: o[3] for o in e["outcomes"] if o[3]} for e in entries}
    inputs = freshness.controls_inputs(expects, hashes)
    raw = {"controls": entries}
    derived = derive_fn("controls")(evidence.canonical(raw), inputs)
    meta = {"git": git_state(), "env": environment(), "versions": versions(), "started": started,
            "finished": evidence.now(), "duration_s": round(time.time() - t0, 2)}
    if tabulate:
        meta["tabulated_from_evidence_of"] = tabulate
    rec = evidence.record(kind="controls", name="controls", inputs=inputs, raw=evidence.canonical(raw), derived=derived, meta=meta)
    device = tabulate or device_name()
    full = (tabulate or cuda_probe()["available"]) and not only and not build_only
    out = device_dir(device) if full else RUN_LOCAL / device / "controls-partial"
    evidence.write(out / "controls.json", rec)
    evidence.atomic_write(out / "controls.md", render(derived["rows"]))
    for r in derived["rows"]:
        mark = {True: "match", False: "MISMATCH", None: r["observed_status"]}[r["match"]]
        print(f"control {r['control']}: expected {r['expected_gate']}, observed {r['observed_gate']} "
              f"({r['observed_status']}) -> {mark}")
    require_gpu = os.environ.get("REQUIRE_GPU") == "1"
    bad = [r for r in derived["rows"] if r["match"] is False or (r["match"] is None and require_gpu)]
    return 1 if bad else 0
