#!/bin/sh
# tests/bench/verdict.sh: how well pv-classify decides, on real noise.
#
# Noise pools are real repeated measurements: tests/bench/data/
# noise-local.tsv (sysbench and stress-ng run 40 times each on the build
# machine by tests/bench/collect-noise.sh) and the corpus's will-it-scale
# and MMTests A/A outputs (per-second values, 15 to 30 per configuration).
# Each pool becomes log residuals about its median.  A comparison draws n
# runs a side from one pool (with replacement), either as measured
# ("native", the pool's own spread) or rescaled to a CV of 3 % (the
# pool's shape: skew, outliers, modes, kept), and plants a regression by
# multiplying the target runs by 1 - e.  Batches of 2,000 comparisons go
# through pv-stat | pv-diff | pv-classify, with 10 % of the comparisons
# planted in the power batches, so that FDR control works as in a real
# run, and in batches of 1,000 comparisons that are all planted (the
# power of one decision, as the targets state it; with many true changes
# the FDR control costs little).  The systematic batch has 500 tests of 4
# concurrency levels: 10 % regress 5 % at every level, 10 % at one level
# only.
#
# Two families of pools: "corpus" (will-it-scale and MMTests per-second
# values, collected on a quiet machine) and "local" (40 runs made here
# while the machine was shared, load average near 17 on 2 CPUs: runs were
# starved at random, so those pools are bimodal with a CV of 65-98 %,
# and even rescaled to 3 % they keep two modes).
#
# Prints the table; exits 1 when a target of issue 3 is missed:
# A/A false Regression <= 1 % (every row); on the corpus pools rescaled
# to CV 3 %, >= 95 % of 10 % regressions found at n = 5 and >= 90 % of
# 5 % regressions at n = 10 (every key planted).
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
PATH=$top_builddir/tools:$PATH
LC_ALL=C
export PATH LC_ALL
corpus=${PV_CORPUS:-$top_srcdir/../../shared/corpus/bench}
[ -d "$corpus" ] || corpus=/work/shared/corpus/bench
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-verdict.XXXXXX")
trap 'rm -rf "$T"' EXIT

# pools: "POOL VALUE" lines
awk -F'\t' '{ print "local-" $1 "-" $2 "-" $4, $6 }' \
	"$top_srcdir/tests/bench/data/noise-local.tsv" > "$T/pools.local"
{
	if [ -d "$corpus/will-it-scale" ]; then
		for f in "$corpus"/will-it-scale/*-r[0-9].out; do
			b=$(basename "$f" .out)
			awk -v p="wis-${b%-r*}" '/^measurement/ { m = 1; next }
				m && /^min:/ { split($3, a, ":"); print p, a[2] }' "$f"
		done
	fi
	if [ -d "$corpus/mmtests-aa/work/log" ]; then
		for f in "$corpus"/mmtests-aa/work/log/aa-*/iter-*/wis-futex/logs/benchlog-*; do
			awk -v p="mmtests-${f##*benchlog-}" '/^min:/ {
				split($3, a, ":"); print p, a[2] }' "$f"
		done
	fi
} > "$T/pools.corpus"

# gen: one batch of samples.  mode: aa | plant | sys
gen() {
	awk -v n="$1" -v scale="$2" -v eff="$3" -v mode="$4" -v seed="$5" \
	    -v keys="$6" '
	function pick(p,   i) { i = int(rand() * cnt[p]); return r[p, i] }
	NR == FNR {
		v = log($2); p = $1
		if (!(p in cnt)) { name[np++] = p; cnt[p] = 0 }
		val[p, cnt[p]++] = v
		next
	}
	END {
		for (k = 0; k < np; k++) {
			p = name[k]; m = cnt[p]
			for (i = 0; i < m; i++) s[i] = val[p, i]
			# median by insertion sort (pools are small)
			for (i = 1; i < m; i++) { x = s[i]; for (j = i; j > 0 && s[j-1] > x; j--) s[j] = s[j-1]; s[j] = x }
			med = m % 2 ? s[(m-1)/2] : (s[m/2-1] + s[m/2]) / 2
			sum = 0; ss = 0
			for (i = 0; i < m; i++) { d = val[p, i] - med; sum += d; ss += d * d }
			sd = sqrt((ss - sum * sum / m) / (m - 1))
			f = (scale == "native" || sd == 0) ? 1 : 0.03 / sd
			for (i = 0; i < m; i++) r[p, i] = (val[p, i] - med) * f
		}
		srand(seed)
		print "pv-format\t1"
		levels = mode == "sys" ? 4 : 1
		for (t = 0; t < keys; t++) {
			p = name[t % np]
			u = rand()
			# plant: 10 % of the tests; sys: 10 % all levels, 10 % one
			kind[t] = mode == "aa" ? 0 : mode == "all" ? 1 : u < 0.1 ? 1 : (mode == "sys" && u < 0.2) ? 2 : 0
			one[t] = 1 + int(rand() * levels)
			pool[t] = p
		}
		for (side = 0; side < 2; side++) {
			printf "section\t%s\t%s\tsim\n", side ? "target" : "baseline", side ? "B" : "A"
			for (t = 0; t < keys; t++) for (l = 1; l <= levels; l++) for (run = 1; run <= n; run++) {
				f = 1
				if (side && (kind[t] == 1 || (kind[t] == 2 && l == one[t]))) f = 1 - eff
				printf "sample\t%s\tt%d-k%d\top\tops\tops/s\thigher\t%d\t%d\t-\t%.9g\n", pool[t], t, kind[t], l, run, 1000 * f * exp(pick(pool[t]))
			}
		}
	}' "$T/pools.$7" - < /dev/null
}

