"""Which phase the torch op serves a call with, checked on each machine's committed evidence (no
GPU, no torch): only phases with every gate passed and fresh qualify, the basis is the closest
level any of them was timed at, and no qualifying phase is faster there."""
import pytest

from ladder import evidence, freshness
from ladder.choice import SMALL_ELEMENTS, _closeness, choose, qualifying
from ladder.environment import nvcc_version
from ladder.layout import EVIDENCE, evidence_dir, phase_dirs
from ladder.spec import load_spec

DEVICES = sorted(d.name for d in EVIDENCE.iterdir() if d.is_dir())


def _qualifying(device):
    return {spec.name: perf for spec, perf in qualifying(device, nvcc_version())}


def _records(device, spec):
    return [evidence.read(evidence_dir(device, spec.dir) / f"{g}.json") for g in spec.gates]


def test_some_machine_has_a_phase_the_op_can_serve():
    """Else every test below skips, and the op serves nothing anywhere."""
    assert any(_qualifying(device) for device in DEVICES), DEVICES


@pytest.mark.parametrize("device", DEVICES)
def test_a_phase_with_a_gate_not_passed_or_stale_does_not_qualify(device):
    names = set(_qualifying(device))
    for d in phase_dirs():
        spec = load_spec(d)
        recs = _records(device, spec)
        statuses = [evidence.status(r) for r in recs]
        stale = [r for r in recs if freshness.staleness(r, spec, device, nvcc_version())]
        if any(s != "pass" for s in statuses) or stale:
            assert spec.name not in names, (spec.name, statuses, len(stale))


def test_closeness_levels():
    w = {"B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}
    assert w["B"] * w["H"] * w["S_q"] * w["S_k"] <= SMALL_ELEMENTS
    assert _closeness(w, 64, "fp16", False, True) == 0
    assert _closeness(w, 64, "bf16", False, True) == 1
    assert _closeness(w, 64, "fp16", False, False) == 2
    assert _closeness(w, 64, "fp16", True, True) == 3
    assert _closeness(w, 128, "fp16", False, True) is None


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("D", [64, 128])
@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("small", [False, True])
def test_the_choice_is_the_fastest_qualifying_phase_at_the_closest_basis(device, D, dtype, causal, small):
    qualifying = _qualifying(device)
    if not qualifying:
        pytest.skip(f"no phase has fresh passing evidence on {device} here")
    spec, config, level = choose(device, D, dtype, causal, small)
    assert spec is not None, config
    assert spec.name in qualifying and config == qualifying[spec.name]["config"]

    def mean_at(perf, lvl):
        t = [w["kernels"][perf["candidate"]]["median"] / w["flops"] for w in perf["workloads"]
             if (c := _closeness(w["workload"], D, dtype, causal, small)) is not None and c <= lvl]
        return sum(t) / len(t) if t else None

    for lvl in range(level):
        assert all(mean_at(p, lvl) is None for p in qualifying.values()), f"a closer basis {lvl} existed"
    mine = mean_at(qualifying[spec.name], level)
    assert all(m is None or m >= mine for m in (mean_at(p, level) for p in qualifying.values()))
