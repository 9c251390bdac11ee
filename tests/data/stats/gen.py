#!/usr/bin/python3
# Reference values for tests/unit/check_stats.c, computed once with SciPy
# 1.10 / NumPy (Debian 12: apt-get install python3-scipy) and kept as
# tests/data/stats/ref.tsv.  Regenerate with:
#   /usr/bin/python3 tests/data/stats/gen.py > tests/data/stats/ref.tsv
# Each line: NAME X Y then the values named in the header, TAB-separated;
# X and Y are comma-separated, written with repr() so they read back
# exactly.  "nan" where SciPy defines no value (the C code documents its
# own answer there and the test checks that separately).
import math
import numpy as np
from scipy import stats, special

import warnings
warnings.simplefilter("ignore")
rng = np.random.default_rng(20261129)

def lognorm(n, mu, cv):
    return list(np.round(np.exp(rng.normal(math.log(mu), cv, n)), 6))

V = []
V.append(("n2", [1.0, 2.0], [3.0, 5.0]))
V.append(("n2_close", [100.0, 101.0], [100.5, 99.0]))
V.append(("n2_n3", [10.0, 12.0], [9.0, 9.5, 11.0]))
V.append(("zero_var_x", [5.0, 5.0, 5.0], [4.0, 4.5, 5.5, 4.2]))
V.append(("zero_var_y", [1.0, 2.0, 3.0, 4.0], [7.0, 7.0, 7.0]))
V.append(("ties_small", [1.0, 2.0, 2.0, 3.0], [2.0, 3.0, 3.0, 4.0]))
V.append(("ties_many", [1, 1, 1, 2, 2, 3, 3, 3, 3, 4], [2, 2, 3, 3, 3, 4, 4, 5, 5, 5]))
V.append(("outlier_x", [100.0, 101.0, 99.5, 100.2, 250.0], [98.0, 97.5, 98.3, 97.9, 98.1]))
V.append(("outlier_y", [1000.0, 1010.0, 995.0, 1003.0, 998.0, 1001.0], [990.0, 985.0, 992.0, 10.0, 988.0, 991.0]))
V.append(("identical", [3.0, 1.0, 2.0], [2.0, 3.0, 1.0]))
V.append(("separated5", [10.0, 11.0, 12.0, 13.0, 14.0], [20.0, 21.0, 22.0, 23.0, 24.0]))
V.append(("separated8", list(range(1, 9)), list(range(9, 17))))
V.append(("unequal_n", [5.1, 4.9, 5.3], [4.0, 4.1, 3.9, 4.2, 4.05, 3.95, 4.15, 4.0, 4.1]))
V.append(("negative", [-1.5, -2.0, -0.5, -1.0], [-3.0, -2.5, -2.8, -3.2]))
V.append(("tiny_diff", [1e6, 1e6 + 1, 1e6 + 2, 1e6 + 3], [1e6 + 0.5, 1e6 + 1.5, 1e6 + 2.5, 1e6 + 3.5]))
V.append(("large_n", [float(v) for v in range(1, 61)], [float(v) + 7.5 for v in range(1, 61)]))
V.append(("large_n_ties", [float(v // 3) for v in range(45)], [float(v // 3) + 1 for v in range(45)]))
for i, (n, cv, shift) in enumerate([(3, .01, 0), (3, .03, .1), (5, .01, 0), (5, .03, -.05), (5, .05, -.1),
                                    (7, .02, .02), (10, .03, 0), (10, .03, -.05), (10, .01, -.02),
                                    (12, .05, .05), (20, .03, -.02), (15, .1, 0), (4, .02, -.1),
                                    (6, .2, .3), (9, .001, 0)]):
    x = lognorm(n, 1000.0, cv)
    y = lognorm(n, 1000.0 * (1 + shift), cv)
    V.append(("lognorm%02d_n%d" % (i, n), x, y))
V.append(("lognorm_unbal", lognorm(5, 50.0, .04), lognorm(11, 48.0, .04)))
V.append(("both_zero_var", [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]))
V.append(("all_equal", [4.0, 4.0], [4.0, 4.0, 4.0]))
V.append(("bimodal", [10.0, 10.1, 10.2, 20.0, 20.1, 20.2], [10.05, 10.15, 20.05, 20.15, 20.25, 10.0]))

def tppf(p, df):
    # scipy.stats.t.ppf is off by up to ~1e-9 at small fractional df (its
    # own cdf at the answer misses p by 2e-11 at df 1.47); polish it with
    # Newton steps on SciPy's cdf, which is accurate there.
    x = stats.t.ppf(p, df)
    for _ in range(3):
        x -= (stats.t.cdf(x, df) - p) / stats.t.pdf(x, df)
    return x

def hedges(x, y):
    x, y = np.asarray(x), np.asarray(y)
    df = len(x) + len(y) - 2
    sp = math.sqrt(((len(x) - 1) * x.var(ddof=1) + (len(y) - 1) * y.var(ddof=1)) / df)
    if sp == 0:
        return float("nan")
    d = (y.mean() - x.mean()) / sp
    j = math.exp(special.gammaln(df / 2) - special.gammaln((df - 1) / 2)) / math.sqrt(df / 2)
    return d * j

def cliff(x, y):
    m = sum((b > a) - (b < a) for a in x for b in y)
    return m / (len(x) * len(y))

def splitmix(state):
    M = (1 << 64) - 1
    state = (state + 0x9e3779b97f4a7c15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return state, z ^ (z >> 31)

def boot(x, y, b, seed, conf):
    sx, sy = sorted(x), sorted(y)
    st = seed
    out = []
    for _ in range(b):
        meds = []
        for s in (sx, sy):
            n = len(s)
            draw = []
            for _ in range(n):
                st, r = splitmix(st)
                draw.append(s[(r * n) >> 64])
            meds.append(float(np.median(draw)))
        out.append(meds[1] - meds[0])
    return (float(np.percentile(out, 100 * (1 - conf) / 2)),
            float(np.percentile(out, 100 * (1 - (1 - conf) / 2))))

from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial
_atoms = {}

def median_atoms(n):
    # every multiset of n indices, weighed by its multinomial probability:
    # the middle order statistics (i, j) -> exact probability
    if n in _atoms:
        return _atoms[n]
    d = {}
    total = n ** n
    for ms in combinations_with_replacement(range(n), n):
        cnt = {}
        for k in ms:
            cnt[k] = cnt.get(k, 0) + 1
        w = factorial(n)
        for c in cnt.values():
            w //= factorial(c)
        key = (ms[(n - 1) // 2], ms[n // 2])
        d[key] = d.get(key, 0) + w
    _atoms[n] = {k: Fraction(v, total) for k, v in d.items()}
    return _atoms[n]

def boot_exact(x, y, conf):
    # the exact (infinite-B) percentile bootstrap of median(y) - median(x),
    # quantile = smallest d with P(D <= d) >= level, in exact arithmetic
    if len(x) > 9 or len(y) > 9:
        return float("nan"), float("nan")
    def dist(v):
        s = sorted(v)
        out = {}
        for (i, j), p in median_atoms(len(s)).items():
            m = s[i] if i == j else (s[i] + s[j]) / 2
            out[m] = out.get(m, 0) + p
        return out
    dx, dy = dist(x), dist(y)
    dd = {}
    for a, pa in dx.items():
        for b, pb in dy.items():
            dd[b - a] = dd.get(b - a, 0) + pa * pb
    keys = sorted(dd)
    def q(level):
        acc = Fraction(0)
        for k in keys:
            acc += dd[k]
            if acc >= level:
                return k
        return keys[-1]
    lo_level = (1 - Fraction(conf).limit_denominator(1000)) / 2
    return q(lo_level), q(1 - lo_level)

def median_ci(x, conf):
    s = sorted(x)
    n = len(s)
    k = 1
    while k + 1 <= (n + 1) // 2 and 1 - 2 * stats.binom.cdf(k, n, .5) >= conf:
        k += 1
    cover = 1 - 2 * (stats.binom.cdf(k - 1, n, .5) if k >= 2 else .5 ** n)
    return s[k - 1], s[n - k], cover

def summary(x):
    a = np.asarray(x)
    n = len(a)
    mean = a.mean()
    sd = a.std(ddof=1) if n > 1 else 0.0
    med = float(np.median(a))
    mad = float(np.median(np.abs(a - med)))
    rcv = stats.median_abs_deviation(a, scale="normal") / abs(med) if med != 0 else 0.0
    h = tppf(0.975, n - 1) * sd / math.sqrt(n)
    lo, hi, cover = median_ci(x, .95)
    return [n, mean, med, sd, sd / abs(mean) if mean != 0 else 0.0, mad, rcv,
            min(x), max(x), mean - h, mean + h, lo, hi, cover]

HEAD = ["name", "x", "y",
        "w_diff", "w_df", "w_t", "w_p", "w_lo", "w_hi",
        "u", "u_p", "u_exact", "g", "cliff", "b_lo", "b_hi",
        "s_n", "s_mean", "s_median", "s_sd", "s_cv", "s_mad", "s_rcv",
        "s_min", "s_max", "s_mean_lo", "s_mean_hi", "s_med_lo", "s_med_hi",
        "s_med_cover", "t1_t", "t1_p", "be_lo", "be_hi", "bh"]
print("\t".join(HEAD))
rows, ps = [], []
for name, x, y in V:
    x = [float(v) for v in x]
    y = [float(v) for v in y]
    xa, ya = np.asarray(x), np.asarray(y)
    r = stats.ttest_ind(ya, xa, equal_var=False)
    vx, vy = xa.var(ddof=1) / len(x), ya.var(ddof=1) / len(y)
    diff = ya.mean() - xa.mean()
    if vx + vy > 0:
        df = (vx + vy) ** 2 / (vx ** 2 / (len(x) - 1) + vy ** 2 / (len(y) - 1))
        h = tppf(0.975, df) * math.sqrt(vx + vy)
        w = [diff, df, r.statistic, r.pvalue, diff - h, diff + h]
    else:
        w = [diff] + [float("nan")] * 5
    ties = len(set(x + y)) < len(x) + len(y)
    if len(set(x + y)) == 1:
        u = [float("nan")] * 3
    else:
        method = "asymptotic" if ties or len(x) > 50 or len(y) > 50 else "exact"
        m = stats.mannwhitneyu(ya, xa, alternative="two-sided", method=method)
        u = [m.statistic, m.pvalue, 1 if method == "exact" else 0]
    bl, bh_ = boot(x, y, 200, 12345, .95)
    d = np.log(ya.mean()) - np.log(xa.mean()) if xa.mean() > 0 and ya.mean() > 0 else 0.0
    # one-sample t over the concatenation minus its first value (any vector will do)
    z = np.asarray(y) - np.asarray(y).mean() * 0.9
    t1 = stats.ttest_1samp(z, 0.0)
    rows.append([name, ",".join(repr(v) for v in x), ",".join(repr(v) for v in y)] + w + u +
                [hedges(x, y), cliff(x, y), bl, bh_] + summary(x) + [t1.statistic, t1.pvalue] + list(boot_exact(x, y, .95)))
    ps.append(w[3])
# BH over the Welch p-values that exist (in row order)
pv = np.array([p for p in ps if not math.isnan(p)])
order = np.argsort(pv, kind="stable")
m = len(pv)
adj = np.empty(m)
run = 1.0
for k in range(m - 1, -1, -1):
    run = min(run, pv[order[k]] * m / (k + 1))
    adj[order[k]] = run
it = iter(adj)
for row, p in zip(rows, ps):
    row.append(next(it) if not math.isnan(p) else float("nan"))
    print("\t".join(str(v) if isinstance(v, str) else repr(float(v)) for v in row))
