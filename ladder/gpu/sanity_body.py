"""Child side of the sanity gate. On each sanity shape: the output is poisoned with a NaN
pattern and must be fully written; no NaN/Inf on finite inputs; inputs unchanged; the output is
complete when the call returns on its stream; repeat runs agree bit for bit; new inputs written
in place change the output (no caching by address); an all-zero query gives the mean of V."""
import torch

from ..spec import load_spec, shape_label
from .abi import Kernel
from .inputs import make_qkv, poisoned_like, poisoned_lse, unwritten


def _same_bits(a, b):
    return torch.equal(a.view(torch.int16), b.view(torch.int16))


def _call(kernel, q, k, v, causal):
    o, lse = poisoned_like(q), poisoned_lse(q)
    kernel(q, k, v, o, lse, causal=causal)
    snapshot = o.clone()  # enqueued on the caller's stream right behind the kernel
    torch.cuda.synchronize()
    return o, lse, snapshot


def check_shape(kernel, shape, seed, repeats):
    problems, figures = [], {}
    causal = shape["causal"]
    q, k, v = make_qkv(shape, seed, layout="bshd" if seed % 2 else "bhsd")
    originals = [t.clone() for t in (q, k, v)]
    o, lse, snapshot = _call(kernel, q, k, v, causal)

    if not _same_bits(snapshot, o):
        problems.append("output still changing after the call returned on its stream "
                        "(work not ordered on the caller's stream)")
    n_unwritten = int(unwritten(o).sum())
    n_nonfinite = int((~torch.isfinite(o.float())).sum()) - n_unwritten
    n_lse_bad = int((~torch.isfinite(lse)).sum())
    figures.update(elements=o.numel(), unwritten=n_unwritten, nonfinite=n_nonfinite, lse_nonfinite=n_lse_bad)
    if n_unwritten:
        problems.append(f"{n_unwritten} of {o.numel()} output elements never written (still poison)")
    if n_nonfinite:
        problems.append(f"{n_nonfinite} output elements NaN/Inf on finite inputs")
    if n_lse_bad:
        problems.append(f"{n_lse_bad} log-sum-exp values NaN/Inf or unwritten")
    changed = [n for n, a, b in zip("qkv", (q, k, v), originals) if not _same_bits(a, b)]
    if changed:
        problems.append(f"inputs modified by the kernel: {', '.join(changed)}")

    mismatches = 0
    for _ in range(repeats):
        o_again, _, _ = _call(kernel, q, k, v, causal)
        mismatches += int((o_again.view(torch.int16) != o.view(torch.int16)).sum())
    figures["repeat_mismatched_elements"] = mismatches
    if mismatches:
        problems.append(f"repeat runs disagree in {mismatches} element(s) over {repeats} repeats")

    # New values at the same addresses: a kernel that caches by pointer returns the old output.
    g = torch.Generator(device="cuda").manual_seed(seed + 7)
    for t in (q, k, v):
        t.copy_(torch.randn(t.shape, generator=g, device="cuda"))
    o_new, _, _ = _call(kernel, q, k, v, causal)
    unchanged = float((o_new.view(torch.int16) == o.view(torch.int16)).float().mean())
    figures["fraction_unchanged_after_new_inputs"] = round(unchanged, 4)
    if unchanged > 0.5:
        problems.append(f"{unchanged:.0%} of the output unchanged after new inputs were written in place "
                        "(results cached by address?)")

    # All-zero queries: every visible key weighs the same, so each row is the mean of its V rows.
    q.zero_()
    o_zero, _, _ = _call(kernel, q, k, v, causal)
    counts = torch.arange(1, shape["S_q"] + 1, device="cuda").clamp(max=shape["S_k"]) if causal else \
        torch.full((shape["S_q"],), shape["S_k"], device="cuda")
    cums = v.double().cumsum(dim=2)
    expected = cums[:, :, counts - 1, :] / counts.view(1, 1, -1, 1)
    zero_err = float((o_zero.double() - expected).abs().nan_to_num(float("inf")).max())
    figures["zero_query_max_err"] = zero_err
    if not zero_err <= 1e-2:
        n_bad = int(unwritten(o_zero).sum())
        extra = f", {n_bad} elements never written" if n_bad else ""
        problems.append(f"all-zero queries: output is not the mean of V (max error {zero_err:.3g}{extra})")
    return problems, figures


def run(job):
    spec = load_spec(job["spec_dir"])
    section = spec.section("sanity")
    kernel = Kernel(job["lib"])
    rows = []
    for i, shape in enumerate(section["shapes"]):
        try:
            problems, figures = check_shape(kernel, shape, seed=2000 + i, repeats=section["repeats"])
        except Exception as e:
            rows.append({"shape": shape, "ok": False, "problems": [f"{type(e).__name__}: {e}"]})
            break
        rows.append({"shape": shape, "label": shape_label(shape), "ok": not problems,
                     "problems": problems, "figures": figures})
    return {"shapes": rows}
