#!/bin/sh
# pv-diff: on input grouped by test it holds one test at a time (issue
# 19).  The peak memory (maximum resident set size, from wait4(2) by
# tests/maxrss) of pv-diff on 40,000 comparisons grouped by test
# (tests/bench/gen-fleet.awk, 800,000 samples, 47 MB), as samples and as
# pv-stat's runvals, must be within 16 MB of that on 2,000 (9 MB and
# 18 MB); a table of every key took 127 MB more (11 MB and 138 MB).  The
# same keys in run order (every key held) give the same records as the
# grouped night's tests read back in batches of about 8192 keys.
. "${top_srcdir:-.}/tests/lib.sh"

# under make check-valgrind the peak would be valgrind's, not pv-diff's
[ -n "${pv_valgrind:-}" ] && skip_all "memory is not measured under valgrind"

# under ASan the freed batches wait in its quarantine (256 MB) before
# they are reused, which would be measured as growth
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0
export ASAN_OPTIONS

gen=$top_srcdir/tests/bench/gen-fleet.awk

maxrss() {
	"$top_builddir/tests/maxrss" "$top_builddir/tools/pv-diff" "$@"
	# (1: some key moved, as every 20th of the target does)
	[ $? -le 1 ] || echo -1
}

awk -v keys=2000 -v order=grouped -f "$gen" >"$T/small.pv" || exit 99
awk -v keys=40000 -v order=grouped -f "$gen" >"$T/big.pv" || exit 99
awk -v keys=40000 -v order=runs -f "$gen" >"$T/runs.pv" || exit 99
pv-stat "$T/small.pv" >"$T/small-stat.pv" || exit 99
pv-stat "$T/big.pv" >"$T/big-stat.pv" || exit 99
for what in "" -stat; do
	small=$(maxrss "$T/small$what.pv")
	big=$(maxrss "$T/big$what.pv")
	printf 'pv-diff %s: peak RSS %s KB on 2,000 comparisons, %s KB on 40,000\n' \
		"${what:-samples}" "$small" "$big"
	[ "$small" -gt 0 ] && [ "$big" -gt 0 ] &&
		[ "$big" -le $((small + 16384)) ] && pass ||
		fail "pv-diff ${what:-samples}: $big KB on 40,000 comparisons, $small KB on 2,000"
done

# the samples pass through in their own order; the rest is the same
pv-diff "$T/big.pv" | grep -v '^sample' >"$T/grouped.out"
pv-diff "$T/runs.pv" | grep -v '^sample' >"$T/runs.out"
test_cmp "$T/grouped.out" "$T/runs.out" && pass ||
	fail "pv-diff: grouped and run order give other records"
finish
