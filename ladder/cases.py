"""What the correctness gate runs, as plain data: the case x dtype x mask groups of a merged
correctness section, the residue sweep's lengths, and each trial's seed, value distribution,
per-tensor layouts and softmax scale. Pure and deterministic, so the child that runs the trials
and anyone reading the evidence derive the same plan from the same section."""
import itertools
import random

from .vocab import LAYOUTS

TENSORS = "qkvo"


def residue_lengths(moduli, max_len, seed, min_len=1):
    """Lengths in [min_len, max_len] such that for every modulus M every residue 0..M-1 occurs."""
    rng = random.Random(seed)
    lengths = []
    for m in sorted(moduli, reverse=True):
        have = {length % m for length in lengths}
        for r in range(m):
            if r in have:
                continue
            base = r if r else m
            base += m * max(0, -(-(min_len - base) // m))  # the first length >= min_len with residue r
            spans = [u for u in range(0, (max_len - base) // m + 1)]
            lengths.append(base + m * rng.choice(spans))
            have.add(r)
    return lengths


def residue_cases(residues):
    """One case per length pair: S_k runs through the residue lengths, S_q through a shuffle of
    them, so both cover every residue; B, H and D vary with the index. Then the long lengths:
    S_k through them with a short S_q, and S_q through another draw of them with a short S_k."""
    ks = residue_lengths(residues["moduli"], residues["max_len"], residues["seed"])
    qs = list(ks)
    random.Random(residues["seed"] + 1).shuffle(qs)
    pairs = list(zip(qs, ks))
    long = residues.get("long")  # absent in records made before the long sweep (stale)
    for which, salt in (("S_k", 2), ("S_q", 3)) if long else ():
        lengths = residue_lengths(residues["moduli"], long["max_len"], residues["seed"] + salt, long["min_len"])
        for i, n in enumerate(lengths):
            short = 1 + (i * 37) % long["short_max"]
            pairs.append((short, n) if which == "S_k" else (n, short))
    return [{"B": 1 + i % 2, "H": 1 + i % 3, "S_q": sq, "S_k": sk, "D": (64, 128)[i % 2], "trials": 1,
             "huge_stride": None, "residue": True}
            for i, (sq, sk) in enumerate(pairs)]


def huge_stride(case):
    """Which stride of the case's views is above 2^31 elements (batch, head, seq), or None.
    Records made before huge_stride said it as huge_batch_stride: true."""
    return case.get("huge_stride") or ("batch" if case.get("huge_batch_stride") else None)


def groups(section):
    """[(case index, case, dtype, causal, trials)] in a fixed order."""
    cases = list(section["cases"]) + residue_cases(section["residues"])
    out = []
    for ci, case in enumerate(cases):
        for dtype, causal in itertools.product(section["dtypes"], section["causal"]):
            out.append((ci, case, dtype, causal, case["trials"] or section["trials"]))
    return out


def trial_plan(section, ci, case, dtype, causal, t):
    """Seed, value distribution, layouts and scale of trial t of one group."""
    seed = section["seed"] * 1_000_003 + ci * 10_007 + t * 31 + DTYPE_SALT[dtype] + int(causal)
    values = section["values"]
    kind = values[(t + ci) % len(values)]
    if dtype not in kind["dtypes"]:
        kind = {"name": "normal", "std": 1.0}
    combos = len(section["layouts"]) ** len(TENSORS)
    combo = (t * 7 + ci * 13) % combos
    layouts = {}
    for name in TENSORS:
        combo, i = divmod(combo, len(section["layouts"]))
        layouts[name] = section["layouts"][i]
    huge = huge_stride(case)
    if huge:
        layouts = {name: f"huge_{huge}_stride" for name in TENSORS}
    scale = case["D"] ** -0.5
    if scale_varied(section, ci, dtype, causal, t):
        lo, hi = section["scale_range"][:2]
        scale = random.Random(seed).uniform(lo, hi)
    return {"seed": seed, "values": kind, "layouts": layouts, "scale": scale}


def scale_varied(section, ci, dtype, causal, t):
    """Whether trial t of a group takes a scale from scale_range. One trial in scale_every, counted
    along t, the case and the group's place among its case's dtype x mask groups, so that a case of
    one to three trials (the long rows, the large grids, every residue case) gets other scales too:
    counted along t alone, no trial below scale_every - 1 ever did, and a kernel that ignores the
    scale on one path (rows of many query tiles, say) passed wherever only such cases reach it."""
    group = section["dtypes"].index(dtype) * len(section["causal"]) + section["causal"].index(causal)
    return (t + ci + group) % section["scale_every"] == section["scale_every"] - 1


DTYPE_SALT = {"fp16": 0, "bf16": 7}
assert set(LAYOUTS) == {"contiguous", "bshd", "padded"}
