"""GPU tests: the ctypes ABI against a float64 reference, refusal of what a kernel does not
support, fault and hang containment in child processes, and the blocking kernel the timing uses.
Marked `gpu`: skipped without a CUDA device, failures when REQUIRE_GPU=1."""
import pytest

from helpers import ROOT
from ladder.layout import PACKAGE
from ladder.spec import load_floor, load_spec
from ladder.toolchain.ninja_build import artifacts, run_ninja
from ladder.watchdog import run_job

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def phase_a_lib():
    spec = load_spec(ROOT / "phases" / "phase_a")
    run_ninja(spec, spec.config(), 600)
    return artifacts(spec, spec.config()["name"])["lib"]


def test_phase_a_matches_the_float64_reference(phase_a_lib):
    import torch
    from ladder.gpu.inputs import make_qkv, poisoned_like, poisoned_lse
    from ladder.gpu.kernel import Kernel
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
    from ladder.gpu.kernel import Kernel, KernelError
    kernel = Kernel(phase_a_lib)
    q = torch.randn(1, 1, 8, 96, device="cuda", dtype=torch.float16)
    with pytest.raises(KernelError, match="CUDA error 1"):
        kernel(q, q, q, torch.empty_like(q))


def _launch_orders(spec):
    section = dict(spec.section("launch"))
    return {"section": section, "lib": str(artifacts(spec, spec.config()["name"])["lib"])}


def test_calls_outside_the_supported_set_are_refused_by_phase_a_and_caught_in_rounds_head_dim(phase_a_lib):
    """ladder/gpu/unsupported.py on the correct kernel (every call refused but K and V shared by
    every head, answered within the bound) and on the control that runs D=96 down its D=128 path."""
    from ladder.gpu import unsupported
    from ladder.gpu.kernel import Kernel
    shape = {"B": 2, "H": 3, "S_q": 100, "S_k": 257, "D": 64, "dtype": "fp16", "causal": False}
    rows = unsupported.observe(Kernel(phase_a_lib), shape, 3000)
    answered = [r for r in rows if r["outcome"] != "refused"]
    assert [r["variant"] for r in answered] == ["K and V shared by every head (head stride 0)"], rows
    assert answered[0]["err"] <= answered[0]["tol"] and answered[0]["lse_err"] <= answered[0]["lse_tol"]
    assert all(r["written"] == 0 and r["outside"] == 0 for r in rows if r["outcome"] == "refused")
    spec = load_spec(ROOT / "tests" / "controls" / "rounds_head_dim")
    run_ninja(spec, spec.config(), 600)
    rows = unsupported.observe(Kernel(artifacts(spec, spec.config()["name"])["lib"]), shape, 3000)
    wrong = {r["variant"] for r in rows if r["outcome"] == "computed" and not r["err"] <= r["tol"]}
    assert {"head dim 16", "head dim 32", "head dim 96"} <= wrong, rows


def test_calls_from_two_host_threads_pass_phase_a_and_catch_host_race(phase_a_lib):
    """ladder/gpu/threads.py on the correct kernel (every threaded call bit-identical to its call
    alone) and on the control whose parameters wait in one static host struct between filling
    and launch (one thread's call computes the other's problem, and its own o stays unwritten)."""
    import torch
    from ladder.gpu import threads
    from ladder.gpu.kernel import Kernel
    q, k, v = (torch.randn(2, 3, n, 64, device="cuda", dtype=torch.float16) for n in (100, 257, 257))
    rows = threads.threaded_calls(Kernel(phase_a_lib), q, k, v, False)["rows"]
    assert [r["problem"] for r in rows] == ["the shape", "fewer keys"]
    assert not any(r["error"] or r["mismatches"] or r["lse_mismatches"] or r["unwritten"] for r in rows), rows
    spec = load_spec(ROOT / "tests" / "controls" / "host_race")
    run_ninja(spec, spec.config(), 600)
    rows = threads.threaded_calls(Kernel(artifacts(spec, spec.config()["name"])["lib"]), q, k, v, False)["rows"]
    assert any(r["mismatches"] or r["unwritten"] for r in rows), rows


