"""Child side of the correctness gate.

Method: for every case x dtype x causal, `trials` fresh seeded inputs (alternating contiguous and
[B, S, H, D]-strided layouts, and three input scales so the softmax is flat, typical and peaky).
Each trial computes a float64 reference, torch SDPA in the kernel's dtype, and the kernel. The
kernel passes a trial when max|kernel - ref| <= k * max(max|sdpa - ref|, max|round(ref) - ref|):
no worse than k times what the library itself gets, where the second term is the error of merely
storing the exact answer in the dtype (a floor for cases where SDPA happens to be exact). The
log-sum-exp must be within lse_atol of the float64 one."""
import torch

from ..spec import load_spec, shape_label
from .abi import Kernel
from .inputs import DTYPES, make_qkv, poisoned_like, poisoned_lse, unwritten
from .reference import reference, sdpa

INPUT_SCALES = (1.0, 3.0, 0.3)


def _locate(flat_index, shape):
    idx, out = int(flat_index), []
    for n in reversed(shape):
        out.append(idx % n)
        idx //= n
    return tuple(reversed(out))


def trial(kernel, shape, seed, t, k_factor, lse_atol):
    scale_in = INPUT_SCALES[t % len(INPUT_SCALES)]
    q, k, v = make_qkv(shape, seed, layout="bshd" if t % 2 else "bhsd", scale=scale_in)
    scale = shape["D"] ** -0.5
    ref, ref_lse = reference(q, k, v, scale, shape["causal"])
    lib = sdpa(q, k, v, scale, shape["causal"])
    o, lse = poisoned_like(q), poisoned_lse(q)
    kernel(q, k, v, o, lse, scale=scale, causal=shape["causal"])
    torch.cuda.synchronize()
    err = (o.double() - ref).abs().nan_to_num(float("inf"))
    err_lib = float((lib.double() - ref).abs().max())
    err_round = float((ref.to(DTYPES[shape["dtype"]]).double() - ref).abs().max())
    tol = k_factor * max(err_lib, err_round) + 1e-7
    err_max = float(err.max())
    lse_err = float((lse.double() - ref_lse).abs().nan_to_num(float("inf")).max())
    row = {"trial": t, "seed": seed, "err": err_max, "err_sdpa": err_lib, "err_round": err_round, "tol": tol,
           "lse_err": lse_err, "ok": err_max <= tol and lse_err <= lse_atol}
    if not row["ok"]:
        bad = err > tol
        worst = _locate(int(err.argmax()), err.shape)
        first = _locate(int(bad.flatten().nonzero()[0]), err.shape) if bool(bad.any()) else None
        row.update(n_bad=int(bad.sum()), n_elements=err.numel(), n_unwritten=int(unwritten(o).sum()),
                   first_bad=first, worst_at=worst, worst_kernel=float(o[worst].float()),
                   worst_ref=float(ref[worst]))
    return row


def describe_failure(shape, row, lse_atol):
    head = f"{shape_label(shape)} trial {row['trial']} (seed {row['seed']})"
    if row["err"] <= row["tol"]:
        return f"{head}: log-sum-exp error {row['lse_err']:.3g} > lse_atol {lse_atol:g}"
    return (f"{head}: {row['n_bad']} of {row['n_elements']} elements over tolerance {row['tol']:.3g}, "
            f"first at (b,h,s,d)={row['first_bad']}, worst "
            f"{row['err']:.3g} at {row['worst_at']} (kernel {row['worst_kernel']:.5g}, ref {row['worst_ref']:.5g})"
            + (f"; {row['n_unwritten']} never written" if row["n_unwritten"] else ""))


def run(job):
    spec = load_spec(job["spec_dir"])
    c = spec.section("correctness")
    kernel = Kernel(job["lib"])
    groups = []
    for ci, case in enumerate(c["cases"]):
        for dtype in c["dtypes"]:
            for causal in c["causal"]:
                shape = dict(case, dtype=dtype, causal=causal)
                rows = []
                for t in range(c["trials"]):
                    seed = c["seed"] * 1_000_003 + ci * 10_007 + t * 31 + (dtype == "bf16") * 7 + causal
                    rows.append(trial(kernel, shape, seed, t, c["k"], c["lse_atol"]))
                fails = [r for r in rows if not r["ok"]]
                worst = max(rows, key=lambda r: r["err"] / r["tol"])
                groups.append({
                    "shape": shape, "label": shape_label(shape), "trials": len(rows), "failed": len(fails),
                    "max_err": max(r["err"] for r in rows), "max_err_sdpa": max(r["err_sdpa"] for r in rows),
                    "worst_err_over_tol": worst["err"] / worst["tol"], "max_lse_err": max(r["lse_err"] for r in rows),
                    "failures": [dict(r, message=describe_failure(shape, r, c["lse_atol"])) for r in fails[:5]],
                })
    return {"groups": groups}
