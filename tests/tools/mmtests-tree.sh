#!/bin/sh
# An MMTests tree as users have it (tests/data/bench/mm: the shared
# corpus' A/A pair aa-1 and aa-2, the same kernel twice) goes through the
# pipeline without naming any internal key: by the run named as the
# baseline (pv-diff --baseline=RUN), by the order of its runs, and with a
# role given to each run.  The A/A pair finds nothing (exit 0, no
# Regression, some cmp records); a copy of the tree with aa-2's throughputs
# cut by 20 % finds it (exit 1).
. "${top_srcdir:-.}/tests/lib.sh"

M=$top_srcdir/tests/data/bench/mm/work/log
cd "$T" || exit 99

# classify NAME STATUS PIPELINE: run it; its verdicts in NAME.v
classify() {
	name=$1 want=$2
	shift 2
	sh -c "$*" >"$name.v" 2>"$name.err"
	st=$?
	if [ $st -ne "$want" ]; then
		fail "$name: exit status $st, expected $want"
		cat "$name.err" >&2
		return
	fi
	pass
	if test_cmp /dev/null "$name.err"; then pass; else
		fail "$name: stderr not empty"; fi
}

# counts NAME: the cmp records and the regressions
counts() {
	awk -F'\t' '$1 == "cmp" { c++ } $1 == "verdict" && $12 == "regression" {
		r++ } END { printf "%d %d\n", c, r }' "$1.v"
}

for tree in aa planted; do
	[ $tree = aa ] && D=$M || D=$T/planted/work/log
	if [ $tree = planted ]; then
		mkdir planted && cp -R "$top_srcdir/tests/data/bench/mm/work" planted/
		chmod -R u+w planted
		for f in planted/work/log/aa-2/*/sysbenchcpu/logs/benchlog-*; do
			awk '/events per second:/ {
				printf "    events per second:  %.2f\n", $4 * 0.8; next }
				{ print }' "$f" >"$f.t" && mv "$f.t" "$f"
		done
		for f in planted/work/log/aa-2/*/stressng/logs/stressng-*.log; do
			awk '$2 == "metrc:" && $4 == "futex" { $5 = int($5 * 0.8)
				$9 = sprintf("%.2f", $9 * 0.8)
				$10 = sprintf("%.2f", $10 * 0.8) } { print }' \
				"$f" >"$f.t" && mv "$f.t" "$f"
		done
		for f in planted/work/log/aa-2/*/wis-futex/logs/benchlog-*; do
			awk -F'[: ]' '/^min:/ {
				printf "min:%d max:%d total:%d\n", $2 * 0.8,
					$4 * 0.8, $6 * 0.8; next }
				/^average:/ { printf "average:%d\n", $2 * 0.8; next }
				{ print }' "$f" >"$f.t" && mv "$f.t" "$f"
		done
	fi
	want=0
	[ $tree = planted ] && want=1
	classify $tree-baseline $want \
		"pv-parse '$D' | pv-stat | pv-diff --baseline=aa-1 | pv-classify"
	classify $tree-order $want \
		"pv-parse '$D' | pv-stat | pv-diff | pv-classify"
	classify $tree-roles $want "{ pv-parse --role=baseline '$D/aa-1' &&
		pv-parse --role=target '$D/aa-2'; } | pv-stat | pv-diff |
		pv-classify"
	# the three ways give the same verdicts
	for how in order roles; do
		awk -F'\t' '$1 == "verdict"' $tree-baseline.v >a.v
		awk -F'\t' '$1 == "verdict"' $tree-$how.v >b.v
		if test_cmp a.v b.v; then pass; else
			fail "$tree: verdicts of --baseline and of $how differ"; fi
	done
	counts $tree-baseline >$tree.counts
done

# A/A: comparisons, and no regression; planted: a regression
read -r ncmp nreg <aa.counts
if [ "$ncmp" -ge 1 ] && [ "$nreg" -eq 0 ]; then pass; else
	fail "A/A: $ncmp cmp records, $nreg regressions"; fi
read -r ncmp nreg <planted.counts
if [ "$ncmp" -ge 1 ] && [ "$nreg" -ge 1 ]; then pass; else
	fail "planted: $ncmp cmp records, $nreg regressions"; fi

# a run named that the tree does not have: trouble
pv-parse "$M" | pv-diff --baseline=aa-9 >/dev/null 2>err
st=$?
printf "pv-diff: no section of version 'aa-9' to take as the baseline (the versions: 'aa-1', 'aa-2')\n" >err.want
if [ $st -eq 2 ] && test_cmp err.want err; then pass; else
	fail "--baseline of no run: status $st"; fi
finish
