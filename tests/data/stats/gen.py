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

# Issue 13: 49 more kinds of vector pairs, the edges an independent check
# tried: n = 2, 3 against 30, ties in every arrangement, zero variance,
# values near 1e+300 and 1e-300, subnormals, large and unbalanced n.
V.append(("e_n2_n2", [1.0, 3.0], [2.0, 6.0]))
V.append(("e_n2_tied", [5.0, 5.0], [5.0, 7.0]))
V.append(("e_n2_n5", [10.0, 14.0], [11.0, 12.5, 13.0, 9.5, 12.0]))
V.append(("e_n2_n30", [100.0, 104.0], [float(96 + (i * 7) % 11) for i in range(30)]))
V.append(("e_n2_same", [2.5, 3.5], [2.5, 3.5]))
V.append(("e_n2_neg", [-4.0, -1.0], [-2.0, -2.5]))
V.append(("e_n3_n30", [1000.0, 1012.0, 995.0], lognorm(30, 1000.0, .02)))
V.append(("e_n3_n30_shift", lognorm(3, 1000.0, .02), lognorm(30, 920.0, .02)))
V.append(("e_n30_n3", lognorm(30, 50.0, .05), [48.0, 51.5, 47.25]))
V.append(("e_n3_n30_heavy", [10.0, 10.5, 9.75], [10.0 + ((i * 13) % 7 - 3) * 0.4 + (8.0 if i == 17 else 0.0) for i in range(30)]))
V.append(("e_n3_sep", [1.0, 1.1, 1.2], [2.0, 2.1, 2.2]))
V.append(("e_n3_overlap", [1.0, 2.0, 3.0], [2.0, 3.0, 4.0]))
V.append(("e_ties_one_value", [7.0, 7.0, 7.0, 7.0], [7.0, 7.0, 7.0]))
V.append(("e_ties_half", [1.0, 1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 5.0, 6.0]))
V.append(("e_ties_boundary", [1.0, 2.0, 3.0, 3.0], [3.0, 3.0, 4.0, 5.0]))
V.append(("e_ties_within", [1.0, 1.0, 1.0, 2.0, 2.0], [3.0, 3.0, 4.0, 4.0, 4.0]))
V.append(("e_ties_across_only", [1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0]))
V.append(("e_ties_large", [float((i * 3) % 5) for i in range(55)], [float((i * 3) % 5 + (i % 2)) for i in range(55)]))
V.append(("e_ties_zero_var", [3.0, 3.0, 3.0, 3.0], [3.0, 3.0, 4.0, 4.0]))
V.append(("e_ties_quantum", [0.34, 0.34, 0.35, 0.34, 0.34], [0.35, 0.35, 0.35, 0.34, 0.35]))
V.append(("e_zero_var_x10", [2.0] * 10, [1.9, 2.1, 2.05, 1.95, 2.0, 2.2, 1.8, 2.02, 1.98, 2.01]))
V.append(("e_zero_var_y10", [1.9, 2.1, 2.05, 1.95, 2.0, 2.2, 1.8, 2.02, 1.98, 2.01], [2.5] * 10))
V.append(("e_zero_var_equal", [4.25] * 5, [4.25] * 6))
V.append(("e_zero_var_outlier", [5.0, 5.0, 5.0, 5.0, 9.0], [5.0, 5.0, 5.0, 5.0, 5.0]))
V.append(("e_zero_var_n2", [1.5, 1.5], [2.5, 2.5]))
V.append(("e_zero_var_n30", [8.0] * 30, [8.0] * 29 + [8.5]))
V.append(("e_big_1e300", [1e300, 1.1e300, 0.9e300, 1.05e300], [1.2e300, 1.25e300, 1.15e300, 1.3e300]))
V.append(("e_big_1e150", [1e150, 1.1e150, 0.9e150, 1.05e150], [1.2e150, 1.25e150, 1.15e150, 1.3e150]))
V.append(("e_big_spread", [1e-5, 1.0, 1e5, 10.0], [2e-5, 2.0, 2e5, 20.0]))
V.append(("e_big_1e300_same", [1e300, 1e300, 1e300], [1e300, 1e300, 1e300]))
V.append(("e_small_1e-300", [1e-300, 1.1e-300, 0.9e-300, 1.05e-300], [1.2e-300, 1.25e-300, 1.15e-300, 1.3e-300]))
V.append(("e_small_1e-150", [1e-150, 1.1e-150, 0.9e-150, 1.05e-150], [1.2e-150, 1.25e-150, 1.15e-150, 1.3e-150]))
V.append(("e_subnormal", [5e-324, 1e-323, 1.5e-323, 2e-323], [3e-323, 3.5e-323, 4e-323, 4.5e-323]))
V.append(("e_subnormal_mid", [1e-310, 2e-310, 3e-310], [4e-310, 5e-310, 6e-310]))
V.append(("e_subnormal_vs_normal", [1e-310, 2e-310, 3e-310], [1e-300, 2e-300, 3e-300]))
V.append(("e_near_one", [1.0, 1.0 + 2**-52, 1.0 + 2**-51], [1.0 + 2**-50, 1.0 + 3 * 2**-51, 1.0 + 2**-49]))
V.append(("e_large_n100", lognorm(100, 500.0, .03), lognorm(100, 490.0, .03)))
V.append(("e_n51", lognorm(51, 80.0, .02), lognorm(51, 79.0, .02)))
V.append(("e_n61", lognorm(61, 80.0, .02), lognorm(61, 79.0, .02)))
V.append(("e_n10_n100", lognorm(10, 30.0, .04), lognorm(100, 30.5, .04)))
V.append(("e_n100_n4", lognorm(100, 30.0, .04), lognorm(4, 29.0, .04)))
V.append(("e_mixed_sign", [-1.0, 0.5, 1.5, -0.25, 0.75], [0.0, 1.0, 2.0, 0.25, 1.25]))
V.append(("e_all_negative", [-100.0, -101.0, -99.5, -100.5], [-90.0, -91.0, -89.0, -90.5]))
V.append(("e_zeros", [0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 1.0, 1.0]))
V.append(("e_permuted", [3.0, 1.0, 4.0, 1.5, 5.0, 9.0], [9.0, 5.0, 1.5, 4.0, 1.0, 3.0]))
V.append(("e_lognorm20_n4_n6", lognorm(4, 100.0, .2), lognorm(6, 80.0, .2)))
V.append(("e_bimodal_small", [10.0, 10.1, 20.0], [10.05, 20.1, 20.2]))
V.append(("e_one_outlier_each", [100.0, 100.5, 99.5, 100.2, 150.0], [101.0, 100.7, 101.2, 60.0, 100.9]))
V.append(("e_geometric", [2.0 ** k for k in range(8)], [2.0 ** (k + 0.5) for k in range(8)]))

