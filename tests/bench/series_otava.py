"""series_otava.py VALUES OUT: Apache Otava's change points on the series of
tests/bench/series.sh, for comparison with pv-series.
series_otava.py --speed BIG NEW: Otava's time on the speed test.

VALUES has "KEY VERSION RUN VALUE" lines (versions numbered from 0, in
order).  For every key, Otava's core (otava/analysis.py, found on
PYTHONPATH) is run with the settings the issue fixes:

  means  compute_change_points(per-version means, window_len=50,
         max_pvalue=0.001, min_magnitude=0.02)
  runs   the same on all runs in order; a change at run index i is put
         at version round(i / runs per version)
  orig   compute_change_points_orig(per-version means, max_pvalue=0.001,
         seed=1), the original E-divisive with permutation tests (keys
         of up to ORIG_MAX versions only: it is slow)

and "KEY METHOD VERSION" lines written to OUT, one per change point, then
"time METHOD SECONDS" lines: the CPU time of each method over all keys.
Otava is called with Python lists, as its API takes them.

With --speed, BIG and NEW are runval records (pv-format(5)); the time to
read BIG and run compute_change_points on the per-version means of each
key ("otava-full"), then to read NEW (one version more) and run it again
on each key with new_data=1 and the weak change points of the first run
("otava-add": Otava's incremental mode, its earlier result kept in
memory, which is more than it is given in practice) are printed, in CPU
seconds.
"""
import sys
import time

from otava.analysis import compute_change_points, compute_change_points_orig

ORIG_MAX = 100


def read_runvals(path, series, order):
    """per key, per version in order of appearance: the runs' values"""
    last = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("runval\t"):
                continue
            x = line.rstrip("\n").split("\t")
            key = "\t".join(x[3:11])
            if key not in series:
                series[key] = []
                order.append(key)
            if last.get(key) != x[2]:
                last[key] = x[2]
                series[key].append([])
            series[key][-1].append(float(x[13]))


def speed(big, new):
    series, order = {}, []
    t = time.process_time()
    read_runvals(big, series, order)
    weak = {}
    cps_found = 0
    for key in order:
        means = [sum(r) / len(r) for r in series[key]]
        cps, weak[key] = compute_change_points(means, window_len=50,
                                               max_pvalue=0.001,
                                               min_magnitude=0.02)
        cps_found += len(cps)
    full = time.process_time() - t
    t = time.process_time()
    read_runvals(new, series, order)
    for key in order:
        means = [sum(r) / len(r) for r in series[key]]
        cps, _ = compute_change_points(means, window_len=50,
                                       max_pvalue=0.001, min_magnitude=0.02,
                                       new_data=1, old_weak_cp=weak[key])
    add = time.process_time() - t
    print("Otava, compute_change_points on the means of %d keys: %.2f s CPU"
          " (%d change points)" % (len(order), full, cps_found))
    print("Otava, one version more (new_data=1, old_weak_cp): %.2f s CPU"
          % add)
    print("otava-full %.3f" % full)
    print("otava-add %.3f" % add)


def main():
    if sys.argv[1] == "--speed":
        speed(sys.argv[2], sys.argv[3])
        return
    series = {}
    order = []
    with open(sys.argv[1]) as f:
        for line in f:
            key, ver, _run, val = line.split()
            if key not in series:
                series[key] = []
                order.append(key)
            runs = series[key]
            ver = int(ver)
            while len(runs) <= ver:
                runs.append([])
            runs[ver].append(float(val))
    spent = {"means": 0.0, "runs": 0.0, "orig": 0.0}
    with open(sys.argv[2], "w") as out:
        for key in order:
            runs = series[key]
            means = [sum(r) / len(r) for r in runs]
            flat = [v for r in runs for v in r]
            per = len(runs[0])
            t = time.process_time()
            cps, _ = compute_change_points(means, window_len=50,
                                           max_pvalue=0.001,
                                           min_magnitude=0.02)
            spent["means"] += time.process_time() - t
            for c in cps:
                out.write("%s means %d\n" % (key, c.index))
            t = time.process_time()
            cps, _ = compute_change_points(flat, window_len=50,
                                           max_pvalue=0.001,
                                           min_magnitude=0.02)
            spent["runs"] += time.process_time() - t
            seen = set()
            for c in cps:
                v = int(round(c.index / per))
                if v not in seen:
                    seen.add(v)
                    out.write("%s runs %d\n" % (key, v))
            if len(means) <= ORIG_MAX:
                t = time.process_time()
                cps, _ = compute_change_points_orig(means, max_pvalue=0.001,
                                                    seed=1)
                spent["orig"] += time.process_time() - t
                for c in cps:
                    out.write("%s orig %d\n" % (key, c.index))
        for m in ("means", "runs", "orig"):
            out.write("time %s %.3f\n" % (m, spent[m]))


if __name__ == "__main__":
    main()
