"""Which problems the performance gate value-checks, untimed: at each size (B, H, S_q, S_k, D)
that a workload times, every dtype, mask and layout; and a few large problems drawn anew for
every run. Pure, so that tests/test_untimed.py checks it without a GPU.

Why: the correctness gate values every dtype, mask and layout, but at sizes whose query rows and
key counts stay below a timed workload's together (its many-row cases have short rows, its long
rows few queries); the timed re-checks value the output of the timed dtype, mask and layout
(contiguous) only, and not its log-sum-exp. A kernel that goes wrong only in another of them at a
timed size, only in a combination of them, or only in the log-sum-exp, passes every other check;
so the timed combination is valued here too, for its log-sum-exp. The checks of one size and mask
share their inputs' values (exact in both dtypes) across dtypes and layouts, so one float64
reference serves them all.

The workloads' sizes are in this repository: a kernel wrong only on large problems that are not
exactly one of them (a row more) would pass those checks too. The drawn problems leave it
nothing fixed to aim at: DRAWN problems of many query rows against long rows, with seed, size,
dtype, mask and layout drawn from a seed the parent picks at random for each run and the raw
data records (so a record still re-derives exactly), each valued like the others. A kernel wrong
on a fraction f of such problems passes a run with probability (1 - f)^DRAWN."""
import random

from .vocab import DTYPES, LAYOUTS

SIZE = ("B", "H", "S_q", "S_k", "D")
DRAWN = 4
MIN_ROWS, MIN_KEYS, MAX_LEN = 1 << 15, 1025, 8192  # the drawn problems' query rows (B*H*S_q) and lengths
MAX_SCORES = 1 << 30  # B*H*S_q*S_k: the largest timed workload's, which bounds the reference's cost


def problems(workloads):
    """[{B, H, S_q, S_k, D, causal, layouts: {dtype: [layout, ...]}}]: per timed size, in the
    workloads' order, and mask, every layout of each dtype."""
    sizes = []
    for w in workloads:
        s = tuple(w[k] for k in SIZE)
        if s not in sizes:
            sizes.append(s)
    return [dict(zip(SIZE, s), causal=causal, layouts={dtype: list(LAYOUTS) for dtype in DTYPES})
            for s in sizes for causal in (False, True)]


def drawn(seed):
    """DRAWN problems ({B, H, S_q, S_k, D, causal, layouts: {dtype: [layout]}}), everything drawn
    from seed: S_q and S_k each MIN_KEYS to MAX_LEN, and about MIN_ROWS to MAX_SCORES / S_k query
    rows in all (B*H*S_q: at least half the number drawn, never more)."""
    rng = random.Random(seed)
    out = []
    for _ in range(DRAWN):
        S_k, S_q = rng.randint(MIN_KEYS, MAX_LEN), rng.randint(MIN_KEYS, MAX_LEN)
        rows = rng.randint(MIN_ROWS, MAX_SCORES // S_k)
        H = rng.randint(1, max(1, min(32, rows // S_q)))
        B = max(1, rows // (H * S_q))
        out.append({"B": B, "H": H, "S_q": S_q, "S_k": S_k, "D": rng.choice((64, 128)),
                    "causal": rng.random() < 0.5, "layouts": {rng.choice(DTYPES): [rng.choice(LAYOUTS)]}})
    return out
