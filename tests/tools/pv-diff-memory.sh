#!/bin/sh
# pv-diff: on input grouped by test it holds one test at a time (issue
# 19).  The peak memory (maximum resident set size, from wait4(2) by
# tests/maxrss) of pv-diff on 40,000 comparisons grouped by test
# (tests/bench/gen-fleet.awk, 800,000 samples, 47 MB), as samples and as
# pv-stat's runvals, must be within 16 MB of that on 2,000 (9 MB and
# 18 MB); a table of every key took 127 MB more (11 MB and 138 MB).  The
# same keys in run order (every key held) give the same records as the
# grouped night's tests read back in batches of about 8192 keys, and in
# both the roll-ups are those of the cmp records, for one pair and for
# three.
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

# The comparisons are computed and written 8192 at a time: every cmproll
# record is still the count, mean and least CHANGE of its keys' cmp
# records (the mean to 1e-9 of their size), for the keys held together
# (run order) and read back in batches (grouped).
cat >"$T/roll.awk" <<'EOF'
function near(a, b, size) {
	return (a > b ? a - b : b - a) <= 1e-9 * size
}
function add(k, v) {
	n[k]++
	sum[k] += v
	abs[k] += v < 0 ? -v : v
	if (!(k in min) || v < min[k])
		min[k] = v
}
BEGIN { FS = "\t" }
$1 == "cmp" && $14 != "-" {
	p = $2 FS $3 FS $4
	add(p FS "test" FS $5 FS $6, $14)
	add(p FS "suite" FS $5 FS "-", $14)
	add(p FS "run" FS "-" FS "-", $14)
}
$1 == "cmproll" {
	k = $2 FS $3 FS $4 FS $5 FS $6 FS $7
	nroll++
	seen[k] = 1
	if ((k in n) && n[k] == $8 && near(sum[k] / n[k], $9, abs[k] / n[k]) &&
	    near(min[k], $12, abs[k] / n[k]))
		next
	printf "cmproll %s: %s %s %s, cmp records: %s %s %s\n", k, $8, $9,
	       $12, n[k], (k in n) ? sum[k] / n[k] : "-", min[k]
}
END {
	for (k in n)
		if (!(k in seen))
			print "no cmproll for " k
	if (nroll == 0)
		print "no cmproll records"
}
EOF
for what in runs grouped; do
	awk -f "$T/roll.awk" "$T/$what.out" >"$T/roll.$what"
	test_cmp /dev/null "$T/roll.$what" && pass ||
		fail "pv-diff ($what): cmproll records against their cmp records"
done

# Three targets of one baseline, 8,300 keys each, in suites of more than
# a batch: grouped by test, a suite's roll-up spans batches; the same keys
# in another order are held whole.  Both give the same records, and every
# cmproll names its own pair (5a0dd47 named the next pair's target where
# a scope spanned two batches).
pairs() {
	awk -v order="$1" 'BEGIN {
		srand(3)
		keys = 8300
		print "pv-format\t1"
		for (side = 0; side < 4; side++) {
			printf "section\t%s\t%s\tspeed\n",
			       side ? "target" : "baseline", side ? "B" side : "A"
			for (k = 0; k < keys; k++)
				for (r = 1; r <= 2; r++) {
					z = sqrt(-2 * log(1 - rand()))
					z *= cos(6.283185307179586 * rand())
					f = (side && k % 20 == 0) ? 0.95 : 1
					v[k, r] = 1000 * f * exp(0.03 * z)
				}
			for (j = 0; j < keys; j++) {
				k = order ? (j * 7919) % keys : j
				for (r = 1; r <= 2; r++)
					printf "sample\tsuite%d\ttest%d\top%d\tops\t" \
					       "ops/s\thigher\t1\t%d\t-\t%.6f\n",
					       int(k / (keys / 3)), int(k / 3001), k, r,
					       v[k, r]
			}
		}
	}'
}
pairs 0 >"$T/pairs.pv" || exit 99
pairs 1 >"$T/pairs-runs.pv" || exit 99
pv-diff "$T/pairs.pv" | grep -v '^sample' >"$T/pairs.out"
pv-diff "$T/pairs-runs.pv" | grep -v '^sample' >"$T/pairs-runs.out"
test_cmp "$T/pairs.out" "$T/pairs-runs.out" && pass ||
	fail "pv-diff: three pairs grouped and in another order give other records"
for what in pairs pairs-runs; do
	awk -f "$T/roll.awk" "$T/$what.out" >"$T/roll.$what"
	test_cmp /dev/null "$T/roll.$what" && pass ||
		fail "pv-diff ($what): cmproll records against their cmp records"
done
finish
