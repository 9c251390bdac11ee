#!/bin/sh
# mmtests-aa-to-pv.sh CORPUS/mmtests-aa KERNEL ROLE [FACTOR]: the A/A MMTests
# results of the shared corpus as pv records, read by pv-parse's MMTests
# reader: an mmtests iteration is one run (its start time and order in a
# runstart record), its inner repetitions and will-it-scale's per-second
# values the run's SEQ, each test's primary metric named in a primary
# record (pv-bench(7)).  FACTOR (default 1) makes the primary metrics'
# values FACTOR times as good: 0.8 plants a 20 % regression in each test's
# primary metric.  Made the examples' mmtests-aa.pv (aa-1 baseline, aa-2
# target) and mmtests-planted.pv (the same, the target's FACTOR 0.8).
set -eu
dir=$1 kernel=$2 role=$3 factor=${4:-1}
pv-parse --role="$role" --subject="$kernel" --experiment=mmtests-aa \
	"$dir/work/log/$kernel" |
	awk -v f="$factor" 'BEGIN { FS = OFS = "\t" }
		$1 == "primary" { p[$2 FS $3 FS $4 FS $5] = 1 }
		$1 == "sample" && f != 1 && (($2 FS $3 FS $4 FS $5) in p) {
			$11 = sprintf("%.10g", $7 == "higher" ? $11 * f : $11 / f)
		}
		{ print }'
