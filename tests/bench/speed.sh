#!/bin/sh
# tests/bench/speed.sh: 100,000 comparisons of 10 runs a side through
# pv-stat | pv-diff | pv-classify, against the same work in a NumPy/SciPy
# loop (tests/bench/speed_scipy.py) measured in the same run.  The SciPy
# loop takes minutes for 100,000, so both are also timed on the first
# 10,000 comparisons and the ratio is taken there.  Times are wall clock
# and CPU (user + system) of the whole pipeline, best of three: the three
# tools run side by side and pv-diff computes on one thread per CPU, so
# the wall time (the target) is below the CPU time on an idle machine; on
# a loaded one both grow, and the load average is printed beside them.
# Exits 1 when the 100,000 comparisons take more than 3 s of wall time.
set -eu
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
PATH=$top_builddir/tools:$PATH
LC_ALL=C
export PATH LC_ALL
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-speed.XXXXXX")
trap 'rm -rf "$T"' EXIT

gen() {
	awk -v keys="$1" -f "$top_srcdir/tests/bench/gen-speed.awk"
}

cpu_of() {
	# wall and CPU seconds (user + system) of a command and its
	# children, best of $TRIES (3) by wall time
	best=
	for i in $(seq "${TRIES:-3}"); do
		/usr/bin/time -f '%e %U %S' -o "$T/time" "$@" > /dev/null
		got=$(awk '{ printf "%.2f %.2f", $1, $2 + $3 }' "$T/time")
		if [ -z "$best" ] || awk -v a="${got%% *}" -v b="${best%% *}" \
		    'BEGIN { exit !(a < b) }'; then
			best=$got
		fi
	done
	printf '%s' "$best"
}

gen 100000 > "$T/100k.pv"
gen 10000 > "$T/10k.pv"
[ -x /usr/bin/time ] || { echo "speed.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }

set -- $(cpu_of sh -c 'pv-stat "$1" | pv-diff | pv-classify > /dev/null; exit 0' sh "$T/100k.pv")
w100=$1 c100=$2
set -- $(cpu_of sh -c 'pv-stat "$1" | pv-diff | pv-classify > /dev/null; exit 0' sh "$T/10k.pv")
w10=$1 c10=$2
if /usr/bin/python3 -c 'import scipy' 2> /dev/null; then
	set -- $(TRIES=1 cpu_of /usr/bin/python3 "$top_srcdir/tests/bench/speed_scipy.py" "$T/10k.pv")
	ws=$1 cs=$2
else
	ws=- cs=-
fi
printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %8s %8s\n' "" "wall s" "cpu s"
printf '%-44s %8s %8s\n' "pv pipeline, 100,000 comparisons (n=10)" "$w100" "$c100"
printf '%-44s %8s %8s\n' "pv pipeline, 10,000 comparisons" "$w10" "$c10"
printf '%-44s %8s %8s\n' "SciPy loop (anchor), 10,000 comparisons" "$ws" "$cs"
if [ "$cs" != - ]; then
	awk -v a="$cs" -v b="$c10" -v c="$ws" -v d="$w10" 'BEGIN {
		printf "SciPy / pv: %.1fx CPU, %.1fx wall (10,000 comparisons)\n", a / b, c / d }'
fi
awk -v w="$w100" 'BEGIN { exit !(w > 3) }' && { echo "MISSED: 100,000 comparisons took $w100 s (> 3 s)"; exit 1; }
exit 0
