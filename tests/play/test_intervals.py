"""The balance report's intervals and tests held to scipy (an independent implementation) and
to values worked by hand."""

from __future__ import annotations

import math
import random

import pytest
from scipy import special, stats

from pnp.play.intervals import (
    betainc,
    mean_interval,
    one_sample_t,
    t_quantile,
    two_sided_p,
    welch,
    wilson,
)


@pytest.mark.parametrize(("a", "b", "x"), [(2, 0.5, 0.3), (0.5, 0.5, 0.01), (500, 0.5, 0.99),
                                           (1.5, 0.5, 0.9), (30, 0.5, 0.2), (5e4, 0.5, 0.9999)])
def test_incomplete_beta_matches_scipy(a: float, b: float, x: float) -> None:
    assert betainc(a, b, x) == pytest.approx(float(special.betainc(a, b, x)), rel=1e-8, abs=1e-14)


@pytest.mark.parametrize("df", [1, 2, 3, 7, 10, 29, 99, 1999, 59_999, 1e6])
def test_t_quantile_matches_scipy(df: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(float(stats.t.ppf(0.975, df)), rel=1e-8)


@pytest.mark.parametrize(("t", "df"), [(0.0, 5), (1.2, 3), (-2.5, 40), (8.0, 1000), (0.3, 1)])
def test_two_sided_p_matches_scipy(t: float, df: float) -> None:
    assert two_sided_p(t, df) == pytest.approx(float(2 * stats.t.sf(abs(t), df)), rel=1e-8, abs=1e-15)


@pytest.mark.parametrize(("k", "n"), [(0, 10), (1, 10), (37, 100), (100, 100), (512, 2000), (1, 1)])
def test_wilson_matches_scipy(k: int, n: int) -> None:
    got = wilson(k, n)
    ref = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert got.value == k / n
    assert (got.low, got.high) == (pytest.approx(ref.low, abs=1e-12), pytest.approx(ref.high, abs=1e-12))


def test_wilson_worked_by_hand() -> None:
    # 0 wins in 10: the upper bound is z² / (n + z²) with z = 1.959964: 3.841459 / 13.841459.
    assert wilson(0, 10).high == pytest.approx(0.2775327, abs=1e-6)
    assert wilson(0, 10).low == 0.0
    # 5 of 10: symmetric about 1/2, half-width z·√(0.025 + z²/400) / (1 + z²/10) = 0.2933..
    iv = wilson(5, 10)
    assert (iv.low, iv.high) == (pytest.approx(0.2365931, abs=1e-6), pytest.approx(0.7634069, abs=1e-6))


def test_mean_interval_matches_scipy() -> None:
    rng = random.Random(4)
    values = [rng.randint(10, 60) for _ in range(250)]
    n, mean = len(values), sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    low, high = stats.t.interval(0.95, n - 1, loc=mean, scale=stats.sem(values))
    got = mean_interval(n, mean, var)
    assert (got.low, got.high) == (pytest.approx(low, rel=1e-10), pytest.approx(high, rel=1e-10))
    # Worked by hand: 1, 2, 3: mean 2, s² = 1, t(0.975, 2) = 4.302653: 2 ± 4.302653/√3.
    three = mean_interval(3, 2.0, 1.0)
    assert three.high == pytest.approx(2 + 4.302653 / math.sqrt(3), abs=1e-6)
    assert mean_interval(1, 5.0, 0.0).low is None


def test_one_sample_t_matches_scipy_with_bonferroni() -> None:
    rng = random.Random(9)
    shares = [rng.choice((0, 0, 0, 1, 0.5)) for _ in range(400)]
    n, mean = len(shares), sum(shares) / len(shares)
    var = sum((v - mean) ** 2 for v in shares) / (n - 1)
    ref = stats.ttest_1samp(shares, 0.25)
    got = one_sample_t(n, mean, var, 0.25, tests=4)
    assert got.statistic == pytest.approx(float(ref.statistic), rel=1e-10)
    assert got.p == pytest.approx(min(1.0, 4 * float(ref.pvalue)), rel=1e-8)
    assert "Bonferroni over 4" in got.test


@pytest.mark.parametrize(("a", "b"), [((100, 3.0, 2.0), (80, 3.5, 4.0)), ((2000, 20.1, 30.0), (2000, 19.4, 41.0)),
                                      ((5, 1.0, 0.5), (7, 1.2, 0.1))])
def test_welch_matches_scipy(a: tuple[int, float, float], b: tuple[int, float, float]) -> None:
    (n1, m1, v1), (n2, m2, v2) = a, b
    ref = stats.ttest_ind_from_stats(m1, math.sqrt(v1), n1, m2, math.sqrt(v2), n2, equal_var=False)
    result, diff = welch(a, b)
    assert result.statistic == pytest.approx(float(ref.statistic), rel=1e-10)
    assert result.p == pytest.approx(float(ref.pvalue), rel=1e-8)
    se = math.sqrt(v1 / n1 + v2 / n2)
    half = float(stats.t.ppf(0.975, result.df)) * se
    assert (diff.low, diff.high) == (pytest.approx(m1 - m2 - half, rel=1e-9), pytest.approx(m1 - m2 + half, rel=1e-9))
    assert result.test == "Welch's t-test"


def test_welch_of_constants() -> None:
    same, _ = welch((10, 25.0, 0.0), (10, 25.0, 0.0))
    assert same.p == 1.0 and not same.significant
