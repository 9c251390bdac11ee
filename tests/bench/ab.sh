#!/bin/sh
# tests/bench/ab.sh: the same work by two builds of the tools, in turns.
#
# usage: tests/bench/ab.sh OLD [NEW]
#
# OLD and NEW are directories that hold pv-parse, pv-stat, pv-diff,
# pv-classify and pv-render (NEW defaults to this tree's tools/): a
# build of the commit before a change and one of the change, to tell
# whether the change made the tools slower.  Four rows, the workloads of
# tests/bench/parse.sh, pv-diff-stacks.sh and speed.sh:
#
#   parse           pv-parse of a `perf script` capture, ten times
#   parse-render    the same piped into pv-render --format=folded
#   pv-diff-stacks  pv-diff of two profiles of 50,000 distinct stacks,
#                   ten times
#   speed100k       pv-stat | pv-diff | pv-classify of 100,000 keys of
#                   10 runs a side (speed.sh's night)
#
# Each figure is CPU seconds (user + system) of the row's commands, the
# best of $AB_RUNS (5) rounds; in each round every row runs on both,
# OLD first in one round and NEW first in the next, so that a change of
# the machine's load falls on both.
# The ratio NEW/OLD is what to read: on a shared or virtual machine the
# seconds drift from run to run, the ratio much less.
#
# The capture is $PV_BENCH_DIR/capture.txt (default /tmp/pv-bench), as
# parse.sh records it; the row is skipped when there is none.  Exits 0,
# or 2 when a directory lacks a tool or a command fails.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
runs=${AB_RUNS:-5}

usage() {
	echo "usage: tests/bench/ab.sh OLD [NEW]" >&2
	exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
old=$(cd "$1" && pwd) || usage
new=$(cd "${2:-$top_builddir/tools}" && pwd) || usage
for d in "$old" "$new"; do
	for t in pv-parse pv-stat pv-diff pv-classify pv-render; do
		[ -x "$d/$t" ] || { echo "ab.sh: no $d/$t" >&2; exit 2; }
	done
done
command -v /usr/bin/time >/dev/null 2>&1 ||
	{ echo "ab.sh: GNU time (Debian package 'time') is needed" >&2; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/pv-ab.XXXXXX")
trap 'rm -rf "$T"' EXIT
trap 'exit 2' HUP INT TERM

# the inputs, made once: speed.sh's night and pv-diff-stacks.sh's pair
awk -v keys=100000 -f "$top_srcdir/tests/bench/gen-speed.awk" >"$T/100k.pv"
awk -v n=50000 -v seed=1 -f "$top_srcdir/tests/bench/gen-stacks.awk" |
	sort >"$T/base"
awk -v mode=target -v n=50000 -v seed=2 \
	-f "$top_srcdir/tests/bench/gen-stacks.awk" "$T/base" | sort >"$T/target"
capture=${PV_BENCH_DIR:-/tmp/pv-bench}/capture.txt
rows="pv-diff-stacks speed100k"
if [ -s "$capture" ]; then
	rows="parse parse-render $rows"
else
	echo "ab.sh: no $capture (tests/bench/parse.sh records one):" \
		"parse rows skipped" >&2
fi

# the commands of row $1 with the tools of directory $2
script() {
	case $1 in
	parse)
		echo 'for i in 1 2 3 4 5 6 7 8 9 10; do
			"$B/pv-parse" "$C" || exit 2; done' ;;
	parse-render)
		echo 'for i in 1 2 3 4 5 6 7 8 9 10; do
			{ "$B/pv-parse" "$C" || echo > "$T/failed"; } |
			"$B/pv-render" --format=folded || exit 2
			[ ! -e "$T/failed" ] || exit 2; done' ;;
	pv-diff-stacks)
		echo 'i=0; while [ $i -lt 10 ]; do
			"$B/pv-diff" "$T/base" "$T/target"
			[ $? -le 1 ] || exit 2; i=$((i + 1)); done; exit 0' ;;
	speed100k)
		# each stage's status (1: found) noted, as sh has no pipefail
		echo 'rm -f "$T/failed"
			{ "$B/pv-stat" "$T/100k.pv" || echo > "$T/failed"; } |
			{ "$B/pv-diff"; [ $? -le 1 ] || echo > "$T/failed"; } |
			{ "$B/pv-classify"; [ $? -le 1 ] || echo > "$T/failed"; }
			[ ! -e "$T/failed" ]' ;;
	esac
}

# cpu ROW SIDE DIR: one timed run; keeps the least in $T/best.ROW.SIDE
cpu() {
	if ! B=$3 C=$capture T=$T /usr/bin/time -f '%U %S' -o "$T/time" \
	    sh -c "$(script "$1")" >/dev/null; then
		echo "ab.sh: the $1 row failed with $3's tools" >&2
		exit 2
	fi
	c=$(awk '{ printf "%.3f", $1 + $2 }' "$T/time")
	f=$T/best.$1.$2
	if [ ! -s "$f" ] || awk -v a="$c" -v b="$(cat "$f")" \
	    'BEGIN { exit !(a < b) }'; then
		echo "$c" >"$f"
	fi
}

r=0
while [ $r -lt "$runs" ]; do
	for row in $rows; do
		if [ $((r % 2)) = 0 ]; then
			cpu "$row" old "$old"
			cpu "$row" new "$new"
		else
			cpu "$row" new "$new"
			cpu "$row" old "$old"
		fi
	done
	r=$((r + 1))
done
printf 'load average: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'OLD %s\nNEW %s\n' "$old" "$new"
printf 'CPU seconds (user + system), best of %s rounds in turns\n' "$runs"
printf '%-16s %8s %8s %9s\n' row OLD NEW NEW/OLD
for row in $rows; do
	a=$(cat "$T/best.$row.old") b=$(cat "$T/best.$row.new")
	awk -v n="$row" -v a="$a" -v b="$b" 'BEGIN {
		printf "%-16s %8.3f %8.3f %9.3f\n", n, a, b, (a > 0 ? b / a : 0) }'
done
