#!/bin/sh
# tests/bench/series.sh: how well pv-series finds where a series of
# versions changed, side by side with Apache Otava, and how fast.
#
# Noise pools are real repeated measurements, as tests/bench/verdict.sh
# takes them: tests/bench/data/noise-local.tsv and series-local.tsv
# (sysbench and stress-ng run 40 times each on the build machine by
# tests/bench/collect-noise.sh, at two times of a day the machine was
# shared: runs starved at random, so these pools are bimodal) and the
# corpus's will-it-scale and MMTests A/A outputs (per-second values of
# 3 to 6 repetitions).  Each pool becomes log residuals about its median,
# rescaled to a CV of 2 % (the issue's setting; the pool's shape, skew,
# outliers and modes, kept).  A key is a series of V versions of 5 runs
# drawn from one pool, with one of: nothing (the null), a step of -2, -5
# or -10 % at a version drawn from the middle half, one version 5 or 10 %
# slower (an outlier), a drift of -0.5 % a version; and, "nested", the
# null and a -5 % step where each version draws its runs from one
# repetition of a corpus pool, so that versions differ by more than their
# runs, as versions measured on different boots do.  KEYS keys (default
# 200; three times as many for the null rows) of each kind for V = 12,
# 30 and 100 go through pv-series (runval records; as it is, and with -t
# 0, no magnitude floor) and through Otava's core (otava/analysis.py,
# from PV_OTAVA, run by tests/bench/series_otava.py with Debian's
# python3-numpy and python3-scipy) with the issue's settings:
# compute_change_points(..., window_len=50, max_pvalue=0.001,
# min_magnitude=0.02) on the per-version means ("means") and on all runs
# in order ("runs"), and compute_change_points_orig(..., max_pvalue=0.001,
# seed=1) on the means ("orig", which has no magnitude floor: it is set
# against pv-series -t 0).
#
# The table: for steps, the recall and precision of the change's version
# (the first version after it), exactly and within one version; for
# outliers, the share of keys with a change point within one version of
# the outlier (wrong: it is no change) and, for pv, the share found as an
# outlier; for drifts, the share found as a trend (pv) and the change
# points per key (wrong); for the null, the false change points (and pv's
# outliers and trends) per 100 keys.
#
# Speed: 10,000 keys of 100 versions of 5 runs as runval records (5 M
# lines) through pv-series, then a 101st version added with --state;
# Otava on the same work (the means of every key, then one version more
# with new_data=1 and the weak change points of before), in CPU seconds
# (the machine may be shared).
#
# Without PV_OTAVA (a checkout of apache/otava) the comparison is skipped,
# and said so.  Exits 1 when a target of issue 16 is missed: "pv at least
# matches Otava's recall at no more false change points": on every step
# row and for every Otava method, pv-series at its most sensitive setting
# whose false change points on the null row of the same length and noise
# are no more than the method's (along -p 0.0001 to 0.1, then the same with
# -t 0) must not find significantly fewer of the planted changes, exactly
# or within one version (a one-sided paired sign test at 5 % on the keys
# where the two differ); the whole series in under 4 s and the 101st
# version in under 0.3 s of CPU, both at least 10 times faster than
# Otava.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
PATH=$top_builddir/tools:$PATH
LC_ALL=C
export PATH LC_ALL
corpus=${PV_CORPUS:-$top_srcdir/../../shared/corpus/bench}
[ -d "$corpus" ] || corpus=/work/shared/corpus/bench
keys=${KEYS:-200}
# pv-series's default -p, and the others tried for the comparison at
# Otava's rate of false change points
default_p=0.005
alphas="0.0001 0.0005 0.001 0.002 0.005 0.01 0.02 0.05 0.1"
methods="pv pv0"
for p in $alphas; do
	[ "$p" = "$default_p" ] || methods="$methods pv@$p pv0@$p"
