"""The correctness gate's judgement of one trial row: the max-error bound, and the bias bound
that catches what the max-error bound lets through (errors of one sign, each small)."""
import pytest

from ladder.gates.correctness import ROW, judge
from ladder.spec import load_spec

SECTION = load_spec("phases/phase_a").section("correctness")


def _row(**kw):
    r = dict(zip(ROW, [0, 1e-4, 1e-4, 5e-5, 1e-5, 1.0, 0, 0, 0.01, 0.005, -0.01]))
    r.update(kw)
    return r


def test_an_unbiased_row_within_tolerance_passes():
    ok, tol, why = judge(_row(), SECTION)
    assert ok and why == "" and tol == pytest.approx(SECTION["k"] * 1e-4 + 1e-7)


@pytest.mark.parametrize("bias", [-0.3, 0.3, -0.15])
def test_a_biased_row_fails_even_within_the_max_error_bound(bias):
    ok, _, why = judge(_row(bias=bias, bias_se=0.005), SECTION)
    assert not ok and "output biased" in why and "max error" not in why


def test_the_bias_bound_widens_with_its_standard_error_and_with_sdpa_s_own_bias():
    assert judge(_row(bias=-0.3, bias_se=0.05, bias_sdpa=0.0), SECTION)[0]       # 0.05 + 6 x 0.05
    assert judge(_row(bias=-0.3, bias_se=0.001, bias_sdpa=-0.13), SECTION)[0]    # 0.05 + 2 x 0.13
    assert not judge(_row(bias=-0.3, bias_se=0.001, bias_sdpa=0.1), SECTION)[0]  # 0.05 + 2 x 0.1
    # Measured on an H100: every phase's kernel at S = 8192, V offset by 100 (tensor-core
    # accumulation of 8192 same-sign terms), against SDPA's flash backend.
    assert judge(_row(bias=-0.0648, bias_se=0.0003, bias_sdpa=-0.0311), SECTION)[0]


def test_rows_recorded_before_the_bias_check_are_judged_without_it():
    old = dict(zip(ROW, [0, 1e-4, 1e-4, 5e-5, 1e-5, 1.0, 0, 0]))
    assert judge(old, SECTION)[0]
    assert judge(_row(bias=None, bias_se=None), SECTION)[0]  # a non-finite output has no bias figure
