"""Statistics for timing samples, with scipy doing the work.

- Location and spread: median, quartiles, IQR, n.
- Noise of the median estimate (the stopping rule): the relative standard error of the median,
  1.2533 * sigma / sqrt(n) / median, with sigma estimated robustly as IQR / 1.349.
- Ratio of two medians (candidate / baseline): a percentile bootstrap 95% confidence interval
  (scipy.stats.bootstrap, unpaired, seeded so that check-evidence can recompute it exactly).
- A two-sided Mann-Whitney U test (scipy.stats.mannwhitneyu) and Cliff's delta, derived from U:
  delta = 2U / (n1 n2) - 1 = P(a > b) - P(a < b).
- Verdict of candidate a against baseline b, in this order:
  SAME      the whole ratio interval lies inside [1 - band, 1 + band];
  FASTER    the interval lies below 1, the U test rejects at alpha, and delta <= -min_effect;
  SLOWER    the interval lies above 1, the U test rejects at alpha, and delta >= +min_effect;
  AMBIGUOUS anything else (too noisy, or the tests disagree).
  min_effect 0.147 is the conventional threshold of a "small" Cliff's delta."""
import numpy as np
from scipy import stats

CONFIDENCE = 0.95
N_RESAMPLES = 2000
SEED = 20240601
SAME_BAND = 0.01
ALPHA = 0.05
MIN_EFFECT = 0.147


def summary(samples):
    x = np.asarray(samples, dtype=float)
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    return {"n": int(x.size), "median": float(med), "q1": float(q1), "q3": float(q3), "iqr": float(q3 - q1),
            "min": float(x.min()), "max": float(x.max()), "rel_noise": rel_noise(x)}


def rel_noise(samples):
    x = np.asarray(samples, dtype=float)
    if x.size < 2:
        return float("inf")
    q1, med, q3 = np.percentile(x, [25, 50, 75])
    sigma = (q3 - q1) / 1.349
    return float(1.2533 * sigma / np.sqrt(x.size) / med) if med > 0 else float("inf")


def ratio_ci(a, b, confidence=CONFIDENCE, n_resamples=N_RESAMPLES, seed=SEED):
    """Percentile bootstrap interval for median(a) / median(b)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)

    def ratio(x, y, axis=-1):
        return np.median(x, axis=axis) / np.median(y, axis=axis)

    kwargs = dict(vectorized=True, paired=False, confidence_level=confidence, n_resamples=n_resamples,
                  method="percentile")
    try:
        res = stats.bootstrap((a, b), ratio, rng=np.random.default_rng(seed), **kwargs)
    except TypeError:  # scipy < 1.15 names the generator random_state
        res = stats.bootstrap((a, b), ratio, random_state=np.random.default_rng(seed), **kwargs)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def _delta_from_u(u, n1, n2):
    return float(2.0 * u / (n1 * n2) - 1.0)


def cliffs_delta(a, b):
    return _delta_from_u(stats.mannwhitneyu(a, b, alternative="two-sided").statistic, len(a), len(b))


def compare(a, b, band=SAME_BAND, alpha=ALPHA, min_effect=MIN_EFFECT):
    """Candidate samples a against baseline samples b (times: smaller is faster)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    ratio = float(np.median(a) / np.median(b))
    lo, hi = ratio_ci(a, b)
    test = stats.mannwhitneyu(a, b, alternative="two-sided")
    delta = _delta_from_u(test.statistic, a.size, b.size)
    p = float(test.pvalue)
    if lo >= 1 - band and hi <= 1 + band:
        verdict = "SAME"
    elif hi < 1 and p < alpha and delta <= -min_effect:
        verdict = "FASTER"
    elif lo > 1 and p < alpha and delta >= min_effect:
        verdict = "SLOWER"
    else:
        verdict = "AMBIGUOUS"
    return {"ratio": ratio, "ci": [lo, hi], "p_value": p, "cliffs_delta": delta, "verdict": verdict}


def target_met(target, comparison):
    """(met, why) for one gate.yaml target against a comparison from compare()."""
    lo, hi = comparison["ci"]
    if target.get("max_ratio") is not None:
        r = target["max_ratio"]
        return hi <= r, f"time ratio {comparison['ratio']:.3f} CI [{lo:.3f}, {hi:.3f}] vs max_ratio {r:g}"
    if target.get("min_speedup") is not None:
        s = target["min_speedup"]
        return hi <= 1.0 / s, (f"speedup {1 / comparison['ratio']:.2f}x CI [{1 / hi:.2f}, {1 / lo:.2f}] "
                               f"vs min_speedup {s:g}x")
    wanted = {"faster": ("FASTER",), "not_slower": ("FASTER", "SAME"), "same": ("SAME",)}[target["verdict"]]
    return comparison["verdict"] in wanted, (f"verdict {comparison['verdict']} (ratio {comparison['ratio']:.3f} CI "
                                             f"[{lo:.3f}, {hi:.3f}]) vs wanted {target['verdict']}")
