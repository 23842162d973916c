"""Gate 3, sanity: turns the child's observations (ladder/gpu/sanity.py states what it looks at)
and compute-sanitizer's output on the standalone driver into problems. Any problem fails the
configuration."""
from .. import parsers, queueing
from ..vocab import shape_label
from . import by_config, child_failure, special
from .confinement import confinement_problems
from .sharing import MAX_UNCHANGED, concurrency_problems, same_address_problems, single_row_problems

ZERO_QUERY_TOL = 1e-2   # all-zero queries: |o - mean of V| (inputs ~N(0,1))


def shape_problems(f):
    p = []
    if f["incomplete_on_return"]:
        p.append("output still changing after the call returned on its stream (work not ordered on the caller's stream)")
    if f["unwritten"]:
        p.append(f"{f['unwritten']} of {f['elements']} output elements never written (still poison)")
    if f["nonfinite"]:
        p.append(f"{f['nonfinite']} output elements NaN/Inf on finite inputs")
    if f["lse_nonfinite"]:
        p.append(f"{f['lse_nonfinite']} log-sum-exp values NaN/Inf or unwritten")
    if f["inputs_changed"]:
        p.append(f"inputs modified by the kernel: {', '.join(f['inputs_changed'])}")
    if f["repeat_mismatches"]:
        p.append(f"repeat runs disagree in {f['repeat_mismatches']} element(s)")
    if f["no_lse_mismatches"]:
        p.append(f"a call without lse differs in {f['no_lse_mismatches']} element(s) from one with it")
    side = f["side_stream"]
    if side["mismatches"] or side["incomplete"]:
        p.append(f"on a non-blocking side stream the output does not follow inputs written on that stream just "
                 f"before the call ({side['mismatches']} elements differ, {side['incomplete']} incomplete): work "
                 f"not ordered on the caller's stream")
    pdl = f.get("pdl_producer")  # absent only in records made before the check existed (stale)
    if pdl and (pdl["mismatches"] or pdl["unwritten"]):
        p.append(f"behind a kernel that lets it start early (programmatic dependent launch) and writes its inputs "
                 f"after a spin, the output does not follow those inputs ({pdl['mismatches']} elements differ, "
                 f"{pdl['unwritten']} never written): inputs read before griddepcontrol.wait")
    if f["fraction_unchanged_after_new_inputs"] > MAX_UNCHANGED:  # more of it unchanged than this: cached
        p.append(f"{f['fraction_unchanged_after_new_inputs']:.0%} of the output unchanged after new inputs were "
                 "written in place (results cached by address?)")
    # Each absent only in records made before its check (stale).
    p += single_row_problems(f.get("single_row_changes"))
    p += concurrency_problems(f.get("concurrent"))
    p += same_address_problems(f.get("same_addresses"), "shape")
    p += queued_problems(f.get("queued"))
    p += thread_problems(f.get("threads"))
    g = f["graph"]
    if g.get("error"):
        p.append(f"CUDA graph capture or replay failed: {g['error']}")
    elif g["unwritten"] or g["mismatches"]:
        p.append(f"CUDA graph replay after inputs were rewritten in place: {g['mismatches']} elements differ from an "
                 f"eager call on the new inputs, {g['unwritten']} never written")
    if not f["zero_query_max_err"] <= ZERO_QUERY_TOL:
        extra = f", {f['zero_query_unwritten']} elements never written" if f["zero_query_unwritten"] else ""
        p.append(f"all-zero queries: output is not the mean of V (max error {f['zero_query_max_err']:.3g}{extra})")
    return p


def queued_problems(obs):
    """obs: ladder/gpu/queued.py's {rows, orders}, or None (records made before the check; those
    before the twenty-sixth session have ran_ahead, a flag per order, in place of orders)."""
    if not obs:
        return []
    p = []
    reach = ""
    if "orders" in obs:
        need = queueing.SHORT_ROUNDS * len(obs["rows"])  # the short order's calls: every ring of fewer slots mixes
        for o in obs["orders"]:
            if o["rings_mixed"] < need:
                p.append(f"calls queued behind a spin: only {o['ahead']} of {o['calls']} calls were enqueued before "
                         f"the spin was over, which exercises staging rings of fewer than {o['rings_mixed']} slots, "
                         f"not the {need} the check promises (a call that waits for the GPU?)")
        reach = f" (rings of up to {min(o['rings_mixed'] for o in obs['orders']) - 1} slots exercised)"
    elif not all(obs["ran_ahead"]):
        p.append("calls queued behind a spin: the spin was over before the last call had been enqueued, so the "
                 "host never ran ahead of the GPU (a call that waits for the GPU?)")
    for r in obs["rows"]:
        if r["mismatches"] or r["lse_mismatches"] or r["unwritten"]:
            p.append(f"{r['problem']}, queued back to back with other problems on one stream while the GPU was busy"
                     f"{reach}: "
                     f"{r['mismatches']} output elements and {r['lse_mismatches']} log-sum-exp values, summed over "
                     f"its queued calls of {r['elements']} elements each, differ from its call alone, "
                     f"{r['unwritten']} never written (per-call data staged in host memory, or library state, that a "
                     "later call overwrites before the GPU reads it?)")
    return p


def thread_problems(obs):
    """obs: ladder/gpu/threads.py's {rows}, or None (records made before the check)."""
    if not obs:
        return []
    p = []
    for r in obs["rows"]:
        if r["error"]:
            p.append(f"{r['problem']}, called from one of two host threads at once: {r['error']}")
        elif r["mismatches"] or r["lse_mismatches"] or r["unwritten"]:
            p.append(f"{r['problem']}, called from one of two host threads at once: {r['mismatches']} output elements "
                     f"and {r['lse_mismatches']} log-sum-exp values, summed over its calls of {r['elements']} elements "
                     f"each, differ from its call alone, {r['unwritten']} never written (host-side state not safe "
                     "for two threads?)")
    return p