done
python=${PV_PYTHON:-/usr/bin/python3}
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-series.XXXXXX")
trap 'rm -rf "$T"' EXIT

otava=
if [ -n "${PV_OTAVA:-}" ] && [ -f "$PV_OTAVA/otava/analysis.py" ]; then
	if PYTHONPATH=$PV_OTAVA "$python" -c 'import otava.analysis' \
	    2> /dev/null; then
		otava=$PV_OTAVA
		methods="$methods means runs orig"
	else
		echo "series.sh: Otava at $PV_OTAVA does not import with" \
			"$python (python3-numpy, python3-scipy?): no comparison"
	fi
else
	echo "series.sh: PV_OTAVA is not set to a checkout of apache/otava:" \
		"the comparison with Otava is skipped"
fi

# pools: "POOL REP VALUE" lines; a REP is what was measured at once (a
# will-it-scale or MMTests run of per-second values), a local run its own
for f in noise-local series-local; do
	[ -f "$top_srcdir/tests/bench/data/$f.tsv" ] || continue
	awk -F'\t' -v s="$f" '{ print s "-" $1 "-" $2 "-" $4, NR, $6 }' \
		"$top_srcdir/tests/bench/data/$f.tsv"
done > "$T/pools"
if [ -d "$corpus/will-it-scale" ]; then
	for f in "$corpus"/will-it-scale/*-r[0-9].out; do
		b=$(basename "$f" .out)
		awk -v p="wis-${b%-r*}" -v r="$b" '/^measurement/ { m = 1; next }
			m && /^min:/ { split($3, a, ":"); print p, r, a[2] }' "$f"
	done >> "$T/pools"
fi
if [ -d "$corpus/mmtests-aa/work/log" ]; then
	for f in "$corpus"/mmtests-aa/work/log/aa-*/iter-*/wis-futex/logs/benchlog-*; do
		awk -v p="mmtests-${f##*benchlog-}" -v r="$f" '/^min:/ {
			split($3, a, ":"); print p, r, a[2] }' "$f"
	done >> "$T/pools"
fi
echo "pools: $(cut -d' ' -f1 "$T/pools" | sort -u | wc -l)" \
	"of real runs ($(wc -l < "$T/pools") values)"

# gen V KIND EFFECT SEED KEYS: series.pv (runval records), values.tsv
# (KEY VERSION RUN VALUE, for Otava), truth.tsv (KEY KIND EFFECT VERSION).
# KIND none, step, outlier, drift: a version's 5 runs drawn from all the
# pool's values; nested-none, nested-step: from one REP of it, drawn for
# the version (pools of REPs of 3 values or more only): the versions then
# differ by more than their runs, as versions measured on different days
# or boots do.
gen() {
	awk -v V="$1" -v kind="$2" -v eff="$3" -v seed="$4" -v keys="$5" \
	    -v dir="$T" '
	function pick(p, rep,   i) {
		if (rep == "") { i = int(rand() * cnt[p]); return r[p, i] }
		i = int(rand() * rcnt[p, rep]); return rv[p, rep, i]
	}
	{
		v = log($3); p = $1
		if (!(p in cnt)) { name[np++] = p; cnt[p] = 0 }
		if (!((p, $2) in rcnt)) { rname[p, nrep[p]++] = $2; rcnt[p, $2] = 0 }
		rep[p, cnt[p]] = $2
		val[p, cnt[p]++] = v
	}
	END {
		for (k = 0; k < np; k++) {
			p = name[k]; m = cnt[p]
			for (i = 0; i < m; i++) s[i] = val[p, i]
			for (i = 1; i < m; i++) { x = s[i]; for (j = i; j > 0 && s[j-1] > x; j--) s[j] = s[j-1]; s[j] = x }
			med = m % 2 ? s[(m-1)/2] : (s[m/2-1] + s[m/2]) / 2
			sum = 0; ss = 0
			for (i = 0; i < m; i++) { d = val[p, i] - med; sum += d; ss += d * d }
			sd = sqrt((ss - sum * sum / m) / (m - 1))
			f = sd == 0 ? 1 : 0.02 / sd
			for (i = 0; i < m; i++) {
				r[p, i] = (val[p, i] - med) * f
				q = rep[p, i]; rv[p, q, rcnt[p, q]++] = r[p, i]
			}
			# nested draws: pools of several REPs of 3 values or more
			ok = nrep[p] >= 2
			for (j = 0; j < nrep[p]; j++) if (rcnt[p, rname[p, j]] < 3) ok = 0
			if (ok) nest[nn++] = p
		}
		nested = kind ~ /^nested-/
		base = kind; sub(/^nested-/, "", base)
		srand(seed)
		pv = dir "/series.pv"; vt = dir "/values.tsv"; tt = dir "/truth.tsv"
		printf "" > vt; printf "" > tt
		print "pv-format\t1" > pv
		lo = int(V / 4); if (lo < 2) lo = 2
		for (t = 0; t < keys; t++) {
			pos[t] = base == "none" || base == "drift" ? -1 : lo + int(rand() * (V - 2 * lo + 1))
			pool[t] = nested ? nest[t % nn] : name[t % np]
			printf "k%d\t%s\t%s\t%d\n", t, kind, eff, pos[t] > tt
		}
		for (v = 0; v < V; v++) {
			printf "section\t-\tv%03d\tsim\n", v > pv
			for (t = 0; t < keys; t++) {
				f = 0
				if (base == "step" && v >= pos[t]) f = log(1 - eff)
				if (base == "outlier" && v == pos[t]) f = log(1 - eff)
				if (base == "drift") f = v * log(0.995)
				q = ""
				if (nested) { p = pool[t]; q = rname[p, int(rand() * nrep[p])] }
				for (run = 1; run <= 5; run++) {
					x = 1000 * exp(f + pick(pool[t], q))
					printf "runval\t-\tv%03d\tsim\tbench\tk%d\top\tops\tops/s\thigher\t-\t%d\t1\t%.9g\n", v, t, run, x > pv
					printf "k%d %d %d %.9g\n", t, v, run, x > vt
				}
			}
		}
	}' "$T/pools"
}

# detections: "KEY METHOD TYPE VERSION" for pv (changepoint: the version
# after it; outlier: the version; trend: -1) and Otava (type change)
detect() {
	: > "$T/det"
	# pv as it is ("pv", "pv0" with -t 0), and at other -p, for the
	# comparison at Otava's rate of false change points
	for p in $alphas; do
		for t in pv pv0; do
			o="-p $p"; [ $t = pv0 ] && o="$o -t 0"
			m=$t@$p
			[ "$p" = "$default_p" ] && m=$t
			{ pv-series $o "$T/series.pv" || [ $? -eq 1 ]; } |
			    awk -F'\t' -v m=$m '
			$1 == "changepoint" { sub(/^v/, "", $11); print $4, m, "change", $11 + 0 }
			$1 == "outlier" { sub(/^v/, "", $10); print $4, m, "outlier", $10 + 0 }
			$1 == "trend" { print $4, m, "trend", -1 }' >> "$T/det"
		done
	done
	if [ -n "$otava" ]; then
		PYTHONPATH=$otava "$python" \
			"$top_srcdir/tests/bench/series_otava.py" \
			"$T/values.tsv" "$T/otava.out"
		awk '$1 != "time" { print $1, $2, "change", $3 }' \
			"$T/otava.out" >> "$T/det"
	fi
}

# score ROW: per key and method, "ROW METHOD KEY EXACT WITHIN CPS
# OUTLIER TREND": a change point at the planted version (exactly, within
# one), the change points, an outlier at the planted version, a trend
score() {
	awk -v row="$1" '
	NR == FNR { pos[$1] = $4; key[n++] = $1; next }
	{
		k = $1; m = $2
		if (!(m in seen)) { seen[m] = 1; ms[nm++] = m }
		if ($3 == "trend") { tr[m, k] = 1; next }
		if ($3 == "outlier") { if ($4 == pos[k]) ol[m, k] = 1; next }
		d = $4 - pos[k]; if (d < 0) d = -d
		cps[m, k]++
		if (d == 0) ex[m, k] = 1
		if (d <= 1) wi[m, k] = 1
	}
	END {
		# every method a line per key, found something or not
		nm = split(methods, ms, " ")
		for (i = 1; i <= nm; i++) for (j = 0; j < n; j++) {
			m = ms[i]; k = key[j]
			print row, m, k, ex[m, k] + 0, wi[m, k] + 0, cps[m, k] + 0, ol[m, k] + 0, tr[m, k] + 0
		}
	}' methods="$methods" "$T/truth.tsv" "$T/det" >> "$T/keys"
}

fail=0
: > "$T/keys"
seed=1
for V in 12 30 100; do
	for cell in "none 0" "step 0.02" "step 0.05" "step 0.10" \
	    "outlier 0.05" "outlier 0.10" "drift 0.005" "nested-none 0" \
	    "nested-step 0.05"; do
		set -- $cell
		n=$keys
		case $1 in *none) n=$((3 * keys)) ;; esac
		gen "$V" "$1" "$2" "$seed" "$n"
		seed=$((seed + 1))
		detect
		score "$V:$1:$2"
		echo "done: V=$V $1 $2 ($n keys)"
	done
done

# the table (pv-series as it is), then the targets: for each Otava method
# and step row, pv-series at its most sensitive setting on the path -p
# 0.0001 ... 0.1 with the 2 % floor, then the same with -t 0, whose false
# change points on the null row of the same length and noise are no more
# than the method's, must not find significantly fewer of the planted
# changes, exactly or within one version (a one-sided paired sign test at
# 5 % on the keys where the two differ)
awk -v otava="$otava" -v alphas="$alphas" -v default_p="$default_p" '
function tail(b, n,   x, t) {	# P(X >= b), X ~ Binomial(n, 1/2)
	if (b <= 0) return 1
	t = 0
	for (x = b; x <= n; x++)
		t += exp(lf[n] - lf[x] - lf[n - x] - n * log(2))
	return t
}
{
	split($1, r, ":"); row = $1; m = $2; k = $3
	if (!(row in seen)) { seen[row] = 1; rows[++nr] = row; V[row] = r[1]; kind[row] = r[2]; eff[row] = r[3] }
	if (!((row, m) in nk)) nk[row, m] = 0
	nk[row, m]++
	EX[row, m] += $4; WI[row, m] += $5; CP[row, m] += $6; OL[row, m] += $7; TR[row, m] += $8
	e[row, m, k] = $4; w[row, m, k] = $5
	keys[row, nk[row, m]] = k
}
function paired(row, m, o, what,   j, k, b, c, x, y) {
	b = c = 0
	for (j = 1; j <= nk[row, m]; j++) {
		k = keys[row, j]
		if (what == "exact") { x = e[row, m, k]; y = e[row, o, k] }
		else { x = w[row, m, k]; y = w[row, o, k] }
		if (y && !x) b++
		if (x && !y) c++
	}
	return tail(b, b + c)
}
function variant(f, p) { return p == default_p ? f : f "@" p }
END {
	lf[0] = 0; for (i = 1; i <= 10000; i++) lf[i] = lf[i - 1] + log(i)
	n = split(otava != "" ? "pv pv0 means runs orig" : "pv pv0", ms, " ")
	hdr = sprintf("%4s %-8s", "V", "")
	for (i = 1; i <= n; i++) hdr = hdr sprintf(" | %-22s", ms[i] == "pv" ? "pv-series" : ms[i] == "pv0" ? "pv-series -t 0" : "otava-" ms[i])
	print "\nSteps: recall exact / within one version; precision exact / within one"
	print hdr
	for (q = 1; q <= nr; q++) { row = rows[q]; if (kind[row] !~ /step/) continue
		printf "%4s %-8s", V[row], (kind[row] ~ /nested/ ? "nest " : "") 100 * eff[row] "%"
		for (i = 1; i <= n; i++) { m = ms[i]; N = nk[row, m]
			printf " | %.2f %.2f  %.2f %.2f  ", EX[row, m] / N, WI[row, m] / N, CP[row, m] ? EX[row, m] / CP[row, m] : 1, CP[row, m] ? WI[row, m] / CP[row, m] : 1 }
		printf "\n" }
	print "\nOutliers: keys with a change point within one version of it (wrong); pv: found as an outlier"
	for (q = 1; q <= nr; q++) { row = rows[q]; if (kind[row] != "outlier") continue
		printf "%4s %-8s", V[row], 100 * eff[row] "%"
		for (i = 1; i <= n; i++) { m = ms[i]; N = nk[row, m]
			printf " | %.2f", WI[row, m] / N; if (m ~ /^pv/) printf " (outlier %.2f)", OL[row, m] / N; else printf "%16s", "" }
		printf "\n" }
	print "\nDrift -0.5 %/version: pv found as a trend; change points per key (wrong)"
	for (q = 1; q <= nr; q++) { row = rows[q]; if (kind[row] != "drift") continue
		printf "%4s %-8s", V[row], ""
		for (i = 1; i <= n; i++) { m = ms[i]; N = nk[row, m]
			if (m ~ /^pv/) printf " | trend %.2f, %.2f   ", TR[row, m] / N, CP[row, m] / N; else printf " | %-22.2f", CP[row, m] / N }
		printf "\n" }
	print "\nNull: false change points per 100 keys (pv: outliers and trends per 100 keys)"
	for (q = 1; q <= nr; q++) { row = rows[q]; if (kind[row] !~ /none/) continue
		printf "%4s %-8s", V[row], kind[row] ~ /nested/ ? "nested" : "iid"
		for (i = 1; i <= n; i++) { m = ms[i]; N = nk[row, m]
			printf " | %.1f", 100 * CP[row, m] / N; if (m ~ /^pv/) printf " (%.1f, %.1f)", 100 * OL[row, m] / N, 100 * TR[row, m] / N; else printf "%12s", "" }
		printf "\n" }
	if (otava == "") exit 0
	na = split(alphas, al, " ")
	print "\nAt no more false change points than Otava: pv-series at its most"
	print "sensitive -p (then -t 0) whose false change points per 100 null keys"
	print "are at most Otava'\''s"
	printf "%4s %-8s %-6s | %-14s %-11s | %-11s %-11s | %s\n", "V", "", "otava", "pv -p", "false/100", "recall pv", "otava", "sign test p"
	bad = 0
	for (q = 1; q <= nr; q++) { row = rows[q]; if (kind[row] !~ /step/) continue
		null = V[row] ":" (kind[row] ~ /nested/ ? "nested-none" : "none") ":0"
		for (i = 3; i <= n; i++) { o = ms[i]
			fo = CP[null, o] / nk[null, o]
			# the path from the least to the most sensitive: -p up
			# with the floor, then -p up without it (-t 0)
			pick = ""
			for (j = 1; j <= 2 * na; j++) {
				f = j <= na ? "pv" : "pv0"; pp = al[j <= na ? j : j - na]
				c = variant(f, pp)
				if (CP[null, c] / nk[null, c] <= fo) { pick = c; pa = pp; pf = f } }
			f = pf
			label = sprintf("%4s %-8s %-6s", V[row], (kind[row] ~ /nested/ ? "nest " : "") 100 * eff[row] "%", o)
			if (pick == "") {
				printf "%s | more false change points at every -p (%.1f at %s, otava %.1f)\n", label, 100 * CP[null, "pv"] / nk[null, "pv"], default_p, 100 * fo
				printf "MISSED: V=%s %s %s: pv has more false change points than otava-%s\n", V[row], kind[row], eff[row], o
				bad = 1; continue }
			pe = paired(row, pick, o, "exact"); pw = paired(row, pick, o, "within")
			printf "%s | %-14s %4.1f %5.1f | %.2f %.2f   %.2f %.2f   | %.3f %.3f\n", label, (f == "pv0" ? "-t 0 " : "") "-p " pa, 100 * CP[null, pick] / nk[null, pick], 100 * fo, EX[row, pick] / nk[row, pick], WI[row, pick] / nk[row, pick], EX[row, o] / nk[row, o], WI[row, o] / nk[row, o], pe, pw
			if (pe < 0.05 || pw < 0.05) {
				printf "MISSED: V=%s %s %s: pv finds fewer than otava-%s (sign test p %.3f, %.3f)\n", V[row], kind[row], eff[row], o, pe, pw
				bad = 1 }
		} }
	exit bad
}' "$T/keys" || fail=1

# speed: 10,000 keys x 100 versions x 5 runs, then one version more
awk -v dir="$T" 'BEGIN { srand(7)
	print "pv-format\t1" > (dir "/big.pv")
	print "pv-format\t1" > (dir "/new.pv")
	for (v = 1; v <= 101; v++) {
		f = dir (v <= 100 ? "/big.pv" : "/new.pv")
		printf "section\t-\tv%03d\tsim\n", v > f
		for (k = 0; k < 10000; k++) for (r = 1; r <= 5; r++)
			printf "runval\t-\tv%03d\tsim\tbench\tt%d\top\tops\tops/s\thigher\t%d\t%d\t1\t%.6g\n", v, int(k / 4), k % 4 + 1, r, 1000 * (1 + 0.04 * (rand() - 0.5)) * (k % 10 == 0 && v > 60 ? 0.95 : 1) > f
	} }'
lines=$(wc -l < "$T/big.pv")
cpu() { /usr/bin/time -f '%e %U %S %M' -o "$T/time" "$@"; }
cpu pv-series "$T/big.pv" > /dev/null || [ $? -eq 1 ]
set -- $(cat "$T/time")
full=$(echo "$2 + $3" | bc)
printf '\nSpeed: %s lines (10,000 keys x 100 versions x 5 runs): pv-series %.2f s CPU (%.2f s wall, %d MB)\n' \
	"$lines" "$full" "$1" "$(($4 / 1024))"
cpu pv-series --state="$T/state" "$T/big.pv" > /dev/null || [ $? -eq 1 ]
cpu pv-series --state="$T/state" "$T/new.pv" > /dev/null || [ $? -eq 1 ]
set -- $(cat "$T/time")
inc=$(echo "$2 + $3" | bc)
printf 'the 101st version with --state (%s lines, state %d kB): %.2f s CPU (%.2f s wall)\n' \
	"$(wc -l < "$T/new.pv")" "$(($(wc -c < "$T/state") / 1024))" "$inc" "$1"
awk -v f="$full" -v i="$inc" 'BEGIN { exit !(f < 4 && i < 0.3) }' || {
	echo "MISSED: the targets are 4 s and 0.3 s"; fail=1; }
if [ -n "$otava" ]; then
	PYTHONPATH=$otava "$python" "$top_srcdir/tests/bench/series_otava.py" \
		--speed "$T/big.pv" "$T/new.pv" > "$T/ospeed"
	cat "$T/ospeed"
	awk -v f="$full" -v i="$inc" '$1 == "otava-full" { of = $2 }
		$1 == "otava-add" { oi = $2 }
		END { printf "ratio: %.0fx (whole series), %.0fx (one version more)\n", of / f, oi / i
			exit !(of >= 10 * f && oi >= 10 * i) }' "$T/ospeed" || {
		echo "MISSED: pv-series is not 10 times faster than Otava"
		fail=1; }
fi
exit $fail
