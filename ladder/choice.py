"""Which verified phase serves a call, read from committed evidence alone (no torch, no build):
ladder/ops.py asks it, and a CPU test checks it against the committed evidence.

Only phases whose every gate passed with fresh evidence on the device qualify: their
correctness gates checked both dtypes, both head dims and both masks on the ladder-wide floor.
Among them it takes the lowest mean time per FLOP on the performance workloads closest to the
call (BASIS, from the closest level any qualifying phase was timed at)."""
import functools

SMALL_ELEMENTS = 1 << 24          # B*H*S_q*S_k at or under this: the small-shape class
BASIS = ["the same head dim, dtype, mask and shape class", "the same head dim, mask and shape class",
         "the same head dim and mask", "the same head dim"]


def _closeness(w, D, dtype, causal, small):
    """How closely a timed workload matches a call: the coarsest level it still matches at
    (0: head dim, dtype, mask and class; 3: head dim alone); None: not at all."""
    w_small = w["B"] * w["H"] * w["S_q"] * w["S_k"] <= SMALL_ELEMENTS
    if w["D"] != D:
        return None
    if w["causal"] != causal:
        return 3
    if w_small != small:
        return 2
    return 0 if w["dtype"] == dtype else 1


def qualifying(device, toolchain):
    """[(phase spec, its performance gate's derived figures)] for every phase whose gates all
    passed with fresh evidence on `device`."""
    from . import evidence, freshness
    from .layout import evidence_dir, phase_dirs
    from .spec import load_spec
    out = []
    for d in phase_dirs():
        spec = load_spec(d)
        recs = [evidence.read(evidence_dir(device, spec.dir) / f"{g}.json") for g in spec.gates]
        if all(evidence.status(r) == "pass" and not freshness.staleness(r, spec, device, toolchain) for r in recs):
            out.append((spec, recs[spec.gates.index("performance")]["derived"]))
    return out


@functools.lru_cache(maxsize=None)
def choose(device, D, dtype, causal, small):
    """(phase spec, config, basis) of the fastest qualifying phase, timed on the closest
    workloads that any qualifying phase has; or (None, why, None)."""
    from .environment import nvcc_version
    timed = []                                    # (spec, config, [(closeness, us per flop)])
    for spec, perf in qualifying(device, nvcc_version()):
        rows = [(_closeness(w["workload"], D, dtype, causal, small), w["kernels"][perf["candidate"]]["median"] / w["flops"])
                for w in perf["workloads"]]
        timed.append((spec, perf["config"], [r for r in rows if r[0] is not None]))
    for level in range(len(BASIS)):
        best = None
        for spec, config, rows in timed:
            times = [t for c, t in rows if c <= level]
            if times and (best is None or sum(times) / len(times) < best[0]):
                best = (sum(times) / len(times), spec, config)
        if best:
            return best[1], best[2], level
    return None, f"no phase has fresh passing evidence on {device} timed at D={D}", None
