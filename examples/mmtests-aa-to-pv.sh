#!/bin/sh
# mmtests-aa-to-pv.sh CORPUS/mmtests-aa KERNEL ROLE [FACTOR]: the script
# that made the examples' mmtests-aa.pv and mmtests-planted.pv from the
# A/A MMTests results of the shared corpus, kept to say how they were made.
# It was written before pv-parse read MMTests trees; pv-parse reads such a
# tree itself now (pv-parse CORPUS/mmtests-aa/work/log, pv-bench(7)), with
# the benchmarks' own readers, and is what to use.  Here each mmtests
# iteration and inner repetition is a run; will-it-scale's per-second
# values keep their SEQ.  FACTOR (default 1) multiplies every value: 0.9
# plants a 10 % regression in higher-is-better metrics.
set -eu
dir=$1 kernel=$2 role=$3 factor=${4:-1}
printf 'section\t%s\t%s\tmmtests-aa\n' "$role" "$kernel"
printf 'meta\tparam.stressng-timeout\t3s\n'
printf 'meta\tparam.sysbench-max-prime\t25000\n'
printf 'meta\tparam.wis-duration\t5\n'
for it in 0 1 2; do
	d=$dir/work/log/$kernel/iter-$it
	for l in 1 2; do
		awk -v l=$l -v r=$((it + 1)) -v f="$factor" '/^min:/ {
			split($3, a, ":"); s++
			printf "sample\twill-it-scale\tfutex1\tprocesses\tops\tops/s\thigher\t%s\t%s\t%d\t%.10g\n", l, r, s, a[2] * f }' \
			"$d/wis-futex/logs/benchlog-futex1_processes-$l"
		for rep in 1 2 3; do
			awk -v l=$l -v r=$((it * 3 + rep)) -v f="$factor" '$4 == "futex" && $5 ~ /^[0-9]/ {
				printf "sample\tstress-ng\tfutex\tfutex\tbogo-ops-per-second-real-time\tops/s\thigher\t%s\t%s\t-\t%.10g\n", l, r, $9 * f }' \
				"$d/stressng/logs/stressng-$l-$rep.log"
			awk -v l=$l -v r=$((it * 3 + rep)) -v f="$factor" '/events per second:/ {
				printf "sample\tsysbench\tcpu\tcpu\tevents-per-second\tevents/s\thigher\t%s\t%s\t-\t%.10g\n", l, r, $4 * f }' \
				"$d/sysbenchcpu/logs/benchlog-$l-_-$rep"
		done
	done
done