def misaligned_problems(rows):
    """Records made before the twenty-fifth session, whose only unsupported calls were misaligned."""
    p = []
    for r in rows:
        if r["outcome"] == "fault":
            p.append(f"a view with {r['variant']} faulted instead of being refused: {r['error']}")
        elif r["outcome"] == "computed" and not r["err"] <= r["tol"]:
            p.append(f"a view with {r['variant']} was answered wrongly (error {r['err']:.3g} > {r['tol']:.3g}) "
                     "instead of refused")
    return p


def unsupported_problems(rows):
    """rows: ladder/gpu/unsupported.py's, one per call. Refused, or answered right; never a fault."""
    p = []
    for r in rows:
        at = f"{r['variant']} (at {shape_label(r['shape'])})"
        if r["outcome"] == "fault":
            p.append(f"{at} faulted instead of being refused or answered: {r['error']}")
        elif r["outcome"] == "refused":
            if r["written"] or r["outside"]:
                p.append(f"{at} was refused, yet {r['written']} elements of o and {r['outside']} of its padding "
                         "were written (the ABI: a refused call launches nothing)")
        elif r["must_refuse"]:
            p.append(f"{at} was answered, not refused: the ABI defines no such call, so no answer is right")
        else:
            wrong = []
            if not r["err"] <= r["tol"]:
                wrong.append(f"output error {r['err']:.3g} > {r['tol']:.3g} (2x SDPA's)")
            if not r["lse_err"] <= r["lse_tol"]:
                wrong.append(f"log-sum-exp error {r['lse_err']:.3g} > {r['lse_tol']:.3g}")
            if r["outside"]:
                wrong.append(f"{r['outside']} elements of o's padding overwritten")
            if wrong:
                p.append(f"{at} was answered wrongly instead of refused: {'; '.join(wrong)}")
    return p


def derive(raw, inputs):
    s = special(raw)
    if s:
        return s
    section, configs = inputs["section"], inputs["configs"]
    failures, figures = {}, {}
    for c in configs:
        name = c["name"]
        got = raw["configs"][name]
        why = child_failure(got["child"], section["timeout_s"])
        fails = [why] if why else []
        if not why:
            result = got["child"]["result"]
            for row in result["shapes"]:
                if "error" in row:
                    fails.append(f"at {shape_label(row['shape'])}: {row['error']}")
                else:
                    probs = shape_problems(row["figures"])
                    if "confinement" in row["figures"]:  # absent in records made before the check (stale)
                        probs += confinement_problems(row["figures"]["confinement"], result["device_state_at_start"])
                    fails += [f"at {shape_label(row['shape'])}: {p}" for p in probs]
            if "unsupported" in result:
                fails += unsupported_problems(result["unsupported"])
            else:  # records made before the twenty-fifth session (stale)
                fails += misaligned_problems(result["misaligned"])
        sanitizer = {}
        for tool, runs in got["sanitizer"].items():
            for i, run in enumerate(runs):
                if "skipped_after" in run:
                    # Skipping is only allowed behind a finding of the same tool at an earlier shape.
                    if any(r.get("clean") is False for r in sanitizer.get(tool, [])[:i]):
                        sanitizer[tool].append({"shape": run["shape"], "clean": None, "findings": "skipped: "
                                                f"{tool} already found a problem at {shape_label(run['skipped_after'])}"})
                    else:
                        fails.append(f"compute-sanitizer {tool} at {shape_label(run['shape'])}: skipped with no "
                                     "earlier finding")
                    continue
                clean, line = parsers.sanitizer(run["output"], run["returncode"], run["timed_out"])
                sanitizer.setdefault(tool, []).append({"shape": run["shape"], "clean": clean, "findings": line})
                if not clean:
                    fails.append(f"compute-sanitizer {tool} at {shape_label(run['shape'])}: {line}")
        failures[name], figures[name] = fails, {"sanitizer": sanitizer, "problems": fails}
    tools = ", ".join(section["sanitizer"]["tools"])
    # Records made before a check existed keep the summary they were made with.
    recorded = {key for got in raw["configs"].values() if got["child"].get("result")
                for row in got["child"]["result"]["shapes"] for key in row.get("figures", {})}
    caching = ("no caching (by address or by a sample of the contents), safe to run concurrently"
               if "concurrent" in recorded else "no caching")
    if "confinement" in recorded:
        caching += ", confined to the caller's stream with the device's settings untouched"
    if "same_addresses" in recorded:
        caching += ", another problem at the same addresses answered as at others"
    if "queued" in recorded:
        caching += ", other problems queued behind it answered as alone"
    if "threads" in recorded:
        caching += ", safe from two host threads at once"
    outside = ("calls outside the supported set (misaligned views, other head dims, scales of zero and below, "
               "K and V shared by every head, an undefined dtype) refused or right"
               if any("unsupported" in (got["child"].get("result") or {}) for got in raw["configs"].values())
               else "misaligned views refused or right")
    out = by_config(configs, failures, lambda ok: (
        f"{len(section['shapes'])} shape(s): fully written, finite, inputs intact, stream-ordered (caller and side "
        f"stream), repeatable, graph-replayable, {caching}, zero-query exact, {outside}; "
        f"{tools} clean"))
    out["configs"] = figures
    return out
