#!/bin/sh
# pv-classify: what it keeps of a comparison until the global step ends
# is compact (issue 19): the peak memory (maximum resident set size, from
# wait4(2) by tests/maxrss) on 100,000 cmp records must be within 320
# bytes a comparison of that on 2,000.  A struct pv_verdict a comparison
# took 432 bytes, and about 470 a comparison in all.
. "${top_srcdir:-.}/tests/lib.sh"

# under make check-valgrind the peak would be valgrind's
[ -n "${pv_valgrind:-}" ] && skip_all "memory is not measured under valgrind"

ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0
export ASAN_OPTIONS

maxrss() {
	"$top_builddir/tests/maxrss" "$top_builddir/tools/pv-classify" "$@" ||
		echo -1
}

# n cmp records of one pair: tests of 5 levels and 4 metrics, every
# 20th key 5% worse, the numbers of ten runs a side at a CV of 2%
cmps() {
	awk -v n="$1" 'BEGIN {
		for (k = 0; k < n; k++) {
			t = int(k / 20); m = int(k / 5) % 4; l = k % 5 + 1
			c = k % 20 == 0 ? -0.05 : 0.001 * (k % 7 - 3)
			printf "cmp\tv1\tv2\tfleet\tsuite%d\ttest%d\t%s\t%s\t%s\t%s\t%d\t10\t10", \
			       t % 10, int(t / 10), m % 2 ? "write" : "read", \
			       m < 2 ? "ops" : "latency", m < 2 ? "ops/s" : "us", \
			       m < 2 ? "higher" : "lower", l
			printf "\t%.6f\t%.6f\t%.6f\t0.0134\t17.5\t%.6f\t%.6f", \
			       c, c - 0.028, c + 0.028, c - 0.029, c + 0.029
			printf "\t%.4g\t0.7\t0.1\t0.05\t0.02\t0.02\t0\t0\t-", \
			       c < -0.01 ? 1e-6 : 0.6
			printf "\t%.6f\t%.6f\t%.4g\t-\t-\t-\t1e-06\n", \
			       c - 0.028, c + 0.028, c < -0.01 ? 1e-6 : 0.6
		}
	}'
}

cmps 2000 >"$T/small.pv" || exit 99
cmps 100000 >"$T/big.pv" || exit 99
small=$(maxrss "$T/small.pv")
big=$(maxrss "$T/big.pv")
printf 'pv-classify: peak RSS %s KB on 2,000 comparisons, %s KB on 100,000\n' \
	"$small" "$big"
[ "$small" -gt 0 ] && [ "$big" -gt 0 ] &&
	[ $(((big - small) * 1024)) -le $((98000 * 320)) ] && pass ||
	fail "pv-classify: $big KB on 100,000 comparisons, $small KB on 2,000"
finish
