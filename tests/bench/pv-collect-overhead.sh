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
# Exit status: 0 when pv-collect's median slowdown is no worse than
# perf's plus 2 percentage points at every frequency, 1 otherwise, 77
# when sampling or perf is not available.
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

[ -x "$COLLECT" ] && [ -x "$HOT" ] || {
	echo "build first: make && make check" >&2; exit 2; }
command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf" >&2; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-bench.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
"$COLLECT" -p -r 1 -o "$T/probe" -- true 2>"$T/err" || {
	echo "SKIP: $(cat "$T/err")" >&2; exit 77; }

# one run: append "MODE elapsed cpu" to $T/all, from the program's stderr
# (file $1); pv-collect keeps it as the run's artifact
record_times() {
	sed -n "s/^elapsed \([0-9.]*\) cpu \([0-9.]*\)$/$2 \1 \2/p" "$1" \
		>>"$T/all"
}

: >"$T/all"
r=0
while [ $r -lt "$ROUNDS" ]; do
	"$HOT" "$WORK" -t >/dev/null 2>"$T/base.err" || exit 2
	record_times "$T/base.err" base
	for f in $FREQS; do
		rm -rf "$T/art"
		"$COLLECT" -p --frequency="$f" -r 1 -a "$T/art" \
			-o "$T/pv.out" -- "$HOT" "$WORK" -t || exit 2
		record_times "$T"/art/*-run-001.stderr "pv-$f"
		perf record -q -g -F "$f" -o "$T/perf.data" \
			-- "$HOT" "$WORK" -t >/dev/null 2>"$T/perf.err" || {
			cat "$T/perf.err" >&2; exit 2; }
		record_times "$T/perf.err" "perf-$f"
	done
	r=$((r + 1))
done

# medians by mode; slowdowns against base
sort -k1,1 -k2,2n "$T/all" | awk -v freqs="$FREQS" '
{ e[$1, ++n[$1]] = $2; c[$1, n[$1]] = $3 }
function median(a, m, k,   i, j, v, t) {
	for (i = 1; i <= k; i++) v[i] = a[m, i]
	for (i = 2; i <= k; i++)	# insertion sort
		for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
}
END {
	be = median(e, "base", n["base"]); bc = median(c, "base", n["base"])
	printf "%-10s %6s %10s %10s %9s %9s\n", "mode", "runs",
		"elapsed", "cpu", "slowdown", "cpu-slow"
	printf "%-10s %6d %10.4f %10.4f %9s %9s\n", "base", n["base"], be,
		bc, "-", "-"
	split(freqs, f, " "); bad = 0
	for (i = 1; f[i] != ""; i++) {
		for (k = 0; k < 2; k++) {
			m = (k ? "perf-" : "pv-") f[i]
			me = median(e, m, n[m]); mc = median(c, m, n[m])
			s[k] = me / be - 1
			printf "%-10s %6d %10.4f %10.4f %8.2f%% %8.2f%%\n", m,
				n[m], me, mc, 100 * s[k], 100 * (mc / bc - 1)
		}
		verdict = s[0] <= s[1] + 0.02 ? "ok" : "WORSE"
		if (verdict != "ok") bad = 1
		printf "at %s Hz: pv-collect %+.2f%%, perf record -g %+.2f%%: %s\n",
			f[i], 100 * s[0], 100 * s[1], verdict
	}
	exit bad
}'
