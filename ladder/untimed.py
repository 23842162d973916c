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
on a fraction f of such problems passes a run with probability (1 - f)^DRAWN. Their key counts
reach 65536, far past any workload's and as far as the correctness gate's long rows, which pose
few queries: a path taken only where rows are long and queries many (a split of the keys, a
longer accumulation) would be seen by nothing else."""
import math
import random

from .vocab import DTYPES, LAYOUTS

SIZE = ("B", "H", "S_q", "S_k", "D")
DRAWN = 4
MIN_ROWS = 1 << 15  # the drawn problems' query rows (B*H*S_q), where their keys allow
MIN_LEN, MAX_LEN = 1025, 1 << 16  # S_q and S_k, each drawn log-uniformly
MAX_SCORES = 1 << 30  # B*H*S_q*S_k: the largest timed workload's, which bounds the reference's cost
MAX_HEAD_SCORES = 1 << 26  # S_q*S_k: the float64 reference holds one head's scores at once (2^26: 512 MB)


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


def _log_uniform(rng, lo, hi):
    return min(hi, max(lo, round(math.exp(rng.uniform(math.log(lo), math.log(hi))))))


def drawn(seed):
    """DRAWN problems ({B, H, S_q, S_k, D, causal, layouts: {dtype: [layout]}}), everything drawn
    from seed: S_k log-uniform from MIN_LEN to MAX_LEN, S_q log-uniform from MIN_LEN (or less,
    where MAX_HEAD_SCORES allows less) to MAX_HEAD_SCORES / S_k, and about MIN_ROWS (or
    MAX_SCORES / S_k, if fewer) to MAX_SCORES / S_k query rows in all (B*H*S_q: at least half the
    number drawn, never more)."""
    rng = random.Random(seed)
    out = []
    for _ in range(DRAWN):
        S_k = _log_uniform(rng, MIN_LEN, MAX_LEN)
        q_max = min(MAX_LEN, MAX_HEAD_SCORES // S_k)
        S_q = _log_uniform(rng, min(MIN_LEN, q_max), q_max)
        rows_max = MAX_SCORES // S_k
        rows = rng.randint(max(S_q, min(MIN_ROWS, rows_max)), rows_max)
        H = rng.randint(1, max(1, min(32, rows // S_q)))
        B = max(1, rows // (H * S_q))
        out.append({"B": B, "H": H, "S_q": S_q, "S_k": S_k, "D": rng.choice((64, 128)),
                    "causal": rng.random() < 0.5, "layouts": {rng.choice(DTYPES): [rng.choice(LAYOUTS)]}})
    return out
