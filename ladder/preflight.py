"""Checks a command line makes before it runs gates, so that a run that cannot succeed says why
and records nothing. Only the command line imports this module: no gate's evidence hashes it."""
from .errors import LadderError
from .layout import evidence_dir
from .toolchain.ninja_build import artifacts

# Gates whose children load the build gate's outputs as they are (performance rebuilds its own).
USES_BUILD_OUTPUT = {"launch": "lib", "sanity": "lib", "correctness": "lib", "profile": "driver"}


def build_outputs_present(spec, gates, device):
    """Raises LadderError naming the first build output one of `gates` needs that is not on this
    machine. Build outputs stay on the machine that built them (.ladder-run/, not committed): a
    gate run alone on a fresh machine would otherwise record a failure of a kernel that is fine,
    over its passing evidence. Nothing to check when the build gate runs first."""
    from . import evidence
    if not gates or "build" in gates:
        return
    build = evidence.read(evidence_dir(device, spec.dir) / "build.json") or {}
    built = build.get("derived", {}).get("passing", [])
    for gate in gates:
        what = USES_BUILD_OUTPUT.get(gate)
        for name in built if what else []:
            path = artifacts(spec, name)[what]
            if not path.is_file():
                raise LadderError(f"{spec.name} / {gate}: the build output {path} of configuration {name!r} is "
                                  f"missing on this machine: run the build gate first (ladder run {spec.name} "
                                  f"--gate build --gate {gate}); nothing was recorded")


def build_records_present(specs, device, command):
    """Raises LadderError naming the first of `specs` with no build record on this machine.
    calibrate and seqlen hash each compared phase's build inputs with the toolchain and headers
    its build record names: run without the record (a device call that sent no evidence), the
    record they write would be stale on arrival (thirty-second session: a calibration was)."""
    from . import evidence
    for spec in specs:
        path = evidence_dir(device, spec.dir) / "build.json"
        if evidence.read(path) is None:
            raise LadderError(f"{command}: no build record of {spec.name} on {device} ({path}), which "
                              f"{command}'s input hash reads: run `ladder run {spec.name} --gate build` on "
                              f"this machine first, or send the record with the call; nothing was recorded")
