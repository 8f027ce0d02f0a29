"""95 % confidence intervals and the tests a balance report flags with (pure math, no I/O).

Only the standard library: the normal distribution is ``statistics.NormalDist``; Student's t
comes from the regularized incomplete beta function, evaluated by its continued fraction
(Numerical Recipes §6.4). tests/play/test_intervals.py holds every function to scipy.

- A share of games (how often an end happens, a seat's win share): the Wilson score interval,
  which stays inside 0–1 and keeps its coverage near 0 and 1 where the normal one does not.
- A mean of per-game numbers (length, scores, supply): Student's t interval, mean ± t·s/√n.
- A seat's advantage: a one-sample t-test of its per-game win share against the fair 1/n,
  two-sided, its p multiplied by the number of seats (Bonferroni), since every seat is tested.
- A difference between two settings: Welch's t-test (unequal variances). Settings are played
  on the same seeds, which correlates them; that only makes Welch's interval wider than a
  paired one, so a difference it flags is real.
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

from pnp.core.records import record

CONFIDENCE = 0.95
ALPHA = 1 - CONFIDENCE
Z95 = NormalDist().inv_cdf(1 - ALPHA / 2)
_EPS = 1e-15
_TINY = 1e-300


@record
class Interval:
    value: float
    low: float | None
    high: float | None

    def as_json(self, digits: int = 4) -> dict[str, float | None]:
        """``{"value", "low", "high"}`` rounded; bounds are null when one game cannot give any."""
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)
        return {"value": r(self.value), "low": r(self.low), "high": r(self.high)}


@record
class TestResult:
    test: str
    statistic: float
    df: float
    p: float

    @property
    def significant(self) -> bool:
        return self.p < ALPHA


def wilson(successes: float, n: int) -> Interval:
    """The Wilson score interval of a share ``successes / n`` (successes may be fractional: a
    shared win counts 1/k)."""
    if n <= 0:
        raise ValueError("a share of no games")
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(max(0.0, p * (1 - p) / n + z2 / (4 * n * n)))
    # At 0 and n the bound is exactly 0 (1): rounding leaves 1e-17 there otherwise.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Interval(p, low, high)


def mean_interval(n: int, mean: float, variance: float) -> Interval:
    """Student's t interval of a mean of ``n`` values with sample variance ``variance``."""
    if n < 2:
        return Interval(mean, None, None)
    half = t_quantile(1 - ALPHA / 2, n - 1) * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half)


def one_sample_t(n: int, mean: float, variance: float, expected: float, tests: int = 1) -> TestResult:
    """Two-sided one-sample t-test of ``mean`` against ``expected``; p times ``tests``
    (Bonferroni), at most 1."""
    if n < 2:
        return TestResult("one-sample t-test", 0.0, 0.0, 1.0)
    if variance <= 0:
        t = 0.0 if mean == expected else math.copysign(math.inf, mean - expected)
    else:
        t = (mean - expected) / math.sqrt(variance / n)
    p = min(1.0, two_sided_p(t, n - 1) * tests)
    name = "one-sample t-test" + (f", Bonferroni over {tests}" if tests > 1 else "")
    return TestResult(name, t, n - 1, p)


def welch(a: tuple[int, float, float], b: tuple[int, float, float]) -> tuple[TestResult, Interval]:
    """Welch's t-test of two means, each given as (n, mean, sample variance), and the 95 %
    interval of their difference (a − b)."""
    (n1, m1, v1), (n2, m2, v2) = a, b
    diff = m1 - m2
    if n1 < 2 or n2 < 2:
        return TestResult("Welch's t-test", 0.0, 0.0, 1.0), Interval(diff, None, None)
    s1, s2 = v1 / n1, v2 / n2
    se2 = s1 + s2
    if se2 <= 0:
        same = diff == 0
        t = 0.0 if same else math.copysign(math.inf, diff)
        return (TestResult("Welch's t-test", t, n1 + n2 - 2, 1.0 if same else 0.0),
                Interval(diff, diff, diff))
    df = se2 * se2 / (s1 * s1 / (n1 - 1) + s2 * s2 / (n2 - 1))
    t = diff / math.sqrt(se2)
    half = t_quantile(1 - ALPHA / 2, df) * math.sqrt(se2)
    return TestResult("Welch's t-test", t, df, two_sided_p(t, df)), Interval(diff, diff - half, diff + half)


# --------------------------------------------------------------------------------------------
# Student's t from the incomplete beta function


def two_sided_p(t: float, df: float) -> float:
    """P(|T| ≥ |t|) for Student's t with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return betainc(df / 2, 0.5, df / (df + t * t))


def t_cdf(t: float, df: float) -> float:
    tail = two_sided_p(t, df) / 2
    return 1 - tail if t > 0 else tail


@lru_cache(maxsize=256)
def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile of Student's t (0.5 < q < 1), by bisection on its distribution."""
    if not 0.5 < q < 1:
        raise ValueError(f"t quantile of {q}")
    low, high = 0.0, 1.0
    while t_cdf(high, df) < q:
        low, high = high, high * 2
    for _ in range(200):
        mid = (low + high) / 2
        if t_cdf(mid, df) < q:
            low = mid
        else:
            high = mid
        if high - low < 1e-13 * max(1.0, high):
            break
    return (low + high) / 2


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    # The continued fraction converges fast for x below the mean; use the symmetry otherwise.
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """Lentz's evaluation of the incomplete beta continued fraction."""
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                          -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > _TINY else _TINY)
            c = 1 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1) < _EPS:
            break
    return h
