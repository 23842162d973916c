"""The verdict statistics on synthetic samples whose answer is known."""
import numpy as np
import pytest

from ladder import stats


def _draw(rng, n, center, kind):
    if kind == "normal":
        return rng.normal(center, 0.01 * center, n)
    if kind == "heavy":  # lognormal body with occasional 30-60% outliers, as clock dips give
        x = center * rng.lognormal(0.0, 0.005, n)
        hits = rng.random(n) < 0.08
        x[hits] *= 1.3 + 0.3 * rng.random(hits.sum())
        return x
    raise ValueError(kind)


@pytest.mark.parametrize("kind", ["normal", "heavy"])
def test_identical_distributions_are_rarely_called_different(kind):
    rng = np.random.default_rng(1)
    verdicts = [stats.compare(_draw(rng, 40, 100.0, kind), _draw(rng, 40, 100.0, kind))["verdict"]
                for _ in range(200)]
    wrong = sum(v in ("FASTER", "SLOWER") for v in verdicts) / len(verdicts)
    assert wrong <= 0.05, verdicts


@pytest.mark.parametrize("kind", ["normal", "heavy"])
def test_a_five_percent_shift_is_found(kind):
    rng = np.random.default_rng(2)
    slower = [stats.compare(_draw(rng, 40, 105.0, kind), _draw(rng, 40, 100.0, kind))["verdict"] for _ in range(100)]
    faster = [stats.compare(_draw(rng, 40, 95.0, kind), _draw(rng, 40, 100.0, kind))["verdict"] for _ in range(100)]
    assert slower.count("SLOWER") >= 90 and faster.count("FASTER") >= 90


def test_tight_equal_samples_are_same_and_noisy_ones_ambiguous():
    rng = np.random.default_rng(3)
    assert stats.compare(rng.normal(100, 0.2, 60), rng.normal(100, 0.2, 60))["verdict"] == "SAME"
    noisy = stats.compare(rng.normal(100, 30, 8), rng.normal(103, 30, 8))
    assert noisy["verdict"] == "AMBIGUOUS"


def test_ratio_interval_brackets_the_truth_and_is_reproducible():
    rng = np.random.default_rng(4)
    a, b = rng.normal(110, 1, 50), rng.normal(100, 1, 50)
    lo, hi = stats.ratio_ci(a, b)
    assert lo < 1.10 < hi and hi - lo < 0.02
    assert stats.ratio_ci(a, b) == (lo, hi)  # seeded: check-evidence can recompute it exactly


def test_cliffs_delta_extremes():
    assert stats.cliffs_delta([2, 3, 4], [0, 1]) == 1.0
    assert stats.cliffs_delta([0, 1], [2, 3, 4]) == -1.0
    assert stats.cliffs_delta([1, 2], [1, 2]) == 0.0


def test_summary_and_noise():
    s = stats.summary([1.0, 2.0, 3.0, 4.0, 5.0])
    assert (s["median"], s["q1"], s["q3"], s["n"]) == (3.0, 2.0, 4.0, 5)
    assert stats.rel_noise([5.0] * 10) == 0.0
    assert stats.rel_noise([1.0]) == float("inf")


def test_targets_need_the_whole_interval():
    comp = {"ratio": 0.9, "ci": [0.85, 0.96], "verdict": "FASTER"}
    assert stats.target_met({"max_ratio": 0.97}, comp)[0]
    assert not stats.target_met({"max_ratio": 0.95}, comp)[0]  # the interval's top crosses 0.95
    assert stats.target_met({"min_speedup": 1.04}, comp)[0]   # 1 / 0.96 = 1.042
    assert not stats.target_met({"min_speedup": 1.1}, comp)[0]
    assert stats.target_met({"verdict": "faster"}, comp)[0]
    assert stats.target_met({"verdict": "not_slower"}, comp)[0]
    assert not stats.target_met({"verdict": "same"}, comp)[0]
