#!/bin/sh
# pv-classify on real noise (the pools of tests/bench/data, runs of this
# machine): a strong planted regression keeps its verdicts when 10, 50 and
# 200 A/A tests are appended; sysbench's events-per-second and
# total-events counted once in the summary; the quantum of sysbench's
# latencies (0.01 ms) found; a real 3% regression (ten runs a side, p near
# 0.01, in a suite of duplicates of it) not called No change.
. "${top_srcdir:-.}/tests/lib.sh"
D=$top_srcdir/tests/data/pv-classify
P=$top_srcdir/tests/bench/data

# side ROLE POOL TEST OFFSET FACTOR [METRIC [LEVEL]]: a section of the 20
# runs of POOL from run OFFSET + 1 on (around its 30), the odd ones the
# baseline's, the even ones the target's, renumbered 1 to 10, renamed to
# TEST; the target's primary metric (or METRIC, at LEVEL) times FACTOR.
side() {
	awk -v role="$1" -v test="$3" -v o="$4" -v f="$5" -v m="${6:-}" \
	    -v lev="${7:-}" 'BEGIN { FS = OFS = "\t" }
	$1 == "sample" {
		if (lev != "" && ($5 != m || $8 != lev))
			next
		r = ($9 - 1 - o + 30) % 30
		if (r >= 20 || (r % 2 == 0) != (role == "baseline"))
			next
		pm = m
		if (pm == "" && $2 == "sysbench" && $3 == "cpu")
			pm = "events-per-second"
		if (pm == "" && $2 == "sysbench")
			pm = "operations-per-second"
		if (pm == "")
			pm = "bogo-ops-per-second-real-time"
		$3 = test
		$9 = int(r / 2) + 1
		if (role == "target" && $5 == pm)
			$11 = sprintf("%.6g", $11 * f)
		print
	}' "$P/pool-$2.pv"
}

# night N: sysbench cpu's events-per-second 20% worse in the target (the
# test "planted"), and N A/A tests of the six pools in turn
night() {
	printf 'pv-format\t1\n'
	for role in baseline target; do
		case $role in
		baseline) v=A ;;
		*) v=B ;;
		esac
		printf 'section\t%s\t%s\tnight\n' $role $v
		side $role sysbench-cpu planted 0 0.8
		k=0
		while [ $k -lt "$1" ]; do
			case $((k % 6)) in
			0) p=sysbench-cpu ;;
			1) p=sysbench-memory ;;
			2) p=stress-ng-futex ;;
			3) p=stress-ng-switch ;;
			4) p=stress-ng-pipe ;;
			*) p=stress-ng-futex-3s ;;
			esac
			side $role $p aa-$k $((k / 6 % 10)) 1
			k=$((k + 1))
		done
	done
}

# the planted test's Regressions, without their q-values, which the
# appended families rightly change (as they change the prior of the runs
# that would decide the Uncertain ones)
planted() {
	awk -F'\t' -v OFS='\t' '$1 == "verdict" && $6 == "planted" &&
		$12 == "regression" { $18 = "q"; print }' "$1"
}
for n in 0 10 50 200; do
	night $n > "$T/night"
	pv-stat "$T/night" | pv-diff | pv-classify > "$T/v$n"
	[ $? -le 1 ] && pass || fail "appended $n: pv-classify failed"
	planted "$T/v$n" > "$T/p$n"
	if [ $n -eq 0 ]; then
		expect_golden "$D/planted.out" "$T/p0" "planted alone"
	else
		test_cmp "$T/p0" "$T/p$n" && pass ||
			fail "appended $n A/A tests: the planted verdicts changed"
	fi
done
# and none of the A/A tests is a Regression
awk -F'\t' '$1 == "verdict" && $6 != "planted" && $12 == "regression"' \
	"$T/v200" > "$T/out"
test_cmp /dev/null "$T/out" && pass || fail "200 A/A tests: a regression"

# a sysbench cpu slowdown in both events-per-second and total-events:
# the test's primary metric counted, total-events and the latencies
# apart, as secondary
{
	printf 'pv-format\t1\n'
	for role in baseline target; do
		printf 'section\t%s\tv%s\tnight\n' $role \
			"$(test $role = baseline && echo 1 || echo 2)"
		printf 'primary\tsysbench\tcpu\tevents\tevents-per-second\n'
		side $role sysbench-cpu cpu 0 0.8 events-per-second 1
		side $role sysbench-cpu cpu 0 0.8 total-events 1
		side $role sysbench-cpu cpu 0 1 latency-avg 1
	done
} > "$T/secondary"
pv-stat "$T/secondary" | pv-diff | pv-classify | pv-render -f text \
	> "$T/out"
expect_golden "$D/secondary.text" "$T/out" "secondary counted apart"

# sysbench cpu's latencies are printed to 0.01 ms: their quantum, and
# the quantised flag where the rounding matters
{
	printf 'pv-format\t1\n'
	printf 'section\tbaseline\tv1\tnight\n'
	side baseline sysbench-cpu cpu 0 1
	printf 'section\ttarget\tv2\tnight\n'
	side target sysbench-cpu cpu 0 1
} | pv-stat | pv-diff | awk -F'\t' -v OFS='\t' '$1 == "cmp" && $8 ~ /^latency/ {
	print $6, $8, $11, $29, $36 }' > "$T/out"
expect_golden "$D/quantum.out" "$T/out" "sysbench latency quantum"

# a real 3% regression of sysbench memory at level 1 (robust CV 2%), in
# four tests of other runs of the pool
{
	printf 'pv-format\t1\n'
	for role in baseline target; do
		printf 'section\t%s\tv%s\tnight\n' $role \
			"$(test $role = baseline && echo 1 || echo 2)"
		for k in 0 1 2 3; do
			side $role sysbench-memory dup-$k $((3 * k)) 0.97 \
				operations-per-second 1
		done
	done
} | pv-stat | pv-diff | pv-classify | awk -F'\t' -v OFS='\t' '
	$1 == "verdict" { print $6, $12, $15, $16, $17, $18, $22, $23 }' \
	> "$T/out"
expect_golden "$D/three.out" "$T/out" "a real 3% regression"
finish
