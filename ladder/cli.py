"""Command line: `ladder` (or python -m ladder) {list,run,evidence,check-evidence,report,controls,
calibrate,reproduce,seqlen,compare}."""
import argparse
import os
import sys

from .errors import LadderError
from .layout import RUN_LOCAL, find_phase, phase_dirs
from .spec import GATES, load_spec


def _phase(name):
    d = find_phase(name)
    if d is None:
        known = ", ".join(p.name for p in phase_dirs())
        raise LadderError(f"no phase named {name!r} under phases/ (have: {known})")
    return d


def cmd_list(args):
    for d in phase_dirs():
        print(f"{d.name}: {load_spec(d).data['description']}")
    return 0


def cmd_run(args):
    from . import preflight, runner
    spec = load_spec(_phase(args.phase))
    if runner.cuda_probe().get("available"):
        preflight.build_outputs_present(spec, args.gate, runner.device_name())
    return runner.exit_code(runner.run(spec, gates=args.gate))


def cmd_evidence(args):
    import time
    from . import evidence, runner
    from .environment import device_name, git_state
    from .layout import device_dir
    from .toolchain.ninja_build import prebuild
    started, t0 = evidence.now(), time.time()
    specs = [load_spec(d) for d in phase_dirs()]  # every spec validates before anything runs
    prebuild(specs)
    outcomes = runner.run_all(specs)
    worst = max(runner.exit_code(o) for o in outcomes)
    if not args.no_report:
        from . import report
        report.write_all()
    # The whole run's wall time, beside the per-gate lines (the ladder aims at 8 minutes for all
    # phases on the H100). Without a GPU the device folder is run-local, as the gates' evidence is.
    wall = round(time.time() - t0, 1)
    short = {(s.name, g): st for s, o in zip(specs, outcomes) for g, st, _ in o if st != "pass"}
    status = "pass" if not short else "blocked" if set(short.values()) == {"blocked"} else "fail"
    git = git_state()
    evidence.append_history(device_dir(device_name()), {
        "kind": "evidence", "name": "make evidence", "gate": None, "status": status,
        "reason": f"{len(specs)} phase(s) in {wall} s" + (
            "; not passed: " + ", ".join(f"{n} {g} ({st})" for (n, g), st in short.items()) if short else ""),
        "phases": [s.name for s in specs], "git_sha": git["sha"], "git_dirty": git["dirty"],
        "started": started, "finished": evidence.now(), "duration_s": wall})
    print(f"ladder evidence: {len(specs)} phase(s) in {wall} s")
    return worst


def cmd_check(args):
    from . import check
    return check.main(strict=args.strict)


def cmd_report(args):
    from . import report
    report.write_all()
    return 0


def cmd_controls(args):
    from . import controls
    return controls.main(only=args.only, build_only=args.build_only, resume=args.resume, tabulate=args.tabulate,
                         jobs=args.jobs)


def cmd_calibrate(args):
    from . import calibration, preflight, runner
    from .spec import load_calibration
    if runner.cuda_probe().get("available"):
        preflight.build_records_present([load_spec(_phase(load_calibration()["phase"]))], runner.device_name(),
                                        "calibrate")
    return calibration.main()


def cmd_reproduce(args):
    from . import reproduce
    return reproduce.main(only=args.only)


def cmd_seqlen(args):
    from . import preflight, runner, seqlen
    if runner.cuda_probe().get("available"):
        preflight.build_records_present([load_spec(d) for d in phase_dirs()], runner.device_name(), "seqlen")
    return seqlen.main()


def cmd_compare(args):
    from . import compare
    return compare.main(args.rev)


def _share_bytecode():
    """Every gate does its GPU work in fresh child processes, and each imports torch anew. Where
    site-packages holds no usable bytecode (the H100 machine's: every child recompiled about 890
    torch modules, 2.4-3.0 s of each child's life, measured under cProfile), the children share
    one bytecode cache under .ladder-run instead. A user's own PYTHONPYCACHEPREFIX wins. It is
    set here, at the entry point, because it changes how fast a child starts, not what it measures
    (the watchdog that spawns children is in every gate's hash)."""
    if not os.environ.get("PYTHONPYCACHEPREFIX") and sys.pycache_prefix is None:
        prefix = RUN_LOCAL / "pycache"
        prefix.mkdir(parents=True, exist_ok=True)
        os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)  # children inherit it
        sys.pycache_prefix = str(prefix)


def main(argv=None):
    p = argparse.ArgumentParser(prog="ladder", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="list the phases").set_defaults(fn=cmd_list)
    r = sub.add_parser("run", help="run one phase's ladder")
    r.add_argument("phase")
    r.add_argument("--gate", action="append", choices=GATES, help="run only this gate (repeatable)")
    r.set_defaults(fn=cmd_run)
    e = sub.add_parser("evidence", help="run every phase's ladder, then render the report")
    e.add_argument("--no-report", action="store_true")
    e.set_defaults(fn=cmd_evidence)
    c = sub.add_parser("check-evidence", help="validate evidence, re-derive every figure, list stale")
    c.add_argument("--strict", action="store_true", help="also fail when evidence is stale")
    c.set_defaults(fn=cmd_check)
    sub.add_parser("report", help="render evidence/README.md and the README phase table").set_defaults(fn=cmd_report)
    k = sub.add_parser("controls", help="run the negative controls and tabulate what rejected them")
    k.add_argument("--only", action="append", help="run only this control (repeatable)")
    k.add_argument("--build-only", action="store_true", help="only the controls the build gate (or the spec) rejects")
    k.add_argument("--resume", action="store_true", help="reuse each control's fresh gate evidence instead of re-running")
    k.add_argument("--tabulate", metavar="DEVICE", help="run nothing: the table from DEVICE's control evidence, stale records marked stale and not counted")
    k.add_argument("--jobs", type=int, metavar="N", help="controls at once (default: one per CPU core, at most 16)")
    k.set_defaults(fn=cmd_controls)
    sub.add_parser("calibrate", help="calibrate the verdict statistics in the gate's regime").set_defaults(fn=cmd_calibrate)
    rp = sub.add_parser("reproduce", help="re-run every performance gate and compare verdicts")
    rp.add_argument("--only", action="append", default=[], help="re-run only this phase (repeatable)")
    rp.set_defaults(fn=cmd_reproduce)
    sub.add_parser("seqlen", help="TFLOP/s against sequence length, every phase and SDPA").set_defaults(fn=cmd_seqlen)
    m = sub.add_parser("compare", help="markdown for a PR: what changed in evidence/ since a git revision")
    m.add_argument("rev")
    m.set_defaults(fn=cmd_compare)
    args = p.parse_args(argv)
    _share_bytecode()
    try:
        return args.fn(args)
    except LadderError as e:
        print(f"ladder: error: {e}", file=sys.stderr)
        return 2
