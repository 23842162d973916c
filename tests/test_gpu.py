"""GPU tests: the ctypes ABI against torch's SDPA, and fault containment in child processes.
Marked `gpu`: skipped without a CUDA device, failures when REQUIRE_GPU=1."""
import pytest

from helpers import ROOT
from ladder.build.buildfile import artifacts, run_ninja
from ladder.child import run_worker
from ladder.spec import load_spec

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def phase_a_lib():
    spec = load_spec(ROOT / "phases" / "phase_a")
    run_ninja(spec, spec.perf_config, 600)
    return artifacts(spec, spec.perf_config["name"])["lib"]


def test_phase_a_matches_the_float64_reference(phase_a_lib):
    import torch
    from ladder.gpu.abi import Kernel
    from ladder.gpu.inputs import make_qkv, poisoned_like, poisoned_lse
    from ladder.gpu.reference import reference
    kernel = Kernel(phase_a_lib)
    for shape in ({"B": 2, "H": 3, "S_q": 77, "S_k": 130, "D": 64, "dtype": "fp16", "causal": True},
                  {"B": 1, "H": 2, "S_q": 64, "S_k": 64, "D": 128, "dtype": "bf16", "causal": False}):
        q, k, v = make_qkv(shape, seed=1, layout="bshd")
        o, lse = poisoned_like(q), poisoned_lse(q)
        kernel(q, k, v, o, lse, causal=shape["causal"])
        ref, ref_lse = reference(q, k, v, shape["D"] ** -0.5, shape["causal"])
        torch.cuda.synchronize()
        assert (o.double() - ref).abs().max() < 2e-2
        assert (lse.double() - ref_lse).abs().max() < 1e-3


def test_unsupported_head_dim_is_refused_not_launched(phase_a_lib):
    import torch
    from ladder.gpu.abi import Kernel, KernelError
    kernel = Kernel(phase_a_lib)
    q = torch.randn(1, 1, 8, 96, device="cuda", dtype=torch.float16)
    with pytest.raises(KernelError, match="CUDA error 1"):
        kernel(q, q, q, torch.empty_like(q))


def test_a_faulting_kernel_is_contained_in_its_child():
    spec = load_spec(ROOT / "tests" / "controls" / "misaligned")
    run_ninja(spec, spec.config(), 600)
    out = run_worker("launch", 120, spec_dir=str(spec.dir), config=spec.config()["name"],
                     lib=str(artifacts(spec, spec.config()["name"])["lib"]))
    rows = out.result["shapes"] if out.result else []
    assert any(not r["ok"] and "misaligned" in r["error"].lower() for r in rows), out.output


def test_a_hanging_kernel_is_killed_by_the_watchdog():
    spec = load_spec(ROOT / "tests" / "controls" / "infinite_loop")
    run_ninja(spec, spec.config(), 600)
    out = run_worker("launch", 20, spec_dir=str(spec.dir), config=spec.config()["name"],
                     lib=str(artifacts(spec, spec.config()["name"])["lib"]))
    assert out.timed_out and out.result is None