classify() {
	pv-stat | pv-diff | { pv-classify -f any || [ $? -eq 1 ]; }
}

# rate CLASS KIND: share of verdicts of tests of KIND that are CLASS
rate() {
	awk -F'\t' -v c="$1" -v k="$2" '$1 == "verdict" && $6 ~ "-k" k "$" {
		n++; if ($12 == c) x++ } END { printf "%.3f", n ? x / n : 0 }' "$T/v"
}

fail=0
printf '%-14s %2s | %-7s %-7s %-7s | %-5s %-5s %-5s %-5s | %-5s %-5s %-5s\n' \
	"" "" "A/A" "" "" "10% of" "keys" "planted" "" "every" "key" "planted"
printf '%-14s %2s | %-7s %-7s %-7s | %-5s %-5s %-5s %-5s | %-5s %-5s %-5s\n' noise n \
	"reg" "imp" "unc" "2%" "5%" "10%" "FDR" "2%" "5%" "10%"
seed=1
for pools in corpus local; do
[ -s "$T/pools.$pools" ] || continue
for scale in cv3 native; do
	for n in 5 10; do
		gen $n $scale 0 aa $seed 2000 $pools | classify > "$T/v"
		aa=$(rate regression 0)
		ai=$(rate improvement 0)
		au=$(rate uncertain 0)
		line=$(printf '%-14s %2s | %-7s %-7s %-7s |' $pools-$scale $n "$aa" "$ai" "$au")
		fd_num=0 fd_den=0
		for e in 0.02 0.05 0.10; do
			seed=$((seed + 1))
			gen $n $scale $e plant $seed 2000 $pools | classify > "$T/v"
			p=$(rate regression 1)
			line="$line $(printf '%-5s' "$p")"
			set -- $(awk -F'\t' '$1 == "verdict" && $12 == "regression" {
				d++; if ($6 !~ /-k1$/) f++ } END { print f + 0, d + 0 }' "$T/v")
			fd_num=$((fd_num + $1)) fd_den=$((fd_den + $2))
		done
		fdr=$(awk -v a=$fd_num -v b=$fd_den 'BEGIN { printf "%.3f", b ? a / b : 0 }')
		line="$line $(printf '%-5s' "$fdr") |"
		for e in 0.02 0.05 0.10; do
			seed=$((seed + 1))
			gen $n $scale $e all $seed 1000 $pools | classify > "$T/v"
			p=$(rate regression 1)
			line="$line $(printf '%-5s' "$p")"
			eval "p_${e#0.}=\$p"
		done
		printf '%s\n' "$line"
		seed=$((seed + 1))
		if awk -v a="$aa" 'BEGIN { exit !(a > 0.01) }'; then
			echo "MISSED: A/A false Regression $aa > 0.01 ($scale, n=$n)"
			fail=1
		fi
		if [ $pools-$scale = corpus-cv3 ] && [ $n = 5 ] &&
		   awk -v p="$p_10" 'BEGIN { exit !(p < 0.95) }'; then
			echo "MISSED: 10% found $p_10 < 0.95 at n=5"
			fail=1
		fi
		if [ $pools-$scale = corpus-cv3 ] && [ $n = 10 ] &&
		   awk -v p="$p_05" 'BEGIN { exit !(p < 0.90) }'; then
			echo "MISSED: 5% found $p_05 < 0.90 at n=10"
			fail=1
		fi
	done
done
done

echo
printf 'systematic (4 levels, 5%% planted)   | all-level flagged | one-level flagged | none flagged\n'
for n in 5 10; do
	gen $n cv3 0.05 sys $seed 500 corpus | classify > "$T/v"
	seed=$((seed + 1))
	awk -F'\t' -v n=$n '
	$1 == "verdict" { split($6, a, "-k"); kind[$5 " " $6] = a[2] }
	$1 == "systematic" { flag[$5 " " $6] = 1 }
	END {
		for (t in kind) { tot[kind[t]]++; if (t in flag) f[kind[t]]++ }
		printf "corpus-cv3 n=%-2s                     | %-17.3f | %-17.3f | %.3f\n", n,
			f[1] / tot[1], f[2] / tot[2], f[0] / tot[0]
	}' "$T/v"
done
exit $fail
