#!/bin/sh
# pv-stat: on input grouped by test it holds one test at a time (issue
# 19).  The peak memory (maximum resident set size, from wait4(2) by
# tests/maxrss) of pv-stat and pv-stat -S on 40,000 comparisons grouped
# by test (tests/bench/gen-fleet.awk, 800,000 samples, 47 MB) must be
# within 16 MB of that on 2,000; a table of every key took 107 MB more.
. "${top_srcdir:-.}/tests/lib.sh"

# under make check-valgrind the peak would be valgrind's, not pv-stat's
[ -n "${pv_valgrind:-}" ] && skip_all "memory is not measured under valgrind"

# under ASan the freed tests wait in its quarantine (256 MB) before they
# are reused, which would be measured as growth
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0
export ASAN_OPTIONS

gen=$top_srcdir/tests/bench/gen-fleet.awk

maxrss() {
	"$top_builddir/tests/maxrss" "$top_builddir/tools/pv-stat" "$@" ||
		echo -1
}

awk -v keys=2000 -v order=grouped -f "$gen" >"$T/small.pv" || exit 99
awk -v keys=40000 -v order=grouped -f "$gen" >"$T/big.pv" || exit 99
for opt in "" -S; do
	small=$(maxrss $opt "$T/small.pv")
	big=$(maxrss $opt "$T/big.pv")
	printf 'pv-stat %s: peak RSS %s KB on 2,000 comparisons, %s KB on 40,000\n' \
		"$opt" "$small" "$big"
	[ "$small" -gt 0 ] && [ "$big" -gt 0 ] &&
		[ "$big" -le $((small + 16384)) ] && pass ||
		fail "pv-stat $opt: $big KB on 40,000 comparisons, $small KB on 2,000"
done
finish
