#!/usr/bin/python3
# speed_scipy.py FILE: the anchor of tests/bench/speed.sh, the same work as
# pv-stat | pv-diff | pv-classify done the usual way with NumPy and SciPy:
# read the sample records, one value per run, per key the summary
# (mean, median, sd, MAD) of each side, Welch's t on the logs with its
# interval, Mann-Whitney U, Hedges' g, Cliff's delta, a 1000-resample
# bootstrap interval of the difference of medians, then Benjamini-Hochberg
# over all keys.  Prints the number of comparisons.
import math
import sys
from collections import defaultdict

import numpy as np
from scipy import stats

runs = defaultdict(lambda: defaultdict(list))
role = None
with open(sys.argv[1]) as f:
    for line in f:
        fld = line.rstrip("\n").split("\t")
        if fld[0] == "section":
            role = fld[1]
        elif fld[0] == "sample":
            key = tuple(fld[1:8])
            runs[key, role][fld[8]].append(float(fld[10]))

rng = np.random.default_rng(1)
pvals = []
n = 0
for (key, r) in list(runs):
    if r != "baseline" or (key, "target") not in runs:
        continue
    sides = []
    for rl in ("baseline", "target"):
        v = np.array([np.mean(x) for x in runs[key, rl].values()])
        med = np.median(v)
        _ = (v.mean(), med, v.std(ddof=1), np.median(np.abs(v - med)))
        sides.append(np.log(v))
    b, t = sides
    w = stats.ttest_ind(t, b, equal_var=False)
    vb, vt = b.var(ddof=1) / len(b), t.var(ddof=1) / len(t)
    df = (vb + vt) ** 2 / (vb ** 2 / (len(b) - 1) + vt ** 2 / (len(t) - 1))
    h = stats.t.ppf(0.975, df) * math.sqrt(vb + vt)
    u = stats.mannwhitneyu(t, b, alternative="two-sided")
    sp = math.sqrt(((len(b) - 1) * b.var(ddof=1) + (len(t) - 1) * t.var(ddof=1)) / (len(b) + len(t) - 2))
    g = (t.mean() - b.mean()) / sp * (1 - 3 / (4 * (len(b) + len(t)) - 9))
    cliff = np.sign(t[:, None] - b[None, :]).mean()
    bb = np.median(b[rng.integers(0, len(b), (1000, len(b)))], axis=1)
    bt = np.median(t[rng.integers(0, len(t), (1000, len(t)))], axis=1)
    lo, hi = np.percentile(bt - bb, [2.5, 97.5])
    pvals.append(w.pvalue)
    n += 1
p = np.array(pvals)
o = np.argsort(p)
adj = np.minimum.accumulate((p[o] * len(p) / np.arange(1, len(p) + 1))[::-1])[::-1]
print(n)