def extreme(v):
    return any(a != 0 and (abs(a) >= 1e150 or abs(a) < 1e-150) for a in v)

def welch_exact(x, y):
    # SciPy 1.10 squares the deviations in floats: beyond 1e+154 they
    # overflow (it then takes df 1, or t 0) and below 1e-154 they vanish
    # (t inf, p nan).  The same formulas in exact arithmetic, each value
    # scaled by the largest so that the float results stay in range.
    from fractions import Fraction as F
    sc = max(abs(a) for a in x + y)
    fx = [F(a) / F(sc) for a in x]
    fy = [F(a) / F(sc) for a in y]
    mx, my = sum(fx) / len(fx), sum(fy) / len(fy)
    vx = sum((a - mx) ** 2 for a in fx) / (len(fx) - 1) / len(fx)
    vy = sum((a - my) ** 2 for a in fy) / (len(fy) - 1) / len(fy)
    diff = float(F(sc) * (my - mx))
    if vx + vy == 0:
        return None
    df = float((vx + vy) ** 2 / (vx ** 2 / (len(fx) - 1) + vy ** 2 / (len(fy) - 1)))
    t = math.copysign(math.sqrt(float((my - mx) ** 2 / (vx + vy))), float(my - mx))
    se = sc * math.sqrt(float(vx + vy))
    p = 2 * stats.t.sf(abs(t), df)
    h = tppf(0.975, df) * se
    n = len(x) + len(y) - 2
    sp2 = ((len(fx) - 1) * len(fx) * vx + (len(fy) - 1) * len(fy) * vy) / n
    d = math.copysign(math.sqrt(float((my - mx) ** 2 / sp2)), float(my - mx))
    j = math.exp(special.gammaln(n / 2) - special.gammaln((n - 1) / 2)) / math.sqrt(n / 2)
    return [diff, df, t, p, diff - h, diff + h], d * j

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
    if n > 1 and extreme(x):
        # NumPy squares the deviations in floats, which overflow past
        # 1e+154 (sd inf) and vanish below 1e-154: the same sum in exact
        # arithmetic, each value scaled by the largest
        from fractions import Fraction as F
        sc = max(abs(v) for v in x)
        f = [F(v) / F(sc) for v in x]
        m = sum(f) / n
        sd = sc * math.sqrt(float(sum((v - m) ** 2 for v in f) / (n - 1)))
    med = float(np.median(a))
    mad = float(np.median(np.abs(a - med)))
    rcv = stats.median_abs_deviation(a, scale="normal") / abs(med) if med != 0 else 0.0
    h = tppf(0.975, n - 1) * sd / math.sqrt(n)
    lo, hi, cover = median_ci(x, .95)
    return [n, mean, med, sd, sd / abs(mean) if mean != 0 else 0.0, mad, rcv,
            min(x), max(x), mean - h, mean + h, lo, hi, cover]

