#!/bin/sh
# Benchmark (issue 17, rename matching): the precision and recall of
# pv-diff's match records on real profile pairs with planted renames.
#
# For each pair of perf script captures (real ones: the examples' good
# and weak hash, tests/data/planted, the A/A pair of sort runs of
# tests/bench/data/funcmatch-sort-*, and any pair named in
# $PV_FUNCMATCH_PAIRS as "NAME BASE TARGET;..."), functions seen on both
# sides with at least 3 samples each are the candidates; in each of 10
# rounds, 3 of them (drawn with the round as the seed) are renamed on the
# target side, in its stack and frame records, to names that share nothing
# with the old ones, and pv-diff compares the baseline with that target.
# A match record pairing a renamed function with its new name is a true
# positive; any other match record a false one (one that pairs two
# functions that were not renamed: the pair's own one-side-only
# functions); a renamed function with no such record a false negative.
# Natural false positives are counted in every round they come back.  The
# matches of the pair as recorded (no rename) are listed too.  (Measured
# on these pairs and an A/A pair of xz runs recorded alike, the rule "a score
# of at least one half" gave precision 0.280 and recall 0.767 over 120
# renames; "above one half" 0.467 and 0.717; and with the scores ranked to
# the nearest 0.05 before the names and shares, pv-diff's since, 0.473
# and 0.725.  tests/tools/pv-diff-planted.sh holds the real rename pair.)
. "${top_srcdir:-.}/tests/lib.sh"

K=3 ROUNDS=10
pairs="good-weak-hash $top_srcdir/examples/good-hash.perf.txt.gz $top_srcdir/examples/weak-hash.perf.txt.gz;planted $top_srcdir/tests/data/planted/v1.perf.gz $top_srcdir/tests/data/planted/v2.perf.gz;sort-aa $top_srcdir/tests/bench/data/funcmatch-sort-a.perf.gz $top_srcdir/tests/bench/data/funcmatch-sort-b.perf.gz"
[ -z "${PV_FUNCMATCH_PAIRS:-}" ] || pairs="$pairs;$PV_FUNCMATCH_PAIRS"

echo "pv-diff match records: $K planted renames a round, $ROUNDS rounds a pair"
printf '%-16s %5s %5s | %4s %4s %4s %6s %6s | %s\n' \
	pair cands named TP FP FN prec recall "as recorded (score)"
all=$T/all
: >"$all"
echo "$pairs" | tr ';' '\n' >"$T/pairs"
while read -r name base target; do
	[ -n "$name" ] || continue
	pv-parse "$base" >"$T/b.pv" && pv-parse "$target" >"$T/t.pv" ||
		{ fail "$name: pv-parse"; continue; }
	pv-diff "$T/b.pv" "$T/t.pv" >"$T/d0.pv"
	natural=$(awk -F'\t' '$1 == "match" { printf "%s%s=%s (%s)", n++ ? ", " : "", $3, $4, $NF }' "$T/d0.pv")
	# the candidates: on both sides, 3 samples or more, not a root
	awk -F'\t' '$1 == "stack" { split($5, f, ";"); root[f[1]] = 1 }
		$1 == "func" && $4 >= 3 && $6 >= 3 && !($3 in root) { print $3 }' \
		"$T/b.pv" "$T/d0.pv" >"$T/cand"
	ncand=$(wc -l <"$T/cand")
	r=1
	while [ $r -le $ROUNDS ]; do
		awk -v seed=$r -v k=$K 'BEGIN { srand(seed) }
			{ c[n++] = $0 } END {
			for (i = 0; i < n && i < k; i++) {
				j = i + int(rand() * (n - i))
				t = c[i]; c[i] = c[j]; c[j] = t
				printf "%s\tq%dx%d\n", c[i], seed, i
			} }' "$T/cand" >"$T/ren"
		awk -F'\t' -v OFS='\t' 'FNR == NR { to[$1] = $2; next }
			$1 == "stack" { n = split($5, f, ";"); s = ""
				for (i = 1; i <= n; i++)
					s = s (i > 1 ? ";" : "") ((f[i] in to) ? to[f[i]] : f[i])
				$5 = s }
			$1 == "frame" && ($2 in to) { $2 = to[$2] }
			{ print }' "$T/ren" "$T/t.pv" >"$T/t2.pv"
		pv-diff "$T/b.pv" "$T/t2.pv" >"$T/d.pv"
		awk -F'\t' -v name="$name" 'FNR == NR { to[$1] = $2; nren++; next }
			$1 == "match" { if (($3 in to) && to[$3] == $4) tp++; else fp++ }
			END { printf "%s %d %d %d\n", name, nren, tp, fp }' \
			"$T/ren" "$T/d.pv" >>"$all"
		[ -z "${PV_FUNCMATCH_KEEP:-}" ] || awk -F'\t' -v name="$name" -v r=$r \
			'FNR == NR { to[$1] = $2; next } $1 == "match" {
			print name, r, (($3 in to) && to[$3] == $4) ? "T" : "F", $9, $11, $NF }' \
			"$T/ren" "$T/d.pv" >>"$PV_FUNCMATCH_KEEP"
		r=$((r + 1))
	done
	awk -v name="$name" -v ncand="$ncand" -v natural="$natural" '
		$1 == name { n += $2; tp += $3; fp += $4 }
		function p(a, b) { return a + b > 0 ? sprintf("%.3f", a / (a + b)) : "-" }
		END { printf "%-16s %5d %5d | %4d %4d %4d %6s %6s | %s\n",
			name, ncand, n, tp, fp, n - tp, p(tp, fp), p(tp, n - tp),
			natural == "" ? "none" : natural }' "$all"
	pass
done <"$T/pairs"
awk '{ n += $2; tp += $3; fp += $4 }
	function p(a, b) { return a + b > 0 ? sprintf("%.3f", a / (a + b)) : "-" }
	END { printf "all: precision %s, recall %s (%d renames, %d true and %d false matches)\n",
		p(tp, fp), p(tp, n - tp), n, tp, fp }' "$all"
finish
