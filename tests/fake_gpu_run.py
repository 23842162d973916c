"""Runs every phase's ladder (or the named ones) with a pretend GPU whose gates deliver
synthetic passing raw data (tests/synthetic.py); the build gate is real. Run as a script with
LADDER_ROOT pointing at a sandbox copy of the repository. Test code only."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from synthetic import FAKE_PROBE, fake_raw  # noqa: E402

from ladder import preflight, registry, runner  # noqa: E402
from ladder.errors import LadderError  # noqa: E402
from ladder.layout import phase_dirs  # noqa: E402
from ladder.spec import load_spec  # noqa: E402

FAIL = {"sanity": lambda raw: [c["child"]["result"]["shapes"][0]["figures"].update(unwritten=12)
                               for c in raw["configs"].values()]}


def collector(gate, fail):
    if gate == "build":
        return registry.collect_fn(gate)

    def collect(job):
        raw = fake_raw(gate, job)
        if gate in fail:
            FAIL[gate](raw)
        return raw
    return collect


runner.cuda_probe = lambda: FAKE_PROBE
runner.device_name = lambda: "fake-gpu"
FAILING = set()
runner.collect_fn = lambda gate: collector(gate, FAILING)

if __name__ == "__main__":
    args = sys.argv[1:]
    FAILING.update(a.split("=", 1)[1] for a in args if a.startswith("--fail="))
    only = [a for a in args if not a.startswith("--")]
    gates = [a.split("=", 1)[1] for a in args if a.startswith("--gate=")] or None
    code = 0
    for d in phase_dirs():
        if not only or d.name in only:
            try:
                preflight.build_outputs_present(load_spec(d), gates, runner.device_name())
                outcomes = runner.run(load_spec(d), gates=gates, echo=lambda *_: None)
            except LadderError as e:
                print(f"error: {e}")
                sys.exit(2)
            print(d.name, " ".join(f"{g}:{s}" for g, s, _ in outcomes))
            code = max(code, runner.exit_code(outcomes))
    sys.exit(code)
