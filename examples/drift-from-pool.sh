#!/bin/sh
# drift-from-pool.sh POOL: two experiments of real sysbench cpu noise with
# a planted drift, as a machine that heats up, a cache or a store that
# fills run after run gives it: the first 24 runs at level 1 of POOL
# (tests/bench/data/pool-sysbench-cpu.pv, 30 runs of this machine), the
# odd ones as 12 baseline runs and the even ones as 12 target runs, each
# run's events-per-second 1% lower than the run before it in time, with
# runstart records saying when each ran.
#   drift-aa    the same binary on both sides (an A/A pair), the baseline's
#               12 runs first, then the target's
#   drift-drop  the target's values 30% lower, the sides interleaved (as
#               the pool's runs were made)
# Made the examples' drift.pv.
set -eu
pool=$1
for exp in drift-aa drift-drop; do
	for role in baseline target; do
		awk -v x="$exp" -v role="$role" 'BEGIN { FS = OFS = "\t" }
			$1 == "sample" && $5 == "events-per-second" && $8 == 1 &&
			    $9 <= 24 {
				r = $9
				if ((role == "baseline") != (r % 2 == 1))
					next
				i = int((r + 1) / 2)
				# the place in time of run i of the side
				if (x == "drift-aa")
					t = role == "baseline" ? i : 12 + i
				else
					t = 2 * i - (role == "baseline")
				f = 1 - 0.01 * (t - 1)
				if (x == "drift-drop" && role == "target")
					f *= 0.7
				run[i] = t
				val[i] = sprintf("%.2f", $11 * f)
			}
			END {
				printf "section\t%s\t%s\t%s\n", role,
				    role == "baseline" ? "A" : "B", x
				for (i = 1; i <= 12; i++) {
					printf "runstart\t%d\t%d\t%d\n", i, run[i],
						1796100000 + 2 * run[i]
					printf "sample\tsysbench\tcpu\tevents\t" \
						"events-per-second\tevents/s\thigher" \
						"\t1\t%d\t-\t%s\n", i, val[i]
				}
			}' "$pool"
	done
done
