#!/bin/sh
# tests/bench/parse.sh: speed and memory of pv-parse on a large capture.
#
# usage: tests/bench/parse.sh [CAPTURE]
#
# CAPTURE is `perf script` text (plain or .gz).  Without one, the script
# records one here: `perf record -g -a` of a busy workload (compilers,
# file system walks, compression), converted with `perf script`, kept in
# $PV_BENCH_DIR (default /tmp/pv-bench) for the next run.
#
# Reported for each command: wall time (best of $PV_BENCH_RUNS, default
# 3) and peak resident memory, then the ratios to the floor, `cat FILE |
# wc -l`, the cost of only reading the bytes through a pipe.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-$(cd "$here/../.." && pwd)}
bin=$top_builddir/tools
dir=${PV_BENCH_DIR:-/tmp/pv-bench}
runs=${PV_BENCH_RUNS:-3}
mkdir -p "$dir"

capture=${1:-$dir/capture.txt}
if [ ! -s "$capture" ]; then
	command -v perf >/dev/null || { echo "bench: perf is needed to record a capture" >&2; exit 77; }
	echo "recording a capture in $dir (about two minutes)..." >&2
	src=$dir/src
	rm -rf "$src"
	mkdir -p "$src"
	cp -r "$here/../../lib" "$src/"
	# the workload: compile, walk, compress, in a loop on every CPU
	cat >"$dir/workload.sh" <<'WL'
#!/bin/sh
end=$(( $(date +%s) + $1 ))
i=0
while [ "$(date +%s)" -lt "$end" ]; do
	for f in "$2"/lib/*.c; do
		gcc -O2 -I"$2"/lib -I"$2" -c "$f" -o /dev/null 2>/dev/null || true
	done
	find /usr/share -type f 2>/dev/null | head -3000 | xargs cat 2>/dev/null | gzip -1 >/dev/null
	i=$((i + 1))
done
WL
	touch "$src/config.h"
	perf record -q -g -a -F 4999 -o "$dir/perf.data" -- \
		sh -c "sh '$dir/workload.sh' 75 '$src' & sh '$dir/workload.sh' 75 '$src' & wait" \
		>/dev/null 2>&1
	perf script -i "$dir/perf.data" --header >"$capture" 2>/dev/null
fi

size=$(wc -c <"$capture")
echo "capture: $capture ($((size / 1048576)) MiB, $(wc -l <"$capture") lines)"

# measure NAME CMD: best wall time and peak RSS of a shell command
measure() {
	name=$1
	shift
	best=
	rss=0
	i=0
	while [ "$i" -lt "$runs" ]; do
		/usr/bin/time -f '%e %M %U %S' -o "$dir/time" sh -c "$*" >/dev/null
		read -r t m u sy <"$dir/time"
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then
			best=$t
		fi
		[ "$m" -gt "$rss" ] && rss=$m
		i=$((i + 1))
	done
	printf '%-44s %7.2f s %8d KiB  (cpu %s s user, %s s sys)\n' \
		"$name" "$best" "$rss" "$u" "$sy"
}

floor=$(
	best=
	i=0
	while [ "$i" -lt "$runs" ]; do
		s=$(date +%s.%N)
		cat "$capture" | wc -l >/dev/null
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
		i=$((i + 1))
	done
	echo "$best")
printf '%-44s %7.2f s\n' "cat FILE | wc -l (floor)" "$floor"
measure "pv-parse FILE >/dev/null" "$bin/pv-parse '$capture'"
parse=$best
parse_rss=$rss
measure "pv-parse FILE | pv-render --format=folded" \
	"$bin/pv-parse '$capture' | $bin/pv-render --format=folded"
both=$best
stacks=$("$bin/pv-parse" "$capture" | grep -c '^stack')
# start-up: the mean of 200 runs of --version, against /bin/true (the
# cost of creating a process here, which no tool can go below)
startup() {
	s=$(date +%s%N)
	i=0
	while [ "$i" -lt 200 ]; do
		"$@" >/dev/null
		i=$((i + 1))
	done
	e=$(date +%s%N)
	echo "($e - $s) / 200000000" | bc -l
}
st_tool=$(startup "$bin/pv-parse" --version)
st_true=$(startup /bin/true)
printf '%-44s %7.3f ms  (/bin/true: %.3f ms, difference %.3f ms)\n' \
	"pv-parse --version (mean of 200)" "$st_tool" "$st_true" \
	"$(echo "$st_tool - $st_true" | bc -l)"
echo "distinct stacks: $stacks"
printf 'pv-parse / floor: %.2f   pipeline / floor: %.2f\n' \
	"$(echo "$parse / $floor" | bc -l)" "$(echo "$both / $floor" | bc -l)"
printf 'pv-parse peak RSS: %d KiB for %d distinct stacks\n' "$parse_rss" "$stacks"
