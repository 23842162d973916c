"""ladder.ops.attention on the GPU: it matches SDPA within the correctness gate's rule, runs the
phase the committed evidence names (recorded in the test's output), falls back to SDPA on input
no phase takes, traces under torch.compile, and its host cost per call is measured next to
SDPA's. Marked `gpu`."""
import time

import pytest

pytestmark = pytest.mark.gpu


def _host_us(fn, n=200):
    import torch
    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6


def test_the_op_matches_sdpa_and_says_which_phase_ran(capsys):
    import torch
    import torch.nn.functional as F
    from ladder import ops
    from ladder.choice import choose
    from ladder.gpu.reference import reference
    # With fresh passing evidence for this device committed, every supported call runs a phase.
    device = ops._device_slug(torch.cuda.current_device())
    evidence_here = choose(device, 64, "fp16", False, True)[0] is not None
    for causal in (False, True):
        for D, dtype in ((64, torch.float16), (128, torch.float16), (128, torch.bfloat16)):
            q, k, v = (torch.randn(2, 4, 333, D, device="cuda", dtype=dtype) for _ in range(3))
            o = ops.attention(q, k, v, is_causal=causal)
            ref, _ = reference(q, k, v, D ** -0.5, causal)
            lib = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            err, err_sdpa = (o.double() - ref).abs().max().item(), (lib.double() - ref).abs().max().item()
            assert err <= 2 * err_sdpa + 1e-6, (D, dtype, causal, err, err_sdpa)
            ran = ops.which(q, k, v, causal)
            print(f"op D={D} {dtype} causal={causal}: ran {ran}; err {err:.3g} (sdpa {err_sdpa:.3g})")
            assert not (evidence_here and ran.startswith("sdpa:")), ran
    q = torch.randn(1, 8, 512, 64, device="cuda", dtype=torch.float16)
    op_us = _host_us(lambda: ops.attention(q, q, q))
    dispatched_us = _host_us(lambda: ops._attention(q, q, q, False, 0.125))
    sdpa_us = _host_us(lambda: F.scaled_dot_product_attention(q, q, q))
    print(f"host cost per call at (1,8,512,64): ladder.ops.attention {op_us:.1f} us (through the custom-op "
          f"dispatcher {dispatched_us:.1f} us), torch SDPA {sdpa_us:.1f} us; ran {ops.which(q, q, q)}")
    assert op_us < 3 * sdpa_us + 20


def test_unsupported_input_falls_back_to_sdpa_with_the_right_answer():
    import torch
    import torch.nn.functional as F
    from ladder import ops
    q = torch.randn(1, 2, 64, 96, device="cuda", dtype=torch.float16)      # no phase takes D=96
    with pytest.warns(UserWarning, match="head dim 96"):
        o = ops.attention(q, q, q)
    assert torch.equal(o, F.scaled_dot_product_attention(q, q, q))
    x = torch.randn(1, 2, 64, 64, device="cuda", dtype=torch.float32)      # nor float32
    with pytest.warns(UserWarning, match="dtype"):
        assert torch.equal(ops.attention(x, x, x), F.scaled_dot_product_attention(x, x, x))
    assert ops.which(q, q, q).startswith("sdpa:")


def test_the_op_traces_under_torch_compile():
    import torch
    from ladder import ops
    q = torch.randn(1, 2, 128, 64, device="cuda", dtype=torch.float16)
    f = torch.compile(lambda a: ops.attention(a, a, a, is_causal=True), fullgraph=True)
    assert torch.allclose(f(q), ops.attention(q, q, q, is_causal=True))