def trend(x, tx, y, ty):
    # one slope, an intercept a group: least squares by the normal
    # equations in exact arithmetic (Fractions), each value scaled by the
    # largest; NumPy's lstsq agrees to 1e-12 where the fit is not exact
    from fractions import Fraction as F
    n = len(x) + len(y)
    if n < 4 or not x or not y:
        return [float("nan")] * 3
    sc = max(abs(a) for a in x + y) or 1.0
    gx, gy = [F(a) / F(sc) for a in x], [F(a) / F(sc) for a in y]
    tx, ty = [F(t) for t in tx], [F(t) for t in ty]
    mx, my = sum(gx) / len(gx), sum(gy) / len(gy)
    mtx, mty = sum(tx) / len(tx), sum(ty) / len(ty)
    sxx = sum((t - mtx) ** 2 for t in tx) + sum((t - mty) ** 2 for t in ty)
    if sxx == 0:
        return [float("nan")] * 3
    sxy = sum((t - mtx) * (v - mx) for t, v in zip(tx, gx)) + sum((t - mty) * (v - my) for t, v in zip(ty, gy))
    b = sxy / sxx
    rss = sum((v - mx - b * (t - mtx)) ** 2 for t, v in zip(tx, gx)) + sum((v - my - b * (t - mty)) ** 2 for t, v in zip(ty, gy))
    s2 = rss / (n - 3)
    if s2 == 0:
        t = 0.0 if b == 0 else math.copysign(float("inf"), float(b))
    else:
        t = math.copysign(math.sqrt(float(b * b * sxx / s2)), float(b))
    # a fit exact but for the rounding of the values: t is the rounding's
    # noise in any float computation, not a reference
    noise = s2 > 0 and b * b * sxx / s2 > F(10) ** 16
    dt = mty - mtx
    diff = float(F(sc) * (my - mx - b * dt))
    se = sc * math.sqrt(float(s2 * (F(1, len(x)) + F(1, len(y)) + dt * dt / sxx)))
    if noise:
        t = se = float("nan")
    return [t, diff, se]

