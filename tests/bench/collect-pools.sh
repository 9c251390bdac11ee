#!/bin/sh
# collect-pools.sh [RUNS] [DIR]: the local noise pools of
# tests/bench/verdict.sh, collected with pv-collect itself: sysbench cpu
# and memory, stress-ng futex (1 s and 3 s runs), switch and pipe, at
# levels 1 and 2, RUNS (default 30) runs of each level, the levels
# interleaved.  Each pool is one pv stream, DIR/pool-NAME.pv, with the
# load average before and after as meta records: the machine is shared,
# and its load is part of the noise these pools hold.  Of the env records
# only the kernel release and the CPU and memory sizes are kept.
set -eu
runs=${1:-30}
dir=${2:-$(dirname "$0")/data}
load() { cut -d' ' -f1-3 /proc/loadavg; }
collect() {
	name=$1
	shift
	before=$(load)
	pv-collect -r "$runs" -c 1,2 --experiment="pool-$name" \
	    --label=local --role=baseline --meta=loadavg-before="$before" \
	    "$@" > "$dir/pool-$name.tmp"
	after=$(load)
	awk -F'\t' -v a="$after" '
	$1 == "env" && $2 !~ /^(kernel-release|machine|cpu-model|cpu-cores|cpu-threads|memory-gib)$/ { next }
	{ print }
	/^meta\tloadavg-before\t/ { print "meta\tloadavg-after\t" a }' \
	    "$dir/pool-$name.tmp" > "$dir/pool-$name.pv"
	rm -f "$dir/pool-$name.tmp"
}
collect sysbench-cpu --parser=sysbench -- \
    sysbench cpu --threads={N} --time=1 run
collect sysbench-memory --parser=sysbench -- \
    sysbench memory --threads={N} --time=1 --memory-total-size=100G run
for s in futex switch pipe; do
	collect stress-ng-$s --parser=stress-ng -- \
	    stress-ng --$s {N} --timeout 1s --metrics-brief
done
collect stress-ng-futex-3s --parser=stress-ng -- \
    stress-ng --futex {N} --timeout 3s --metrics-brief