def test_one_unit_of_the_output_dtype():
    import torch
    from ladder.gpu.correctness import unit
    x = torch.tensor([118.75, -18.587, 0.0656, 1.0, 0.0], dtype=torch.float64)
    assert unit(x, torch.float16).tolist() == [0.0625, 2.0 ** -6, 2.0 ** -14, 2.0 ** -10, 2.0 ** -24]
    assert unit(x, torch.bfloat16).tolist()[:4] == [0.5, 0.125, 2.0 ** -11, 2.0 ** -7]


def test_a_faulting_kernel_is_contained_in_its_child():
    spec = load_spec(ROOT / "tests" / "controls" / "misaligned")
    run_ninja(spec, spec.config(), 600)
    out = run_job("launch", _launch_orders(spec), 120)
    rows = out.result["shapes"] if out.result else []
    assert any(not r["ok"] and "misaligned" in r["error"].lower() for r in rows), out.output


def test_a_hanging_kernel_is_killed_by_the_watchdog():
    spec = load_spec(ROOT / "tests" / "controls" / "infinite_loop")
    run_ninja(spec, spec.config(), 600)
    out = run_job("launch", _launch_orders(spec), 20)
    assert out.timed_out and out.result is None


def test_the_blocking_kernel_holds_the_stream_until_released():
    import time
    import torch
    from ladder.gpu.timing import Blocker
    from ladder.toolchain.helpers import shared_library
    # Both built first: construction launches a hold (the module's lazy load; without it the
    # first hold of a process returned only when it timed out) and synchronises.
    blocker = Blocker(shared_library(PACKAGE / "gpu" / "blocker.cu"), timeout_ms=2000)
    blocker_timeout = Blocker(shared_library(PACKAGE / "gpu" / "blocker.cu"), timeout_ms=50)
    x = torch.zeros(1, device="cuda")
    epoch = blocker.hold()
    x.add_(1)
    time.sleep(0.2)
    done = torch.cuda.Event()
    done.record()
    assert not done.query()  # the stream is still held 200 ms later
    blocker.release(epoch)
    torch.cuda.synchronize()
    assert x.item() == 1 and not blocker.timed_out(epoch)
    e2 = blocker_timeout.hold()  # never released: times out and says so
    torch.cuda.synchronize()
    assert blocker_timeout.timed_out(e2)


def test_the_pdl_check_sees_a_kernel_that_reads_before_it_waits(phase_a_lib):
    # The producer lets the next kernel start at once and writes its inputs after a spin: a
    # kernel launched with PDL and no griddepcontrol.wait computes on the old inputs at every
    # size, the seed's and a timed d=128 one; a kernel launched the ordinary way is ordered.
    import torch
    from ladder.gpu.inputs import make_qkv, poisoned_like
    from ladder.gpu.kernel import Kernel
    from ladder.gpu.pdl import Producer, launch_behind_producer
    from ladder.toolchain.helpers import shared_library
    spec = load_spec(ROOT / "tests" / "controls" / "pdl_no_wait")
    run_ninja(spec, spec.config(), 600)
    no_wait, plain = Kernel(artifacts(spec, spec.config()["name"])["lib"]), Kernel(phase_a_lib)
    producer = Producer(shared_library(PACKAGE / "gpu" / "producer.cu"))

    def differs(kernel, shape):
        q, k, v = make_qkv(shape, seed=1, layout="bshd")
        new = make_qkv(shape, seed=2, layout="bshd")
        expected = poisoned_like(q)
        kernel(*new, expected)
        o = poisoned_like(q)
        launch_behind_producer(producer, (q, k, v), new, lambda: kernel(q, k, v, o))
        assert all(torch.equal(a, b) for a, b in zip((q, k, v), new))  # the producer did write them
        return int((o.view(torch.int16) != expected.view(torch.int16)).sum())

    for shape in ({"B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False},
                  {"B": 2, "H": 16, "S_q": 2048, "S_k": 2048, "D": 128, "dtype": "bf16", "causal": False}):
        assert differs(no_wait, shape) > 0, shape
    assert differs(plain, {"B": 1, "H": 8, "S_q": 512, "S_k": 512, "D": 64, "dtype": "fp16", "causal": False}) == 0


def test_floor_launch_shapes_pass_on_phase_a(phase_a_lib):
    section = {"shapes": load_floor()["launch"]["shapes"]}
    out = run_job("launch", {"section": section, "lib": str(phase_a_lib)}, 300)
    assert out.result and all(r["ok"] for r in out.result["shapes"]), out.output