def kendall_group(v, t):
    n = len(v)
    s = sum(np.sign(v[j] - v[i]) * np.sign(t[j] - t[i]) for i in range(n) for j in range(i + 1, n))
    tie = sum(c * (c - 1) * (2 * c + 5) for c in [list(v).count(u) for u in set(v)])
    var = (n * (n - 1) * (2 * n + 5) - tie) / 18
    if n >= 3 and var > 0 and len(set(v)) > 1:
        # one group: SciPy's asymptotic Kendall test on (time, value)
        r = stats.kendalltau(t, v, method="asymptotic")
        z = s / math.sqrt(var)
        assert abs(2 * stats.norm.sf(abs(z)) - r.pvalue) <= 1e-12 * max(r.pvalue, 1e-300) + 1e-15, (v, r)
    return s, var

def kendall(x, y):
    sx, vx = kendall_group(x, list(range(len(x))))
    sy, vy = kendall_group(y, list(range(len(y))))
    var = vx + vy
    z = (sx + sy) / math.sqrt(var) if var > 0 else 0.0
    return [z, 2 * stats.norm.sf(abs(z)) if var > 0 else 1.0]

def ar_factor(side, rho):
    n = len(side)
    cnt = [side.count(0), side.count(1)]
    if rho <= 0 or n < 4 or min(cnt) < 2:
        return 1.0
    S = np.array([[rho ** abs(i - j) for j in range(n)] for i in range(n)])
    c = np.array([1.0 / cnt[1] if g else -1.0 / cnt[0] for g in side])
    V = float(c @ S @ c)
    E = 0.0
    for g in (0, 1):
        idx = [i for i in range(n) if side[i] == g]
        Sg = S[np.ix_(idx, idx)]
        E += (np.trace(Sg) - Sg.sum() / cnt[g]) / (cnt[g] - 1) / cnt[g]
    return V / E

def layouts(nx, ny):
    apart = [0] * nx + [1] * ny
    ev = sorted([(2 * i, 0) for i in range(nx)] + [(2 * i + 1, 1) for i in range(ny)])
    return apart, [g for _, g in ev]

HEAD = ["name", "x", "y",
        "w_diff", "w_df", "w_t", "w_p", "w_lo", "w_hi",
        "u", "u_p", "u_exact", "g", "cliff", "b_lo", "b_hi",
        "s_n", "s_mean", "s_median", "s_sd", "s_cv", "s_mad", "s_rcv",
        "s_min", "s_max", "s_mean_lo", "s_mean_hi", "s_med_lo", "s_med_hi",
        "s_med_cover", "t1_t", "t1_p", "be_lo", "be_hi",
        "tr_t", "tr_diff", "tr_se", "tri_t", "tri_diff", "tri_se",
        "ar_f", "ari_f", "n_sf", "c_sf", "c_q", "kt_z", "kt_p", "bh"]
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
    g = hedges(x, y)
    if extreme(x + y) and welch_exact(x, y) is not None:
        w, g = welch_exact(x, y)
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
                [g, cliff(x, y), bl, bh_] + summary(x) + [t1.statistic, t1.pvalue] + list(boot_exact(x, y, .95)) +
                trend(x, range(len(x)), y, range(len(x), len(x) + len(y))) +
                trend(x, range(0, 2 * len(x), 2), y, range(1, 2 * len(y), 2)) +
                [ar_factor(layouts(len(x), len(y))[0], 0.6), ar_factor(layouts(len(x), len(y))[1], 0.6)] +
                [stats.norm.sf(w[2]) if np.isfinite(w[2]) else float("nan"),
                 stats.chi2.sf((w[2] if np.isfinite(w[2]) else 1.0) ** 2, len(y)),
                 stats.chi2.ppf(0.1, len(x) + len(y) - 2)] + kendall(x, y))
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
