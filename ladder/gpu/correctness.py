"""Child side of the correctness gate. For every group of ladder/cases.py (case x dtype x mask),
trials with seeded inputs drawn from the floor's value distributions, per-tensor layouts and
softmax scales. Each trial records, against a float64 reference on the same inputs: the kernel's
max error (and its max over the elements more than one unit of the dtype from the exact answer),
SDPA's in the same precision, the error of merely rounding the exact answer to the dtype, the
log-sum-exp error, the output's relative bias and its number of rows, elements left unwritten,
and elements outside the views that changed (o's padding must keep its sentinel, inputs' padding
its NaN). The distributions are ladder/gpu/inputs.py's, and zero_rows here: its normal draw with
the first min(S_k/2, 256) keys zero (whole zero tiles for every tile size up to 256) and a seeded
`fraction` of the rows of q, k and v zero, in the placed views (a zero key has logit 0: it is not
padding; a zero query row averages its visible keys). ladder/gates/correctness.py judges the rows.
A group stops at its first failing trial (a failing kernel costs no more than a passing one); a
CUDA error stops the run, with the rows so far."""
import time

import torch

from .. import cases
from ..gates.correctness import ROW, judge
from .inputs import DTYPES, PAD, SENTINEL, make_case, poisoned_lse, unwritten
from .kernel import Kernel, error_line
from .reference import reference, sdpa_error_baseline

UNIT_ROUNDOFF = {torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8}


# Significand bits after the leading one, and the smallest normal exponent.
FORMAT = {torch.float16: (10, -14), torch.bfloat16: (7, -126)}


def unit(x, dtype):
    """The spacing of the dtype's values at each |x| (float64): one unit in the last place."""
    bits, emin = FORMAT[dtype]
    e = torch.floor(torch.log2(x.abs())).clamp(min=emin)  # log2(0) = -inf: the subnormal spacing
    return torch.exp2(e - bits)


def _locate(flat_index, shape):
    idx, out = int(flat_index), []
    for n in reversed(shape):
        out.append(idx % n)
        idx //= n
    return tuple(reversed(out))


def relative_bias(out, rounded, ref, dtype):
    """(g, se) in units of the dtype's unit roundoff u: g is the least-squares gain of out's
    deviation from the correctly rounded answer, sum((out - rounded) * ref) / sum(ref^2), so
    out ~ rounded + g * u * ref; se its standard error with each output row as one independent
    unit (a row's elements share their softmax weights, so they are not independent). Rounding
    correctly (to nearest) leaves g ~ 0 within se; a conversion toward zero anywhere in the chain
    (P before P.V, O at the store) leaves g near -u/2 to -u/8 while its max error can stay under
    2x SDPA's. (None, None) when the output is not all finite or the answer is all zero."""
    dev = out.double() - rounded
    if not bool(torch.isfinite(dev).all()):
        return None, None
    n = (dev * ref).sum(-1).flatten()
    d = (ref * ref).sum(-1).flatten()
    total = float(d.sum())
    if total == 0.0:
        return None, None
    u = UNIT_ROUNDOFF[dtype]
    g = float(n.sum()) / total
    se = float(((n - g * d) ** 2).sum().sqrt()) / total
    return g / u, se / u


def zero_rows(q, k, v, fraction, seed):
    """zero_rows in place (see the module's docstring)."""
    g = torch.Generator(device="cuda").manual_seed(seed + 1)
    k[:, :, :min(k.shape[2] // 2, 256)] = 0
    for t in (q, k, v):
        t[torch.rand(t.shape[:3], generator=g, device="cuda") < fraction] = 0


def trial(kernel, shape, plan):
    dtype = DTYPES[shape["dtype"]]
    dist = plan["values"]
    drawn = {"name": "normal", "std": 1.0} if dist["name"] == "zero_rows" else dist
    q, k, v, o = make_case(shape, drawn, plan["layouts"], plan["scale"], plan["seed"])
    if dist["name"] == "zero_rows":
        zero_rows(q.view, k.view, v.view, dist["fraction"], plan["seed"])
    scale, causal = plan["scale"], shape["causal"]
    ref, ref_lse = reference(q.view, k.view, v.view, scale, causal)
    lib = sdpa_error_baseline(q.view, k.view, v.view, scale, causal)
    lse = poisoned_lse(q.view)
    kernel(q.view, k.view, v.view, o.view, lse, scale=scale, causal=causal)
    torch.cuda.synchronize()
    err = (o.view.double() - ref).abs().nan_to_num(float("inf"))
    rounded = ref.to(dtype).double()
    bias, bias_se = relative_bias(o.view, rounded, ref, dtype)
    bias_sdpa, _ = relative_bias(lib, rounded, ref, dtype)
    outside = o.outside_changed(SENTINEL[dtype]) + sum(t.outside_changed(PAD[dtype]) for t in (q, k, v))
    beyond = err > unit(ref, dtype)  # not a neighbour of the exact answer in the dtype
    row = {"err": float(err.max()), "err_sdpa": float((lib.double() - ref).abs().max()),
           "err_round": float((ref.to(dtype).double() - ref).abs().max()),
           "lse_err": float((lse.double() - ref_lse).abs().nan_to_num(float("inf")).max()),
           "lse_ref_absmax": float(ref_lse.abs().max()), "unwritten": int(unwritten(o.view).sum()),
           "outside_changed": outside, "bias": bias, "bias_se": bias_se, "bias_sdpa": bias_sdpa,
           "err_beyond_unit": float(err[beyond].max()) if bool(beyond.any()) else 0.0,
           "bias_units": int(ref[..., 0].numel())}
    worst = _locate(int(err.argmax()), err.shape)
    detail = {"worst_at": worst, "worst_kernel": float(o.view[worst].float()), "worst_ref": float(ref[worst])}
    return row, detail, err.masked_fill(~beyond, 0.0)


def run(orders):
    section = orders["section"]
    kernel = Kernel(orders["lib"])
    out, t0 = [], time.perf_counter()
    for ci, case, dtype, causal, n_trials in cases.groups(section):
        shape = dict(case, dtype=dtype, causal=causal)
        group = {"case": ci, "dtype": dtype, "causal": causal, "planned": n_trials, "rows": [], "details": {}}
        out.append(group)
        for t in range(n_trials):
            plan = cases.trial_plan(section, ci, case, dtype, causal, t)
            try:
                row, detail, err = trial(kernel, shape, plan)
            except Exception as e:  # a CUDA error poisons the context: stop, keep what was measured
                group["error"] = f"trial {t}: {error_line(e)}"
                return {"groups": out, "stopped": group["error"], "wall_s": round(time.perf_counter() - t0, 2)}
            group["rows"].append([t] + [row[k] for k in ROW[1:]])
            ok, tol, _ = judge(row, section)
            if not ok:
                first = _locate(int((err > tol).flatten().nonzero()[0]), err.shape) if bool((err > tol).any()) else None
                group["details"][str(t)] = dict(detail, n_over=int((err > tol).sum()), n_elements=err.numel(),
                                                first_over=first, plan=plan)
                break  # the group has failed; its remaining trials are not run
            del err
    return {"groups": out, "stopped": None, "wall_s": round(time.perf_counter() - t0, 2)}
