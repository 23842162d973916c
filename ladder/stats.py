"""Statistics of the performance gate and its calibration (numpy; scipy for Clopper-Pearson).

- Pairing. Every complete round times each kernel once, in a seeded random order, on the same
  input set. A comparison of the candidate a with kernel b uses the per-round log ratios
  L = ln(a) - ln(b), so drift shared by a round cancels.
- Estimate. Per process, the median of L over its rounds; across processes, their mean.
  ratio = exp(estimate) (a's time over b's: below 1, a is faster).
- Interval. A hierarchical percentile bootstrap, 95%: processes drawn with replacement, then
  rounds with replacement within each drawn process; seeded, so check-evidence recomputes it
  exactly.
- Invocation drift d. The interval above covers the noise of one invocation (its processes run
  seconds apart on one GPU). Another `make` invocation, minutes or days later and perhaps on
  another GPU of the same kind, moves a ratio further: between the H100 evidence at 309a86a and
  its `make reproduce`, the 95th percentile of |difference of log ratios| / sqrt(2) (one
  invocation's share) over 186 pairs was 0.73%; between the evidence at c9a46ef and its re-run,
  1.08%. d = ln(1.0125) covers both; `make reproduce` measures it again every time and fails
  when d no longer covers it.
- Reproduction interval: the interval widened by d on each side, what another invocation's
  estimate should fall in. Verdicts and targets read it, so a ratio that drifts by d between
  invocations cannot turn a verdict into its opposite.
- Margin m (log units), per comparison. The largest of: min_margin (the resolution the gate
  commits to), the in-run A/A extent (how far from 1 the interval of the candidate against
  itself, timed under a second name, reaches), this pair's between-run range (max - min of its
  per-process estimates: a difference smaller than that would not reproduce run to run), and 2d
  (the reproduction interval is at least 2d wide, so with m under 2d no pair could be SAME).
- Verdict. UNRESOLVED when the bootstrap interval's half-width exceeds m/2 (the workload hit its
  caps first); else, on the reproduction interval, FASTER when it lies wholly below -m, SLOWER
  when above +m, SAME when within [-m, +m], AMBIGUOUS otherwise.
- Figures with one number per process (TFLOP/s, CUDA-graph per-call times and their ratios,
  which targets can bound): their reproduction interval is the range of the per-process values
  widened by d on each side (spread_interval); a target holds when all of it is on the
  target's side.
- Stopping, within a process: every pair's normal-approximation half-width of the median of L,
  1.96 * 1.2533 * (IQR / 1.349) / sqrt(n), at most m/2 of the process's own margin estimate."""
import math

import numpy as np

CONFIDENCE = 0.95
N_RESAMPLES = 2000
SEED = 20240601
Z = 1.959963984540054
INVOCATION_DRIFT = math.log1p(0.0125)
CLAIMS = ("FASTER", "SAME", "SLOWER")     # the verdicts that claim something; the rest withhold


def summary(samples):
    x = np.asarray(samples, dtype=float)
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    return {"n": int(x.size), "median": float(med), "q1": float(q1), "q3": float(q3), "iqr": float(q3 - q1),
            "min": float(x.min()), "max": float(x.max())}


def median_halfwidth(x):
    """Normal-approximation 95% half-width of the median of x (robust sigma from the IQR)."""
    x = np.asarray(x, dtype=float)
    if x.size < 2:
        return math.inf
    q1, q3 = np.percentile(x, [25, 75])
    return float(Z * 1.2533 * (q3 - q1) / 1.349 / math.sqrt(x.size))


def log_ratios(a, b):
    return np.log(np.asarray(a, dtype=float)) - np.log(np.asarray(b, dtype=float))


def hierarchical_interval(groups, n_resamples=N_RESAMPLES, seed=SEED):
    """(estimate, lo, hi) of the mean over groups of each group's median, with the 95%
    hierarchical percentile bootstrap. groups: per-process 1-D arrays."""
    groups = [np.asarray(g, dtype=float) for g in groups if len(g)]
    est = float(np.mean([np.median(g) for g in groups]))
    rng = np.random.default_rng(seed)
    P = len(groups)
    picks = rng.integers(0, P, size=(n_resamples, P))
    medians = np.empty((n_resamples, P))
    for p, g in enumerate(groups):
        mask = picks == p
        count = int(mask.sum())
        if count:
            idx = rng.integers(0, g.size, size=(count, g.size))
            medians[mask] = np.median(g[idx], axis=1)
    boot = medians.mean(axis=1)
    alpha = (1 - CONFIDENCE) / 2
    lo, hi = np.percentile(boot, [100 * alpha, 100 * (1 - alpha)])
    return est, float(lo), float(hi)


def between_runs(per_process):
    """Range of per-process estimates (log units): how far the same comparison moved between
    independent processes. 0 with one process."""
    return float(max(per_process) - min(per_process)) if len(per_process) > 1 else 0.0


def margin(min_margin, aa_interval, between, drift=INVOCATION_DRIFT):
    """m in log units for one comparison: the largest of the floor, the A/A extent (the
    workload's), this pair's between-run range (a difference smaller than the spread of its
    own per-process results would not reproduce) and twice the invocation drift."""
    parts = {"min_margin": math.log1p(min_margin),
             "aa_extent": max(abs(aa_interval[0]), abs(aa_interval[1])) if aa_interval else 0.0,
             "between_runs": between, "two_drifts": 2 * drift}
    return max(parts.values()), parts


def reproduction_interval(lo, hi, drift=INVOCATION_DRIFT):
    return lo - drift, hi + drift


def spread_interval(per_process, drift=INVOCATION_DRIFT):
    """The reproduction interval of a figure a kernel has on its own (a time, TFLOP/s) or of a
    ratio read from one number per process (graph per-call times): the range of the
    per-process values, widened by the invocation drift on each side as ratio intervals are.
    Absolute figures also move with the GPU's clocks between invocations; the reproduce run
    (ladder/reproduce.py) checks whether targets on them hold on a re-run."""
    return min(per_process) * math.exp(-drift), max(per_process) * math.exp(drift)


def verdict(lo, hi, m, drift=INVOCATION_DRIFT):
    """lo, hi: the bootstrap interval (log units); the verdict reads its reproduction interval."""
    if (hi - lo) / 2 > m / 2:
        return "UNRESOLVED"
    lo, hi = reproduction_interval(lo, hi, drift)
    if hi < -m:
        return "FASTER"
    if lo > m:
        return "SLOWER"
    if lo >= -m and hi <= m:
        return "SAME"
    return "AMBIGUOUS"


def clopper_pearson(k, n, confidence=CONFIDENCE):
    """Exact binomial interval for a rate k/n."""
    from scipy.stats import beta
    alpha = 1 - confidence
    lo = 0.0 if k == 0 else float(beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi
