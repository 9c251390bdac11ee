#!/bin/sh
# Benchmark: the slowdown of a sampled program under pv-collect --profile
# and under perf record -g, at the same frequency.
#
# The program is tests/tools/pv-collect-hot (CPU-bound, frame pointers);
# it reports its own elapsed and CPU time (user + system), so what is
# measured is what the sampled program experiences, not the start and end
# of either sampler (perf writing and post-processing its file,
# pv-collect naming frames at the end).  Modes are interleaved in rounds
# so that drift of a shared machine hits them alike; the figures are
# medians over the rounds and their ratios to the unsampled run.
#
# Usage: pv-collect-overhead.sh [ROUNDS [HZ ...]]  (default 5, 999 3999)
# Columns: elapsed and cpu, the program's own medians (seconds); all-cpu,
# the CPU time of the whole command, sampler included; then each as a
# slowdown against the unsampled program.  On a machine shared with other
# work the elapsed time mostly measures the others (it is reported, not
# judged); the CPU times do not.
# Exit status: 0 when, at every frequency, pv-collect's median slowdowns
# of the program's CPU time and of the whole command's CPU time are no
# worse than perf record -g's plus the noise of a median (2.5 robust CVs
# of the unsampled CPU time times sqrt(2/rounds), at least 2 percentage
# points); 1 otherwise; 77 when sampling or perf is not available.
set -u
LC_ALL=C
export LC_ALL
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
COLLECT=$top_builddir/tools/pv-collect
HOT=$top_builddir/tests/tools/pv-collect-hot
ROUNDS=${1:-5}
[ $# -gt 0 ] && shift
FREQS=${*:-999 3999}
WORK=${PV_BENCH_WORK:-100}	# rounds of the hot program: about 1 s CPU

if [ ! -x "$COLLECT" ] || [ ! -x "$HOT" ]; then
	echo "build first: make && make check" >&2
	exit 2
fi
command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf" >&2; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-bench.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
"$COLLECT" -p -r 1 -o "$T/probe" -- true 2>"$T/err" || {
	echo "SKIP: $(cat "$T/err")" >&2; exit 77; }

# measure MODE ERRFILE CMD...: run CMD (the program's stderr, with its
# own times, in ERRFILE, or in the artifact pv-collect keeps) and append
# "MODE elapsed cpu total" to $T/all, total being the CPU time of CMD and
# everything it waited for (the sampler and the program), from times(1).
measure() {
	mode=$1 err=$2
	shift 2
	sh -c '"$@" >/dev/null 2>"$0" || exit 2; times' "$err" "$@" \
		>"$T/times" || { cat "$err" >&2; exit 2; }
	[ -f "$err" ] && [ -s "$err" ] || err=$(echo "$T"/art/*-run-001.stderr)
	total=$(sed -n 2p "$T/times" | awk '{
		t = 0
		for (i = 1; i <= 2; i++) {
			split($i, p, "m"); sub(/s$/, "", p[2]); t += p[1] * 60 + p[2]
		}
		print t }')
	sed -n "s/^elapsed \([0-9.]*\) cpu \([0-9.]*\)$/$mode \1 \2 $total/p" \
		"$err" >>"$T/all"
}

: >"$T/all"
r=0
while [ $r -lt "$ROUNDS" ]; do
	measure base "$T/base.err" "$HOT" "$WORK" -t
	for f in $FREQS; do
		rm -rf "$T/art" "$T/pv.err"
		measure "pv-$f" "$T/pv.err" "$COLLECT" -p --frequency="$f" \
			-r 1 -a "$T/art" -o "$T/pv.out" -- "$HOT" "$WORK" -t
		measure "perf-$f" "$T/perf.err" perf record -q -g -F "$f" \
			-o "$T/perf.data" -- "$HOT" "$WORK" -t
	done
	r=$((r + 1))
done

# medians by mode; slowdowns against the unsampled program
sort -k1,1 "$T/all" | awk -v freqs="$FREQS" '
{ m = $1; k = ++n[m]; e[m, k] = $2; c[m, k] = $3; t[m, k] = $4 }
function median(a, m, k,   i, j, v, x) {
	for (i = 1; i <= k; i++) v[i] = a[m, i]
	for (i = 2; i <= k; i++)	# insertion sort
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			x = v[j]; v[j] = v[j - 1]; v[j - 1] = x }
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
END {
	be = median(e, "base", n["base"]); bc = median(c, "base", n["base"])
	# the noise of a median of n runs: the robust CV of the base CPU
	# times (MAD * 1.4826 / median); two medians differ by about
	# 1.25 * cv * sqrt(2 / n) by chance alone: allow twice that, at
	# least 2 percentage points
	for (i = 1; i <= n["base"]; i++) {
		x = c["base", i] - bc; dev["base", i] = x < 0 ? -x : x }
	rcv = 1.4826 * median(dev, "base", n["base"]) / bc
	tol = 2.5 * rcv * sqrt(2 / n["base"]); if (tol < 0.02) tol = 0.02
	printf "%-10s %4s %9s %9s %9s %9s %9s %9s\n", "mode", "runs",
		"elapsed", "cpu", "all-cpu", "elapsed+", "cpu+", "all-cpu+"
	printf "%-10s %4d %9.4f %9.4f %9s %9s %9s %9s\n", "base",
		n["base"], be, bc, "-", "-", "-", "-"
	split(freqs, f, " "); bad = 0
	for (i = 1; f[i] != ""; i++) {
		for (k = 0; k < 2; k++) {
			m = (k ? "perf-" : "pv-") f[i]
			me = median(e, m, n[m]); mc = median(c, m, n[m])
			mt = median(t, m, n[m])
			se[k] = me / be - 1; sc[k] = mc / bc - 1
			st[k] = mt / bc - 1
			printf "%-10s %4d %9.4f %9.4f %9.4f %8.1f%% %8.1f%% " \
				"%8.1f%%\n", m, n[m], me, mc, mt, 100 * se[k],
				100 * sc[k], 100 * st[k]
		}
		ok = sc[0] <= sc[1] + tol && st[0] <= st[1] + tol
		verdict = ok ? "ok" : "WORSE"
		if (verdict != "ok") bad = 1
		printf "at %s Hz: program CPU %+.1f%% vs %+.1f%%, " \
			"with the sampler %+.1f%% vs %+.1f%%, elapsed %+.1f%% " \
			"vs %+.1f%% (pv-collect vs perf record -g): %s\n",
			f[i], 100 * sc[0], 100 * sc[1], 100 * st[0],
			100 * st[1], 100 * se[0], 100 * se[1], verdict
	}
	printf "tolerance %.1f percentage points (robust CV of the base " \
		"CPU time %.1f%%, %d rounds)\n", 100 * tol, 100 * rcv, n["base"]
	exit bad
}'
