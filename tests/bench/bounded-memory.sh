#!/bin/sh
# tests/bench/bounded-memory.sh: pv-parse's memory stays bounded on a
# large capture.  A `perf script` capture of about 2 GiB
# ($PV_BENCH_MEM_MIB, default 2048) holding 50,000 distinct stacks of 12
# frames is made by repeating a generated 50,000-sample part, in a temp
# dir ($TMPDIR); pv-parse folds it and its peak resident memory (GNU
# time's %M) must stay under 100 MB ($PV_BENCH_MEM_LIMIT_KB, default
# 102400).  The anchor is pv-parse on the part alone (one copy): the ratio
# of the two peaks shows memory not growing with the input's length.
set -eu
LC_ALL=C
export LC_ALL
here=$(cd "$(dirname "$0")" && pwd)
top_builddir=${top_builddir:-$(cd "$here/../.." && pwd)}
bin=$top_builddir/tools
mib=${PV_BENCH_MEM_MIB:-2048}
limit=${PV_BENCH_MEM_LIMIT_KB:-102400}
[ -x /usr/bin/time ] || { echo "bench: GNU time (/usr/bin/time) is needed" >&2; exit 77; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/pv-bench-mem.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# the part: 50,000 samples, each a distinct stack (a distinct leaf under
# one of 100 distinct paths of 10 shared frames)
awk 'BEGIN {
	for (i = 0; i < 50000; i++) {
		printf "worker %d/%d [%03d] %d.%06d: 250000 cycles:\n",
		       1000 + i % 7, 1000 + i % 7, i % 64, 1000 + i, i
		printf "\t    ffffffff8%07x leaf_function_number_%d+0x%x ([kernel.kallsyms])\n",
		       i, i, i % 4096
		for (k = 9; k >= 0; k--)
			printf "\t    ffffffff8%07x subsystem_%d_layer_%d_handler+0x%x ([kernel.kallsyms])\n",
			       k * 4096, int(i / 500), k, k * 16
		printf "\t    00007f0000001000 main+0x10 (/usr/bin/worker)\n\n"
	}
}' >"$dir/part"
part=$(wc -c <"$dir/part")
copies=$(( (mib * 1048576 + part - 1) / part ))
i=0
while [ "$i" -lt "$copies" ]; do
	cat "$dir/part"
	i=$((i + 1))
done >"$dir/capture"
size=$(wc -c <"$dir/capture")
echo "capture: $((size / 1048576)) MiB ($copies copies of a $((part / 1024)) KiB part), 50000 distinct stacks"

# run NAME FILE: pv-parse FILE; prints and sets rss (KB) and secs
run() {
	/usr/bin/time -f '%M %e' -o "$dir/time" "$bin/pv-parse" "$2" \
		>"$dir/out.$1"
	read -r rss secs <"$dir/time"
	stacks=$(grep -c '^stack' "$dir/out.$1")
	printf '%-8s %8d KB peak RSS  %7s s  %d stacks\n' "$1" "$rss" "$secs" \
		"$stacks"
}

run part "$dir/part"
rss_part=$rss
run capture "$dir/capture"
[ "$stacks" -eq 50000 ] || { echo "FAIL: $stacks stacks, expected 50000"; exit 1; }
echo "ratio of peaks (capture / part): $(echo "scale=2; $rss / $rss_part" | bc)"
if [ "$rss" -ge "$limit" ]; then
	echo "FAIL: peak RSS $rss KB on the capture, limit $limit KB"
	exit 1
fi
echo "ok: peak RSS $rss KB < $limit KB"
